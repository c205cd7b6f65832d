"""A run directory as plain summaries: counts aggregated in one streaming pass, plus a few sampled episodes.

Only the ``samples`` sampled episodes are kept whole; everything else is counted as it streams by, so a run of
millions of episodes needs memory for the counters, the annotated ids and the exports' ``lengths.json`` only.
Episodes are sampled by the smallest ``sha256(f"{seed}:{id}")``, annotated episodes first: the same run and seed
always give the same episodes, whatever the order of ``episodes.jsonl``.

>>> summary = summarize("/nonexistent/run")
>>> summary.episodes, summary.sampled, summary.exports
(0, [], [])
"""
from __future__ import annotations

import hashlib
import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..io import iter_jsonl, read_json
from ..model import Episode
from ..values import MalformedEpisode
from ..annotate.stage import ANNOTATIONS
from ..rundir import RunDir
from ..summary import RejectCounts, reject_counts, unit_of

EXAMPLES_PER_REASON = 3


@dataclass
class ExportSummary:
    """One export directory ``RUN/export/<name>/``: its manifest's numbers and the per-sample token lengths."""

    name: str
    path: Path
    format: str
    family: str
    samples: dict[str, int]
    dropped: dict[str, int]
    tokens: dict[str, Any]
    packing: dict[str, dict[str, Any]]
    max_length: int | None
    lengths: dict[str, list[int]]
    text_lengths: str = ""  # "exact" (Swift's template + the model's vocabulary) or "bound"

    @classmethod
    def load(cls, path: Path) -> "ExportSummary":
        m = read_json(path / "manifest.json", default={}) or {}
        lengths = read_json(path / "lengths.json", default={}) or {}
        return cls(name=path.name, path=path, format=m.get("format", path.name), family=m.get("family", ""),
                   samples=dict(m.get("samples", {})), dropped=dict(m.get("dropped", {})),
                   tokens=dict(m.get("tokens", {})), packing=dict(m.get("packing", {})),
                   max_length=(m.get("options") or {}).get("max_length"),
                   lengths={k: list(v) for k, v in lengths.items()},
                   text_lengths=(m.get("text_tokens") or {}).get("method", "bound"))


@dataclass
class RunSummary:
    """Everything the report shows except the images; plain values, cheap to keep and print."""

    path: Path
    episodes: int = 0
    steps: int = 0
    by_source: Counter = field(default_factory=Counter)          # source -> episodes in episodes.jsonl
    steps_by_source: Counter = field(default_factory=Counter)
    ingest: dict[str, dict[str, Any]] = field(default_factory=dict)  # source -> manifest counts
    actions: Counter = field(default_factory=Counter)            # action type -> steps
    steps_per_episode: Counter = field(default_factory=Counter)  # length -> episodes
    annotated: int = 0
    annotated_steps: int = 0
    attempts: Counter = field(default_factory=Counter)           # attempts -> annotated episodes
    functions: Counter = field(default_factory=Counter)          # annotated function name -> steps
    rejects: Counter = field(default_factory=Counter)            # (stage, reason) -> rejects
    rejects_by_source: Counter = field(default_factory=Counter)  # (stage, source) -> rejects
    reject_examples: dict[str, list[dict]] = field(default_factory=dict)  # reason -> a few records
    llm: dict[str, Any] = field(default_factory=dict)            # manifest stages.annotate.reconstruction
    exports: list[ExportSummary] = field(default_factory=list)
    sampled: list[Episode] = field(default_factory=list)

    @property
    def rejected(self) -> int:
        """Entries in the rejects ledger: episodes, dropped steps and episodes left out of an export together
        (:attr:`reject_counts` keeps them apart)."""
        return sum(self.rejects.values())

    @property
    def reject_counts(self) -> RejectCounts:
        return reject_counts(self.rejects_by("stage"))

    def rejects_by(self, key: str) -> Counter:
        """Rejects per ``"stage"`` or per ``"reason"``."""
        i = ("stage", "reason").index(key)
        out: Counter = Counter()
        for k, n in self.rejects.items():
            out[k[i]] += n
        return out


def sample_key(episode_id: str, seed: int) -> bytes:
    """The sampling order of an episode: smaller keys are picked first.

    >>> sample_key("7", 0) == sample_key("7", 0) != sample_key("7", 1)
    True
    """
    return hashlib.sha256(f"{seed}:{episode_id}".encode()).digest()


def _scan_annotations(path: Path, summary: RunSummary) -> set[str]:
    ids: set[str] = set()
    for record in iter_jsonl(path):
        ids.add(str(record["id"]))
        items = record.get("items") or []
        summary.annotated_steps += len(items)
        summary.attempts[int(record.get("attempts", 1))] += 1
        summary.functions.update(str((i.get("function") or {}).get("name", "?")) for i in items)
    summary.annotated = len(ids)
    return ids


def find_exports(run_dir: str | Path) -> list[Path]:
    """Export directories under ``RUN/export/`` (those with a ``manifest.json``), by name."""
    root = Path(run_dir) / "export"
    if not root.is_dir():
        return []
    return sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith(".")
                  and (p / "manifest.json").is_file())


def _count_episode(summary: "RunSummary", record: dict) -> None:
    steps = record.get("steps") or []
    summary.episodes += 1
    summary.steps += len(steps)
    summary.by_source[record.get("source", "?")] += 1
    summary.steps_by_source[record.get("source", "?")] += len(steps)
    summary.steps_per_episode[len(steps)] += 1
    summary.actions.update((s.get("action") or {}).get("type", "?") for s in steps)


def summarize(run_dir: str | Path, *, samples: int = 3, seed: int = 0) -> RunSummary:
    """Count ``run_dir`` in one pass over each ledger and keep ``samples`` episodes picked by ``seed``.

    A missing ledger, manifest or export directory just leaves its numbers empty.
    """
    run = RunDir(run_dir)
    summary = RunSummary(path=run.path)
    annotated = _scan_annotations(run.path / ANNOTATIONS, summary)
    picked: list[tuple[tuple[bool, bytes], dict]] = []  # the `samples` smallest keys so far, sorted
    for number, record in enumerate(run.episode_records(), 1):
        try:
            _count_episode(summary, record)
            key = (str(record["id"]) not in annotated, sample_key(str(record["id"]), seed))
        except (AttributeError, KeyError, TypeError) as exc:  # a record that is not an episode: one clear line
            raise MalformedEpisode(f"{run.episodes_path} record {number} is not an episode "
                                   f"({type(exc).__name__}: {str(exc)[:80]}); see `sftdata validate`") from None
        if samples > 0 and (len(picked) < samples or key < picked[-1][0]):
            picked.append((key, record))
            picked.sort(key=lambda item: item[0])
            del picked[samples:]
    summary.sampled = [Episode.from_dict(record) for _, record in picked]
    for record in run.rejects():
        reason = str(record.get("reason", "?"))
        summary.rejects[(str(record.get("stage", "?")), reason)] += 1
        summary.rejects_by_source[(str(record.get("stage", "?")), str(record.get("source", "?")))] += 1
        examples = summary.reject_examples.setdefault(reason, [])
        if len(examples) < EXAMPLES_PER_REASON:
            examples.append({k: record.get(k) for k in ("episode_id", "source", "stage", "reason", "detail")})
    stages = run.manifest().get("stages", {})
    summary.ingest = {src: dict(entry.get("counts", {})) for src, entry in stages.get("ingest", {}).items()}
    summary.llm = dict(stages.get("annotate", {}).get("reconstruction", {}))
    summary.exports = [ExportSummary.load(p) for p in find_exports(run.path)]
    return summary


# tables: (title, header, rows) triples of plain values, rendered by html.table() and shown in the notebook

Table = tuple[str, list[str], list[list[Any]]]


WHAT_A_REJECT_COUNTS = {"episode": "episodes rejected", "step": "steps dropped",
                        "left out": "episodes this export cannot use"}


def _pct(n: int, total: int) -> str:
    return f"{100 * n / total:.1f}%" if total else "-"


def count_tables(summary: RunSummary) -> list[Table]:
    """The ``counts`` section as tables: episodes per source, annotation, exports, rejects by stage and reason.

    >>> [title for title, _, _ in count_tables(RunSummary(Path(".")))]
    ['Episodes per source', 'Annotation', 'Exported samples', 'Rejected by stage and reason']
    """
    ingest_rejects = {src: n for (stage, src), n in summary.rejects_by_source.items() if stage == "ingest"}
    sources = sorted(set(summary.by_source) | set(summary.ingest) | set(ingest_rejects))
    per_source = [[src, summary.ingest.get(src, {}).get("in", "-"), summary.by_source.get(src, 0),
                   summary.steps_by_source.get(src, 0), ingest_rejects.get(src, 0)] for src in sources]
    if sources:
        per_source.append(["total", sum(int(summary.ingest.get(s, {}).get("in", 0) or 0) for s in sources),
                           summary.episodes, summary.steps, sum(ingest_rejects.values())])
    annot_rejected = summary.rejects_by("stage").get("annotate", 0)
    annotation = [["episodes", summary.episodes, summary.annotated, _pct(summary.annotated, summary.episodes),
                   annot_rejected, max(0, summary.episodes - summary.annotated - annot_rejected)],
                  ["steps", summary.steps, summary.annotated_steps, _pct(summary.annotated_steps, summary.steps),
                   "-", "-"]]
    exports = [[e.name, e.format, e.family, e.samples.get("train", 0), e.samples.get("val", 0),
                sum(e.dropped.values()), ", ".join(f"{k} {v}" for k, v in e.dropped.items()) or "-", e.max_length,
                e.text_lengths]
               for e in summary.exports]
    rejects = [[stage, reason, n, WHAT_A_REJECT_COUNTS[unit_of(stage)]]
               for (stage, reason), n in summary.rejects.most_common()]
    return [
        ("Episodes per source", ["source", "read", "ingested", "steps", "rejected at ingest"], per_source),
        ("Annotation", ["", "total", "annotated", "share", "rejected", "not yet"], annotation),
        ("Exported samples", ["export", "format", "family", "train", "val", "dropped", "dropped by reason",
                              "max_length", "token lengths"], exports),
        ("Rejected by stage and reason", ["stage", "reason", "count", "counts"], rejects),
    ]


def llm_rows(summary: RunSummary) -> list[list[Any]]:
    """The ``llm`` section as (name, value) rows; empty when the run was never annotated."""
    llm = summary.llm
    if not llm:
        return []
    stats, counts = llm.get("llm", {}), llm.get("counts", {})
    cost = llm.get("cost")
    rows = [["backend", llm.get("backend")], ["model", llm.get("model")],
            ["prompt version", llm.get("prompt_version")],
            ["annotated / rejected", f"{counts.get('annotated', 0)} / {counts.get('rejected', 0)}"]]
    rows += [[k.replace("_", " "), stats.get(k, 0)]
             for k in ("requests", "retries", "cache_hits", "prompt_tokens", "completion_tokens")]
    rows.append(["cost", "-" if cost is None else f"{cost:.4f}"])
    if summary.attempts:
        rows.append(["attempts per episode", ", ".join(f"{k}: {v}" for k, v in sorted(summary.attempts.items()))])
    if llm.get("elapsed_s") is not None:
        rows.append(["elapsed", f"{llm['elapsed_s']:.1f} s"])
    return rows


def jsonish(value: Any) -> str:
    """Compact JSON for showing a parameter dict.

    >>> jsonish({"text": "蓝牙耳机"})
    '{"text": "蓝牙耳机"}'
    """
    return json.dumps(value, ensure_ascii=False)
