"""What the template backend writes, measured: variety, leaks and memory, per source and overall.

    python benchmarks/template_quality.py            # generated sample + ../shared/fixtures
    python benchmarks/template_quality.py RUN ...    # the episodes of existing runs instead

Phone and web episodes: the demo's generated phone sample, its Mind2Web sample and its annotated web sample, and
the real fixtures. For the reasoning texts: distinct-2 and distinct-3 (distinct character n-grams over all
n-grams, texts concatenated per source; the texts are Chinese, so characters are the tokens), the share of texts
whose first 10 characters equal another text's, and whose first 8 do, the share that open by restating the goal,
and the count that quote the dataset's per-step instruction (which no exported prompt carries). For the memory:
the share that :func:`sftdata.checks.memory_check.memory_problems` finds nothing wrong with against the
ground-truth history. Cut values: the share of items whose reasoning or memory holds a cut value or label (a
quotation that ends in ``…``, ``jane@example.…``), and how many reasonings quote one. Certified: the share of items
:func:`sftdata.checks.certify` certifies (the rest go to a judge model or a reviewer).
"""
from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sftdata.io import iter_jsonl  # noqa: E402
from sftdata.model import Episode  # noqa: E402
from sftdata.checks.certify import certify_items  # noqa: E402
from sftdata.checks.memory_check import memory_problems  # noqa: E402
from sftdata.annotate.template import TEMPLATE_VERSION, quotable_goal, template_items  # noqa: E402

FIXTURES = ROOT.parent / "shared" / "fixtures"


def _sftdata(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "sftdata.cli", *args], check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)


def make_runs(tmp: Path) -> list[Path]:
    """The demo's generated phone, Mind2Web and annotated web samples, and the real fixtures when present, ingested
    into ``tmp``."""
    sample = tmp / "sample.tfrecord.gz"
    _sftdata("sample", str(sample), "--episodes", "12", "--seed", "0")
    _sftdata("ingest", "androidcontrol", str(sample), "--out", str(tmp / "generated"))
    _sftdata("sample", str(tmp / "mind2web.parquet"), "--mind2web")
    _sftdata("ingest", "mind2web", str(tmp / "mind2web.parquet"), "--out", str(tmp / "mind2web"))
    _sftdata("sample", str(tmp / "web-annotated"), "--annotated-web")
    _sftdata("ingest", "annotated", str(tmp / "web-annotated"), "--out", str(tmp / "web"))
    runs = [tmp / "generated", tmp / "mind2web", tmp / "web"]
    if FIXTURES.is_dir():
        _sftdata("ingest", "androidcontrol", str(FIXTURES / "androidcontrol" / "android_control-00000-of-00001"),
                 "--out", str(tmp / "androidcontrol"))
        _sftdata("ingest", "annotated", str(FIXTURES / "annotated"), "--out", str(tmp / "annotated"))
        runs += [tmp / "androidcontrol", tmp / "annotated"]
    return runs


def distinct(texts: list[str], n: int) -> float:
    grams = [t[i:i + n] for t in texts for i in range(len(t) - n + 1)]
    return len(set(grams)) / len(grams) if grams else 0.0


_CUT = re.compile(r"[“「『][^”」』]*…[”」』]|\w…(?!…)")  # a quotation cut short, or a word ending in an ellipsis


def measure(name: str, episodes: list[Episode]) -> dict:
    texts, memories_ok, memories, quotes, goal_first = [], 0, 0, 0, 0
    cut_items = cut_reasonings = certified = 0
    for ep in episodes:
        items = template_items(ep)
        certified += sum(c.outcome == "certified" for c in certify_items(items, ep))
        for i, item in enumerate(items):
            text = item["reasoning"]
            texts.append(text)
            cut_reasonings += bool(_CUT.search(text))
            cut_items += bool(_CUT.search(text) or _CUT.search(item["memory"]))
            instruction = ep.steps[i].instruction
            bare = text.replace(quotable_goal(ep.goal) or "\x00", "")  # the goal may hold the instruction's words
            typed = ep.steps[i].action.text or "\x00"
            quotes += bool(instruction and len(instruction) > 3 and typed not in instruction
                           and instruction.strip().rstrip(".") in bare)
            goal_first += text.startswith(("任务是", "目标是", "为了完成", "目标：", "要完成的是"))
            memories += 1
            memories_ok += not memory_problems(item["memory"], ep, i)
    openings, eights = Counter(t[:10] for t in texts), Counter(t[:8] for t in texts)
    shared = sum(1 for t in texts if openings[t[:10]] > 1)
    shared8 = sum(1 for t in texts if eights[t[:8]] > 1)
    n = max(len(texts), 1)
    return {"source": name, "texts": len(texts), "distinct-2": distinct(texts, 2), "distinct-3": distinct(texts, 3),
            "shared openings": shared / n, "shared 8-char openings": shared8 / n, "open with goal": goal_first / n,
            "instruction quotes": quotes, "memory correct": memories_ok / max(memories, 1),
            "cut values": cut_items / n, "reasonings quoting a cut": cut_reasonings, "certified": certified / n}


def main(paths: list[str]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        runs = [Path(p) for p in paths] or make_runs(Path(tmp))
        by_source: dict[str, list[Episode]] = defaultdict(list)
        for run in runs:
            for d in iter_jsonl(run / "episodes.jsonl"):
                ep = Episode.from_dict(d)
                by_source[f"{run.name}:{ep.source}{':web' if ep.web else ''}"].append(ep)
        rows = [measure(name, eps) for name, eps in sorted(by_source.items())]
        rows.append(measure("all", [ep for eps in by_source.values() for ep in eps]))
    print(f"{TEMPLATE_VERSION}: phone and web episodes")
    head = ("source", "texts", "distinct-2", "distinct-3", "shared openings", "shared 8-char openings",
            "open with goal", "instruction quotes", "memory correct", "cut values", "reasonings quoting a cut",
            "certified")
    print(" | ".join(head))
    for row in rows:
        print(" | ".join(f"{row[h]:.3f}" if isinstance(row[h], float) else str(row[h]) for h in head))


if __name__ == "__main__":
    main(sys.argv[1:])
