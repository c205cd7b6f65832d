"""The sampled episodes step by step: annotator image, reconstructed reasoning and call, exported answer.

Matching an exported sample to its step: a sample's *last* image is the current step's screenshot (formats put
``history_images`` earlier screenshots first), exported as ``images/<sha256>.<ext>``, so the file name gives the
step's ``screenshot.sha256``. A screenshot can recur (an unchanged screen, within or across episodes), so the
candidates with that sha256 are narrowed to those whose user message contains the episode's goal, then to those
whose answer contains the step's reasoning (formats that train on the reasoning quote it); the first left wins.
Shards stream by once; only samples of the sampled episodes' screenshots are kept.

>>> answer_of({"messages": [{"role": "user", "content": "u"}, {"role": "assistant", "content": "a"}]})
'a'
"""
from __future__ import annotations

import base64
import io
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PIL import Image

from ..io import iter_jsonl, read_json
from ..model import Episode, Step
from ..overlay.draw import action_label, annotator_image
from ..annotate.stage import ANNOTATIONS
from ..rundir import RunDir
from .data import jsonish

THUMB_WIDTH = 270


@dataclass
class StepView:
    index: int
    label: str                     # seed 002 text form of the action, e.g. "CLICK [500,708]"
    instruction: str | None
    image: Image.Image | None      # the annotator image, downscaled; None when the screenshot is missing
    reasoning: str | None = None   # from annotations.jsonl
    function: str | None = None    # "name {json parameters}"
    answer: str | None = None      # the exported assistant turn(s)


@dataclass
class EpisodeView:
    id: str
    source: str
    goal: str
    steps: list[StepView] = field(default_factory=list)
    annotated: bool = False
    export: str | None = None      # name of the export the answers come from
    absent: str | None = None      # why no export holds this episode (when there are exports)


def annotations_for(run_dir: str | Path, ids: set[str]) -> dict[str, dict]:
    """The annotation records of episodes ``ids`` (one streaming pass over ``annotations.jsonl``)."""
    return {str(r["id"]): r for r in iter_jsonl(Path(run_dir) / ANNOTATIONS) if str(r["id"]) in ids}


def answer_of(record: dict[str, Any]) -> str:
    """The trained-on turns of an ms-swift sample: every message after the last user message."""
    messages = record.get("messages") or []
    last_user = max((i for i, m in enumerate(messages) if m.get("role") == "user"), default=-1)
    parts = []
    for m in messages[last_user + 1:]:
        content = m.get("content", "")
        parts.append(content if m.get("role") == "assistant" else f"[{m.get('role')}] {content}")
    if not parts and isinstance(record.get("solution"), str):  # an RL row: the ground-truth answer it scores
        try:
            return str(json.loads(record["solution"]).get("answer", ""))
        except (ValueError, AttributeError):
            return ""
    return "\n".join(parts)


def _user_text(record: dict[str, Any]) -> str:
    return "\n".join(str(m.get("content", "")) for m in record.get("messages") or [] if m.get("role") == "user")


def exported_answers(export_dir: str | Path, episodes: list[Episode],
                     reasoning: dict[tuple[str, int], str] | None = None) -> dict[tuple[str, int], str]:
    """``(episode id, step index) -> answer`` for the steps of ``episodes`` found in the export's shards."""
    export_dir = Path(export_dir)
    wanted = {s.screenshot.sha256 for e in episodes for s in e.steps}
    candidates: dict[str, list[tuple[str, str]]] = {}  # sha256 -> [(user text, answer)]
    for shard in sorted(export_dir.glob("train-*.jsonl")) + sorted(export_dir.glob("val-*.jsonl")):
        for record in iter_jsonl(shard):
            images = record.get("images") or []
            if not images:
                continue
            sha = Path(str(images[-1])).name.split(".", 1)[0]
            if sha in wanted:
                candidates.setdefault(sha, []).append((_user_text(record), answer_of(record)))
    reasoning = reasoning or {}
    out: dict[tuple[str, int], str] = {}
    for episode in episodes:
        for step in episode.steps:
            pool = candidates.get(step.screenshot.sha256, [])
            pool = [c for c in pool if episode.goal in c[0]] or pool
            thought = (reasoning.get((episode.id, step.index)) or "")[:60]
            quoted = json.dumps(thought, ensure_ascii=False)[1:-1]  # as it reads inside a JSON answer
            pool = [c for c in pool if thought and (thought in c[1] or quoted in c[1])] or pool
            if pool:
                out[(episode.id, step.index)] = pool[0][1]
    return out


def thumbnail(run_dir: str | Path, step: Step, width: int = THUMB_WIDTH) -> Image.Image | None:
    """The step's annotator image (action drawn in red on the screenshot), downscaled to ``width`` px wide."""
    path = Path(run_dir) / step.screenshot.path
    try:
        with Image.open(path) as img:
            marked = annotator_image(img.convert("RGB"), step.action)
    except (OSError, ValueError):
        return None
    if marked.width <= width:
        return marked
    height = max(1, round(marked.height * width / marked.width))
    return marked.resize((width, height), Image.Resampling.LANCZOS, reducing_gap=2.0)


def jpeg_data_uri(image: Image.Image, quality: int = 80) -> str:
    """``data:image/jpeg;base64,...`` of ``image``.

    >>> jpeg_data_uri(Image.new("RGB", (4, 4))).startswith("data:image/jpeg;base64,/9j/")
    True
    """
    buf = io.BytesIO()
    image.convert("RGB").save(buf, "JPEG", quality=quality, optimize=True)
    return "data:image/jpeg;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def episode_views(run_dir: str | Path, episodes: list[Episode], export_dir: str | Path | None = None,
                  width: int = THUMB_WIDTH) -> list[EpisodeView]:
    """Views of ``episodes`` with annotations and, when ``export_dir`` is given, that export's answers.

    >>> episode_views("/nonexistent/run", [])
    []
    """
    if not episodes:
        return []
    annotations = annotations_for(run_dir, {e.id for e in episodes})
    reasoning = {}
    for e in episodes:
        for i, item in enumerate((annotations.get(e.id) or {}).get("items") or []):
            reasoning[(e.id, i)] = str(item.get("reasoning", ""))
    answers = exported_answers(export_dir, episodes, reasoning) if export_dir else {}
    views = []
    for e in episodes:
        items = (annotations.get(e.id) or {}).get("items") or []
        view = EpisodeView(e.id, e.source, e.goal, annotated=e.id in annotations,
                           export=Path(export_dir).name if export_dir else None)
        for step in e.steps:
            item = items[step.index] if step.index < len(items) else {}
            fn = item.get("function") or {}
            view.steps.append(StepView(
                index=step.index, label=action_label(step.action, step.screenshot.width, step.screenshot.height),
                instruction=step.instruction, image=thumbnail(run_dir, step, width),
                reasoning=item.get("reasoning"),
                function=f"{fn.get('name')} {jsonish(fn.get('parameters', {}))}" if fn else None,
                answer=answers.get((e.id, step.index))))
        views.append(view)
    return views


def export_ids(export_dir: str | Path) -> set[str]:
    """The episode ids an export holds (its ``splits.json``, train and val)."""
    splits = read_json(Path(export_dir) / "splits.json", default={}) or {}
    return {str(i) for split in ("train", "val") for i in splits.get(split) or []}


def _why_absent(run_dir: str | Path, missing: list[EpisodeView], exports: list[Any]) -> None:
    """Say why no export holds each of ``missing``: its entries in the rejects ledger and the exports' dropped
    episodes (``stage reason``), else what to run."""
    reasons: dict[str, list[str]] = {v.id: [] for v in missing}

    def note(episode_id: Any, where: Any, reason: Any) -> None:
        said = reasons.get(str(episode_id))
        if said is not None and f"{where} {reason}" not in said:
            said.append(f"{where} {reason}")

    for record in RunDir(run_dir).rejects():
        note(record.get("episode_id"), record.get("stage"), record.get("reason"))
    for export in exports:
        dropped = (read_json(Path(export.path) / "manifest.json", default={}) or {}).get("dropped_episodes") or {}
        for episode_id, reason in dropped.items():
            note(episode_id, f"export:{export.name}", reason)
    for view in missing:
        why = ("; ".join(reasons[view.id]) if reasons[view.id] else "made before it was annotated: export again"
               if view.annotated else "not annotated yet: run `sftdata annotate`")
        view.absent = f"In no export: {why}."


def sampled_views(run_dir: str | Path, episodes: list[Episode], exports: list[Any],
                  width: int = THUMB_WIDTH) -> list[EpisodeView]:
    """Views of ``episodes``, each with the answers of the first export (by name) that holds it; one that no
    export holds says why. ``exports``: summaries with ``name``, ``path`` and ``samples`` (data.ExportSummary).

    >>> sampled_views("/nonexistent/run", [], [])
    []
    """
    holder: dict[str, Any] = {}
    for export in (e for e in exports if sum(e.samples.values()) > 0):
        held = export_ids(export.path)
        holder.update({e.id: export for e in episodes if e.id in held and e.id not in holder})
    views: dict[str, EpisodeView] = {}
    for export in {id(x): x for x in holder.values()}.values():
        group = [e for e in episodes if holder.get(e.id) is export]
        views.update({v.id: v for v in episode_views(run_dir, group, export.path, width)})
    missing = episode_views(run_dir, [e for e in episodes if e.id not in holder], None, width)
    if any(sum(e.samples.values()) > 0 for e in exports):
        _why_absent(run_dir, missing, exports)
    views.update({v.id: v for v in missing})
    return [views[e.id] for e in episodes]


__all__ = ["StepView", "EpisodeView", "annotations_for", "answer_of", "exported_answers", "thumbnail",
           "jpeg_data_uri", "episode_views", "export_ids", "sampled_views"]
