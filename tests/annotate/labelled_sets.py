"""What the labelled-set builders and benchmarks share: the ids already in a side file, a run spec, the sets."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Iterator


def written_ids(path: str, key: str) -> set[str]:
    """The ``key`` of every line already in ``path`` (empty when it does not exist yet)."""
    try:
        return {json.loads(line)[key] for line in open(path, encoding="utf-8")}
    except FileNotFoundError:
        return set()


def run_spec(spec: str) -> tuple[str, float]:
    """``RUN[:SHARE]`` -> (run, share of its steps to keep)."""
    run, _, share = spec.partition(":")
    return run, float(share or 1)


def labelled_sets(folder: Path, names: tuple[str, ...]) -> Iterator[tuple[str, list[dict] | None]]:
    """(name, records) for each set of ``names`` in ``folder``; records None for a set that is absent."""
    for name in names:
        path = folder / name
        if not path.exists():
            yield name, None
            continue
        yield name, [json.loads(line) for line in path.open(encoding="utf-8") if line.strip()]


PARTS = ("dev",) + tuple(f"heldout{n}" for n in ["", *range(2, 13)])  # the sets written before certify


def _call(step, web: bool) -> dict:
    """The ground truth's call for a step (a click's target named by its label, as an item would)."""
    from sftdata.checks.calls import TARGET_FUNCTIONS, element_label, expected_parameters, function_name, target_element
    name = function_name(step.action, web)
    params = dict(expected_parameters(step.action))
    element = target_element(step)
    if name in TARGET_FUNCTIONS:
        params["target_element"] = f"“{element_label(element)}”元素" if element is not None else "屏幕上的元素"
    return {"name": name, "parameters": params}


def certify_records(folder: Path, part: str, episodes: dict, steps: dict) -> list[dict] | None:
    """One part's labelled texts as certify cases: ``{id, part, lang, platform, label, text, function, episode,
    index}``; ``label`` aligned / contradicts (agreement sets and new parts), hindsight / clean (future-text sets).
    A part is ``dev``, ``heldoutN`` (``agreement_*`` and ``future_text_*``) or the name of a ``certify_*.jsonl``
    part. None when the part has no file."""
    from dataclasses import replace
    from sftdata.model import Episode
    names = ([f"certify_{part}.jsonl"] if (folder / f"certify_{part}.jsonl").exists()
             else [f"agreement_{part}.jsonl", f"future_text_{part}.jsonl"])
    out: list[dict] = []
    found = False
    for name in names:
        path = folder / name
        if not path.exists():
            continue
        found = True
        for n, r in enumerate(map(json.loads, filter(str.strip, path.open(encoding="utf-8")))):
            if "step_id" in r:
                tag, _, rest = r["step_id"].partition(":")
                eid, _, index = rest.rpartition(":")
                index = int(index)
                step = steps[r["step_id"]]
                episode = episodes.get(f"{tag}/{eid}")
                if episode is None:  # a step without its episode: the episode is that one step
                    web_step = any(e.tag or e.attrs for e in step.elements)
                    episode = Episode(r["step_id"], "steps", "(the goal is not recorded)", [replace(step, index=0)],
                                      platform="web" if web_step else "mobile")
                    index = 0
                else:
                    episode = replace(episode, steps=list(episode.steps))
                    episode.steps[index] = replace(step, index=index)
                text = r.get("reasoning", r.get("text"))
            else:
                episode, index, text = episodes[r["episode_id"]], r["index"], r["text"]
            web = episode.web or bool(episode.steps[index].url) or any(e.tag for e in episode.steps[index].elements)
            function = r.get("function") or _call(episode.steps[index], web)
            if function.get("name") in ("click", "long_press", "type", "select") and not (
                    function.get("parameters") or {}).get("target_element"):
                function = {**function, "parameters": {**_call(episode.steps[index], web)["parameters"],
                                                       **(function.get("parameters") or {})}}
            out.append({"id": r.get("id") or f"{part}#{n + 1}", "part": part, "lang": r.get("lang", "?"), "platform": "web" if web else "phone",
                        "label": r["label"], "kind": r.get("kind", ""), "text": text, "function": function,
                        "episode": episode, "index": index})
    return out if found else None
