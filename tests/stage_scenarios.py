"""How tests/test_stage_contract.py runs each stage on a tiny generated run: the base inputs, one scenario per
stage (how to run it, where it is killed, its outputs, a changed input and option, its counts)."""
from __future__ import annotations

import gzip
import importlib
import json
import os
from collections import Counter
from pathlib import Path

from click.testing import CliRunner
from PIL import Image

from sftdata.cli import main
from sftdata.executors import executor
from sftdata.io import iter_jsonl
from sftdata.rundir import RunDir
from llm_scenarios import build_llm_runs, make_llm_scenarios
from support import make_unsure

SIZE = (180, 400)
INGEST_SOURCES = ("androidcontrol", "annotated", "mind2web")


def _sftdata(*args: str) -> str:
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    return result.output


def _decisions(steps: dict[int, str]) -> list[dict]:
    return [{"from_name": f"decision_{s}", "to_name": f"screenshot_{s}", "type": "choices",
             "value": {"choices": [choice]}} for s, choice in steps.items()]


def review_export(tasks: list[dict], reviewer: int, decided: dict[int, dict[int, str]]) -> list[dict]:
    """A Label Studio JSON export: task i with one annotation of ``reviewer`` deciding ``decided[i]``."""
    return [{"id": i + 1, "data": t["data"], "annotations": [
        {"id": 100 * i + reviewer, "completed_by": reviewer, "updated_at": f"2026-02-0{reviewer}T10:00:00Z",
         "result": _decisions(decided[i])}] if i in decided else []} for i, t in enumerate(tasks)]


def build_base(root: Path, sample_run) -> Path:
    """``root/run``: a generated run (a sample and a truncated copy of it, so ingest rejects), annotated by the
    template but for its last episode (so an export drops one), with the review tasks and two reviewers' exports;
    ``root/inputs``: the raw inputs of each ingest source (each with something rejected)."""
    from sftdata.review.tasks import export_review
    from built_once import sample_file

    run = sample_run(root / "gen", 4, SIZE, annotate=True)
    lines = (run.path / "annotations.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    (run.path / "annotations.jsonl").write_text("".join(lines[:-1]), encoding="utf-8")
    os.rename(run.path, root / "run")
    run = RunDir(root / "run")
    export_review(run, root / "rev")
    tasks = json.loads((root / "rev" / "tasks.json").read_text(encoding="utf-8"))
    (root / "a.json").write_text(json.dumps(review_export(tasks, 1, {0: {0: "accept", 1: "reject", 2: "accept"},
                                                                      1: {0: "reject", 1: "accept"}})))
    (root / "b.json").write_text(json.dumps(review_export(tasks, 2, {0: {1: "accept"}})))

    inputs = root / "inputs"
    inputs.mkdir()
    sample_file(inputs / "a.tfrecord.gz", n_episodes=4, seed=0, size=SIZE)
    raw = gzip.decompress((inputs / "a.tfrecord.gz").read_bytes())
    (inputs / "b.tfrecord.gz").write_bytes(gzip.compress(raw[:len(raw) * 3 // 4], mtime=0))
    _sftdata("sample", inputs / "ann", "--annotated", "--episodes", 3, "--size", "180x400")
    bad = inputs / "ann" / "zz_no_done"
    bad.mkdir()
    for j in range(2):
        Image.new("RGB", SIZE, (0, 90, 200)).save(bad / f"{j:03d}.png")
    (bad / "task.json").write_text(json.dumps({"goal": "没有完成动作", "actions": ["BACK", "WAIT"], "marked": False},
                                              ensure_ascii=False), encoding="utf-8")
    _sftdata("sample", inputs / "m2w.parquet", "--mind2web", "--episodes", 3)
    build_llm_runs(root, sample_run)
    return root


def _without_elapsed(entry):
    if isinstance(entry, dict):
        return {k: _without_elapsed(v) for k, v in entry.items() if k not in ("elapsed_s", "created")}
    return entry


def _entry(work: Path, run: str, stage: str) -> dict:
    return _without_elapsed(RunDir(work / run).manifest().get("stages", {}).get(stage))


def _rejects(work: Path, run: str, stages) -> list[dict]:
    return [r for r in RunDir(work / run).rejects() if r.get("stage") in stages]


class StageScenario:
    """A Stage subclass run in this process; killed after ``kill_after`` units were taken."""

    run_name, ledger_stages, kill_after, stage_name, where = "run", (), 1, "", ""  # where: "module:Class"

    def stage_class(self):
        module, name = self.where.split(":")
        return getattr(importlib.import_module(module), name)

    def make(self, run: RunDir, changed_option: bool):
        raise NotImplementedError

    def run(self, work: Path, changed_option: bool = False) -> bool:
        """Run the stage; whether it did its work (False: skipped)."""
        return not self.make(RunDir(work / self.run_name), changed_option).execute().skipped

    def hook(self, k, kill) -> None:
        cls = self.stage_class()
        original, taken = cls.take, [0]

        def take(stage, key, outcome):
            original(stage, key, outcome)
            taken[0] += 1
            if taken[0] == k:
                kill()
        cls.take = take

    def outputs(self, work: Path) -> dict:
        return {"entry": _entry(work, self.run_name, self.stage_name),
                "rejects": _rejects(work, self.run_name, self.ledger_stages)}

    def change_input(self, work: Path) -> None:
        run = RunDir(work / self.run_name)
        make_unsure(run, sorted(run.latest_annotations())[0], 1)

    # what an LLM stage bought (tests/llm_scenarios.py): nothing, for the others
    def mark(self) -> int:
        return 0

    def bought_since(self, mark: int) -> int:
        return 0

    def received(self, work: Path) -> int:
        return 0


class Validate(StageScenario):
    stage_name = "validate"
    where = "sftdata.validate:ValidateStage"

    def make(self, run, changed_option):
        from sftdata.config import ValidateTable
        return self.stage_class()(run, ValidateTable(cjk_threshold=0.4 if changed_option else 0.5))

    def check_counts(self, work, reasons) -> None:
        entry = _entry(work, "run", "validate")["annotations"]
        assert entry["checked"] == entry["passed"] + entry["failed"] == len(RunDir(work / "run").latest_annotations())
        assert sum(entry["by_reason"].values()) >= entry["failed"]


class Report(StageScenario):
    stage_name = "report"
    where = "sftdata.report.stage:ReportStage"

    def make(self, run, changed_option):
        from sftdata.config import ReportOptions
        return self.stage_class()(run, ReportOptions(samples=1 if changed_option else 0))

    def outputs(self, work):
        page = work / "run" / "report.html"
        return {**super().outputs(work), "page": page.stat().st_size if page.exists() else None}

    def check_counts(self, work, reasons) -> None:
        (entry,) = _entry(work, "run", "report").values()
        assert entry["bytes"] == (work / "run" / "report.html").stat().st_size


class Export(StageScenario):
    stage_name, ledger_stages, kill_after = "export", ("export:sft",), 2
    where = "sftdata.export.stage:ExportStage"

    def make(self, run, changed_option):
        from sftdata.export.stage import ExportOptions
        opts = ExportOptions(format="qwen2.5-vl" if changed_option else "react-zh", split_ratio=0.0, progress=False)
        return self.stage_class()(run, opts, out=run.path / "export" / "sft", force=True)  # may replace its own

    def outputs(self, work):
        out = work / "run" / "export" / "sft"
        files = {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*"))
                 if p.is_file() and p.name != "manifest.json"} if out.is_dir() else {}
        manifest = json.loads((out / "manifest.json").read_text()) if (out / "manifest.json").exists() else None
        return {**super().outputs(work), "files": files, "manifest": _without_elapsed(manifest),
                "leftovers": sorted(p.name for p in out.parent.iterdir() if p.name != "sft")}

    def check_counts(self, work, reasons) -> None:
        manifest = json.loads((work / "run" / "export" / "sft" / "manifest.json").read_text())
        assert sum(manifest["episodes"].values()) + len(manifest["dropped_episodes"]) == \
            len(list(iter_jsonl(work / "run" / "episodes.jsonl")))
        assert Counter(manifest["dropped_episodes"].values()) == reasons


class ReviewImport(StageScenario):
    stage_name, ledger_stages = "review", ("review",)
    where = "sftdata.review.importer:ReviewImportStage"

    def run(self, work, changed_option=False):
        """Whether a decision was added: the import is idempotent by decision, never skipped as a whole."""
        from sftdata.review.importer import ReviewImportOptions
        stage = self.stage_class()(RunDir(work / "run"), ReviewImportOptions(str(work / ("b.json" if changed_option
                                                                                          else "a.json"))))
        stage.execute()
        return stage.result.new > 0

    def outputs(self, work):
        reviews = work / "run" / "reviews.jsonl"
        return {**super().outputs(work), "reviews": reviews.read_bytes() if reviews.exists() else b""}

    def check_counts(self, work, reasons) -> None:
        entry = _entry(work, "run", "review")["human"]
        assert entry["records"] == len(list(iter_jsonl(work / "run" / "reviews.jsonl")))
        assert entry["rejected"] == reasons["human_rejected"] == sum(reasons.values())

    def change_input(self, work):
        tasks = json.loads((work / "rev" / "tasks.json").read_text(encoding="utf-8"))
        exported = json.loads((work / "a.json").read_text())
        exported[2]["annotations"] = review_export(tasks, 3, {2: {0: "accept"}})[2]["annotations"]
        (work / "a.json").write_text(json.dumps(exported))


class Ingest:
    """An ingest source through its CLI command; killed after ``kill_after`` episodes were ledgered."""

    run_name, kill_after = "fresh", 1
    mark, bought_since, received = StageScenario.mark, StageScenario.bought_since, StageScenario.received

    def __init__(self, source: str, inputs: tuple[str, ...], option: tuple[str, ...],
                 ledger_stages: tuple[str, ...] = ("ingest",)) -> None:
        self.source, self.inputs, self.option, self.ledger_stages = source, inputs, option, ledger_stages

    def run(self, work: Path, changed_option: bool = False) -> bool:
        out = _sftdata("ingest", self.source, *(work / "inputs" / i for i in self.inputs), "--out", work / "fresh",
                       "--no-progress", *(self.option if changed_option else ()))
        return "already finished with these inputs and options" not in out

    def hook(self, k, kill) -> None:
        from sftdata.io import Ledger
        original, written = Ledger.append, [0]

        def append(ledger, record):
            original(ledger, record)
            if ledger.path.name == "episodes.jsonl":
                written[0] += 1
                if written[0] == k:
                    kill()
        Ledger.append = append

    def outputs(self, work: Path) -> dict:
        run = work / "fresh"
        entry = _entry(work, "fresh", "ingest")
        if entry:
            entry[self.source].pop("fingerprint", None)  # the inputs' mtimes
        return {"episodes": (run / "episodes.jsonl").read_bytes(),
                "rejects": (run / "rejects.jsonl").read_bytes() if (run / "rejects.jsonl").exists() else b"",
                "images": sorted(str(p.relative_to(run)) for p in (run / "images").rglob("*")), "entry": entry}

    def check_counts(self, work: Path, reasons: Counter) -> None:
        counts = _entry(work, "fresh", "ingest")[self.source]["counts"]
        assert counts["in"] == counts["exported"] + counts["rejected"] + counts["filtered"]
        episodes = [e for e in iter_jsonl(work / "fresh" / "episodes.jsonl") if e["source"] == self.source]
        assert counts["exported"] == len(episodes) and counts["exported"] > 0
        episode_rejects = Counter(r["reason"] for r in _rejects(work, "fresh", ("ingest",)))
        assert counts["by_reason"] == dict(episode_rejects) and counts["rejected"] == sum(episode_rejects.values())
        steps = counts.get("steps")
        if steps:
            assert steps["by_reason"] == dict(reasons - episode_rejects)

    def change_input(self, work: Path) -> None:
        first = work / "inputs" / self.inputs[0]
        touched = next(first.rglob("task.json")) if first.is_dir() else first
        st = touched.stat()
        os.utime(touched, (st.st_atime + 10, st.st_mtime + 10))


class IngestStage(Ingest):
    """An ingest source as its Stage subclass (:data:`sftdata.ingest.STAGES`), run in this process on two workers:
    a ``[[sources]]`` table of ``inputs``, ``option`` its changed key; killed after ``kill_after`` units were taken."""

    hook = StageScenario.hook

    def __init__(self, source: str, inputs: dict, option: dict, ledger_stages: tuple[str, ...] = ("ingest",)) -> None:
        super().__init__(source, tuple(inputs.get("paths", [inputs.get("root")])), (), ledger_stages)
        self.table, self.changed = inputs, option

    def stage_class(self):
        from sftdata.ingest import STAGES
        return STAGES[self.source]

    def run(self, work: Path, changed_option: bool = False) -> bool:
        from sftdata.sources import source

        src = source(self.source, {**self.table, **(self.changed if changed_option else {})}, work / "inputs",
                     "sources 1")
        stage = self.stage_class()(RunDir(work / self.run_name), src, progress=False,
                                   executor=executor("local", workers=2))
        return not stage.execute().skipped


SCENARIOS = {
    "ValidateStage": Validate(), "ReportStage": Report(), "ExportStage": Export(),
    "ReviewImportStage": ReviewImport(),
    "AndroidControlIngest": IngestStage("androidcontrol", {"paths": ["a.tfrecord.gz", "b.tfrecord.gz"]}, {"limit": 3}),
    "AnnotatedIngest": IngestStage("annotated", {"root": "ann"}, {"tolerance": 30}),
    "Mind2WebIngest": IngestStage("mind2web", {"paths": ["m2w.parquet"]}, {"limit": 2}, ("ingest", "ingest:step")),
    "ingest androidcontrol": Ingest("androidcontrol", ("a.tfrecord.gz", "b.tfrecord.gz"), ("--limit", "3")),
    "ingest annotated": Ingest("annotated", ("ann",), ("--tolerance", "30")),
    "ingest mind2web": Ingest("mind2web", ("m2w.parquet",), ("--limit", "2"), ("ingest", "ingest:step")),
    **make_llm_scenarios(StageScenario),
}
VARIANTS = ("AnnotateStage openai", "JudgeStage openai")  # a stage's second scenario: against an endpoint
