"""``sftdata run``: every stage in order over one run directory, each skipped when it already finished with
the same inputs and options.

ingest (each source) -> annotate -> (judge) -> validate -> export (each format) -> report. Ingest, annotate and
judge resume record by record; validate, an export and the report are not redone while their fingerprints (what
they read, their options: :mod:`sftdata.stage_inputs`) are unchanged, so a run with nothing to do only reads. At
the end the manifest's ``accounting`` checks, per export, that every ingested episode was exported or rejected.
The stages' units run on one executor for the whole run (``--executor``: a local pool, or Ray); annotate and judge
call the LLM from this process, so their concurrency is the run's, cluster-wide.
"""
from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable

from .config import RunConfig
from .executors import Executor, executor as make_executor
from .exitcodes import EndpointUnavailable, NothingProduced
from .export.stage import ExportOptions, ExportStage
from .io import iter_jsonl, read_json
from .rundir import ANNOTATIONS
from .rundir import RunDir
from .stage import Stage, StageOutcome


@dataclass
class PipelineResult:
    run: RunDir
    elapsed: dict[str, float] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)
    exports: dict[str, dict[str, Any]] = field(default_factory=dict)  # name -> export manifest
    validation: dict[str, Any] = field(default_factory=dict)
    llm: dict[str, Any] = field(default_factory=dict)
    judge: dict[str, Any] = field(default_factory=dict)  # judged / passed / failed / by_reason, when [judge] is set
    accounting: dict[str, Any] = field(default_factory=dict)
    report: Path | None = None


def export_name(opts: ExportOptions, taken: set[str]) -> str:
    base = (opts.format + ("-memory" if opts.memory else "") + ("-tools" if opts.agent_tools else "")
            + ("-effective" if opts.ineffective == "drop" else "") + ("-som" if opts.som else "")
            + ("-rl" if opts.rl else ""))
    name, n = base, 2
    while name in taken:
        name, n = f"{base}-{n}", n + 1
    return name


def _timed(result: PipelineResult, stage: str, fn: Callable[[], Any]) -> Any:
    started = time.monotonic()
    try:
        return fn()
    finally:
        result.elapsed[stage] = round(result.elapsed.get(stage, 0.0) + time.monotonic() - started, 3)


def _stage(result: PipelineResult, kind: str, stage: Stage, label: str | None = None) -> StageOutcome:
    """Execute ``stage``: a skipped one is listed (as ``label``); the time of one that resumes is always counted."""
    out = stage.execute()
    if out.skipped:
        result.skipped.append(label or kind)
    if not out.skipped or stage.resumes:
        result.elapsed[kind] = round(result.elapsed.get(kind, 0.0) + out.seconds, 3)
    return out


def _ingest(cfg: RunConfig, run: RunDir, result: PipelineResult, progress: bool | None, executor: Executor) -> None:
    from .ingest import ingest_stage

    for src in cfg.sources:
        stage = ingest_stage(run, src, strict=cfg.strict, workers=cfg.workers, progress=progress, executor=executor)
        _stage(result, "ingest", stage, label=f"ingest {src.type}")


def _accounting(run: RunDir, result: PipelineResult) -> dict[str, Any]:
    ingest_in = sum(e.get("counts", {}).get("in", 0)
                    for e in run.manifest().get("stages", {}).get("ingest", {}).values())
    rejects = list(run.rejects())  # one pass over the ledger for every export's check
    ingest_rejected = sum(1 for r in rejects if r.get("stage") == "ingest")
    annotate_rejected = {str(r["episode_id"]) for r in rejects if r.get("stage") == "annotate"}
    annotated = {str(r["id"]) for r in iter_jsonl(run.path / ANNOTATIONS)}
    out: dict[str, Any] = {"ingested": ingest_in}
    for name, manifest in result.exports.items():
        exported = set(manifest["split_ids"]["train"]) | set(manifest["split_ids"]["val"])
        dropped = {str(r["episode_id"]) for r in rejects if r.get("stage") == f"export:{name}"}
        rejected = ingest_rejected + len((annotate_rejected - annotated) | dropped)
        out[name] = {"exported": len(exported), "rejected": rejected,
                     "balanced": ingest_in == len(exported) + rejected}
    return out


def run_pipeline(cfg: RunConfig, progress: bool | None = None) -> PipelineResult:
    """Every stage over ``cfg.run_dir``, holding its writer lock throughout, on one executor (``cfg.executor``:
    a Ray is started, or joined, once for the run and stopped at its end)."""
    chosen = make_executor(cfg.executor, cfg.workers, cfg.address)  # a wrong choice is refused before any write
    run = RunDir(cfg.run_dir)
    run.ensure_writable()
    with run.writing(), chosen as executor:
        return _run_stages(cfg, run, progress, executor)


def _run_stages(cfg: RunConfig, run: RunDir, progress: bool | None, executor: Executor) -> PipelineResult:
    result = PipelineResult(run)
    _ingest(cfg, run, result, progress, executor)
    if not run.episodes_path.exists():
        raise NothingProduced("no episode was ingested: check the sources in the config")
    for kind, label, stage in _stages(cfg, run, progress, executor):
        _take(result, kind, _stage(result, kind, stage, label))
    result.accounting = _accounting(run, result)
    last = {"elapsed_s": result.elapsed, "skipped": result.skipped, "accounting": result.accounting,
            "exports": {n: m["dir"] for n, m in result.exports.items()}}
    previous = run.manifest().get("stages", {}).get("pipeline", {}).get("last", {})
    if {**previous, "elapsed_s": None} != {**last, "elapsed_s": None}:  # a run that did nothing writes nothing
        run.update_manifest("pipeline", "last", last)
    if cfg.report:  # last: it shows the manifest, the pipeline's entry included
        from .config import ReportOptions
        from .report.stage import ReportStage

        report = ReportStage(run, ReportOptions(samples=cfg.report_samples), executor=executor)
        result.report = _stage(result, "report", report).stage.out
    return result


def _stages(cfg: RunConfig, run: RunDir, progress: bool | None, executor: Executor):
    """``(kind, label, stage)`` of each stage after ingest, in order: annotate, (judge), validate, each export."""
    from .annotate.stage import AnnotateStage
    from .config import ValidateTable
    from .validate import ValidateStage

    yield "annotate", None, AnnotateStage(run, replace(cfg.annotate, strict=cfg.strict, progress=progress))
    if cfg.judge is not None:
        from .judge.stage import JudgeStage
        yield "judge", None, JudgeStage(run, replace(cfg.judge, progress=progress))
    yield "validate", None, ValidateStage(run, ValidateTable(cfg.validate_cjk_threshold), executor=executor)
    taken: set[str] = set()
    for opts in cfg.exports:
        name = export_name(opts, taken)
        taken.add(name)
        yield "export", f"export {name}", ExportStage(run, replace(opts, progress=progress, workers=cfg.workers),
                                                      out=run.path / "export" / name, force=True, executor=executor)


def _take(result: PipelineResult, kind: str, out: StageOutcome) -> None:
    """What the summary shows of a stage, from its manifest entry (a skipped stage's: the counts it recorded)."""
    entry = out.entry
    if out.new["deferred"]:  # annotate, judge: the endpoint failed for some episodes
        raise EndpointUnavailable(out.stage.deferred_message(out.new["deferred"]))
    if kind == "annotate":
        result.llm = {**entry.get("llm", {}), "cost": entry.get("cost")}
    elif kind == "judge":
        counts = entry["counts"]
        result.judge = {k: counts[k] for k in ("judged", "passed", "failed", "by_reason")}
    elif kind == "validate":
        from .validate import VALIDATION_COUNTS
        result.validation = {k: entry[k] for k in VALIDATION_COUNTS}
    elif kind == "export":
        stage = out.stage
        result.exports[stage.out.name] = {**stage.result.manifest, "dir": str(stage.out),
                                          "split_ids": read_json(stage.out / "splits.json")}


def shown(path: str | Path) -> str:
    """``path`` relative to the working directory when it lies below it (shorter, and what the user typed)."""
    try:
        return str(Path(path).resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def summary_table(result: PipelineResult) -> str:
    """The closing summary: episodes in, rejects by stage and reason, samples per format, tokens, LLM, time."""
    run = result.run
    totals = run.totals()
    lines = [f"run {shown(run.path)}", "",
             f"episodes in      {totals['episodes'] + totals['rejected_by_stage'].get('ingest', 0):>8}   "
             + ", ".join(f"{k} {v}" for k, v in sorted(totals["episodes_by_source"].items()))]
    by_stage: Counter = Counter((r.get("stage"), r.get("reason")) for r in run.rejects())
    lines.append("rejected by stage and reason:" if by_stage else "rejected         none")
    for (stage, reason), n in sorted(by_stage.items(), key=lambda kv: (str(kv[0][0]), -kv[1])):
        lines.append(f"  {stage:<22} {reason:<28} {n:>6}")
    lines.append(f"{'export':<22} {'train':>8} {'val':>6} {'tokens':>12} {'packing':>9} {'dropped steps':>14}")
    for name, m in result.exports.items():
        tok = m.get("tokens", {}).get("total", {})
        pk = m.get("packing", {}).get("train", {})
        lines.append(f"{name:<22} {m['samples'].get('train', 0):>8} {m['samples'].get('val', 0):>6} "
                     f"{tok.get('total', 0):>12} {pk.get('efficiency', 0):>9.1%} {sum(m.get('dropped', {}).values()):>14}")
    llm = result.llm
    cost = llm.get("cost")
    lines.append(f"LLM requests {llm.get('requests', 0)}, retries {llm.get('retries', 0)}, cache hits "
                 f"{llm.get('cache_hits', 0)}, tokens in {llm.get('prompt_tokens', 0)} out "
                 f"{llm.get('completion_tokens', 0)}" + (f", cost {cost:.4f}" if cost is not None else ""))
    v = result.validation
    lines.append(f"validate: {v.get('checked', 0)} checked, {v.get('failed', 0)} failing")
    if result.judge:
        j = result.judge
        lines.append(f"judge: {j['judged']} judged, {j['passed']} passed, {j['failed']} failed"
                     + "".join(f", {r} {n}" for r, n in j["by_reason"].items()))
    lines.append("elapsed: " + ", ".join(f"{k} {v:.1f}s" for k, v in result.elapsed.items())
                 + (f"   (skipped, already done: {', '.join(result.skipped)})" if result.skipped else ""))
    for name, acc in result.accounting.items():
        if isinstance(acc, dict):
            lines.append(f"accounting {name}: ingested {result.accounting['ingested']} = exported {acc['exported']}"
                         f" + rejected {acc['rejected']}: {'balanced' if acc['balanced'] else 'NOT BALANCED'}")
    return "\n".join(lines)
