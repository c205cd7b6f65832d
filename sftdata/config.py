"""``sftdata run`` configuration: a TOML file mapped onto the stages' option dataclasses. Unknown keys are
errors (a typo must not silently fall back to a default); relative paths are relative to the config file.

>>> cfg = parse_config('run_dir = "out"\\n[[sources]]\\ntype = "androidcontrol"\\npaths = ["a.gz"]\\n'
...                    '[[export]]\\nformat = "react-zh"\\n', base=Path("/data"))
>>> cfg.run_dir, cfg.sources[0].paths, cfg.exports[0].format
(PosixPath('/data/out'), [PosixPath('/data/a.gz')], 'react-zh')
"""
from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from .errors import FatalError
from .annotate.options import AnnotateOptions
from .export.options import ExportOptions
from .judge.options import JudgeOptions
from .options import PathType, default_workers, example_table, option, take_table, workers_option  # noqa: F401
from .sources import Source, source
from .toplevel import TopLevel  # noqa: F401 (the run's top-level keys, re-exported)

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


@dataclass
class RunConfig:
    run_dir: Path
    sources: list[Source]
    annotate: AnnotateOptions
    exports: list[ExportOptions]
    validate_cjk_threshold: float = 0.5
    report: bool = True
    report_samples: int = 3
    workers: int = field(default_factory=lambda: default_workers())
    strict: bool = False
    executor: str = "local"  # where the stages' units run (TopLevel.executor)
    address: str | None = None  # the Ray cluster to join (TopLevel.address)
    judge: JudgeOptions | None = None  # [judge]: run after annotate when present


def _array_of_tables(raw: dict[str, Any], key: str) -> list[dict[str, Any]]:
    value = raw.get(key, [])
    if not isinstance(value, list) or not all(isinstance(t, dict) for t in value):
        raise FatalError(f"config: {key} must be an array of tables: write [[{key}]] (double brackets) "
                         "before each one")
    return value


@dataclass
class ValidateTable:
    cjk_threshold: float = option(0.5, "Least share of Chinese among the reasoning's letters (quoted text excluded).",
                                  low=0, high=1)


@dataclass
class ReportOptions:
    """The report stage's options: ``sftdata report``'s flags and the run config's ``[report]`` keys."""

    enabled: bool = option(True, "Write RUN/report.html.", cli=False, fingerprint=False)
    out: str | None = option(None, "HTML file [default: RUN/report.html].", config=False, fingerprint=False,
                             click_type=PathType(dir_okay=False))
    max_length: int | None = option(None, "Draw this limit on the token histograms [default: each export's own].",
                                    low=1, config=False)
    samples: int = option(3, "Episodes shown with their annotator images, reasoning and exported answers.", low=0,
                          config_help="Episodes shown with their annotator images.")
    seed: int = option(0, "Which episodes are sampled.", config=False)


TOP_LEVEL = tuple(f.name for f in fields(TopLevel))  # the keys above the tables


def _table(raw: dict[str, Any], key: str, cls):
    table = raw.get(key, {})
    if not isinstance(table, dict):
        raise FatalError(f"config: [{key}] must be a table")
    return cls(**take_table(cls, table, key))


def _path(base: Path, value: Any) -> Path:
    return (base / str(value)).resolve() if not Path(str(value)).is_absolute() else Path(str(value))


def parse_config(text: str, base: Path) -> RunConfig:
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise FatalError(f"config is not valid TOML: {exc}") from None
    top = set(TOP_LEVEL) | {"sources", "annotate", "judge", "validate", "export", "report"}
    unknown = sorted(set(raw) - top)
    if unknown:
        raise FatalError(f"config: unknown key(s) {', '.join(unknown)}; allowed: {', '.join(sorted(top))}")
    if "run_dir" not in raw:
        raise FatalError("config: run_dir is required")
    top_level = TopLevel(**take_table(TopLevel, {k: v for k, v in raw.items() if k in TOP_LEVEL}, "top level"))
    sources = []
    for i, table in enumerate(_array_of_tables(raw, "sources")):
        if isinstance(table.get("episodes"), list):  # ids may be written as numbers
            table = {**table, "episodes": [str(e) if isinstance(e, int) else e for e in table["episodes"]]}
        table = dict(table)
        sources.append(source(table.pop("type", None), table, base, f"sources {i + 1}"))
    if not sources:
        raise FatalError("config: at least one [[sources]] table is needed")
    annotate = AnnotateOptions(**take_table(AnnotateOptions, raw.get("annotate", {}), "annotate"))
    if annotate.prompt_file:
        annotate.prompt_file = str(_path(base, annotate.prompt_file))
    judge = None
    if "judge" in raw:
        judge = JudgeOptions(**take_table(JudgeOptions, raw["judge"], "judge"))
        if judge.prompt_file:
            judge.prompt_file = str(_path(base, judge.prompt_file))
    from .formats import load_all, resolve_family, som_formats

    exports = [ExportOptions(**take_table(ExportOptions, t, f"export {i + 1}"))
               for i, t in enumerate(_array_of_tables(raw, "export"))]
    for i, e in enumerate(exports):
        if e.som and not getattr(load_all()[e.format], "som", False):
            raise FatalError(f"config [export {i + 1}]: som = true needs a format whose prompt promises numbered "
                             f"element boxes ({', '.join(som_formats())}), not {e.format}")
        try:
            resolve_family(load_all()[e.format], e.family)
        except ValueError as exc:
            raise FatalError(f"config [export {i + 1}]: {exc}") from None
    validate, report = _table(raw, "validate", ValidateTable), _table(raw, "report", ReportOptions)
    return RunConfig(run_dir=_path(base, top_level.run_dir), sources=sources, annotate=annotate, exports=exports,
                     validate_cjk_threshold=float(validate.cjk_threshold), report=report.enabled,
                     report_samples=report.samples,
                     workers=top_level.workers, strict=top_level.strict, judge=judge,
                     executor=top_level.executor, address=top_level.address)


def load_config(path: str | Path) -> RunConfig:
    """The config at ``path``; every error names the file (and the table and key)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise FatalError(f"cannot read config {path}: {exc.strerror or exc}") from None
    base = path.resolve().parent
    try:
        cfg = parse_config(text, base)
    except FatalError as exc:
        message = str(exc)  # "config [export 1]: ..." -> "run.toml [export 1]: ..."
        raise FatalError(f"{path}{message[6:]}" if message.startswith("config") else f"{path}: {message}") from None
    return cfg


def check_inputs(cfg: RunConfig, path: str | Path) -> None:
    """Refuse a source input that does not exist, naming the config file, the source and the key, and where a
    relative path was resolved from (the config file's folder)."""
    for i, src in enumerate(cfg.sources, 1):
        for key in ("paths", "root", "splits", "screenshots"):
            value = getattr(src, key, None)
            for p in value if isinstance(value, list) else [value] if value else []:
                if not Path(p).exists():
                    raise FatalError(f"{path} [sources {i} ({src.type})]: {key}: {p} does not exist (relative paths "
                                     f"in a config are relative to the config file's folder, "
                                     f"{Path(path).resolve().parent})")


def _commented(text: str) -> str:
    return "\n".join(line if not line or line.startswith("# ") else "# " + line for line in text.splitlines())


def example_config() -> str:
    """The commented example of ``sftdata run --print-example-config``, made from the options' declarations."""
    from .sources import AndroidControlSource, AnnotatedSource, Mind2WebSource

    parts = [
        "# sftdata pipeline: `sftdata run THIS_FILE`. Relative paths are relative to this file.",
        example_table(TopLevel, {"run_dir": "processed/my-run", "workers": 2, "strict": False}),
        "",
        "[[sources]]                        # the AndroidControl release, or any file in its format",
        'type = "androidcontrol"',
        example_table(AndroidControlSource, {"paths": ["raw/sample/sample.tfrecord.gz"]}),
        "",
        _commented("[[sources]]                        # folders of human-annotated screenshots (one trajectory each)\n"
                   'type = "annotated"\n' + example_table(AnnotatedSource, {"root": "raw/annotated"})),
        "",
        _commented("[[sources]]                        # Multimodal-Mind2Web Parquet shards, or Mind2Web JSON\n"
                   'type = "mind2web"\n' + example_table(Mind2WebSource, {"paths": ["raw/sample/mind2web.parquet"]})),
        "",
        "[annotate]                         # reconstruct Chinese ReAct reasoning for every step",
        example_table(AnnotateOptions, {"backend": "template", "concurrency": 8, "max_attempts": 3, "window": 20}),
        "",
        _commented("[judge]                            # a second opinion; failing episodes are not exported\n"
                   + example_table(JudgeOptions, {"backend": "rules", "min_score": 3})),
        "",
        "[validate]",
        example_table(ValidateTable, {"cjk_threshold": 0.5}),
        "",
        "[[export]]                         # one table per agent format to export",
        example_table(ExportOptions, {"format": "qwen2.5-vl", "memory": True, "max_length": 16384,
                                      "split_ratio": 0.1}),
        "",
        "[[export]]",
        'format = "react-zh"',
        "memory = false",
        "",
        "[report]",
        example_table(ReportOptions, {"enabled": True, "samples": 3}),
    ]
    return "\n".join(parts) + "\n"
