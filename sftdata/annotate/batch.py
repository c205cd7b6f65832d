"""The ``batch`` backend: OpenAI Batch API files instead of live requests.

``write_requests`` writes one ``/v1/chat/completions`` request line per episode window (``custom_id`` =
``<episode id>::<start>-<end>``), exactly the first-attempt request the live backend would send. ``import_results``
reads the Batch API's output lines back through the same parser and alignment check: an episode whose windows all
pass is annotated; one with a failing window is rejected with every reason (re-run those with the live backend,
which repairs); one whose windows are not all in the file is left for a later import.
"""
from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from ..errors import FatalError
from ..model import Episode
from ..rundir import RunDir
from ..llm.backends import chat_body, clean_usage
from ..llm.batch import BatchReplyError, result_text
from ..checks.check import Failure, check_items
from .annotator import AnnotateOptions, Annotator, split_windows
from .prompt import structured_format


class BodyOnly:
    """Builds request bodies like the openai backend, without a client or a key."""

    def __init__(self, opts: AnnotateOptions) -> None:
        if not opts.model:
            raise FatalError("the batch backend needs --model (it is written into every request)")
        self.model, self.opts = opts.model, opts

    def body(self, messages: list[dict]) -> dict[str, Any]:
        return chat_body(self.model, messages, self.opts.max_tokens, self.opts.temperature,
                         structured_format() if self.opts.structured else None)


def custom_id(episode_id: str, start: int, end: int) -> str:
    return f"{episode_id}::{start}-{end}"


def requests_of(annotator: Annotator, episode: Episode):
    """``(custom_id, body)`` of each window's first-attempt request."""
    for start, end in split_windows(len(episode.steps), annotator.opts.window):
        yield custom_id(episode.id, start, end), annotator.backend.body(annotator.messages(episode, start, end))


def _reply_text(line: dict[str, Any]) -> tuple[str | None, Failure | None, dict]:
    try:
        text, usage = result_text(line)
    except BatchReplyError as exc:
        reason = "reply_truncated" if exc.reason == "truncated" else exc.reason
        return None, Failure(None, reason, exc.detail), exc.usage
    return text, None, usage


def record_of(stage: Any, episode: Episode, lines: list[dict]) -> Any:
    """An episode's annotation from its windows' result lines, or its reject with every failure (an
    :class:`~sftdata.annotate.stage.AnnotateStage` importing)."""
    annotator, opts = stage.annotator, stage.opts
    windows = split_windows(len(episode.steps), opts.window)
    items: list[dict] = []
    failures: list[Failure] = []
    usage: Counter = Counter()
    for (start, end), line in zip(windows, lines):
        text, failure, used = _reply_text(line)
        used = clean_usage(used)  # NaN, negative or string counts are left out and counted as unknown
        usage.update(used)
        annotator.stats["usage_unknown"] += len(used) < 2
        if failure is None:
            got, failure_list = annotator.judge(text, episode, episode.steps[start:end], end == len(episode.steps))
            items += got
            failures += failure_list
        else:
            failures.append(failure)
    failures = failures or check_items(items, episode)
    annotator.stats.update(usage)
    if failures:
        return stage.rejected(episode, failures, 1)
    return {"id": episode.id, "source": episode.source, "backend": "batch", "model": opts.model,
            "prompt_version": annotator.prompt_for(episode).version, "attempts": 1, "windows": len(windows),
            "items": items, "usage": dict(usage), "requests": len(windows), "cache_hits": 0}


def write_requests(run: RunDir, opts: AnnotateOptions, path: Path) -> int:
    """Write the request lines of every episode not yet annotated; returns how many lines."""
    from .stage import AnnotateStage
    return AnnotateStage(run, opts).write_requests(path)


def import_results(run: RunDir, opts: AnnotateOptions, path: Path):
    """Annotate the episodes whose every window has a result line in ``path``."""
    from .stage import annotate_run
    return annotate_run(run, opts, results=path)
