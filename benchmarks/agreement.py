"""Precision and recall of the reasoning-action agreement check (reason ``reasoning_contradicts_action``) on the
labelled sets in tests/annotate/: ``agreement_dev.jsonl`` (what the check was developed on) and
``agreement_heldout.jsonl`` (written after the check was finished), each record a reasoning, its call and the step
(``step_id`` into ``agreement_steps.jsonl``).

    python benchmarks/agreement.py            # both sets, per kind and language
    python benchmarks/agreement.py --errors   # and every miss and false alarm
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

from sftdata.model import Step
from sftdata.checks.agreement import contradictions

HERE = Path(__file__).resolve().parent.parent / "tests" / "annotate"
sys.path.insert(0, str(HERE))
from labelled_sets import labelled_sets  # noqa: E402
SETS = ("agreement_dev.jsonl", "agreement_heldout.jsonl", "agreement_heldout2.jsonl", "agreement_heldout3.jsonl",
        "agreement_heldout4.jsonl", "agreement_heldout5.jsonl",
        "agreement_heldout6.jsonl", "agreement_heldout7.jsonl",
        "agreement_heldout8.jsonl", "agreement_heldout9.jsonl",
        "agreement_heldout10.jsonl", "agreement_heldout11.jsonl",
        "agreement_heldout12.jsonl")


def load_steps(path: Path = HERE / "agreement_steps.jsonl") -> dict[str, Step]:
    return {r["step_id"]: Step.from_dict(r["step"]) for r in map(json.loads, path.open(encoding="utf-8"))}


def evaluate(records: list[dict], steps: dict[str, Step]) -> dict:
    """Counts of true/false positives/negatives overall, per kind and per language, and the errors."""
    tp = fp = fn = tn = 0
    by_kind: Counter = Counter()
    caught: Counter = Counter()
    by_lang: dict[str, Counter] = {}
    errors = []
    for r in records:
        found = contradictions(r["reasoning"], r["function"], steps[r["step_id"]])
        bad = r["label"] == "contradicts"
        lang = by_lang.setdefault(r.get("lang", "?"), Counter())
        if bad:
            by_kind[r["kind"]] += 1
            caught[r["kind"]] += bool(found)
        if bad and found:
            tp += 1
            lang["tp"] += 1
        elif bad:
            fn += 1
            lang["fn"] += 1
            errors.append(("miss", r))
        elif found:
            fp += 1
            lang["fp"] += 1
            errors.append(("false alarm: " + found[0], r))
        else:
            tn += 1
    return {"tp": tp, "fp": fp, "fn": fn, "tn": tn, "by_kind": by_kind, "caught": caught, "by_lang": by_lang,
            "errors": errors}


def ratio(a: int, b: int) -> str:
    return f"{a / b:.3f}" if b else "n/a"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--errors", action="store_true", help="print every miss and false alarm")
    args = parser.parse_args()
    steps = load_steps()
    for name, records in labelled_sets(HERE, SETS):
        if records is None:
            print(f"{name}: absent")
            continue
        e = evaluate(records, steps)
        bad = e["tp"] + e["fn"]
        print(f"{name}: {len(records)} pairs ({bad} contradictions, {e['tn'] + e['fp']} aligned): "
              f"precision {ratio(e['tp'], e['tp'] + e['fp'])}, recall {ratio(e['tp'], bad)}, "
              f"agreement with the labels (the rules judge's aligned) {ratio(e['tp'] + e['tn'], len(records))}")
        print("  recall by kind: " + ", ".join(f"{k} {e['caught'][k]}/{n}" for k, n in sorted(e["by_kind"].items())))
        for lang, c in sorted(e["by_lang"].items()):
            print(f"  {lang}: precision {ratio(c['tp'], c['tp'] + c['fp'])}, recall {ratio(c['tp'], c['tp'] + c['fn'])}")
        if args.errors:
            for what, r in e["errors"]:
                print(f"    {what} [{r['kind']}] {r['function']['name']}: {r['reasoning']}")


if __name__ == "__main__":
    main()
