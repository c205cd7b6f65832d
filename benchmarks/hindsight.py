"""Precision, recall and F1 of ``find_hindsight`` on the labelled reasoning set.

    python benchmarks/hindsight.py                 # the labelled set and the held-out set in tests/annotate/
    python benchmarks/hindsight.py --errors        # also list every misclassified string
    python benchmarks/hindsight.py --set other.jsonl

``hindsight_set.jsonl`` is the labelled set the detector was developed on; ``hindsight_heldout.jsonl`` was written
afterwards, against the finished detector, and says how it does on phrasing it has not seen.

Each line of the set is ``{"text", "hindsight": bool, "lang": "zh"|"en", "why"}``; a string counts as flagged
when ``find_hindsight`` returns any phrase. Errors are counted by their ``why`` class (false positives: clean
strings flagged; false negatives: hindsight missed).
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sftdata.checks.hindsight import find_hindsight  # noqa: E402

HERE = Path(__file__).resolve().parent.parent / "tests" / "annotate"
DEFAULT_SETS = [HERE / "hindsight_set.jsonl", HERE / "hindsight_heldout.jsonl"]


@dataclass
class Scores:
    tp: int = 0
    fp: int = 0
    fn: int = 0
    tn: int = 0

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def add(self, truth: bool, flagged: bool) -> None:
        if truth:
            self.tp, self.fn = self.tp + flagged, self.fn + (not flagged)
        else:
            self.fp, self.tn = self.fp + flagged, self.tn + (not flagged)


def load_set(path: Path) -> list[dict]:
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise SystemExit(f"{path}:{number}: not JSON ({exc.msg})") from None
        if not (isinstance(row, dict) and isinstance(row.get("text"), str) and isinstance(row.get("hindsight"), bool)):
            raise SystemExit(f"{path}:{number}: every line needs a 'text' string and a 'hindsight' boolean")
        rows.append(row)
    return rows


def evaluate(rows: list[dict]) -> tuple[dict[str, Scores], Counter, list[tuple[str, dict, list[str]]]]:
    """Scores overall and per language, error counts by (kind, why), and the misclassified rows."""
    scores = {"all": Scores(), "zh": Scores(), "en": Scores()}
    errors: Counter = Counter()
    wrong = []
    for row in rows:
        phrases = find_hindsight(row["text"])
        flagged, truth = bool(phrases), row["hindsight"]
        for key in ("all", row.get("lang", "")):
            scores.setdefault(key, Scores()).add(truth, flagged)
        if flagged != truth:
            kind = "false positive" if flagged else "false negative"
            errors[(kind, row.get("why", ""))] += 1
            wrong.append((kind, row, phrases))
    return scores, errors, wrong


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", type=Path, action="append", help="labelled JSONL set (repeatable; default: both sets)")
    ap.add_argument("--errors", action="store_true", help="list every misclassified string")
    args = ap.parse_args(argv)
    for path in args.set or DEFAULT_SETS:
        if not path.is_file():
            print(f"error: {path} does not exist", file=sys.stderr)
            return 2
        report(path, args.errors)
    return 0


def report(path: Path, show_errors: bool) -> None:
    rows = load_set(path)
    scores, errors, wrong = evaluate(rows)
    print(f"{path.name}: {len(rows)} strings  ({sum(r['hindsight'] for r in rows)} hindsight, "
          f"{sum(not r['hindsight'] for r in rows)} clean)")
    print(f"{'set':<5} {'n':>4} {'TP':>4} {'FP':>4} {'FN':>4} {'TN':>4} {'precision':>10} {'recall':>7} {'F1':>6}")
    for key, s in scores.items():
        n = s.tp + s.fp + s.fn + s.tn
        print(f"{key:<5} {n:>4} {s.tp:>4} {s.fp:>4} {s.fn:>4} {s.tn:>4} "
              f"{s.precision:>10.3f} {s.recall:>7.3f} {s.f1:>6.3f}")
    print("errors by class:" if errors else "errors by class: none")
    for (kind, why), count in sorted(errors.items()):
        print(f"  {kind:<15} {why:<50} {count:>3}")
    if show_errors:
        for kind, row, phrases in wrong:
            print(f"- {kind} [{row.get('lang')}] {row['text']}  -> {phrases}")
    print()


if __name__ == "__main__":
    raise SystemExit(main())
