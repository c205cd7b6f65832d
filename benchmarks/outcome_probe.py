"""Outcomes grafted onto aligned texts: how many stay certified.

Every aligned text of the chosen parts that ``certify`` certifies, on a step with a later screen, gets an outcome
appended in each of a few sentence shapes (after a semicolon, a dash, an arrow, in parentheses, as a next
sentence; in the text's language), naming a text that only the next screen shows. Each such text tells the future,
so none should stay certified. The shapes are the developer's own, not a writer's: a floor for the outcome
reader, not a measurement on unseen wording (that is ``benchmarks/certify.py`` on a part written after a freeze).

    python benchmarks/outcome_probe.py                 # parts 13-19
    python benchmarks/outcome_probe.py part18 --show 5 # and five texts still certified per shape
"""
from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from certify import HERE, certify_records, load_episodes, load_steps, run  # noqa: E402

from sftdata.checks.calls import element_label  # noqa: E402

SHAPES = {"en": ["; results open with {w} at the top.", " — it has {w} in it.", ". The next page lists {w}.",
                 ", and {w} appears.", " -> {w} shows up.", ". Now the screen reads {w}.", " (that brings up {w}).",
                 "; {w} is listed first.", ", which takes me to {w}.", ". Done: {w} is on screen."],
          "zh": ["；结果页第一条是{w}。", "——里面有{w}。", "，页面上出现了{w}。", "，进去后是{w}。", "，随后显示{w}。",
                 "。{w}已经显示出来。", "，接着看到{w}这一项。", "（下一页是{w}）。", "，列表最上面就是{w}。",
                 "，打开后{w}在最上方。"]}


def later_word(record: dict, rng: random.Random) -> str | None:
    """A label of the next screen that the current one does not show (2-20 characters), None when none."""
    steps, i = record["episode"].steps, record["index"]
    if i + 1 >= len(steps):
        return None
    now = {element_label(e) for e in steps[i].elements}
    later = sorted({element_label(e) for e in steps[i + 1].elements} - now - {""})
    later = [w for w in later if 2 <= len(w) <= 20]
    return rng.choice(later) if later else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("parts", nargs="*", help="parts to graft on [default: part13 .. part19]")
    parser.add_argument("--show", type=int, default=0, help="texts still certified to print per shape")
    args = parser.parse_args()
    rng = random.Random(1)
    episodes, steps = load_episodes(), load_steps()
    kept, total, shown = Counter(), Counter(), Counter()
    for part in args.parts or [f"part{n}" for n in range(13, 20)]:
        records = [r for r in certify_records(HERE, part, episodes, steps) or [] if r["label"] == "aligned"]
        for record, certification in run(records):
            word = later_word(record, rng) if certification.outcome == "certified" else None
            if word is None:
                continue
            lang = "en" if record["lang"] == "en" else "zh"
            for shape in SHAPES[lang]:
                text = record["text"].rstrip("。. ") + shape.format(w=word)
                total[lang, shape] += 1
                if run([dict(record, text=text)])[0][1].outcome == "certified":
                    kept[lang, shape] += 1
                    if shown[lang, shape] < args.show:
                        shown[lang, shape] += 1
                        print(f"    still certified: {text[-160:]!r}")
    for key in sorted(total):
        print(f"{key[0]} {key[1]!r:42} still certified {kept[key]:>4} / {total[key]}")
    print(f"all shapes: still certified {sum(kept.values())} / {sum(total.values())} "
          f"({sum(kept.values()) / max(1, sum(total.values())):.3f})")


if __name__ == "__main__":
    main()
