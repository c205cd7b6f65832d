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
from ..io import Ledger, atomic_path
from ..annotate.annotator import split_windows
from ..llm.batch import BatchReplyError, read_results, request_line, result_text
from ..annotate.parse import ReplyError
from ..stage import StageRun
from ..rundir import RunDir
from .llm import JudgeFailed, LLMJudge
from .prompt import load_judge_prompt
from .stage import (ANNOTATIONS, JUDGEMENTS, STAGE, JudgeOptions, JudgeResult, _annotation_ref, _done, _record,
                    _todo, _Writer, model_verdicts)
from .verdict import Judgement, annotation_digest, parse_verdict


class _BodyOnly:
    """What :class:`LLMJudge` needs of a backend to build request bodies: no client, no key."""

    endpoint = ""

    def __init__(self, opts: JudgeOptions) -> None:
        if not opts.model:
            raise FatalError("the batch backend needs --model (it is written into every request)")
        self.model, self.max_tokens, self.temperature = opts.model, opts.max_tokens, opts.temperature


def custom_id(episode_id: str, start: int, end: int) -> str:
    """>>> custom_id("7", 0, 10)
    'judge::7::0-10'
    """
    return f"judge::{episode_id}::{start}-{end}"


def _setup(run: RunDir, opts: JudgeOptions, result: JudgeResult | None = None):
    if not (run.path / ANNOTATIONS).exists():
        raise FatalError(f"{run.path} has no annotations.jsonl: run `sftdata annotate` first")
    opts.backend = "batch"
    judge = LLMJudge(run.path, _BodyOnly(opts), load_judge_prompt(opts.prompt_file), window=opts.window,
                     image_max_side=opts.image_max_side, image_format=opts.image_format, structured=opts.structured)
    annotations = run.latest_annotations()
    digests = {eid: annotation_digest(r.get("items", [])) for eid, r in annotations.items()}
    done = _done(run, opts, judge.model, judge.prompt.version, digests)
    return judge, annotations, digests, _todo(run, opts, annotations, done, result)


def write_judge_requests(run: RunDir, opts: JudgeOptions, path: Path) -> int:
    """Write the request lines of every episode not yet judged; returns how many lines."""
    judge, _, _, todo = _setup(run, opts)
    lines = 0
    try:
        with atomic_path(path) as tmp, open(tmp, "w", encoding="utf-8") as out:
            for episode, record in todo:
                items = record.get("items", [])
                for start, end in split_windows(len(episode.steps), opts.window):
                    body = judge.body(judge.messages(episode, items, start, end))
                    out.write(request_line(custom_id(episode.id, start, end), body) + "\n")
                    lines += 1
    finally:
        judge.pool.shutdown()
    return lines


def _text(line: dict[str, Any]) -> tuple[str, dict]:
    """The reply text of one result line, or a ReplyError saying why there is none."""
    try:
        return result_text(line)
    except BatchReplyError as exc:
        if exc.reason == "truncated":
            raise ReplyError("judge_truncated", "the verdict was cut off by max_tokens") from None
        raise ReplyError(exc.reason, exc.detail) from None


def import_judge_results(run: RunDir, opts: JudgeOptions, path: Path) -> JudgeResult:
    """Judge the episodes whose every window has a result line in ``path``."""
    results = read_results(path, run, prefix="judge::")
    stage = StageRun(run, STAGE, "verdicts")
    result = JudgeResult()
    judge, annotations, digests, todo = _setup(run, opts, result)
    model, version = judge.model, judge.prompt.version
    try:
        with Ledger(run.path / JUDGEMENTS) as judgements, run.open_rejects() as rejects:
            writer = _Writer(run, judgements, rejects, result)
            for episode, record in todo:
                windows = split_windows(len(episode.steps), opts.window)
                lines = [results.get(custom_id(episode.id, s, e)) for s, e in windows]
                if any(line is None for line in lines):
                    continue
                verdicts, usage, ep_verdict = [], Counter(), None
                ref = _annotation_ref(record, digests[episode.id])
                try:
                    for (start, end), line in zip(windows, lines):
                        text, used = _text(line)
                        usage.update(used)
                        got, ep_verdict = parse_verdict(text, end - start, start + 1)
                        verdicts += got
                except ReplyError as exc:
                    writer.no_verdict(episode, JudgeFailed(exc.reason, exc.detail, 1, False),
                                      {"backend": "batch", "model": model, "prompt_version": version,
                                       "min_score": opts.min_score, "annotation": ref})
                    continue
                judge.stats.update(usage)
                verdicts = model_verdicts(verdicts, episode, record, opts)
                writer.verdict(episode, Judgement(episode.id, "batch", model, version, verdicts, ep_verdict,
                                                  opts.min_score, ref, dict(usage)))
    finally:
        judge.pool.shutdown()
        _record(stage, opts, model, version, judge, result, digests)
    return result
