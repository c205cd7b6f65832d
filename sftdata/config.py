"""``sftdata run`` configuration: a TOML file mapped onto the stages' option dataclasses. Unknown keys are
errors (a typo must not silently fall back to a default); relative paths are relative to the config file.

>>> cfg = parse_config('run_dir = "out"\\n[[sources]]\\ntype = "androidcontrol"\\npaths = ["a.gz"]\\n'
...                    '[[export]]\\nformat = "react-zh"\\n', base=Path("/data"))
>>> cfg.run_dir, cfg.sources[0].paths, cfg.exports[0].format
(PosixPath('/data/out'), [PosixPath('/data/a.gz')], 'react-zh')
"""
from __future__ import annotations

import sys
import types
import typing
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from .errors import FatalError
from .export.stage import ExportOptions
from .judge.stage import JudgeOptions
from .annotate.stage import AnnotateOptions
from .sources import Source, source

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
    workers: int = 1
    strict: bool = False
    judge: JudgeOptions | None = None  # [judge]: run after annotate when present


_RANGES = {"workers": (1, None), "concurrency": (1, None), "max_attempts": (1, None), "window": (2, None),
           "max_length": (64, None), "split_ratio": (0, 1), "shard_size": (1, None), "history": (0, None),
           "history_images": (0, None), "limit": (1, None), "tolerance": (0, None), "timeout": (1, None),
           "max_retries": (0, None), "max_tokens": (16, None), "image_max_side": (64, None),
           "cjk_threshold": (0, 1), "samples": (0, None), "min_pixels": (1, None), "max_pixels": (1, None), "min_score": (1, 5)}


def _matches(value: Any, hint: Any) -> bool:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return any(_matches(value, arg) for arg in typing.get_args(hint))
    if hint is type(None):
        return value is None
    if hint is bool:
        return isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if hint in (str, Path):
        return isinstance(value, str)
    if origin is list:
        (item,) = typing.get_args(hint)
        return isinstance(value, list) and all(_matches(v, item) for v in value)
    return True


def _type_name(hint: Any) -> str:
    return str(hint).replace("typing.", "").replace("pathlib.", "").replace("<class '", "").replace("'>", "")


def _check_value(key: str, value: Any, hint: Any, where: str) -> None:
    if not _matches(value, hint):
        raise FatalError(f"config [{where}]: {key} = {value!r} should be {_type_name(hint)}")
    low, high = _RANGES.get(key, (None, None))
    if isinstance(value, (int, float)) and not isinstance(value, bool) and (
            (low is not None and value < low) or (high is not None and value > high)):
        raise FatalError(f"config [{where}]: {key} = {value!r} is out of range "
                         f"({low if low is not None else '-inf'}..{high if high is not None else 'inf'})")


def _take(cls, table: Any, where: str, skip: tuple[str, ...] = ()) -> dict[str, Any]:
    if not isinstance(table, dict):
        raise FatalError(f"config [{where}]: expected a table of keys, got {type(table).__name__}")
    names = {f.name for f in fields(cls)} - set(skip)
    unknown = sorted(set(table) - names)
    if unknown:
        raise FatalError(f"config [{where}]: unknown key(s) {', '.join(unknown)}; allowed: {', '.join(sorted(names))}")
    hints = typing.get_type_hints(cls)
    for key, value in table.items():
        _check_value(key, value, hints[key], where)
    return dict(table)


def _array_of_tables(raw: dict[str, Any], key: str) -> list[dict[str, Any]]:
    value = raw.get(key, [])
    if not isinstance(value, list) or not all(isinstance(t, dict) for t in value):
        raise FatalError(f"config: {key} must be an array of tables: write [[{key}]] (double brackets) "
                         "before each one")
    return value


def _small_table(raw: dict[str, Any], key: str, allowed: dict[str, Any]) -> dict[str, Any]:
    table = raw.get(key, {})
    if not isinstance(table, dict):
        raise FatalError(f"config: [{key}] must be a table")
    unknown = sorted(set(table) - set(allowed))
    if unknown:
        raise FatalError(f"config [{key}]: unknown key(s) {', '.join(unknown)}; allowed: {', '.join(sorted(allowed))}")
    for k, v in table.items():
        _check_value(k, v, allowed[k], key)
    return table


def _path(base: Path, value: Any) -> Path:
    return (base / str(value)).resolve() if not Path(str(value)).is_absolute() else Path(str(value))


def parse_config(text: str, base: Path) -> RunConfig:
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise FatalError(f"config is not valid TOML: {exc}") from None
    top = {"run_dir", "workers", "strict", "sources", "annotate", "judge", "validate", "export", "report"}
    unknown = sorted(set(raw) - top)
    if unknown:
        raise FatalError(f"config: unknown key(s) {', '.join(unknown)}; allowed: {', '.join(sorted(top))}")
    if "run_dir" not in raw:
        raise FatalError("config: run_dir is required")
    for key, hint in (("run_dir", str), ("workers", int), ("strict", bool)):
        if key in raw:
            _check_value(key, raw[key], hint, "top level")
    sources = []
    for i, table in enumerate(_array_of_tables(raw, "sources")):
        if isinstance(table.get("episodes"), list):  # ids may be written as numbers
            table = {**table, "episodes": [str(e) if isinstance(e, int) else e for e in table["episodes"]]}
        table = dict(table)
        src = source(table.pop("type", None), table, base, f"sources {i + 1}", take=_take)
        sources.append(src)
    if not sources:
        raise FatalError("config: at least one [[sources]] table is needed")
    annotate = AnnotateOptions(**_take(AnnotateOptions, raw.get("annotate", {}), "annotate",
                                       skip=("progress", "episode_ids", "strict")))
    if annotate.backend not in ("template", "openai"):
        raise FatalError(f"config [annotate]: backend must be template or openai, not {annotate.backend!r}")
    if annotate.prompt_file:
        annotate.prompt_file = str(_path(base, annotate.prompt_file))
    judge = None
    if "judge" in raw:
        judge = JudgeOptions(**_take(JudgeOptions, raw["judge"], "judge", skip=("progress", "episode_ids")))
        if judge.backend not in ("rules", "openai"):
            raise FatalError(f"config [judge]: backend must be rules or openai, not {judge.backend!r}")
        if judge.prompt_file:
            judge.prompt_file = str(_path(base, judge.prompt_file))
    from .formats import load_all, resolve_family, som_formats

    exports = [ExportOptions(**_take(ExportOptions, t, f"export {i + 1}", skip=("progress", "workers")))
               for i, t in enumerate(_array_of_tables(raw, "export"))]
    for i, e in enumerate(exports):
        if e.ineffective not in ("keep", "drop"):
            raise FatalError(f"config [export {i + 1}]: ineffective must be keep or drop, not {e.ineffective!r}")
        if e.format not in load_all():
            raise FatalError(f"config [export {i + 1}]: unknown format {e.format!r}; known: {', '.join(sorted(load_all()))}")
        if e.som and not getattr(load_all()[e.format], "som", False):
            raise FatalError(f"config [export {i + 1}]: som = true needs a format whose prompt promises numbered "
                             f"element boxes ({', '.join(som_formats())}), not {e.format}")
        try:
            resolve_family(load_all()[e.format], e.family)
        except ValueError as exc:
            raise FatalError(f"config [export {i + 1}]: {exc}") from None
    validate = _small_table(raw, "validate", {"cjk_threshold": float})
    report = _small_table(raw, "report", {"enabled": bool, "samples": int})
    return RunConfig(run_dir=_path(base, raw["run_dir"]), sources=sources, annotate=annotate, exports=exports,
                     validate_cjk_threshold=float(validate.get("cjk_threshold", 0.5)),
                     report=bool(report.get("enabled", True)), report_samples=int(report.get("samples", 3)),
                     workers=int(raw.get("workers", 1)), strict=bool(raw.get("strict", False)), judge=judge)


def load_config(path: str | Path) -> RunConfig:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise FatalError(f"cannot read config {path}: {exc.strerror or exc}") from None
    return parse_config(text, path.resolve().parent)


EXAMPLE = '''# sftdata pipeline: `sftdata run THIS_FILE`. Relative paths are relative to this file.
run_dir = "processed/my-run"      # one directory holds every stage's outputs (a new name: never another run's)
workers = 2                        # processes for the CPU-bound parts (decoding, image store, mark removal)
strict = false                     # true: stop at the first bad record instead of ledgering it

[[sources]]                        # the AndroidControl release, or any file in its format
type = "androidcontrol"
paths = ["raw/sample/sample.tfrecord.gz"]
# splits = "raw/android_control/splits.json"
# split = "train"                  # train, validation or test (needs splits)
# episodes = ["0", "20"]           # only these episode ids
# limit = 100                      # stop after N episodes

# [[sources]]                      # folders of human-annotated screenshots (one trajectory each)
# type = "annotated"
# root = "raw/annotated"
# tolerance = 30                   # px between task.json coordinates and the drawn marks (default 2% of the diagonal)
# require_clean = false            # true: reject marked trajectories without clean/ frames
# ocr = false                      # true: OCR text elements for frames without a tree (pip install 'sftdata[ocr]')

# [[sources]]                      # Multimodal-Mind2Web Parquet shards (in order), or text-only Mind2Web JSON
# type = "mind2web"
# paths = ["raw/sample/mind2web.parquet"]
# viewport = "1280x720"            # the window cut from each whole-page screenshot around the target
# screenshots = "raw/mind2web/task"  # JSON only: <annotation_id>/processed/screenshot.json folders

[annotate]                         # reconstruct Chinese ReAct reasoning for every step
backend = "template"               # template (offline, deterministic) or openai (any OpenAI-compatible endpoint)
# model = "Qwen2.5-VL-72B-Instruct"
# base_url = "http://localhost:8000/v1"
# api_key_env = "OPENAI_API_KEY"   # the variable holding the key; the key is never written anywhere
# prompt_file = "my_prompt.txt"    # your template, with {goal} and {screenshot_count}
concurrency = 8
max_attempts = 3
window = 20
# image_max_side = 1280
# price_in = 0.5                   # per million prompt tokens, for the cost in the summary
# price_out = 1.5

# [judge]                          # a second opinion on every reasoning; failing episodes are not exported
# backend = "rules"                # rules (offline: the alignment and hindsight checks) or openai (a judge model)
# model = "Qwen2.5-VL-72B-Instruct"
# min_score = 3                    # an item scored below this fails its episode (judge_score)

[validate]
cjk_threshold = 0.5                # least share of Chinese among the reasoning's letters

[[export]]                         # one table per agent format to export
format = "qwen2.5-vl"              # see `sftdata export --help` for every format
# family = "qwen2.5-vl"            # the model trained on it (default: the format's own; sizes images, train.sh)
memory = true
max_length = 16384
split_ratio = 0.1
# ineffective = "drop"             # drop the steps whose action left the screen unchanged (default keep)
# som = true                       # mobile-agent, browser-use...: numbered element boxes on a copy of each screenshot

[[export]]
format = "react-zh"
memory = false

[report]
enabled = true                     # RUN/report.html
samples = 3                        # episodes shown with their annotator images
'''
