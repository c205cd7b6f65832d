"""Build ``agreement_dev.jsonl``: (reasoning, call, step) pairs labelled aligned / contradicts.

Aligned pairs are real items (the template backend's, over the runs given) and LLM-style rewrites of them with
distractors that must pass: history with other verbs, conditional alternatives, screen descriptions naming other
labels, plans for later steps. Contradictions are made the ways they happen: the decision sentence replaced by one
with another verb, the other direction (finger and view confused too), another visible element's label, other
typed text, another app, "the task is complete" before the end, and a done that decides another action.

    python tests/annotate/build_agreement_set.py OUT_STEPS RUN[:SHARE] ... > tests/annotate/agreement_dev.jsonl

Each record names its step (``step_id``); the steps are written once to ``OUT_STEPS`` (appended when it exists,
so several sets share one file: ``tests/annotate/agreement_steps.jsonl``).

``SHARE`` keeps that share of a run's steps. Deterministic for the same runs (choices by a hash of the episode id and step index).
"""
from __future__ import annotations

import hashlib
import json
import re
import sys

from labelled_sets import run_spec, written_ids
from sftdata.model import Episode, Step
from sftdata.checks.calls import element_label
from sftdata.checks.screen_text import visible_elements

_DECISION_SPLIT = re.compile(r"(?<=[。！？])")
_ZH_DIR = {"up": "上", "down": "下", "left": "左", "right": "右"}
_OPP = {"up": "down", "down": "up", "left": "right", "right": "left"}


def pick(options, key):
    return options[int(hashlib.sha256(key.encode()).hexdigest()[:8], 16) % len(options)]


def compact_step(step: Step) -> dict:
    """The step with only the elements a check reads (visible ones, and those under the point)."""
    d = step.to_dict()
    point = step.action.point
    under = {id(e) for e in step.elements if point and e.contains(point)}
    keep = [e for e in step.elements if id(e) in under or (e in visible_elements(step) and element_label(e))]
    d["elements"] = [{k: v for k, v in e.to_dict().items() if k not in ("class_name", "resource_id", "package", "depth",
                                                                         "window")} for e in keep]
    d.pop("meta", None)
    d.pop("instruction", None)
    return d


def others(step: Step) -> list[str]:
    point = step.action.point
    own = {element_label(e) for e in step.elements if point and e.contains(point)}
    out = []
    for e in visible_elements(step):
        label = element_label(e).strip()
        if (2 <= len(label) <= 14 and label not in own and not (point and e.contains(point))
                and not any(label in o or o in label for o in own if o) and label not in out):
            out.append(label)
    return out


def lead(reasoning: str) -> str:
    """The reasoning without its last sentence (the decision)."""
    parts = [p for p in _DECISION_SPLIT.split(reasoning) if p.strip()]
    return "".join(parts[:-1]) if len(parts) > 1 else ""


def aligned_variants(ep: Episode, i: int, item: dict) -> list[tuple[str, str, str]]:
    """(lang, text, origin) LLM-style aligned rewrites with distractors."""
    step, fn = ep.steps[i], item["function"]
    key = f"{ep.id}:{i}"
    t = step.action.type
    label = None
    m = re.search(r"“([^”]+)”", fn.get("parameters", {}).get("target_element", "") or "")
    if m:
        label = m.group(1)
    other = others(step)
    o = pick(other, key + "o") if other else "设置"
    out = []
    if t in ("click", "long_press") and label:
        verb = "点击" if t == "click" else "长按"
        en = "tap" if t == "click" else "long-press"
        out += [
            ("zh", pick([f"上一步已经向下滑动了页面，现在“{label}”就在屏幕上，所以{verb}它。",
                         f"如果找不到目标就需要向下滑动，不过“{label}”已经出现在屏幕上，直接{verb}“{label}”。",
                         f"屏幕上有“{o}”和“{label}”等选项，任务需要的是“{label}”，因此{verb}“{label}”，之后再输入内容。",
                         f"页面还可以继续向下滚动，但没有必要，{verb}“{label}”即可推进任务。"], key), "rewrite-distractor"),
            ("en", pick([f"I scrolled down earlier and now “{label}” is visible, so I'll {en} “{label}”.",
                         f"The screen shows “{o}” and “{label}”. The task needs “{label}”, so I {en} it; then I will type the query.",
                         f"If “{label}” were missing I would swipe up, but it is right here, so let me {en} “{label}”."], key),
             "rewrite-distractor"),
        ]
    elif t == "swipe":
        d = step.action.direction or "up"
        out += [("zh", pick([f"目标内容还不在屏幕上，手指向{_ZH_DIR[d]}滑动。", f"刚才点击了“{o}”，现在需要向{_ZH_DIR[d]}滑动继续寻找。",
                             f"不需要点击“{o}”，先{_ZH_DIR[d]}滑浏览更多内容。"], key), "rewrite-distractor"),
                ("en", pick([f"What I need is not on screen yet, so I'll swipe {d}.",
                             f"I tapped “{o}” before; now I swipe {d} to keep looking."], key), "rewrite-distractor")]
    elif t == "input" and step.action.text:
        text = step.action.text
        out += [("zh", pick([f"刚才已经点击了搜索框，键盘已经弹出，现在输入“{text}”，然后再点击搜索。",
                             f"输入框已经激活，不必再点击“{o}”，直接输入“{text}”。"], key), "rewrite-distractor"),
                ("en", f"The field is focused after my earlier tap, so I type “{text}” and will then press search.",
                 "rewrite-distractor")]
    elif t == "done":
        out += [("zh", pick(["前面已经点击了保存并返回，界面显示的正是任务要求的结果，任务已经完成。",
                             "之前已经滑动并找到了目标，所有要求都已满足，结束任务。"], key), "rewrite-distractor"),
                ("en", "I already tapped Save and the screen shows the requested result, so the task is complete.",
                 "rewrite-distractor")]
    return out


def contradictions(ep: Episode, i: int, item: dict) -> list[tuple[str, str, str, str]]:
    """(lang, text, kind, origin) for one real item."""
    step, key = ep.steps[i], f"{ep.id}:{i}"
    t = step.action.type
    base = lead(item["reasoning"])
    other = others(step)
    o = pick(other, key + "o") if other else None
    out = []
    if t in ("click", "long_press", "input", "open_app", "back", "wait"):
        out.append(("zh", base + pick(["向下滚动页面，查看下方更多的选项。", "需要向上滑动，找到目标入口。",
                                       "当前列表没有目标，手指向左滑动切换到下一页。"], key + "v"), "verb", "perturbed"))
        out.append(("en", pick(["I'll scroll down to see more options.", "Nothing useful here, so let me swipe up."],
                               key + "ve"), "verb", "perturbed"))
    if t == "swipe":
        label = o or "搜索"
        out.append(("zh", base + pick([f"所以点击“{label}”。", f"接下来点击屏幕上的“{label}”按钮。",
                                       "在搜索框中输入“耳机”。"], key + "v"), "verb", "perturbed"))
        d = step.action.direction or "up"
        wrong = _OPP[d]
        out.append(("zh", base + pick([f"手指向{_ZH_DIR[wrong]}滑动，继续查看。", f"需要{_ZH_DIR[wrong]}滑页面。",
                                       f"所以向{_ZH_DIR[d]}滚动页面。"], key + "d"), "direction", "perturbed"))
        out.append(("en", pick([f"So I swipe {wrong} to keep browsing.", f"I will scroll {d} the list."], key + "de"),
                    "direction", "perturbed"))
    if t in ("click", "long_press") and o:
        verb = "点击" if t == "click" else "长按"
        out.append(("zh", base + pick([f"所以{verb}“{o}”。", f"接下来{verb}屏幕上的“{o}”。", f"任务需要{verb}“{o}”这一项。"],
                                      key + "t"), "target", "perturbed"))
        out.append(("en", pick([f"So I'll tap “{o}”.", f"The next action is to tap “{o}” on this screen."], key + "te"),
                    "target", "perturbed"))
    if t == "click":
        out.append(("zh", base + pick(["在输入框中输入“蓝牙耳机”。", "长按这一项，调出更多选项。", "按返回键回到上一页。"], key + "w"),
                    "verb", "perturbed"))
    if t == "input" and step.action.text:
        wrong = step.action.text[::-1] if len(set(step.action.text)) > 1 else step.action.text + "2"
        out.append(("zh", base + pick([f"现在输入“{wrong}”。", f"输入框已经激活，直接输入“{wrong}”。"], key + "x"), "text",
                    "perturbed"))
        out.append(("en", f"The field is active, so I type “{wrong}”.", "text", "perturbed"))
    if t == "open_app":
        wrong = pick(["微信", "Chrome", "Settings", "淘宝", "Gmail"], key + "a")
        if wrong != step.action.app:
            out.append(("zh", base + f"首先打开“{wrong}”应用。", "app", "perturbed"))
    if t != "done":
        out.append(("zh", (base or "") + pick(["界面已经符合要求，任务已经完成。", "所有要求都已满足，任务目标已经达成。"], key + "e"),
                    "early_done", "perturbed"))
    if t == "done":
        label = o or "保存"
        out.append(("zh", base + pick([f"还需要点击“{label}”保存设置。", "接下来向上滑动查看更多内容。"], key + "n"), "early_done",
                    "perturbed"))
        out.append(("en", f"One more thing: I'll tap “{label}” to save.", "early_done", "perturbed"))
    return out


def main(steps_path: str, runs: list[str]) -> None:
    n = 0
    written = written_ids(steps_path, "step_id")
    steps_out = open(steps_path, "a", encoding="utf-8")
    for spec in runs:
        run, keep = run_spec(spec)
        eps = {}
        for line in open(f"{run}/episodes.jsonl", encoding="utf-8"):
            d = json.loads(line)
            eps[d["id"]] = Episode.from_dict(d)
        for line in open(f"{run}/annotations.jsonl", encoding="utf-8"):
            a = json.loads(line)
            ep = eps.get(a["id"])
            if ep is None:
                continue
            for i, item in enumerate(a["items"]):
                if int(hashlib.sha256(f"{ep.id}:{i}".encode()).hexdigest()[:8], 16) / 0xFFFFFFFF >= keep:
                    continue
                step = ep.steps[i]
                platform = "web" if ep.web else "mobile"
                step_id = f"{run.rstrip('/').rsplit('/', 1)[-1]}:{ep.id}:{i}"
                if step_id not in written:
                    steps_out.write(json.dumps({"step_id": step_id, "step": compact_step(step)}, ensure_ascii=False) + "\n")
                    written.add(step_id)
                common = {"platform": platform, "step_id": step_id}
                rows = [("zh", item["reasoning"], "aligned", "aligned", "template")]
                rows += [(lang, text, "aligned", "aligned", origin) for lang, text, origin in aligned_variants(ep, i, item)]
                rows += [(lang, text, "contradicts", kind, origin) for lang, text, kind, origin in contradictions(ep, i, item)]
                for lang, text, label, kind, origin in rows:
                    n += 1
                    rid = hashlib.sha256(f"{ep.id}:{i}:{text}".encode()).hexdigest()[:12]
                    print(json.dumps({"id": rid, "lang": lang, "reasoning": text, "function": item["function"],
                                      "label": label, "kind": kind, "origin": origin, **common}, ensure_ascii=False))
    print(f"{n} records", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
