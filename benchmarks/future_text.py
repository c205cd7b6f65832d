"""Hindsight on labelled sets (the union is what the rules judge's ``hindsight`` field reads): the wording rules (``hindsight``), the screen-grounded check
(``future_screen_text``) and their union, on ``tests/annotate/future_text_dev.jsonl`` (what the check was developed
on) and ``future_text_heldout.jsonl`` (written after it was finished). Each record is a text on a real step
(``episode_id`` into ``future_episodes.jsonl``, ``index``).

    python benchmarks/future_text.py [--errors]
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from sftdata.model import Episode
from sftdata.checks.future_text import future_screen_text
from sftdata.checks.hindsight import find_hindsight

HERE = Path(__file__).resolve().parent.parent / "tests" / "annotate"
sys.path.insert(0, str(HERE))
from labelled_sets import labelled_sets  # noqa: E402
SETS = ("future_text_dev.jsonl", "future_text_heldout.jsonl", "future_text_heldout2.jsonl",
        "future_text_heldout3.jsonl", "future_text_heldout4.jsonl",
        "future_text_heldout5.jsonl", "future_text_heldout6.jsonl",
        "future_text_heldout7.jsonl", "future_text_heldout8.jsonl",
        "future_text_heldout9.jsonl", "future_text_heldout10.jsonl",
        "future_text_heldout11.jsonl", "future_text_heldout12.jsonl")
CHECKS = {
    "wording": lambda r, ep: bool(find_hindsight(r["text"])),
    "future_screen_text": lambda r, ep: bool(future_screen_text(r["text"], ep, r["index"])),
}


def load_episodes(path: Path = HERE / "future_episodes.jsonl") -> dict[str, Episode]:
    return {d["id"]: Episode.from_dict(d) for d in map(json.loads, path.open(encoding="utf-8"))}


def scores(records: list[dict], episodes: dict[str, Episode]) -> dict[str, tuple[int, int, int, list]]:
    """(tp, fp, fn, errors) per check and for the union."""
    out = {}
    for name in list(CHECKS) + ["union"]:
        tp = fp = fn = 0
        errors = []
        for r in records:
            ep = episodes[r["episode_id"]]
            flagged = (any(c(r, ep) for c in CHECKS.values()) if name == "union" else CHECKS[name](r, ep))
            bad = r["label"] == "hindsight"
            tp += bad and flagged
            fp += flagged and not bad
            fn += bad and not flagged
            if flagged != bad:
                errors.append(("miss" if bad else "false alarm", r))
        out[name] = (tp, fp, fn, errors)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--errors", action="store_true", help="print the union's misses and false alarms")
    args = parser.parse_args()
    episodes = load_episodes()
    for name, records in labelled_sets(HERE, SETS):
        if records is None:
            print(f"{name}: absent")
            continue
        bad = sum(r["label"] == "hindsight" for r in records)
        print(f"{name}: {len(records)} texts ({bad} hindsight, {len(records) - bad} clean)")
        for check, (tp, fp, fn, errors) in scores(records, episodes).items():
            p = f"{tp / (tp + fp):.3f}" if tp + fp else "n/a"
            r = f"{tp / (tp + fn):.3f}" if tp + fn else "n/a"
            agree = f"{(len(records) - len(errors)) / len(records):.3f}"
            print(f"  {check:<20} precision {p}  recall {r}  agreement {agree}")
            if args.errors and check == "union":
                for what, rec in errors:
                    print(f"    {what}: {rec['text']}")


if __name__ == "__main__":
    main()
