"""One episode -> its samples, as a picklable unit of work for the export's process pool.

The worker gets the episode's raw JSON line and its annotation record, builds every step's sample in the
chosen format, measures it, and hands back plain data: the sample lines with their token counts and images,
and why the other steps were dropped.
"""
from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ..errors import FatalError, RecordError
from ..formats import get_format
from ..checks.certify import certify_items
from ..formats.base import StepContext
from ..model import Episode
from ..values import episode_id_of
from .lengths import LengthModel
from . import som
from .rl import build_rl_sample
from .samples import build_sample, image_name

_ID = re.compile(r'^\{"id":("(?:[^"\\]|\\.)*")')
_LENGTH_MODELS: dict[tuple, LengthModel] = {}


def episode_id(line: str) -> str:
    """The id of an episodes.jsonl line without parsing the whole line (ours start with the id).

    >>> episode_id('{"id":"20","source":"androidcontrol"}')
    '20'
    """
    m = _ID.match(line)
    if m:
        return json.loads(m.group(1))
    try:
        record = json.loads(line)
        return episode_id_of(record["id"])
    except (ValueError, KeyError, TypeError, RecursionError, RecordError) as exc:
        raise FatalError(f"episodes.jsonl: a line is not an episode with an id ({exc}): {line[:80]!r}") from None


@dataclass
class EpisodeSamples:
    id: str
    samples: list[tuple[str, int, int, list[tuple[str, str, int]]]] = field(default_factory=list)
    # (JSON line, text tokens, image tokens, [(screenshot path in the run, exported name, pixels)])
    reasons: Counter = field(default_factory=Counter)
    derived: dict[str, tuple[bytes, dict]] = field(default_factory=dict)  # --som copies: name -> (PNG, origin)
    cropped: dict[str, dict] = field(default_factory=dict)  # web crops: exported name -> {page, box} it was cut from
    held_back: list[dict] = field(default_factory=list)  # steps the checks did not certify: step, outcome, reason
    outcomes: Counter = field(default_factory=Counter)  # the checks' outcome of every annotated step


def episode_samples(task: tuple[str, dict | None, Any, str, str]) -> EpisodeSamples:
    line, record, opts, run_path, image_prefix = task
    from pathlib import Path

    fmt = get_format(opts.format)
    key = (opts.family, opts.max_pixels, opts.min_pixels, opts.tokenizer)
    if key not in _LENGTH_MODELS:
        _LENGTH_MODELS[key] = LengthModel(*key)
    lengths = _LENGTH_MODELS[key]
    try:
        episode = Episode.from_json(line)
    except RecordError as exc:  # not an episode (or a bad value in it): dropped with its reason, never invented
        out = EpisodeSamples(episode_id(line))
        out.reasons[exc.reason] += 1
        return out
    out = EpisodeSamples(episode.id)
    items = record["items"] if record else None
    if items is not None and len(items) != len(episode.steps):
        out.reasons["episode_annotation_mismatch"] += 1
        return out
    human_rejected = set(record.get("human_rejected") or ()) if record else set()
    judge_vetoed = set(record.get("judge_vetoed") or ()) if record else set()
    held_steps = held_back(episode, record, opts.include_unsure, out) if items is not None else {}
    held = {i: h["outcome"] for i, h in held_steps.items()}
    for index in range(len(episode.steps)):
        if index in human_rejected:
            out.reasons["human_rejected"] += 1  # a reviewer rejected this step (sftdata review import)
            continue
        if index in judge_vetoed:
            out.reasons["judge_rejected"] += 1  # the judge failed it and no reviewer decided it
            continue
        if opts.ineffective == "drop" and episode.steps[index].meta.get("ineffective") is True:
            out.reasons["ineffective_step"] += 1  # the action left the screen unchanged (see loaders.screen_change)
            continue
        ctx = StepContext(episode, index, items, opts.history, opts.history_images, opts.memory,
                          opts.min_pixels, opts.max_pixels, opts.agent_tools, opts.som)
        try:
            sample = (build_rl_sample(fmt, ctx, image_prefix) if opts.rl  # the prompt and the ground truth
                      else build_sample(fmt, ctx, image_prefix, opts.agent_tools))
            text_tokens, image_tokens = lengths.measure(sample, Path(run_path))
            marked = som.derive(Path(run_path), ctx.step) if opts.som else None
        except RecordError as exc:  # CannotExpress, an unreadable image header, an image no family can take
            out.reasons[exc.reason] += 1
            continue
        except ValueError:  # a size the family's resize rule refuses (formats.coords), or a bad value: one sample
            out.reasons["unusable_image_size" if _unusable_size(episode, index, lengths) else "bad_sample"] += 1
            continue
        if text_tokens + image_tokens > opts.max_length:
            out.reasons["over_max_length"] += 1
            continue
        if index in held:  # a sample the format can take, but the checks rejected it, or left it unsure and no
            out.reasons[held[index]] += 1  # judge model or reviewer passed it
            out.held_back.append(held_steps[index])
            continue
        images = [(s.screenshot.path, image_name(s), s.screenshot.width * s.screenshot.height)
                  for s in sample.image_steps]
        if marked is not None:  # the current screenshot becomes its numbered-box copy (export.som)
            derived, boxes = marked
            som.point_to(sample, derived, image_prefix)
            images[-1] = (derived.original, derived.name, images[-1][2])
            out.derived[derived.name] = (derived.data, derived.describe(boxes))
        for s in sample.image_steps:  # a web step's image is a viewport cut of a taller page: say so (labelled)
            crop = s.meta.get("crop")
            if crop:  # (with --som, derived_from names this crop as the original of its numbered copy)
                out.cropped[image_name(s)] = {"page": crop["page"]["path"], "box": list(crop["box"])}
        out.samples.append((sample.line(), text_tokens, image_tokens, images))
    return out


def held_back(episode: Episode, record: dict, include_unsure: bool, out: EpisodeSamples) -> dict[int, dict]:
    """The steps the checks keep out (:func:`sftdata.checks.certify`), each with its ledger line: ``rejected`` (a
    check fails) and ``unsure`` (no positive evidence) unless a reviewer decided the step, a judge model passed it
    (``record["judge_passed"]``) or ``include_unsure``. Counts every step's outcome in ``out.outcomes``."""
    reviewed = {int(k) for k in record.get("review") or {}}
    passed = set(record.get("judge_passed") or ())
    held: dict[int, dict] = {}
    for index, c in enumerate(certify_items(record["items"], episode)):
        out.outcomes[c.outcome] += 1
        if c.outcome == "certified" or index in reviewed:
            continue
        if c.outcome == "unsure" and (include_unsure or index in passed):
            continue
        held[index] = {"episode_id": episode.id, "step": index, "outcome": c.outcome, "reason": c.first,
                       "detail": "; ".join(r.detail for r in c.reasons)[:500]}
    return held


def _unusable_size(episode: Episode, index: int, lengths: LengthModel) -> bool:
    """True when a screenshot up to step ``index`` (the step's own, or a history image) is a size the family's
    resize rule refuses."""
    for step in episode.steps[:index + 1]:
        try:
            lengths.family.resize(step.screenshot.width, step.screenshot.height, lengths.min_pixels, lengths.max_pixels)
        except ValueError:
            return True
    return False
