"""The export stage: annotated episodes -> ms-swift JSONL shards, images, manifest and ``train.sh``.

Episodes stream through once. Each sample goes to a spool file with its length; images are hard-linked into
``DIR/images/`` (copied across filesystems), one file per distinct screenshot. Then each split's samples are
written in best-fit-decreasing pack order, so Swift's sequential packing with ``--dataset_shuffle false``
rebuilds the same packs. Everything is assembled in a staging directory and renamed into place at the end: a
killed export leaves the previous one (or nothing), never half of one.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import time
from collections import Counter
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from ..errors import FatalError
from ..exitcodes import NothingProduced
from ..formats import get_format, resolve_family, som_formats
from ..io import count_lines, disk_full_guard, read_json, text_for_output, write_bytes_atomic, write_json_atomic
from ..judge.status import judge_status
from ..review.apply import review_counts, reviewed_annotations
from ..rundir import ANNOTATIONS, JUDGEMENTS, REVIEWS, RunDir
from ..parallel import ordered_map
from ..progress import progress_bar
from ..stage import StageRun, output_key
from .episodes import episode_id, episode_samples
from .lengths import LengthModel
from .outdir import check_hf_out, check_out, remove_leftovers, remove_ours, swap_into_place
from .som import supports as som_supported
from .packing import best_fit_decreasing, lower_bound_bins, pack_order, packing_efficiency
from .trainsh import train_script
from .grpo import PLUGIN, SCRIPT as GRPO_SCRIPT, grpo_script, longest_answer, plugin_text


from .options import INEFFECTIVE_CHOICES, ExportOptions  # noqa: E402,F401 (the stage's options, re-exported)


@dataclass
class ExportResult:
    out: Path
    samples: dict[str, int] = field(default_factory=dict)
    dropped: Counter = field(default_factory=Counter)
    manifest: dict[str, Any] = field(default_factory=dict)


def split_of(episode_id: str, ratio: float, seed: int) -> str:
    """Deterministic split by episode (all samples of an episode stay together).

    >>> split_of("20", 0.0, 0), split_of("20", 1.0, 0)
    ('train', 'val')
    """
    digest = hashlib.sha256(f"{seed}:{episode_id}".encode()).digest()
    return "val" if int.from_bytes(digest[:8], "big") / 2**64 < ratio else "train"


def _link(src: Path, dst: Path) -> str | None:
    """Hard-link ``src`` to ``dst``: "linked", "existing", or None when links are refused (copy it instead)."""
    if dst.exists():
        return "existing"
    tmp = dst.with_name(f".{dst.name}.tmp")
    try:
        os.link(src, tmp)
    except OSError:  # another filesystem, or links not allowed
        return None
    os.replace(tmp, dst)
    return "linked"


def _copy(src: Path, dst: Path) -> str:
    tmp = dst.with_name(f".{dst.name}.tmp")
    shutil.copyfile(src, tmp)
    os.replace(tmp, dst)
    return "copied"


def _write_derived(dst: Path, data: bytes) -> str:
    write_bytes_atomic(dst, data, fsync=False)  # staged: the export is renamed into place when complete
    return "derived"


def _stats(values: list[int]) -> dict[str, float]:
    if not values:
        return {}
    s = sorted(values)
    pick = lambda q: s[min(len(s) - 1, int(q * len(s)))]  # noqa: E731
    return {"count": len(s), "mean": round(sum(s) / len(s), 1), "p50": pick(0.5), "p95": pick(0.95), "max": s[-1],
            "total": sum(s)}


def export_run(run: RunDir, out: str | Path, opts: ExportOptions, *, force: bool = False) -> ExportResult:
    """Export ``run`` in format ``opts.format`` to directory ``out`` (replaced atomically). ``out`` must be new,
    empty, or (``force``) an earlier export of ours; see :func:`check_out`. A full disk is a one-line
    FatalError; the staging directory is removed and an earlier export stays as it was."""
    stage_run = StageRun(run, "export", output_key(run, out), resumes=False)
    with disk_full_guard(f"the export {out}"):
        result = _export(run, out, opts, force)
    stage_run.fingerprint = result.manifest["fingerprint"]
    with run.recording() as writable:  # a read-only run is exported without a note in its manifest
        if writable:
            m = result.manifest
            stage_run.finish({"dir": text_for_output(str(result.out)), "format": m["format"], "family": m["family"],
                              "samples": m["samples"], "episodes": m["episodes"],
                              "dropped_episodes": len(m["dropped_episodes"]), "dropped": m["dropped"]})
    return result


def export_unchanged(run: RunDir, out: Path, opts: ExportOptions) -> dict[str, Any] | None:
    """The manifest of the export in ``out`` when the run's manifest says it finished with the same inputs and
    options and ``out`` still holds it (then there is nothing to redo), else None."""
    stage_run = StageRun(run, "export", output_key(run, out), fingerprint=export_fingerprint(run, opts))
    if not stage_run.unchanged or not (out / "manifest.json").is_file():
        return None
    previous = read_json(out / "manifest.json", default=None)
    return previous if isinstance(previous, dict) and previous.get("fingerprint") == stage_run.fingerprint else None


def _export(run: RunDir, out: str | Path, opts: ExportOptions, force: bool) -> ExportResult:
    fmt = get_format(opts.format)
    try:
        opts = replace(opts, family=resolve_family(fmt, opts.family))
    except ValueError as exc:
        raise FatalError(str(exc)) from None
    annotations_path = run.path / ANNOTATIONS
    if not run.episodes_path.exists():
        raise FatalError(f"{run.path} has no episodes.jsonl: run `sftdata ingest` first")
    if fmt.needs_reasoning and not annotations_path.exists():
        raise NothingProduced(f"{run.path} has no annotations.jsonl, so nothing to export: run `sftdata annotate` "
                              "first")
    if opts.rl and opts.agent_tools:
        raise FatalError("--rl writes the prompt as the plain variant's (the rewards parse the answer's text): "
                         "drop --agent-tools")
    if opts.agent_tools and not fmt.tool_call:
        raise FatalError(f"--agent-tools needs a tool-call format; {fmt.name} is not one")
    if opts.som and not som_supported(fmt):
        raise FatalError("--som needs a format whose prompt promises numbered element boxes "
                         f"({', '.join(som_formats())}); {fmt.name}'s does not")
    if opts.ineffective not in INEFFECTIVE_CHOICES:
        raise FatalError(f"--ineffective must be keep or drop, not {opts.ineffective!r}")
    out = Path(out).resolve()
    check_out(run.path, out, force)
    if opts.hf_dataset:
        check_hf_out(run.path, out, Path(opts.hf_dataset).resolve())
    lengths_model = LengthModel(opts.family, opts.max_pixels, opts.min_pixels, opts.tokenizer)
    # the last record of an id wins: a re-annotation (another model or prompt) supersedes the earlier one
    annotations = run.latest_annotations()
    annotations = reviewed_annotations(run.path, annotations)  # human review: edits in place, rejected steps
    judged = judge_status(run.path, annotations)  # episodes the judge failed are skipped; passed ones say by whom
    judges: Counter = Counter()
    judged_by: dict[str, str] = {}
    remove_leftovers(out)
    stage = out.with_name(f".{out.name}.staging-{os.getpid()}")
    remove_ours(stage)  # one of a dead process that had our pid
    try:
        (stage / "images").mkdir(parents=True)
    except OSError as exc:
        raise FatalError(f"cannot write the export directory {out.parent}: {exc.strerror or exc}") from None
    started = time.monotonic()
    result = ExportResult(out)
    image_prefix = f"{out}/images/" if opts.absolute_paths else "images/"
    spools = {name: open(stage / f".{name}.spool", "w+b") for name in ("train", "val")}  # UTF-8 lines, by offset
    spooled = {"train": 0, "val": 0}  # bytes written to each spool (a text file's tell() is slow)
    offsets: dict[str, list[tuple[int, int]]] = {"train": [], "val": []}
    split_ids: dict[str, list[str]] = {"train": [], "val": []}
    dropped_episodes: dict[str, str] = {}  # episodes with no sample at all, and why
    token_stats: dict[str, list[int]] = {"text": [], "image": [], "total": []}
    prompt_versions: Counter = Counter()
    backends: Counter = Counter()
    images: Counter = Counter()
    derived: dict[str, dict] = {}  # --som: derived image name -> the original it was drawn on
    cropped: dict[str, dict] = {}  # web: exported crop -> the whole page (in the run's image store) and the box
    held: list[dict] = []  # steps the checks kept out (rejected, or unsure with no judge model or reviewer passing)
    outcomes: Counter = Counter()  # the checks' outcome of every annotated step
    max_image_pixels = 0
    bar = progress_bar(lambda: count_lines(run.episodes_path), opts.progress, unit="ep", desc=f"export {fmt.name}",
                       dynamic_ncols=True)
    work_opts = replace(opts, hf_dataset=None, progress=None)

    def tasks():
        with open(run.episodes_path, encoding="utf-8") as f:
            for line in f:
                if not line.endswith("\n") or not line.strip():
                    continue  # a torn tail is not an episode
                eid = episode_id(line)
                record = annotations.get(eid)
                if fmt.needs_reasoning and record is None:
                    result.dropped["episode_not_annotated"] += 1
                    dropped_episodes[eid] = "episode_not_annotated"
                    continue
                status = judged.get(eid)
                if status is not None and record is not None:  # a judge model decides what the checks could not
                    record = {**record, "judge_passed": sorted(status.model_passed())}
                if status is not None and not status.passed:
                    # people outrank the judge, step by step: a step a reviewer decided follows the reviewer;
                    # every other step the judge vetoes stays out
                    reviewed = {int(k) for k in (record or {}).get("review") or {}}
                    if not reviewed:
                        result.dropped["judge_rejected"] += 1
                        dropped_episodes[eid] = "judge_rejected"
                        continue
                    vetoed = status.vetoed(len(record.get("items") or ())) - reviewed
                    record = {**record, "judge_vetoed": sorted(vetoed)}
                yield (eid, record), (line, record, work_opts, str(run.path), image_prefix)

    copier = ThreadPoolExecutor(max_workers=4)  # copying is I/O: threads overlap it with the rest
    placed: dict[str, Future | str] = {}  # a link is made here (a thread for each would cost more than the link)
    try:
        for (eid, record), got in ordered_map(episode_samples, tasks(), opts.workers):
            bar.update(1)
            if isinstance(got, BaseException):
                raise got
            result.dropped.update(got.reasons)
            cropped.update(got.cropped)
            held += got.held_back
            outcomes.update(got.outcomes)
            if not got.samples:
                dropped_episodes[eid] = got.reasons.most_common(1)[0][0] if got.reasons else "no_steps"
                continue
            split = split_of(eid, opts.split_ratio, opts.seed)
            spool = spools[split]
            for line, text_tokens, image_tokens, used in got.samples:
                for rel, name, pixels in used:
                    if name not in placed and name in got.derived:
                        data, derived[name] = got.derived[name]
                        placed[name] = copier.submit(_write_derived, stage / "images" / name, data)
                    elif name not in placed:
                        src, dst = run.path / rel, stage / "images" / name
                        placed[name] = _link(src, dst) or copier.submit(_copy, src, dst)
                    max_image_pixels = max(max_image_pixels, pixels)
                offsets[split].append((spooled[split], text_tokens + image_tokens))
                spooled[split] += spool.write(line.encode("utf-8") + b"\n")
                token_stats["text"].append(text_tokens)
                token_stats["image"].append(image_tokens)
                token_stats["total"].append(text_tokens + image_tokens)
            split_ids[split].append(eid)
            if eid in judged:
                judged_by[eid] = deciding_party(judged[eid], record)
                judges[judged_by[eid]] += 1
            if record:
                prompt_versions[record.get("prompt_version", "?")] += 1
                backends[record.get("backend", "?")] += 1
        images.update(f if isinstance(f, str) else f.result() for f in placed.values())  # re-raises a failed copy
        shards: dict[str, list[str]] = {}
        packing: dict[str, Any] = {}
        row_lengths: dict[str, list[int]] = {}  # in shard row order: row i of the split's shards, in order
        for name, spool in spools.items():
            shards[name], packing[name], row_lengths[name] = _write_shards(stage, name, spool, offsets[name], opts)
            result.samples[name] = len(offsets[name])
    except BaseException:
        copier.shutdown(wait=True, cancel_futures=True)
        shutil.rmtree(stage, ignore_errors=True)  # a failed export leaves nothing behind
        raise
    finally:
        copier.shutdown(wait=True, cancel_futures=True)
        bar.close()
        for spool in spools.values():
            spool.close()
            Path(spool.name).unlink(missing_ok=True)
    try:
        _check_not_empty(result, opts)
        manifest = {
            "format": fmt.name, "family": opts.family,
            "options": {k: v for k, v in asdict(opts).items() if k not in ("progress", "workers")},
            "run": str(run.path.resolve()), "samples": result.samples,
            "episodes": {k: len(v) for k, v in split_ids.items()},
            "dropped": dict(result.dropped.most_common()), "dropped_episodes": dropped_episodes,
            "fingerprint": export_fingerprint(run, opts), "prompt_versions": dict(prompt_versions),
            "backends": dict(backends), "images": {"files": len(placed), **dict(images),
                                                   **({"derived_from": derived} if opts.som else {}),
                                                   **({"cropped_from": cropped} if cropped else {})},
            "judges": dict(judges), "judged_by": judged_by,  # which judge passed each exported episode
            "tokens": {k: _stats(v) for k, v in token_stats.items()}, "text_tokens": lengths_model.describe(),
            "packing": packing, "shards": shards, "elapsed_s": round(time.monotonic() - started, 3),
            "warnings": _warnings(opts), "human_review": review_counts(annotations),
            "certification": {o: outcomes[o] for o in ("certified", "unsure", "rejected")},
            "held_back": dict(Counter(h["outcome"] for h in held)),
        }
        write_json_atomic(stage / "manifest.json", manifest)
        write_json_atomic(stage / "splits.json", split_ids)
        write_json_atomic(stage / "held_back.json", held)  # the steps the checks kept out, with their reasons
        write_json_atomic(stage / "lengths.json", row_lengths)
        if opts.rl:  # GRPO on the RL rows, with the rewards as ms-swift's external plugin
            answer_tokens = longest_answer(stage, shards["train"] + shards["val"], lengths_model.text_tokens)
            name, script = GRPO_SCRIPT, grpo_script(shards, opts, max_image_pixels, lengths_model.family.factor,
                                                    answer_tokens)
            write_bytes_atomic(stage / PLUGIN, plugin_text(fmt.name).encode())
        else:
            name, script = "train.sh", train_script(shards, opts, max_image_pixels, lengths_model.family.factor)
        write_bytes_atomic(stage / name, script.encode())
        os.chmod(stage / name, 0o755)
        if opts.hf_dataset:
            from .hf import write_hf_dataset
            write_hf_dataset(stage, shards, Path(opts.hf_dataset), opts.progress, rl=opts.rl)
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        raise
    swap_into_place(stage, out, force)
    result.manifest = manifest
    return result


def deciding_party(status, record: dict | None) -> str:
    """Who let an exported episode through: the judge that passed it, else the reviewers who decided the steps
    the judge failed (``human:<reviewers>``).

    >>> from sftdata.judge.status import JudgeStatus
    >>> deciding_party(JudgeStatus(False, "rules:r:r", [], 3), {"review": {"1": {"reviewer": "ann"}}})
    'human:ann'
    """
    if status.passed:
        return status.judge
    reviewers = sorted({str(r.get("reviewer")) for r in ((record or {}).get("review") or {}).values()
                        if isinstance(r, dict) and r.get("reviewer")})
    return f"human:{','.join(reviewers) or 'unnamed'}"


def _warnings(opts: ExportOptions) -> list[str]:
    """What the user should know about how Swift will train this export."""
    out = []
    if opts.agent_tools and opts.family == "glm-4.1v":
        out.append("ms-swift's glm4 agent template replaces each sample's system prompt with its own tool listing "
                   "and writes the call's arguments as a Python dict; drop --agent-tools to train the format's own "
                   "prompt and JSON")
    return out


def _write_shards(stage: Path, split: str, spool, offsets: list[tuple[int, int]],
                  opts: ExportOptions) -> tuple[list[str], dict[str, Any], list[int]]:
    """Write ``split``'s samples in pack order; returns the shard names, the packing figures and the lengths
    in shard row order."""
    if not offsets:
        return [], {}, []
    lengths = [length for _, length in offsets]
    bins = best_fit_decreasing(lengths, opts.max_length)
    order = pack_order(lengths, opts.max_length)
    count = max(1, -(-len(order) // opts.shard_size))
    names = [f"{split}-{i:05d}-of-{count:05d}.jsonl" for i in range(count)]
    spool.flush()
    spool.seek(0)
    for i, name in enumerate(names):
        with open(stage / name, "w", encoding="utf-8") as f:
            for idx in order[i * opts.shard_size:(i + 1) * opts.shard_size]:
                spool.seek(offsets[idx][0])
                f.write(spool.readline().decode("utf-8"))
    lower = lower_bound_bins(lengths, opts.max_length)
    return names, {"packs": len(bins), "lower_bound_packs": lower, "max_length": opts.max_length,
                   "efficiency": round(packing_efficiency(lengths, bins, opts.max_length), 4),
                   "lower_bound_efficiency": round(sum(lengths) / (lower * opts.max_length), 4)}, \
        [lengths[idx] for idx in order]


# what to do about a drop reason, where the user can do something
DROP_HINTS = {
    "no_accessibility_tree": "screens without an accessibility tree (annotated folders) get OCR text elements from "
                             "`sftdata ingest annotated ROOT --out RUN --ocr` (the ocr extra); formats that point by "
                             "coordinates (react-zh, qwen2.5-vl, ui-tars, ...) need no tree",
}


def drop_hint(reasons) -> str:
    """``: what to do`` for the first of ``reasons`` that has a hint, else ''."""
    return next((f": {DROP_HINTS[r]}" for r in reasons if r in DROP_HINTS), "")


def _check_not_empty(result: ExportResult, opts: ExportOptions) -> None:
    """An export with no train sample is an error, not a train.sh with an empty --dataset."""
    if result.samples.get("train"):
        return
    if result.samples.get("val"):
        why = f"all {result.samples['val']} samples went to validation (--split-ratio {opts.split_ratio})"
    elif result.dropped:
        why = "every step was dropped (" + ", ".join(f"{k} {v}" for k, v in result.dropped.most_common()) + ")" \
            + drop_hint(result.dropped)
    else:
        why = "the run has no episode to export"
    raise NothingProduced(f"nothing to export: {why}; nothing was written")


# Bumped when the same inputs and options would export differently (2: exact Qwen lengths, shard-ordered lengths)
EXPORT_VERSION = 2


def export_fingerprint(run: RunDir, opts: ExportOptions) -> dict[str, Any]:
    def stat(p: Path) -> list[int] | None:
        return [p.stat().st_size, int(p.stat().st_mtime)] if p.exists() else None
    try:
        opts = replace(opts, family=resolve_family(get_format(opts.format), opts.family))
    except (KeyError, ValueError):
        pass  # export_run reports it
    return {"version": EXPORT_VERSION, "episodes": stat(run.episodes_path), "annotations": stat(run.path / ANNOTATIONS),
            "reviews": stat(run.path / REVIEWS),
            "judgements": stat(run.path / JUDGEMENTS),
            "options": json.loads(json.dumps({k: v for k, v in asdict(opts).items()
                                              if k not in ("progress", "workers")}, default=str))}
