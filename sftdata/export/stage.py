"""The export stage: annotated episodes -> ms-swift JSONL shards, images, manifest and ``train.sh``.

Episodes stream through once (the stage's units, mapped over its executor by :func:`episode_samples`). Each
sample goes to a spool file with its length; images are hard-linked into ``DIR/images/`` (copied across
filesystems), one file per distinct screenshot. Then each split's samples are written in best-fit-decreasing
pack order, so Swift's sequential packing with ``--dataset_shuffle false`` rebuilds the same packs. Everything is
assembled in a staging directory and renamed into place at the end: a killed export leaves the previous one (or
nothing), never half of one. Episodes the export could not use at all go to the run's rejects ledger as
``export:<name>`` (the export folder's name); an export whose inputs and options are unchanged is not redone.
"""
from __future__ import annotations

import os
import shutil
import time
from collections import Counter
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..errors import FatalError, UsageError
from ..exitcodes import NothingProduced
from ..formats import get_format, resolve_family, som_formats
from ..io import count_lines, disk_full_guard, read_json, text_for_output
from ..judge.status import judge_status
from ..review.apply import reviewed_annotations
from ..rundir import RunDir
from ..options import Flags
from ..plural import counted
from ..stage import Reject, Stage, StageOutcome, output_key
from ..toplevel import EXECUTOR_FLAGS
from .bundle import write_bundle
from .episodes import episode_id, episode_samples
from .lengths import LengthModel
from .outdir import check_hf_out, check_out, remove_leftovers, remove_ours, swap_into_place
from .som import supports as som_supported
from .shards import (ExportResult, copy_file, deciding_party, drop_hint, export_fingerprint,  # noqa: F401
                     link_file, split_of, write_derived, write_shards)  # drop_hint: re-exported

from .options import INEFFECTIVE_CHOICES, ExportOptions, ExportTarget  # noqa: E402,F401 (ExportOptions re-exported)


class ExportStage(Stage):
    """Write single-step SFT samples as ms-swift JSONL shards with the original images and a train.sh.

    \b
    One sample per step: the task, earlier steps and the screenshot in; reasoning and one action out, in the
    chosen agent format. Samples are sized in tokens and ordered into packs for `swift sft --packing true`.

    \b
    Example:
      sftdata export processed/demo --format qwen2.5-vl --memory --out processed/demo/export/sft-qwen25
      sftdata export processed/demo --format qwen2.5-vl --rl --out processed/demo/export/rl-qwen25
    """

    # one export of a run into ``out`` (``force``: an earlier export of ours there may be replaced)
    name, options, resumes, reads_only = "export", ExportOptions, False, True
    flags_before, flags_after = (Flags(ExportTarget),), (EXECUTOR_FLAGS,)
    process = staticmethod(episode_samples)

    def __init__(self, run: RunDir, opts: ExportOptions, *, out: str | Path, force: bool = False,
                 executor: Any = None) -> None:
        super().__init__(run, opts, progress=opts.progress, executor=executor)
        self.out, self.force = Path(out), force
        self.result = ExportResult(self.out)

    @property
    def key(self) -> str:
        return output_key(self.run, self.out)

    @property
    def ledger_stage(self) -> str:
        """The rejects ledger's stage of this export's dropped episodes."""
        return f"export:{self.out.name}"

    def fingerprint(self) -> dict[str, Any]:
        return export_fingerprint(self.run, self.opts)

    def done(self, previous: dict[str, Any]) -> bool:
        manifest = read_json(self.out / "manifest.json", default=None) if (self.out / "manifest.json").is_file() \
            else None
        if isinstance(manifest, dict) and manifest.get("fingerprint") == self.book.fingerprint:
            self.result.manifest = manifest
            return True
        return False

    @classmethod
    def invoke(cls, echo: Any, opts: ExportOptions, *, run_dir: Path, out: Path, force: bool, executor: str,
               address: str | None) -> None:
        from ..executors import executor as make_executor
        from ..formats import load_all

        if opts.som and not getattr(load_all()[opts.format], "som", False):
            raise UsageError(f"--som draws numbered element boxes for formats whose prompt promises them "
                             f"({', '.join(som_formats())}); {opts.format} does not")
        run = RunDir(run_dir)
        with run.writing(readonly_ok=True), make_executor(executor, opts.workers, address) as chosen:
            stage = cls(run, opts, out=out, force=force, executor=chosen)
            done = stage.execute(force=force)  # --force: export again; without it an unchanged export is not redone
        said(done, echo, out, opts)

    def execute(self, *, force: bool = False) -> StageOutcome:
        """Export (a full disk is a one-line FatalError; the staging directory is removed and an earlier export
        stays as it was), then ledger the episodes it could not use (unless the run is read-only or busy)."""
        with disk_full_guard(f"the export {self.out}"):
            outcome = super().execute(force=force)
        split_ids = read_json(self.out / "splits.json", default={})
        self.ledger_dropped(self.result.manifest, set(split_ids.get("train", [])) | set(split_ids.get("val", [])))
        return outcome

    def ledger_dropped(self, manifest: dict[str, Any], exported: set[str]) -> None:
        """Ledger the episodes the export in ``manifest`` could not use at all (each once), and take back the
        rejects of those it ``exported`` (a reviewer decided the steps the judge failed)."""
        stage = self.ledger_stage
        with self.run.recording() as writable:
            if writable:
                self.run.withdraw_rejects(lambda r: r.get("stage") == stage and str(r.get("episode_id")) in exported)
                self.ledger_rejects(list(self._dropped_episodes(manifest)))

    def check(self) -> None:
        opts, run = self.opts, self.run
        self.fmt = fmt = get_format(opts.format)
        try:
            self.opts = opts = replace(opts, family=resolve_family(fmt, opts.family))
        except ValueError as exc:
            raise FatalError(str(exc)) from None
        if not run.episodes_path.exists():
            raise FatalError(f"{run.path} has no episodes.jsonl: run `sftdata ingest` first")
        if fmt.needs_reasoning and not run.annotations_path.exists():
            raise NothingProduced(f"{run.path} has no annotations.jsonl, so nothing to export: run `sftdata "
                                  "annotate` first")
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

    def prepare(self) -> None:
        opts, run = self.opts, self.run
        self.out = out = self.out.resolve()
        self.result.out = out
        check_out(run.path, out, self.force)
        if opts.hf_dataset:
            check_hf_out(run.path, out, Path(opts.hf_dataset).resolve())
        self.lengths_model = LengthModel(opts.family, opts.max_pixels, opts.min_pixels, opts.tokenizer)
        # the last record of an id wins: a re-annotation (another model or prompt) supersedes the earlier one
        annotations = run.latest_annotations()
        self.annotations = reviewed_annotations(run.path, annotations)  # human review: edits, rejected steps
        self.judged = judge_status(run.path, self.annotations)  # failed episodes are skipped; passed ones say by whom
        remove_leftovers(out)
        self.staging = stage = out.with_name(f".{out.name}.staging-{os.getpid()}")
        remove_ours(stage)  # one of a dead process that had our pid
        try:
            (stage / "images").mkdir(parents=True)
        except OSError as exc:
            raise FatalError(f"cannot write the export directory {out.parent}: {exc.strerror or exc}") from None
        self.started = time.monotonic()
        self.image_prefix = f"{out}/images/" if opts.absolute_paths else "images/"
        self.spools = {name: open(stage / f".{name}.spool", "w+b") for name in ("train", "val")}  # UTF-8 lines
        self.spooled = {"train": 0, "val": 0}  # bytes written to each spool (a text file's tell() is slow)
        self.offsets: dict[str, list[tuple[int, int]]] = {"train": [], "val": []}
        self.split_ids: dict[str, list[str]] = {"train": [], "val": []}
        self.dropped_episodes: dict[str, str] = {}  # episodes with no sample at all, and why
        self.token_stats: dict[str, list[int]] = {"text": [], "image": [], "total": []}
        self.prompt_versions, self.backends, self.images, self.judges = Counter(), Counter(), Counter(), Counter()
        self.judged_by: dict[str, str] = {}
        self.derived: dict[str, dict] = {}  # --som: derived image name -> the original it was drawn on
        self.cropped: dict[str, dict] = {}  # web: exported crop -> the whole page and the box
        self.held: list[dict] = []  # steps the checks kept out (rejected, or unsure with no judge or reviewer passing)
        self.outcomes: Counter = Counter()  # the checks' outcome of every annotated step
        self.max_image_pixels = 0
        self.copier = ThreadPoolExecutor(max_workers=4)  # copying is I/O: threads overlap it with the rest
        self.placed: dict[str, Future | str] = {}  # a link is made here (a thread for each would cost more)

    def bar_total(self) -> int:
        return count_lines(self.run.episodes_path)

    def describe(self) -> str:
        return f"export {self.fmt.name}"

    def units(self):
        work_opts = replace(self.opts, hf_dataset=None, progress=None)
        dropped, result = self.dropped_episodes, self.result
        with open(self.run.episodes_path, encoding="utf-8") as f:
            for line in f:
                if not line.endswith("\n") or not line.strip():
                    continue  # a torn tail is not an episode
                eid = episode_id(line)
                record = self.annotations.get(eid)
                if self.fmt.needs_reasoning and record is None:
                    result.dropped["episode_not_annotated"] += 1
                    dropped[eid] = "episode_not_annotated"
                    continue
                status = self.judged.get(eid)
                if status is not None and record is not None:  # a judge model decides what the checks could not
                    record = {**record, "judge_passed": sorted(status.model_passed())}
                if status is not None and not status.passed:
                    # people outrank the judge, step by step: a step a reviewer decided follows the reviewer;
                    # every other step the judge vetoes stays out
                    reviewed = {int(k) for k in (record or {}).get("review") or {}}
                    if not reviewed:
                        result.dropped["judge_rejected"] += 1
                        dropped[eid] = "judge_rejected"
                        continue
                    vetoed = status.vetoed(len(record.get("items") or ())) - reviewed
                    record = {**record, "judge_vetoed": sorted(vetoed)}
                yield (eid, record), (line, record, work_opts, str(self.run.path), self.image_prefix)

    def write(self, key: tuple[str, dict | None], got: Any) -> None:
        eid, record = key
        self.result.dropped.update(got.reasons)
        self.cropped.update(got.cropped)
        self.held += got.held_back
        self.outcomes.update(got.outcomes)
        if not got.samples:
            self.dropped_episodes[eid] = got.reasons.most_common(1)[0][0] if got.reasons else "no_steps"
            return
        split = split_of(eid, self.opts.split_ratio, self.opts.seed)
        spool, stage, placed = self.spools[split], self.staging, self.placed
        for line, text_tokens, image_tokens, used in got.samples:
            for rel, name, pixels in used:
                if name not in placed and name in got.derived:
                    data, self.derived[name] = got.derived[name]
                    placed[name] = self.copier.submit(write_derived, stage / "images" / name, data)
                elif name not in placed:
                    src, dst = self.run.path / rel, stage / "images" / name
                    placed[name] = link_file(src, dst) or self.copier.submit(copy_file, src, dst)
                self.max_image_pixels = max(self.max_image_pixels, pixels)
            self.offsets[split].append((self.spooled[split], text_tokens + image_tokens))
            self.spooled[split] += spool.write(line.encode("utf-8") + b"\n")
            self.token_stats["text"].append(text_tokens)
            self.token_stats["image"].append(image_tokens)
            self.token_stats["total"].append(text_tokens + image_tokens)
        self.split_ids[split].append(eid)
        if eid in self.judged:
            self.judged_by[eid] = deciding_party(self.judged[eid], record)
            self.judges[self.judged_by[eid]] += 1
        if record:
            self.prompt_versions[record.get("prompt_version", "?")] += 1
            self.backends[record.get("backend", "?")] += 1

    def discard(self) -> None:
        """A failed export leaves nothing behind."""
        if hasattr(self, "copier"):
            self.copier.shutdown(wait=True, cancel_futures=True)
            self._close_spools()
            shutil.rmtree(self.staging, ignore_errors=True)

    def _close_spools(self) -> None:
        for spool in self.spools.values():
            if not spool.closed:
                spool.close()
                Path(spool.name).unlink(missing_ok=True)

    def complete(self) -> None:
        result, stage = self.result, self.staging
        try:
            self.images.update(f if isinstance(f, str) else f.result() for f in self.placed.values())
            shards: dict[str, list[str]] = {}
            packing: dict[str, Any] = {}
            row_lengths: dict[str, list[int]] = {}  # in shard row order: row i of the split's shards, in order
            for name, spool in self.spools.items():
                shards[name], packing[name], row_lengths[name] = write_shards(stage, name, spool, self.offsets[name],
                                                                              self.opts)
                result.samples[name] = len(self.offsets[name])
        finally:
            self.copier.shutdown(wait=True, cancel_futures=True)
            self._close_spools()
        result.manifest = write_bundle(self, shards, packing, row_lengths)
        swap_into_place(stage, self.out, self.force)

    def entry(self) -> dict[str, Any]:
        m = self.result.manifest
        return {"dir": text_for_output(str(self.result.out)), "format": m["format"], "family": m["family"],
                "samples": m["samples"], "episodes": m["episodes"], "dropped_episodes": len(m["dropped_episodes"]),
                "dropped": m["dropped"]}

    def _dropped_episodes(self, manifest: dict[str, Any]):
        """The episodes this export could not use at all, as rejects (each once per export)."""
        stage = self.ledger_stage
        seen = {str(r.get("episode_id")) for r in self.run.rejects() if r.get("stage") == stage}
        annotate_rejected = {str(r.get("episode_id")) for r in self.run.rejects() if r.get("stage") == "annotate"}
        for episode_id, reason in manifest.get("dropped_episodes", {}).items():
            if episode_id in seen or (reason == "episode_not_annotated" and episode_id in annotate_rejected):
                continue  # an annotate reject already accounts for it
            yield Reject(reason, "the judge failed this episode (see judgements.jsonl)" if reason == "judge_rejected"
                         else f"no step of this episode can be expressed in {manifest['format']}", episode_id,
                         stage=stage)


def said(done: StageOutcome, echo: Any, out: Path, opts: ExportOptions) -> None:
    """What ``sftdata export`` says of an export into ``out`` (as given): its samples, tokens, packing, warnings (on
    stderr) and drops."""
    if done.skipped:
        echo(f"{out} already holds this export of the same inputs and options; nothing to do (--force exports "
             "it again).")
        return
    m = done.stage.result.manifest
    echo(f"exported {m['samples'].get('train', 0)} train + {counted(m['samples'].get('val', 0), 'val sample')} "
         f"({opts.format}) to {out}")
    tokens = m["tokens"].get("total", {})
    if tokens:
        echo(f"tokens per sample ({m['family']}, text {m['text_tokens']['method']}): mean {tokens['mean']}, "
             f"p95 {tokens['p95']}, max {tokens['max']} (max_length {opts.max_length})")
    pk = m["packing"].get("train")
    if pk:
        echo(f"packing: {counted(pk['packs'], 'pack')}, efficiency {pk['efficiency']:.1%} "
             f"(lower bound {counted(pk['lower_bound_packs'], 'pack')}, {pk['lower_bound_efficiency']:.1%})")
    for warning in m.get("warnings", []):
        echo(f"warning: {warning}", err=True)
    for reason, count in m["dropped"].items():
        echo(f"  dropped: {reason:<30} {count:>6}{drop_hint([reason])}")
    echo(f"train with: bash {out}/{'train_grpo.sh' if opts.rl else 'train.sh'}")


def export_run(run: RunDir, out: str | Path, opts: ExportOptions, *, force: bool = False) -> ExportResult:
    """Export ``run`` in format ``opts.format`` to directory ``out`` (replaced atomically), even when an export
    with the same inputs and options is there. ``out`` must be new, empty, or (``force``) an earlier export of
    ours; see :func:`check_out`."""
    stage = ExportStage(run, opts, out=out, force=force)
    stage.execute(force=True)
    return stage.result
