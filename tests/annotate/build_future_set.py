"""Build ``future_text_dev.jsonl``: reasoning texts on real episodes, labelled hindsight / clean.

Hindsight texts name, the ways models leak it, a label that first appears on a later screen (the next page's
title, a dialog's button, a result row): reported as fact, in the present tense, as an expectation that names the
exact text, in Chinese and English. Clean texts are the template backend's items and rewrites that name only the
current screen, earlier screens, the goal and typed text.

    python tests/annotate/build_future_set.py OUT_EPISODES RUN[:SHARE] ... > tests/annotate/future_text_dev.jsonl

Records name their episode (``episode_id``) and step (``index``); the episodes, reduced to what the check reads,
are appended once to ``OUT_EPISODES`` (``tests/annotate/future_episodes.jsonl``).
"""
from __future__ import annotations

import hashlib
import json
import sys

from labelled_sets import run_spec, written_ids
from sftdata.model import Episode
from sftdata.checks.calls import element_label, normalize
from sftdata.checks.screen_text import screen_texts, visible_elements


def pick(options, key):
    return options[int(hashlib.sha256(key.encode()).hexdigest()[:8], 16) % len(options)]


def compact(ep: Episode) -> dict:
    d = ep.to_dict()
    for step, sd in zip(ep.steps, d["steps"]):
        shown = visible_elements(step)
        sd["elements"] = [{k: v for k, v in e.to_dict().items() if k not in ("class_name", "resource_id", "package",
                                                                            "depth", "window")}
                          for e in shown if element_label(e)]
        sd.pop("meta", None)
        sd.pop("instruction", None)
    d.pop("meta", None)
    return d


def new_labels(ep: Episode, i: int) -> list[str]:
    """Labels of the next screen that no screen up to ``i`` shows and the goal does not hold."""
    if i + 1 >= len(ep.steps):
        return []
    known = [normalize(ep.goal)] + [t for s in ep.steps[:i + 1] for t in screen_texts(s)]
    out = []
    for e in visible_elements(ep.steps[i + 1]):
        label = element_label(e).strip()
        n = normalize(label)
        if (3 <= len(label) <= 20 and not any(n in k for k in known) and any(ch.isalpha() for ch in label)
                and label not in out):
            out.append(label)
    return out


def current_labels(ep: Episode, i: int) -> list[str]:
    return [element_label(e).strip() for e in visible_elements(ep.steps[i]) if 2 <= len(element_label(e).strip()) <= 20]


LEAKS_ZH = ["点击之后，“{L}”就出来了。", "这一步点下去，页面顶部会出现“{L}”。", "页面切换到了“{L}”。", "“{L}”弹窗已经显示在屏幕上。",
            "操作完成后可以看到“{L}”列表。", "{L}页面随之打开。", "接着屏幕上就有了“{L}”这一项。", "点一下就能进入“{L}”。"]
LEAKS_EN = ["After this tap the “{L}” screen is shown.", "This brings up “{L}”.", "The page now lists “{L}”.",
            "Next we'll land on “{L}”.", "You can see “{L}” once it loads."]
CLEAN_ZH = ["当前屏幕上有“{C}”，先点击它。", "屏幕中可以看到“{C}”，这正是需要的入口。", "之前的页面上出现过“{P}”，现在要在“{C}”中继续。",
            "任务要求的内容在“{C}”里，所以操作它。"]
CLEAN_EN = ["The screen shows “{C}”, which is the entry I need.", "I can see “{C}” here, so I'll use it."]


def main(episodes_path: str, runs: list[str]) -> None:
    written = written_ids(episodes_path, "id")
    out_eps = open(episodes_path, "a", encoding="utf-8")
    n = 0
    for spec in runs:
        run, keep = run_spec(spec)
        tag = run.rstrip("/").rsplit("/", 1)[-1]
        eps = {d["id"]: Episode.from_dict(d) for d in map(json.loads, open(f"{run}/episodes.jsonl", encoding="utf-8"))}
        for line in open(f"{run}/annotations.jsonl", encoding="utf-8"):
            a = json.loads(line)
            ep = eps.get(a["id"])
            if ep is None:
                continue
            used = False
            for i, item in enumerate(a["items"]):
                key = f"{ep.id}:{i}"
                if int(hashlib.sha256(key.encode()).hexdigest()[:8], 16) / 0xFFFFFFFF >= keep:
                    continue
                rows = [("zh", item["reasoning"], "clean", "template")]
                if item.get("observation"):
                    rows.append(("zh", item["observation"], "clean", "template"))
                news, cur = new_labels(ep, i), current_labels(ep, i)
                earlier = [t for s in ep.steps[:i] for t in current_labels(ep, s.index)] or cur
                if news:
                    L = pick(news, key + "L")
                    rows.append(("zh", item["reasoning"] + pick(LEAKS_ZH, key + "z").format(L=L), "hindsight", "leak"))
                    rows.append(("en", pick(LEAKS_EN, key + "e").format(L=L), "hindsight", "leak"))
                if cur:
                    C, P = pick(cur, key + "C"), pick(earlier, key + "P")
                    rows.append(("zh", pick(CLEAN_ZH, key + "c").format(C=C, P=P), "clean", "rewrite"))
                    rows.append(("en", pick(CLEAN_EN, key + "ce").format(C=C), "clean", "rewrite"))
                for lang, text, label, origin in rows:
                    rid = hashlib.sha256(f"{key}:{text}".encode()).hexdigest()[:12]
                    print(json.dumps({"id": rid, "lang": lang, "text": text, "label": label, "origin": origin,
                                      "episode_id": f"{tag}/{ep.id}", "index": i}, ensure_ascii=False))
                    n += 1
                used = True
            if used and f"{tag}/{ep.id}" not in written:
                out_eps.write(json.dumps({**compact(ep), "id": f"{tag}/{ep.id}"}, ensure_ascii=False) + "\n")
                written.add(f"{tag}/{ep.id}")
    print(f"{n} records", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
