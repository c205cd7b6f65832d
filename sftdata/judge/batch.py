"""The judge's ``batch`` backend: OpenAI Batch API files instead of live requests.

``write_judge_requests`` writes one request line per episode window (``custom_id`` = ``judge::<episode
id>::<start>-<end>``), the first-attempt request the live judge would send. ``import_judge_results`` reads the
Batch API's output lines back through the same verdict parser: an episode whose windows all parse is judged
(``judgements.jsonl``, backend ``batch``, failing ones ledgered as ``judge_<field>``); one with an unusable answer is
ledgered with the parser's reason (judge it again with the live backend, which re-asks); one whose windows are
not all in the file is left for a later import.
"""
from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from ..errors import FatalError
from ..model import Episode
from ..annotate.annotator import split_windows
from ..llm.backends import OpenAIBackend
from ..llm.batch import BatchReplyError, result_text
from ..annotate.parse import ReplyError
from ..rundir import RunDir
from .llm import JudgeFailed, LLMJudge
from .options import JudgeOptions
from .prompt import load_judge_prompt
from .verdict import parse_verdict


class _BodyOnly:
    """What :class:`LLMJudge` needs of a backend to build request bodies: no client, no key."""

    endpoint = ""

    def __init__(self, opts: JudgeOptions) -> None:
        if not opts.model:
            raise FatalError("the batch backend needs --model (it is written into every request)")
        self.model, self.max_tokens, self.temperature = opts.model, opts.max_tokens, opts.temperature


def make_judge(run: RunDir, opts: JudgeOptions, backend: Any = None) -> LLMJudge:
    """The judge model's client: ``backend``, or the openai backend (the batch one: request bodies only)."""
    if opts.backend == "batch":
        backend = _BodyOnly(opts)
    elif backend is None:
        backend = OpenAIBackend(model=opts.model or "", base_url=opts.base_url, api_key_env=opts.api_key_env,
                                timeout=opts.timeout, max_retries=opts.max_retries, max_tokens=opts.max_tokens,
                                temperature=opts.temperature)
    return LLMJudge(run.path, backend, load_judge_prompt(opts.prompt_file), window=opts.window,
                    max_attempts=opts.max_attempts, concurrency=opts.concurrency, image_max_side=opts.image_max_side,
                    image_format=opts.image_format, structured=opts.structured)


def custom_id(episode_id: str, start: int, end: int) -> str:
    """>>> custom_id("7", 0, 10)
    'judge::7::0-10'
    """
    return f"judge::{episode_id}::{start}-{end}"


def ids_of(stage: Any, episode: Episode) -> list[str]:
    return [custom_id(episode.id, s, e) for s, e in split_windows(len(episode.steps), stage.opts.window)]


def requests_of(stage: Any, episode: Episode, record: dict):
    """``(custom_id, body)`` of each window's first-attempt request."""
    items = record.get("items", [])
    for start, end in split_windows(len(episode.steps), stage.opts.window):
        yield custom_id(episode.id, start, end), stage.judge.body(stage.judge.messages(episode, items, start, end))


def _text(line: dict[str, Any]) -> tuple[str, dict]:
    """The reply text of one result line, or a ReplyError saying why there is none."""
    try:
        return result_text(line)
    except BatchReplyError as exc:
        if exc.reason == "truncated":
            raise ReplyError("judge_truncated", "the verdict was cut off by max_tokens") from None
        raise ReplyError(exc.reason, exc.detail) from None


def judgement_of(stage: Any, episode: Episode, record: dict, lines: list[dict]) -> Any:
    """An episode's judgement from its windows' result lines, or its no-verdict reject (a
    :class:`~sftdata.judge.stage.JudgeStage` importing)."""
    from .stage import model_verdicts

    windows = split_windows(len(episode.steps), stage.opts.window)
    verdicts, usage, ep_verdict = [], Counter(), None
    try:
        for (start, end), line in zip(windows, lines):
            text, used = _text(line)
            usage.update(used)
            got, ep_verdict = parse_verdict(text, end - start, start + 1)
            verdicts += got
    except ReplyError as exc:
        return stage.no_verdict(episode, record, JudgeFailed(exc.reason, exc.detail, 1, False))
    stage.stats.update(usage)
    return stage.judgement(episode, record, model_verdicts(verdicts, episode, record, stage.opts), ep_verdict,
                           dict(usage))


def write_judge_requests(run: RunDir, opts: JudgeOptions, path: Path) -> int:
    """Write the request lines of every episode not yet judged; returns how many lines."""
    from .stage import JudgeStage
    return JudgeStage(run, opts).write_requests(path)


def import_judge_results(run: RunDir, opts: JudgeOptions, path: Path):
    """Judge the episodes whose every window has a result line in ``path``."""
    from .stage import judge_run
    return judge_run(run, opts, results=path)
