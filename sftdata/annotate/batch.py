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

from ..errors import FatalError, RecordError
from ..io import Ledger, atomic_path
from ..stage import StageRun
from ..rundir import RunDir
from ..llm.backends import chat_body, clean_usage
from ..llm.batch import BatchReplyError, read_results, request_line, result_text
from ..checks.check import Failure, check_items
from .prompt import structured_format
from .stage import ANNOTATIONS, STAGE, AnnotateOptions, AnnotateResult, Annotator, _done_ids, _record, split_windows


class _BodyOnly:
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


def _todo(run: RunDir, opts: AnnotateOptions, prompt_versions: frozenset[str]):
    done = _done_ids(run, "batch", opts.model or "", prompt_versions)
    wanted = set(opts.episode_ids) if opts.episode_ids else None
    count = 0
    for episode in run.episodes():
        if episode.id in done or (wanted is not None and episode.id not in wanted):
            continue
        if opts.limit is not None and count >= opts.limit:
            return
        count += 1
        yield episode


def write_requests(run: RunDir, opts: AnnotateOptions, path: Path) -> int:
    annotator = Annotator(run, opts, backend=_BodyOnly(opts))
    lines = 0
    with atomic_path(path) as tmp, open(tmp, "w", encoding="utf-8") as out:
        for episode in _todo(run, opts, annotator.prompt_versions):
            for start, end in split_windows(len(episode.steps), opts.window):
                body = annotator.backend.body(annotator.messages(episode, start, end))
                out.write(request_line(custom_id(episode.id, start, end), body) + "\n")
                lines += 1
    annotator.pool.shutdown()
    return lines


def _reply_text(line: dict[str, Any]) -> tuple[str | None, Failure | None, dict]:
    try:
        text, usage = result_text(line)
    except BatchReplyError as exc:
        reason = "reply_truncated" if exc.reason == "truncated" else exc.reason
        return None, Failure(None, reason, exc.detail), exc.usage
    return text, None, usage


def import_results(run: RunDir, opts: AnnotateOptions, path: Path) -> AnnotateResult:
    results = read_results(path, run)
    annotator = Annotator(run, opts, backend=_BodyOnly(opts))
    result = AnnotateResult()
    stage = StageRun(run, STAGE, "reconstruction")
    with Ledger(run.path / ANNOTATIONS) as annotations, run.open_rejects() as rejects:
        for episode in _todo(run, opts, annotator.prompt_versions):
            version = annotator.prompt_for(episode).version
            windows = split_windows(len(episode.steps), opts.window)
            lines = [results.get(custom_id(episode.id, s, e)) for s, e in windows]
            if any(line is None for line in lines):
                continue
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
                first = failures[0]
                rejects.append({**run.reject_record(STAGE, episode.source, RecordError(first.reason, first.detail),
                                                    episode_id=episode.id),
                                "backend": "batch", "model": opts.model, "prompt_version": version,
                                "attempts": 1, "failures": [f.to_dict() for f in failures]})
                result.new_rejected += 1
            else:
                annotations.append({"id": episode.id, "source": episode.source, "backend": "batch",
                                    "model": opts.model, "prompt_version": version, "attempts": 1,
                                    "windows": len(windows), "items": items, "usage": dict(usage),
                                    "requests": len(windows), "cache_hits": 0})
                result.new_annotated += 1
    annotator.pool.shutdown()
    _record(stage, opts, annotator, result)
    return result
