"""The report stage: one self-contained page about a run (``RUN/report.html`` by default), redrawn only when
something it shows has changed (:func:`sftdata.stage_inputs.report_fingerprint`)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ..config import ReportOptions
from ..io import text_for_output, write_bytes_atomic
from ..stage import Stage, output_key
from ..stage_inputs import report_fingerprint
from ..toplevel import EXECUTOR_FLAGS


def _draw(payload: tuple[str, int | None, int, int]) -> bytes:
    """The one unit of the report stage: the page, drawn."""
    from .html import render_report

    run_dir, max_length, samples, seed = payload
    return render_report(run_dir, max_length=max_length, samples=samples, seed=seed).encode("utf-8")


class ReportStage(Stage):
    """Write one self-contained HTML page about a run (images embedded, no network needed to view it).

    \b
    Counts and rejects by reason, action histogram, steps per episode, token lengths against max_length,
    packing efficiency, LLM usage, and a few episodes as annotator images beside their reasoning and answers.

    \b
    Example:
      sftdata report processed/demo --out report.html
    """

    # the report page of a run (a read-only run is drawn too, without a note in its manifest)
    name, options, resumes, reads_only, bar_unit = "report", ReportOptions, False, True, None
    flags_after = (EXECUTOR_FLAGS,)
    process = staticmethod(_draw)

    @property
    def out(self) -> Path:
        return Path(self.opts.out) if self.opts.out else self.run.path / "report.html"

    @property
    def key(self) -> str:
        return output_key(self.run, self.out)

    def fingerprint(self) -> dict[str, Any]:
        # taken before the page is drawn: what it shows
        return report_fingerprint(self.run, samples=self.opts.samples, seed=self.opts.seed,
                                  max_length=self.opts.max_length)

    def done(self, previous: dict[str, Any]) -> bool:
        return self.out.is_file()

    def units(self):
        yield "page", (str(self.run.path), self.opts.max_length, self.opts.samples, self.opts.seed)

    def write(self, key: str, page: bytes) -> None:
        write_bytes_atomic(self.out, page, fsync=False)
        self.size = len(page)

    @classmethod
    def invoke(cls, echo: Any, opts: ReportOptions, *, run_dir: Path, executor: str, address: str | None) -> None:
        from ..executors import executor as make_executor
        from ..rundir import RunDir

        run = RunDir(run_dir)
        run.require_run()
        with make_executor(executor, 1, address) as chosen:
            done = cls(run, opts, executor=chosen).execute()
        echo(f"{done.stage.out} is up to date: nothing it shows has changed" if done.skipped
             else f"wrote {done.stage.out}")

    def entry(self) -> dict[str, Any]:
        return {"path": text_for_output(str(self.out.resolve())), "bytes": self.size, "samples": self.opts.samples,
                "seed": self.opts.seed}
