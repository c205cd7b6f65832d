"""The accounting every hostile case ends with: each input that entered a run is exported or in a rejects ledger
with a machine-readable reason (issue 11: ``ingested == exported + rejected``, checked after each case).

:func:`assert_accounted` reads only what a run writes (episodes.jsonl, rejects.jsonl, annotations.jsonl, the
run manifest and every export's manifest.json/splits.json), never the code's own counters. The autouse fixture in
conftest.py calls it, after each test, on every run directory the test left under its ``tmp_path`` (a directory
whose manifest records an ingest); a test that knows how many inputs it fed calls it itself with ``inputs=N``.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path


REASON = re.compile(r"^[a-z][a-z0-9_]*$")  # a stable snake_case code, as RecordError.reason


@dataclass
class Accounting:
    """What one run's ledgers say. ``exports`` maps an export directory to (exported ids, dropped id -> reason)."""

    episodes: set[str] = field(default_factory=set)
    ingest_rejects: int = 0
    annotated: set[str] = field(default_factory=set)
    annotate_rejected: dict[str, str] = field(default_factory=dict)
    pending: set[str] = field(default_factory=set)
    exports: dict[Path, tuple[set[str], dict[str, str]]] = field(default_factory=dict)


def _lines(path: Path) -> list[dict]:
    if not path.exists():
        return []
    out = []
    for number, raw in enumerate(path.read_bytes().splitlines(), 1):
        assert raw.strip(), f"{path}:{number}: blank line in a ledger"
        out.append(json.loads(raw))  # a ledger of ours holds strict JSON only (no NaN, no torn tail)
    return out


def is_run(path: Path) -> bool:
    """``path`` holds a run that an ingest wrote (its manifest records one)."""
    try:
        manifest = json.loads((path / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(manifest, dict) and bool(manifest.get("stages", {}).get("ingest"))


def assert_accounted(run_dir: str | Path, inputs: int | None = None, *, pending: int | None = None,
                     stopped: bool = False, exports: tuple[str | Path, ...] = ()) -> Accounting:
    """Assert that nothing that entered ``run_dir`` was lost, and return what the ledgers hold.

    - every rejects line has a ``stage`` and a snake_case ``reason``; episode ids are unique;
    - ingest: episodes + ingest rejects == ``inputs`` (when given) and == the manifest's ``counts.in``;
    - annotate (when annotations.jsonl exists): once the stage's manifest entry says it finished (its counts
      match the files) and deferred nothing, every episode is annotated or rejected at annotate; episodes left
      for a rerun (an endpoint outage, a fatal stop) are allowed only before that (``pending``: how many);
    - export (every ``run_dir/export/*`` plus ``exports``): every episode is exported (train or val) or has a
      reason (dropped by the export, rejected at annotate or at ``export:NAME``), and exported ids are episodes.
    """
    run = Path(run_dir)
    acc = Accounting()
    records = _lines(run / "episodes.jsonl")
    ids = [str(r["id"]) for r in records]
    assert len(ids) == len(set(ids)), f"{run}: an episode is in episodes.jsonl twice: " \
                                      f"{sorted(i for i in set(ids) if ids.count(i) > 1)}"
    acc.episodes = set(ids)

    rejects = _lines(run / "rejects.jsonl")
    for r in rejects:
        assert r.get("stage") and REASON.match(str(r.get("reason"))), f"{run}: reject without stage/reason: {r}"
    ingest = [r for r in rejects if r["stage"] == "ingest"]
    # a rejected input that a later ingest read successfully (its task.json was fixed) counts once, as an episode;
    # a second input under an id already taken is an input of its own (duplicate_episode)
    acc.ingest_rejects = sum(1 for r in ingest if r.get("episode_id") is None or r["reason"] == "duplicate_episode"
                             or str(r["episode_id"]) not in acc.episodes)
    entered = len(acc.episodes) + acc.ingest_rejects
    if inputs is not None:
        assert entered == inputs, (f"{run}: {inputs} inputs but {len(acc.episodes)} episodes + "
                                   f"{acc.ingest_rejects} ingest rejects")
    manifest = json.loads((run / "manifest.json").read_text(encoding="utf-8")) if (run / "manifest.json").exists() \
        else {}
    counted = [e.get("counts", {}).get("in") for e in manifest.get("stages", {}).get("ingest", {}).values()]
    if counted and all(isinstance(n, int) for n in counted):
        assert sum(counted) == entered, f"{run}: manifest says {sum(counted)} ingested, ledgers hold {entered}"

    if (run / "annotations.jsonl").exists():
        acc.annotated = {str(r["id"]) for r in _lines(run / "annotations.jsonl")}
        assert acc.annotated <= acc.episodes, f"{run}: annotations of unknown episodes {acc.annotated - acc.episodes}"
        acc.annotate_rejected = {str(r["episode_id"]): r["reason"] for r in rejects
                                 if r["stage"] == "annotate" and str(r["episode_id"]) not in acc.annotated}
        acc.pending = acc.episodes - acc.annotated - set(acc.annotate_rejected)
        entry = manifest.get("stages", {}).get("annotate", {}).get("reconstruction", {})
        # the stage says it finished over every episode (its counts match the files, no --episodes filter) and left
        # nothing for a rerun: then nothing pends. A run stopped by a fatal error (``stopped``) has not finished.
        finished = bool(entry) and not stopped and not (entry.get("options") or {}).get("episode_ids") \
            and entry.get("counts", {}).get("annotated") == len(acc.annotated) \
            and entry.get("counts", {}).get("rejected") == len(acc.annotate_rejected)
        if finished and not entry.get("deferred", {}).get("count"):
            assert not acc.pending, \
                f"{run}: annotate finished but left episodes neither annotated nor rejected: {sorted(acc.pending)[:5]}"
    if pending is not None:
        assert len(acc.pending) == pending, f"{run}: {len(acc.pending)} episodes left for a rerun, expected {pending}"

    for out in sorted({*run.glob("export/*/"), *map(Path, exports)}):
        if not (out / "manifest.json").exists():
            continue
        export = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
        splits = json.loads((out / "splits.json").read_text(encoding="utf-8"))
        exported = {str(i) for part in splits.values() for i in part}
        dropped = {str(k): v for k, v in export.get("dropped_episodes", {}).items()}
        assert all(REASON.match(str(v)) for v in dropped.values()), f"{out}: dropped without a reason code {dropped}"
        assert exported <= acc.episodes, f"{out}: exported episodes that were never ingested {exported - acc.episodes}"
        assert not exported & set(dropped), f"{out}: exported and dropped {exported & set(dropped)}"
        stage = f"export:{out.name}"
        reasoned = set(dropped) | set(acc.annotate_rejected) | {str(r["episode_id"]) for r in rejects
                                                                 if r["stage"] == stage}
        lost = acc.episodes - exported - reasoned
        assert not lost, f"{out}: episodes neither exported nor rejected with a reason: {sorted(lost)[:5]}"
        acc.exports[out] = (exported, dropped)
    return acc
