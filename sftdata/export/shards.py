"""What the export stage writes beside its samples: the split of an episode, image links and copies, shards in
pack order, the figures of the manifest, the hints for drop reasons, and the export's fingerprint."""
from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections import Counter
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from ..exitcodes import NothingProduced
from ..families import FAMILIES
from ..formats import get_format, resolve_family
from ..io import write_bytes_atomic
from ..rundir import ANNOTATIONS, JUDGEMENTS, REVIEWS, RunDir
from .options import ExportOptions
from .packing import best_fit_decreasing, lower_bound_bins, pack_order, packing_efficiency


@dataclass
class ExportResult:
    out: Path
    samples: dict[str, int] = field(default_factory=dict)
    dropped: Counter = field(default_factory=Counter)
    manifest: dict[str, Any] = field(default_factory=dict)


def split_of(episode_id: str, ratio: float, seed: int) -> str:
    """Deterministic split by episode (all samples of an episode stay together).

    >>> split_of("20", 0.0, 0), split_of("20", 1.0, 0)
    ('train', 'val')
    """
    digest = hashlib.sha256(f"{seed}:{episode_id}".encode()).digest()
    return "val" if int.from_bytes(digest[:8], "big") / 2**64 < ratio else "train"


def link_file(src: Path, dst: Path) -> str | None:
    """Hard-link ``src`` to ``dst``: "linked", "existing", or None when links are refused (copy it instead)."""
    if dst.exists():
        return "existing"
    tmp = dst.with_name(f".{dst.name}.tmp")
    try:
        os.link(src, tmp)
    except OSError:  # another filesystem, or links not allowed
        return None
    os.replace(tmp, dst)
    return "linked"


def copy_file(src: Path, dst: Path) -> str:
    tmp = dst.with_name(f".{dst.name}.tmp")
    shutil.copyfile(src, tmp)
    os.replace(tmp, dst)
    return "copied"


def write_derived(dst: Path, data: bytes) -> str:
    write_bytes_atomic(dst, data, fsync=False)  # staged: the export is renamed into place when complete
    return "derived"


def length_stats(values: list[int]) -> dict[str, float]:
    if not values:
        return {}
    s = sorted(values)
    pick = lambda q: s[min(len(s) - 1, int(q * len(s)))]  # noqa: E731
    return {"count": len(s), "mean": round(sum(s) / len(s), 1), "p50": pick(0.5), "p95": pick(0.95), "max": s[-1],
            "total": sum(s)}


def deciding_party(status, record: dict | None) -> str:
    """Who let an exported episode through: the judge that passed it, else the reviewers who decided the steps
    the judge failed (``human:<reviewers>``).

    >>> from sftdata.judge.status import JudgeStatus
    >>> deciding_party(JudgeStatus(False, "rules:r:r", [], 3), {"review": {"1": {"reviewer": "ann"}}})
    'human:ann'
    """
    if status.passed:
        return status.judge
    reviewers = sorted({str(r.get("reviewer")) for r in ((record or {}).get("review") or {}).values()
                        if isinstance(r, dict) and r.get("reviewer")})
    return f"human:{','.join(reviewers) or 'unnamed'}"


def training_warnings(opts: ExportOptions) -> list[str]:
    """What the user should know about how Swift will train this export."""
    caveat = FAMILIES[opts.family].template.agent.caveat  # what Swift's agent template does to the rows
    return [caveat] if opts.agent_tools and caveat else []


def write_shards(stage: Path, split: str, spool, offsets: list[tuple[int, int]],
                  opts: ExportOptions) -> tuple[list[str], dict[str, Any], list[int]]:
    """Write ``split``'s samples in pack order; returns the shard names, the packing figures and the lengths
    in shard row order."""
    if not offsets:
        return [], {}, []
    lengths = [length for _, length in offsets]
    bins = best_fit_decreasing(lengths, opts.max_length)
    order = pack_order(lengths, opts.max_length)
    count = max(1, -(-len(order) // opts.shard_size))
    names = [f"{split}-{i:05d}-of-{count:05d}.jsonl" for i in range(count)]
    spool.flush()
    spool.seek(0)
    for i, name in enumerate(names):
        with open(stage / name, "w", encoding="utf-8") as f:
            for idx in order[i * opts.shard_size:(i + 1) * opts.shard_size]:
                spool.seek(offsets[idx][0])
                f.write(spool.readline().decode("utf-8"))
    lower = lower_bound_bins(lengths, opts.max_length)
    return names, {"packs": len(bins), "lower_bound_packs": lower, "max_length": opts.max_length,
                   "efficiency": round(packing_efficiency(lengths, bins, opts.max_length), 4),
                   "lower_bound_efficiency": round(sum(lengths) / (lower * opts.max_length), 4)}, \
        [lengths[idx] for idx in order]


# what to do about a drop reason, where the user can do something
DROP_HINTS = {
    "no_accessibility_tree": "screens without an accessibility tree (annotated folders) get OCR text elements from "
                             "`sftdata ingest annotated ROOT --out RUN --ocr` (the ocr extra); formats that point by "
                             "coordinates (react-zh, qwen2.5-vl, ui-tars, ...) need no tree",
}


def drop_hint(reasons) -> str:
    """``: what to do`` for the first of ``reasons`` that has a hint, else ''."""
    return next((f": {DROP_HINTS[r]}" for r in reasons if r in DROP_HINTS), "")


def check_not_empty(result: ExportResult, opts: ExportOptions) -> None:
    """An export with no train sample is an error, not a train.sh with an empty --dataset."""
    if result.samples.get("train"):
        return
    if result.samples.get("val"):
        why = f"all {result.samples['val']} samples went to validation (--split-ratio {opts.split_ratio})"
    elif result.dropped:
        why = "every step was dropped (" + ", ".join(f"{k} {v}" for k, v in result.dropped.most_common()) + ")" \
            + drop_hint(result.dropped)
    else:
        why = "the run has no episode to export"
    raise NothingProduced(f"nothing to export: {why}; nothing was written")


# Bumped when the same inputs and options would export differently (2: exact Qwen lengths, shard-ordered lengths)
EXPORT_VERSION = 2


def export_fingerprint(run: RunDir, opts: ExportOptions) -> dict[str, Any]:
    def stat(p: Path) -> list[int] | None:
        return [p.stat().st_size, int(p.stat().st_mtime)] if p.exists() else None
    try:
        opts = replace(opts, family=resolve_family(get_format(opts.format), opts.family))
    except (KeyError, ValueError):
        pass  # export_run reports it
    return {"version": EXPORT_VERSION, "episodes": stat(run.episodes_path), "annotations": stat(run.path / ANNOTATIONS),
            "reviews": stat(run.path / REVIEWS),
            "judgements": stat(run.path / JUDGEMENTS),
            "options": json.loads(json.dumps({k: v for k, v in asdict(opts).items()
                                              if k not in ("progress", "workers")}, default=str))}
