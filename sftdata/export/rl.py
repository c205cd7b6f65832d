"""RL rows (``sftdata export --rl``): the SFT sample's prompt without its answer, and the ground truth.

A row is ``{"id": "EPISODE:STEP", "messages": [system, user], "images": [...], "solution": "<json>"}``: the
same system and user message, the same images at the same resolution rules as the SFT sample of that step
(it is built by :func:`~sftdata.export.samples.build_sample` and its answer taken off), so a step the format
cannot say is dropped for the same reason. ``solution`` is JSON text (:mod:`sftdata.rewards.solution`), one
string column, so that every row has the same columns for ms-swift's and Hugging Face's loaders; ms-swift's
GRPO passes it to the reward functions, verl takes it as ``ground_truth``.
"""
from __future__ import annotations

import json

from ..formats.base import AgentFormat, StepContext
from ..rewards.solution import solution_of
from .samples import Sample, build_sample


def row_id(ctx: StepContext) -> str:
    """``EPISODE:STEP`` (the step counted from 0), the id predictions are matched by.

    >>> from types import SimpleNamespace as NS
    >>> row_id(NS(episode=NS(id="100003"), index=2))
    '100003:2'
    """
    return f"{ctx.episode.id}:{ctx.index}"


def build_rl_sample(fmt: AgentFormat, ctx: StepContext, image_prefix: str) -> Sample:
    """The RL row of ``ctx`` in ``fmt``; raises CannotExpress as the SFT sample does."""
    sample = build_sample(fmt, ctx, image_prefix)
    messages = sample.record["messages"]
    answer = messages.pop()["content"]
    rid = row_id(ctx)
    solution = json.dumps(solution_of(fmt, ctx, answer, rid), ensure_ascii=False, separators=(",", ":"))
    sample.record = {"id": rid, "messages": messages, "images": sample.record["images"], "solution": solution}
    sample.text = "\n".join(m["content"] for m in messages)
    return sample
