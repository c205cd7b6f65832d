"""The blind-writing kit: unseen episodes for a new labelled part, and the listing a writer needs to write it.

    python tests/annotate/blind_listing.py PART --seed SEED [--phone 8] [--web 3] > listing-PART.md

generates ``--phone`` episodes of the synthetic phone (a new ``--seed``: new goals, screens, products and
wording) and ``--web`` Mind2Web-like web tasks of the same seed, appends their steps to the files the benchmarks
read (``tests/annotate/future_episodes.jsonl``, the episodes as ``PART/<id>``, and
``tests/annotate/agreement_steps.jsonl``, each step as ``PART:<id>:<index>``) and prints, per step: its
``step_id``, the goal, what was done before, the visible texts of the current screen and of the next one, the true
action and the call. The writer, who has read only ``docs/labelling-guide.md``, writes
``tests/annotate/certify_PART.jsonl`` (one JSON object a line: ``step_id``, ``lang``, ``text``, ``label``); then

    python benchmarks/certify.py PART --errors

measures it. A seed already used by an earlier part, or one that gives an episode an earlier part holds (the same
goal, actions and screens), is refused: its episodes would not be unseen. The generators' tasks are of a dozen
kinds; a new seed gives them new products, prices, names, times, photos and order. Nothing here reads the checks.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from build_agreement_set import compact_step
from build_future_set import compact
from labelled_sets import written_ids
from sftdata.checks.calls import element_label, expected_parameters, function_name, target_element
from sftdata.checks.screen_text import visible_elements
from sftdata.ingest import IngestOptions, ingest_androidcontrol
from sftdata.ingest.mind2web import ingest_mind2web
from sftdata.loaders.tfrecord import write_tfrecords
from sftdata.model import Episode, Step
from sftdata.rundir import RunDir
from sftdata.synthetic.mind2web import write_parquet
from sftdata.synthetic.sample import generate_records

HERE = Path(__file__).resolve().parent
EPISODES, STEPS = "future_episodes.jsonl", "agreement_steps.jsonl"  # in --into (default: this folder)
ROWS, COLS = ("top", "upper", "middle", "lower", "bottom"), ("left", "centre", "right")


def generate(seed: int, phone: int, web: int, tmp: Path) -> list[Episode]:
    """``phone`` synthetic phone episodes and ``web`` Mind2Web-like tasks of ``seed``, ingested as a run would."""
    run = RunDir(tmp / "run")
    if phone:
        write_tfrecords(tmp / "phone.tfrecord.gz", generate_records(phone, seed, (1080, 2400), 100000 + 1000 * seed))
        ingest_androidcontrol([tmp / "phone.tfrecord.gz"], run, IngestOptions(screen_change=False), progress=False)
    if web:
        write_parquet(tmp / "web.parquet", tasks=web, seed=seed, first_task=seed % 7)
        ingest_mind2web([tmp / "web.parquet"], run, IngestOptions(), progress=False)
    return list(run.episodes())


def where(step: Step, bounds) -> str:
    """A place on the screen in words (``top left``)."""
    w, h = max(step.screenshot.width, 1), max(step.screenshot.height, 1)
    x, y = (bounds[0] + bounds[2]) / 2 / w, (bounds[1] + bounds[3]) / 2 / h
    return f"{ROWS[min(4, int(y * 5))]} {COLS[min(2, int(x * 3))]}"


def screen(step: Step) -> list[str]:
    """The visible texts of a screen, top to bottom, with their place and kind (what a screenshot shows); the
    keys of an on-screen keyboard are said once."""
    out, keys = [], 0
    for e in sorted(visible_elements(step), key=lambda e: (e.bounds[1], e.bounds[0])):
        label = " ".join(element_label(e).split())
        if len(label) == 1 and not label.isdigit():
            keys += 1
            continue
        if not label:
            continue
        kind = e.tag or ("field" if e.has("editable") else "")
        extra = f", shows “{e.attr('value')}”" if e.attr("value") and e.attr("value") != label else ""
        out.append(f"“{label}” ({where(step, e.bounds)}{', ' + kind if kind else ''}{extra})")
    return out + (["a keyboard (letter keys) at the bottom"] if keys >= 10 else [])


def action_words(step: Step, web: bool) -> str:
    """The true action in plain words."""
    a = step.action
    target = target_element(step)
    name = f"“{' '.join(element_label(target).split())}” ({where(step, target.bounds)})" if target is not None else ""
    if a.type in ("click", "long_press"):
        verb = "tap" if a.type == "click" and not web else "click" if a.type == "click" else "long-press"
        return f"{verb} {name or f'the point {list(a.point or ())}'}"
    if a.type in ("input", "type"):
        return f"type “{a.text}”" + (f" into {name}" if name else "")
    if a.type == "select":
        return f"choose “{a.text}” in {name}"
    if a.type == "swipe":
        return f"swipe: the finger moves {a.direction} (the content moves {a.direction})"
    if a.type == "scroll":
        return f"scroll the page {a.direction} (the view moves {a.direction}: a finger would move the other way)"
    if a.type == "open_app":
        return f"open the app “{a.app}”"
    return {"back": "go back (the system back key)" if not web else "go back (the browser's back)",
            "home": "press the home key", "wait": "wait for the screen to load", "done": "finish: the task is done",
            "go_to_url": f"open the address {a.url}", "new_tab": f"open a new tab {a.url or ''}"}.get(a.type, a.type)


def call(step: Step, web: bool) -> dict:
    """The call an item carries for this step (its target named by the element's label)."""
    params = dict(expected_parameters(step.action))
    target = target_element(step)
    if target is not None and step.action.type in ("click", "long_press", "type", "select"):
        params = {"target_element": f"“{' '.join(element_label(target).split())}”", **params}
    return {"name": function_name(step.action, web), "parameters": params}


def listing(part: str, episodes: list[Episode]) -> str:
    lines = [f"# Part {part}: {sum(len(e.steps) for e in episodes)} steps of {len(episodes)} episodes",
             "", "Write about each step as the agent would before acting; see docs/labelling-guide.md.", ""]
    for ep in episodes:
        lines += [f"## {ep.id} ({'web page' if ep.web else 'phone'})", f"Goal: {ep.goal}", ""]
        for i, step in enumerate(ep.steps):
            done = "; ".join(action_words(s, ep.web) for s in ep.steps[:i]) or "nothing yet"
            nxt = ep.steps[i + 1] if i + 1 < len(ep.steps) else None
            lines += [f"### step_id {part}:{ep.id}:{i}  (step {i + 1})",
                      f"- done before: {done}",
                      "- current screen: " + ("; ".join(screen(step)) or "(no text known)"),
                      "- next screen (after the action; the agent cannot see it): "
                      + ("; ".join(screen(nxt)) if nxt is not None else "(none recorded)"),
                      f"- true action: {action_words(step, ep.web)}",
                      f"- call: {json.dumps(call(step, ep.web), ensure_ascii=False)}", ""]
    return "\n".join(lines)


def fingerprint(episode: Episode) -> tuple:
    """What makes an episode the same one again: its goal and, per step, the action and the screen's texts."""
    return (episode.goal,) + tuple((s.action.type, s.action.text, tuple(sorted(screen(s)))) for s in episode.steps)


def seen_before(episodes: list[Episode], path: Path) -> list[str]:
    """The ids of ``episodes`` that an earlier part already holds (the same goal, actions and screens)."""
    try:
        known = {fingerprint(Episode.from_dict(d)) for d in map(json.loads, path.open(encoding="utf-8"))}
    except FileNotFoundError:
        return []
    return [e.id for e in episodes if fingerprint(e) in known]


def used_seeds(path: Path) -> set[int]:
    try:
        return {d["kit"]["seed"] for d in map(json.loads, path.open(encoding="utf-8")) if "kit" in d}
    except FileNotFoundError:
        return set()


def write_steps(part: str, seed: int, episodes: list[Episode], into: Path) -> int:
    """Append the episodes and their steps to the benchmark files in ``into`` (once: ids already there are
    skipped)."""
    have_eps, have_steps = written_ids(str(into / EPISODES), "id"), written_ids(str(into / STEPS), "step_id")
    added = 0
    with open(into / EPISODES, "a", encoding="utf-8") as eps, open(into / STEPS, "a", encoding="utf-8") as steps:
        for ep in episodes:
            eid = f"{part}/{ep.id}"
            if eid not in have_eps:
                eps.write(json.dumps({**compact(ep), "id": eid, "kit": {"part": part, "seed": seed}},
                                     ensure_ascii=False) + "\n")
            for i, step in enumerate(ep.steps):
                sid = f"{part}:{ep.id}:{i}"
                if sid not in have_steps:
                    steps.write(json.dumps({"step_id": sid, "step": compact_step(step)}, ensure_ascii=False) + "\n")
                    added += 1
    return added


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("part", help="the part's name, e.g. part13 (the writer's file: tests/annotate/certify_PART.jsonl)")
    ap.add_argument("--seed", type=int, required=True, help="a seed no earlier part used")
    ap.add_argument("--phone", type=int, default=8, help="phone episodes [8]")
    ap.add_argument("--web", type=int, default=3, help="web tasks [3]")
    ap.add_argument("--into", type=Path, default=HERE, help="the folder of the benchmark files [tests/annotate]")
    args = ap.parse_args(argv)
    if args.seed in used_seeds(args.into / EPISODES):
        print(f"seed {args.seed} was used by an earlier part: its episodes are not unseen; choose another",
              file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        episodes = generate(args.seed, args.phone, args.web, Path(tmp))
    again = seen_before(episodes, args.into / EPISODES)
    if again:
        print(f"episodes {', '.join(again[:5])} of seed {args.seed} are in an earlier part already: choose another "
              "seed", file=sys.stderr)
        return 2
    added = write_steps(args.part, args.seed, episodes, args.into)
    print(listing(args.part, episodes))
    print(f"{added} steps of {len(episodes)} episodes added to {STEPS} and {EPISODES}; write "
          f"tests/annotate/certify_{args.part}.jsonl and run: python benchmarks/certify.py {args.part} --errors",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
