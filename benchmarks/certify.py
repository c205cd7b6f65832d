"""Certify on the labelled parts: certified / unsure / rejected by label, and the three target figures.

Each part's texts (``tests/annotate``: the agreement and future-text sets of a part, or a ``certify_<part>.jsonl``
written with the blind kit, ``tests/annotate/blind_listing.py``) are certified on their real steps, with the later
screens of their episodes. Bad texts are those labelled ``contradicts`` or ``hindsight``; good ones ``aligned``
(and ``clean``, a future-text label: no hindsight, whatever its decision says; its rejection counts against
precision only when it is for hindsight). The targets:

- bad certified: at most 2% of the bad texts are ``certified``;
- aligned certified: at least 85% of the ``aligned`` texts are ``certified``;
- rejected precision: at least 0.97 of the ``rejected`` texts are bad;

pooled, per language and per platform (phone / web). English reasoning is measured as written (the Chinese-only
rule of the product is left out here: ``cjk_threshold`` 0).

    python benchmarks/certify.py                    # every part
    python benchmarks/certify.py heldout12 part13   # some parts
    python benchmarks/certify.py --pool dev heldout --errors   # certified-bad and rejected-good texts
    python benchmarks/certify.py part18 --unsure     # the aligned texts left unsure, with their reasons
    python benchmarks/certify.py --layers           # what positive evidence alone holds back (see below)

``--layers`` measures how much rests on the rules that were tuned to wording: the contradicting texts certified
with the contradiction rules switched off (positive evidence alone must hold them back), and the hindsight texts
certified with the hindsight wording and later-screen checks switched off (evidence and the outcome reader alone).
A new writer's wording that slips past those rules lands in these figures, not in the certified ones.
"""
from __future__ import annotations

import argparse
import sys
from collections import Counter
from contextlib import ExitStack
from pathlib import Path
from unittest import mock

from sftdata.checks.certify import OUTCOMES, certify

HERE = Path(__file__).resolve().parent.parent / "tests" / "annotate"
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from agreement import load_steps  # noqa: E402
from future_text import load_episodes  # noqa: E402
from labelled_sets import PARTS, certify_records  # noqa: E402

BAD = ("contradicts", "hindsight")
TARGETS = {"bad certified": (0.02, "at most"), "aligned certified": (0.85, "at least"),
           "rejected precision": (0.97, "at least")}


def all_parts() -> list[str]:
    new = sorted(p.stem[len("certify_"):] for p in HERE.glob("certify_*.jsonl"))
    return list(PARTS) + new


def run(records: list[dict]) -> list[tuple[dict, object]]:
    return [(r, certify(r["episode"], r["index"], {"reasoning": r["text"], "function": r["function"]},
                        cjk_threshold=0.0)) for r in records]


HINDSIGHT = {"hindsight", "future_screen_text"}


def _counts(record: dict, certification) -> bool:
    """Does a rejection count for precision? A ``clean`` text (a future-text label: it says nothing of whether the
    decision agrees with the call) counts only when rejected for hindsight."""
    return record["label"] != "clean" or bool(HINDSIGHT & {r.code for r in certification.reasons})


def figures(results) -> dict[str, tuple[int, int]]:
    """(numerator, denominator) of each target figure."""
    bad = [c for r, c in results if r["label"] in BAD]
    aligned = [c for r, c in results if r["label"] == "aligned"]
    rejected = [r for r, c in results if c.outcome == "rejected" and _counts(r, c)]
    return {"bad certified": (sum(c.outcome == "certified" for c in bad), len(bad)),
            "aligned certified": (sum(c.outcome == "certified" for c in aligned), len(aligned)),
            "rejected precision": (sum(r["label"] in BAD for r in rejected), len(rejected))}


def _fig(num: int, den: int, name: str) -> str:
    if not den:
        return f"{name} n/a"
    value = num / den
    limit, how = TARGETS[name]
    ok = value <= limit if how == "at most" else value >= limit
    return f"{name} {value:.3f} ({num}/{den}){'' if ok else ' ✗'}"


def report(name: str, results, errors: bool, reasons: bool, unsure: bool = False) -> None:
    table = Counter((r["label"], c.outcome) for r, c in results)
    labels = sorted({r["label"] for r, _ in results}, key=lambda x: ("aligned", "clean", "contradicts",
                                                                     "hindsight").index(x))
    print(f"{name}: {len(results)} texts")
    for label in labels:
        row = "  ".join(f"{o} {table[label, o]:>4}" for o in OUTCOMES)
        print(f"  {label:<12} {sum(table[label, o] for o in OUTCOMES):>5}   {row}")
    groups = [("pooled", results)] + [(f"lang {k}", [x for x in results if x[0]["lang"] == k]) for k in ("zh", "en")] \
        + [(f"platform {k}", [x for x in results if x[0]["platform"] == k]) for k in ("phone", "web")]
    for label, group in groups:
        if group:
            f = figures(group)
            print(f"  {label:<15} " + "   ".join(_fig(*f[k], k) for k in TARGETS))
    if reasons:
        why = Counter((r["label"], c.first) for r, c in results if c.outcome == "unsure")
        for (label, code), n in sorted(why.items()):
            print(f"    unsure {label:<12} {code:<26} {n}")
    if unsure:
        for r, c in results:
            if r["label"] == "aligned" and c.outcome == "unsure":
                why = "; ".join(f"{x.code}: {x.detail}" for x in c.reasons)
                print(f"    unsure-aligned [{r['lang']} {r['platform']} {r['function']['name']}] {r['text']!r} -- {why}")
    if errors:
        for r, c in results:
            if (r["label"] in BAD and c.outcome == "certified") or (
                    r["label"] not in BAD and c.outcome == "rejected" and _counts(r, c)):
                what = "certified-bad" if c.outcome == "certified" else "rejected-good"
                why = c.reasons[0].detail if c.reasons else ", ".join(f"{e.kind}:{e.words}" for e in c.evidence)
                print(f"    {what} [{r['label']}/{r['kind'] or '-'} {r['platform']} {r['function']['name']}] "
                      f"{r['text']!r} -- {why}")


def layers(records: list[dict]) -> None:
    """Bad texts certified when the wording-tuned rejections are switched off (see the module doc)."""
    off = {"contradicts": ["sftdata.checks.check.contradictions"],
           "hindsight": ["sftdata.checks.check.hindsight_detail", "sftdata.checks.certify.future_failures"]}
    for label, targets in off.items():
        with ExitStack() as stack:
            for target in targets:
                stack.enter_context(mock.patch(target, lambda *a, _t=target, **k: None if "detail" in _t else []))
            results = run([r for r in records if r["label"] == label])
        counts = Counter(c.outcome for _, c in results)
        print(f"  {label} with those rules off: certified {counts['certified']}/{len(results)} "
              f"({counts['certified'] / max(1, len(results)):.3f}), unsure {counts['unsure']}, "
              f"rejected {counts['rejected']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("parts", nargs="*", help="parts to measure [default: all]")
    parser.add_argument("--errors", action="store_true", help="list certified-bad and rejected-good texts")
    parser.add_argument("--reasons", action="store_true", help="count the unsure texts' first reasons by label")
    parser.add_argument("--unsure", action="store_true", help="list the aligned texts left unsure, with reasons")
    parser.add_argument("--pool", action="store_true", help="also print the figures of the parts together")
    parser.add_argument("--layers", action="store_true", help="bad texts certified with the wording rules off")
    args = parser.parse_args()
    episodes, steps = load_episodes(), load_steps()
    everything, records_all = [], []
    for part in args.parts or all_parts():
        records = certify_records(HERE, part, episodes, steps)
        if records is None:
            print(f"{part}: absent")
            continue
        results = run(records)
        everything += results
        records_all += records
        report(part, results, args.errors, args.reasons, args.unsure)
    if args.pool and everything:
        report("all parts", everything, False, args.reasons)
    if args.layers and records_all:
        print("what positive evidence alone holds back:")
        layers(records_all)


if __name__ == "__main__":
    main()
