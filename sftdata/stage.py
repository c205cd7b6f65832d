"""The contract every stage follows (ingest, annotate, judge, export, report), in the way datatrove's pipeline
steps share one executor's bookkeeping:

- **inputs and fingerprint**: a stage that reads files names them with their options (:func:`fingerprint`);
- **skip**: an entry of the run's manifest that finished with the same fingerprint is not redone
  (:attr:`StageRun.unchanged`);
- **resume**: finished work is ledgered unit by unit (a record, an episode, an export), so a killed stage
  resumes where it stopped; the manifest entry is written last (:meth:`StageRun.finish`), accumulating the
  elapsed time and the LLM counters of earlier invocations;
- **ledger reasons**: everything a stage drops is in ``rejects.jsonl`` under its stage name with a
  machine-readable reason; its counts are read back from the ledger (:meth:`StageRun.reasons`), so they hold
  across kills.

>>> import tempfile
>>> from sftdata.rundir import RunDir
>>> run = RunDir(tempfile.mkdtemp())
>>> first = StageRun(run, "ingest", "sample", fingerprint={"inputs": [], "options": {}})
>>> first.unchanged, sorted(first.finish({"counts": {"exported": 3}}))
(False, ['counts', 'elapsed_s', 'fingerprint', 'finished'])
>>> StageRun(run, "ingest", "sample", fingerprint={"inputs": [], "options": {}}).unchanged
True
"""
from __future__ import annotations

import json
import math
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping

from .errors import FatalError
from .io import disk_full_guard, text_for_output

# what an LLM stage counts, summed over its invocations
LLM_STATS = ("requests", "retries", "cache_hits", "prompt_tokens", "completion_tokens", "usage_unknown",
             "failed_requests")


def fingerprint(paths: Iterable[Path], options: dict[str, Any]) -> dict[str, Any]:
    """A stage's inputs (path, size, mtime of each file) and options: equal fingerprints, equal work."""
    inputs = []
    for p in paths:
        st = p.stat()
        inputs.append({"path": text_for_output(str(p.resolve())), "size": st.st_size, "mtime": int(st.st_mtime)})
    return {"inputs": inputs, "options": options}


def output_key(run: Any, path: str | Path) -> str:
    """How a stage that writes ``path`` (an export, a report) is keyed in the manifest: relative to the run
    directory when inside it, else the whole path."""
    path = Path(path).resolve()
    try:
        return str(path.relative_to(run.path.resolve()))
    except ValueError:
        return text_for_output(str(path))


def _count(value: Any) -> int | None:
    """A running total read back from the manifest, if it is one (a non-negative integer)."""
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        value = int(value)
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def public_options(opts: Any) -> dict[str, Any]:
    """An options record as the manifest keeps it: no progress flag, an endpoint without credentials."""
    options = {k: v for k, v in asdict(opts).items() if k != "progress"}
    if "base_url" in options:
        from .llm.backends import redact_url
        options["base_url"] = redact_url(options["base_url"])  # never a key from its userinfo or query
    return options


def llm_cost(stats: Mapping[str, int], price_in: float | None, price_out: float | None) -> float | None:
    """What the tokens cost at the given prices per million (None when no price is given)."""
    if price_in is None and price_out is None:
        return None
    return round(stats.get("prompt_tokens", 0) / 1e6 * (price_in or 0)
                 + stats.get("completion_tokens", 0) / 1e6 * (price_out or 0), 6)


@dataclass
class StageRun:
    """One invocation of a stage on a run: its manifest entry ``stages[stage][key]`` before and after."""

    run: Any  # RunDir
    stage: str
    key: str
    fingerprint: dict[str, Any] | None = None
    resumes: bool = True  # False: every invocation does the whole work again (export, report), so no time adds up
    started: float = field(default_factory=time.monotonic)
    previous: dict[str, Any] = field(init=False)

    def __post_init__(self) -> None:
        entry = self.run.manifest().get("stages", {}).get(self.stage, {}).get(self.key, {})
        self.previous = entry if isinstance(entry, dict) else {}

    @property
    def unchanged(self) -> bool:
        """Did an earlier invocation finish on the same inputs and options?"""
        return (self.fingerprint is not None and bool(self.previous.get("finished"))
                and self.previous.get("fingerprint") == self.fingerprint)

    def elapsed_s(self) -> float:
        """Seconds spent so far, earlier invocations included."""
        before = self.previous.get("elapsed_s") if self.resumes else 0.0
        before = before if isinstance(before, (int, float)) and math.isfinite(before) and before >= 0 else 0.0
        return round(before + time.monotonic() - self.started, 3)

    def llm_stats(self, new: Mapping[str, int]) -> Counter:
        """The LLM counters of earlier invocations (those that are counts) plus ``new``."""
        earlier = self.previous.get("llm") if isinstance(self.previous.get("llm"), dict) else {}
        stats = Counter({k: n for k, v in earlier.items() if k in LLM_STATS and (n := _count(v)) is not None})
        stats.update({k: v for k, v in new.items() if k in LLM_STATS})
        return stats

    def reasons(self, stage: str | None = None, source: str | None = None,
                unless: set[str] | None = None) -> dict[str, int]:
        """Counts by reason of this stage's entries in the rejects ledger (of ``source``; not of the episode
        ids in ``unless``)."""
        stage = stage or self.stage
        counts: Counter = Counter()
        for r in self.run.rejects():
            if r.get("stage") != stage or (source is not None and r.get("source") != source):
                continue
            if unless is not None and str(r.get("episode_id")) in unless:
                continue
            counts[r["reason"]] += 1
        return dict(counts)

    def finish(self, entry: dict[str, Any]) -> dict[str, Any]:
        """Write the stage's manifest entry: ``entry`` with the accumulated ``elapsed_s`` (and, for a stage
        with a fingerprint, ``finished`` and the fingerprint, so an unchanged rerun skips)."""
        full = {**entry, "elapsed_s": self.elapsed_s()}
        if self.fingerprint is not None:
            full = {"finished": True, "fingerprint": self.fingerprint, **full}
        try:
            json.dumps(full, allow_nan=False)
        except ValueError:
            raise FatalError(f"refusing to write a non-finite number into the manifest ({self.stage}); "
                             "this is a bug") from None
        with disk_full_guard(self.run.manifest_path):
            self.run.update_manifest(self.stage, self.key, full)
        return full
