"""``sftdata review export``: Label Studio tasks (one per episode) and the labeling config for human review.

Writes ``OUT/tasks.json`` (a list of ``{"data": {...}}`` tasks, Label Studio's import format) and
``OUT/config.xml`` (:func:`sftdata.review.config.labeling_config`). A task's ``data`` holds the episode id, the
goal, the judge's episode line, and ``steps`` in order, each with the clean screenshot, the annotator image (the
action drawn on a copy), the recorded action, the judge's verdict, the rules check with the checks' outcome
(certified with its evidence, unsure or rejected with why), and the item's reasoning and function (JSON) that the
reviewer may edit. ``only="unsure"`` is the review queue: the episodes with a step the checks leave unsure that no
judge model has passed.

Images: by default each is a downscaled JPEG inlined as a data URL, so a task is self-contained and Label
Studio needs no storage setup. With ``image_url`` the images are written to ``OUT/images/`` and referenced as
``image_url + name`` (e.g. ``/data/local-files/?d=review/images/`` for Label Studio's local file serving with
``LOCAL_FILES_SERVING_ENABLED=true`` and ``LOCAL_FILES_DOCUMENT_ROOT`` the parent of ``review/``). The run's
screenshots are only read, never modified.
"""
from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PIL import Image

from ..errors import FatalError
from ..io import write_bytes_atomic, write_json_atomic
from ..model import Episode, Step
from ..overlay.draw import action_label
from ..checks.certify import certify_items
from ..checks.check import check_items
from ..annotate.images import annotator_bytes, encode, to_data_url
from ..annotate.stage import ANNOTATIONS
from ..rundir import RunDir
from . import ONLY
from .config import labeling_config
from ..judge.status import Verdict, judge_status

MAX_SIDE = 720  # pixels of the longer side of a review image


@dataclass
class ReviewExport:
    out: Path
    tasks: int = 0
    steps: int = 0
    candidates: int = 0
    judged: int = 0
    skipped: dict[str, int] = field(default_factory=dict)


def _clean_bytes(run_path: Path, step: Step, max_side: int) -> bytes:
    with Image.open(run_path / step.screenshot.path) as shot:
        img = shot.convert("RGB")
    if max(img.size) > max_side:
        scale = max_side / max(img.size)
        img = img.resize((max(1, round(img.width * scale)), max(1, round(img.height * scale))),
                         Image.Resampling.LANCZOS)
    return encode(img, "jpeg", quality=85)


def _image(data: bytes, name: str, out: Path, image_url: str | None) -> str:
    if image_url is None:
        return to_data_url(data, "jpeg")
    (out / "images").mkdir(exist_ok=True)
    write_bytes_atomic(out / "images" / name, data, fsync=False)
    return f"{image_url}{name}"


def _rules_text(failures: list) -> str:
    return "rules: pass" if not failures else "rules: " + "; ".join(f"{f.reason} ({f.detail})"[:200] for f in failures)


def _checks_text(c) -> str:
    """The checks' outcome of a step for the reviewer: certified (with its evidence), unsure or rejected (why)."""
    if c.outcome == "certified":
        return "checks: certified — " + ", ".join(f"{e.kind} {e.words}" for e in c.evidence)[:200]
    return f"checks: {c.outcome} — " + "; ".join(f"{r.code} ({r.detail})" for r in c.reasons)[:300]


def build_task(run_path: Path, episode: Episode, items: list[dict], verdicts: list[Verdict | None] | None,
               out: Path, image_url: str | None = None, max_side: int = MAX_SIDE) -> dict[str, Any]:
    """The Label Studio task of one annotated episode."""
    failures = check_items(items, episode)
    by_index: dict[int | None, list] = {}
    for f in failures:
        by_index.setdefault(f.index, []).append(f)
    certs = certify_items(items, episode, failures=failures)
    steps = []
    for i, step in enumerate(episode.steps):
        item = items[i] if i < len(items) and isinstance(items[i], dict) else {}
        verdict = verdicts[i] if verdicts and i < len(verdicts) else None
        stem = f"{episode.id}-{i:03d}"
        steps.append({
            "index": i,
            "title": f"Step {i + 1} / {len(episode.steps)}" + (f": {step.instruction}" if step.instruction else ""),
            "screenshot": _image(_clean_bytes(run_path, step, max_side), f"{stem}-clean.jpg", out, image_url),
            "annotator": _image(annotator_bytes(run_path, step, max_side), f"{stem}-marked.jpg", out, image_url),
            "action": "action: " + action_label(step.action, step.screenshot.width, step.screenshot.height),
            "judge": "judge: " + (verdict.text() if verdict else "no verdict"),
            "rules": _rules_text(by_index.get(i, [])) + (f"\n{_checks_text(certs[i])}" if i < len(certs) else ""),
            "reasoning": str(item.get("reasoning", "")),
            "function": json.dumps(item.get("function", {}), ensure_ascii=False),
        })
    whole = by_index.get(None, [])
    judged = [v for v in verdicts or () if v is not None]
    return {"data": {
        "episode_id": episode.id, "source": episode.source, "goal": episode.goal or "(no goal)",
        "episode_info": f"episode {episode.id} · {episode.source} · {len(episode.steps)} steps"
                        + (f" · {_rules_text(whole)}" if whole else ""),
        "judge_episode": ("judge: " + ("all items pass" if all(v.passed for v in judged) else
                                       f"{sum(not v.passed for v in judged)} of {len(judged)} items fail"))
                         if judged else "judge: no verdict for this episode",
        "steps": steps}}


def _unsure(episode: Episode, items: list, status) -> bool:
    """Does the episode hold a step the checks leave unsure that no judge model passed (the review queue)?"""
    passed = status.model_passed() if status is not None else set()
    return any(c.outcome == "unsure" and i not in passed for i, c in enumerate(certify_items(items, episode)))


def _passes(episode: Episode, items: list, verdicts: list[Verdict | None] | None) -> bool:
    """The judge's verdict when there is one for every item, else the rules check."""
    if verdicts and len(verdicts) >= len(items) and all(v is not None for v in verdicts[:len(items)]):
        return all(v.passed for v in verdicts[:len(items)])  # type: ignore[union-attr]
    return not check_items(items, episode)


def export_review(run: RunDir, out: str | Path, *, sample: int | None = None, seed: int = 0, only: str = "all",
                  image_url: str | None = None, max_side: int = MAX_SIDE) -> ReviewExport:
    """Write ``OUT/tasks.json`` and ``OUT/config.xml`` for the run's annotated episodes (see the module doc)."""
    if only not in ONLY:
        raise FatalError(f"--only must be one of {', '.join(ONLY)}, not {only!r}")
    if not (run.path / ANNOTATIONS).exists():
        raise FatalError(f"{run.path} has no annotations.jsonl: run `sftdata annotate` first")
    out = Path(out)
    annotations = run.latest_annotations()
    statuses = judge_status(run.path, annotations)
    judgements = {eid: status.verdicts for eid, status in statuses.items()}
    result = ReviewExport(out)
    chosen: list[tuple[Episode, list, list[Verdict | None] | None]] = []
    for episode in run.episodes():
        record = annotations.get(episode.id)
        items = record.get("items") if record else None
        if not isinstance(items, list) or len(items) != len(episode.steps):
            result.skipped["not_annotated"] = result.skipped.get("not_annotated", 0) + 1
            continue
        verdicts = judgements.get(episode.id)
        result.judged += verdicts is not None
        if only == "unsure" and not _unsure(episode, items, statuses.get(episode.id)):
            continue
        if only in ("failed", "passed") and _passes(episode, items, verdicts) != (only == "passed"):
            continue
        chosen.append((episode, items, verdicts))
    result.candidates = len(chosen)
    if not chosen:
        from ..exitcodes import NothingProduced
        judged = f"{result.judged} by the judge, the others by the rules check"
        why = {"failed": f"no annotated episode failed ({judged})", "passed": f"no annotated episode passed ({judged})",
               "unsure": "the checks left no step unsure that a judge model has not passed",
               "all": "no episode is annotated"}[only]
        raise NothingProduced(f"nothing to review with --only {only}: {why}; no tasks were written")
    if sample is not None and sample < len(chosen):
        picked = sorted(random.Random(seed).sample(range(len(chosen)), sample))
        chosen = [chosen[i] for i in picked]
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise FatalError(f"cannot write {out}: {exc.strerror or exc}") from None
    tasks = [build_task(run.path, ep, items, verdicts, out, image_url, max_side) for ep, items, verdicts in chosen]
    result.tasks, result.steps = len(tasks), sum(len(t["data"]["steps"]) for t in tasks)
    write_json_atomic(out / "tasks.json", tasks)
    write_bytes_atomic(out / "config.xml", labeling_config().encode(), fsync=False)
    return result
