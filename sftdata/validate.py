"""Check reconstructions against their episodes' ground truth and report why items fail, and how many items the
checks certify, leave unsure or reject (:func:`sftdata.checks.certify`; unsure items do not fail validation).

Annotation lines may be this project's records (``{"id", "items", ...}``), any object with an ``id`` and a list
under ``items``/``reconstruction``/``output``, or a bare seed-002 list, matched to the episode on the same line
number. Episodes are streamed; only the (small) annotations are held in memory.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import FatalError, RecordError, UsageError
from .model import Episode
from .values import loads_strict
from .checks.certify import OUTCOMES, certify_items
from .checks.check import CJK_THRESHOLD, Failure, check_items
from .checks.schema import schema_failures
from .config import ValidateTable
from .stage import Stage
from .options import Flags, PathType, option
from .stage_inputs import validate_fingerprint
from .toplevel import EXECUTOR_FLAGS

_LIST_KEYS = ("items", "reconstruction", "output", "annotation")


@dataclass
class ValidationReport:
    checked: int = 0
    passed: int = 0
    failed: int = 0
    missing: list[str] = field(default_factory=list)  # episodes without an annotation
    unknown: list[str] = field(default_factory=list)  # annotations without an episode
    by_reason: Counter = field(default_factory=Counter)
    episodes: list[dict[str, Any]] = field(default_factory=list)  # the failing ones, with their failures
    outcomes: Counter = field(default_factory=Counter)  # items certified / unsure / rejected (sftdata.checks.certify)
    unsure_by_reason: Counter = field(default_factory=Counter)
    unsure: list[dict[str, Any]] = field(default_factory=list)  # (episode, item, reasons) of the unsure items

    def to_dict(self) -> dict[str, Any]:
        return {"checked": self.checked, "passed": self.passed, "failed": self.failed,
                "failures_by_reason": dict(self.by_reason.most_common()), "missing": self.missing,
                "unknown": self.unknown, "failing_episodes": self.episodes,
                "items": {o: self.outcomes[o] for o in OUTCOMES},
                "unsure_by_reason": dict(self.unsure_by_reason.most_common()), "unsure_items": self.unsure}

    @property
    def ok(self) -> bool:
        return self.failed == 0 and self.checked > 0


@dataclass
class _Annotations:
    by_id: dict[str, list] = field(default_factory=dict)
    by_line: dict[int, list] = field(default_factory=dict)
    generation: dict[str, tuple] = field(default_factory=dict)  # (model, prompt_version) of each id's record
    problems: list[tuple[str, Failure]] = field(default_factory=list)  # (where, failure) of unusable lines


def _read_lines(path: Path) -> tuple[list[str], bool]:
    """The lines of ``path`` and whether the last one is complete (ends with a newline)."""
    try:
        # split on \n only: str.splitlines() also breaks at U+2028/U+2029/U+0085, which JSON keeps raw in strings
        lines = path.read_text(encoding="utf-8").split("\n")
    except (OSError, UnicodeDecodeError) as exc:
        raise FatalError(f"cannot read annotations {path}: {exc}") from None
    complete = lines[-1] == ""
    if complete:
        lines.pop()
    return lines, complete


def _items_of(line: str) -> tuple[str | None, list, tuple] | Failure:
    """``(id or None, items, (model, prompt_version))`` of one annotation line, or why it is unusable."""
    try:
        value = loads_strict(line)
    except RecordError as exc:
        return Failure(None, "malformed_line" if exc.reason == "malformed_json" else exc.reason, exc.detail)
    if isinstance(value, list):
        return None, value, (None, None)
    if not isinstance(value, dict) or "id" not in value:
        return Failure(None, "malformed_line", "expected an object with an id, or a list")
    if isinstance(value["id"], bool) or not isinstance(value["id"], (str, int)):
        return Failure(None, "bad_episode_id", f"id must be a string or an integer, got {str(value['id'])[:40]!r}")
    items = next((value[k] for k in _LIST_KEYS if isinstance(value.get(k), list)), None)
    if items is None:
        return Failure(None, "malformed_line", f"no list under any of {', '.join(_LIST_KEYS)}")
    return str(value["id"]), items, (value.get("model"), value.get("prompt_version"))


def _load_annotations(path: Path, own: bool) -> _Annotations:
    """Every line of the annotations file. Unusable lines and duplicate ids become failures (``malformed_line``,
    ``non_finite_number``, ``bad_episode_id``, ``duplicate_id``); only in a file this tool wrote (``own``) is a
    last line without a newline a torn tail, passed over. A later record of an id from another model or prompt
    version supersedes the earlier one (a re-annotation), as in the export."""
    out = _Annotations()
    lines, complete = _read_lines(path)
    for number, line in enumerate(lines):
        if not line.strip():
            continue
        where = f"{path.name}:{number + 1}"
        got = _items_of(line)
        if isinstance(got, Failure):
            if own and not complete and number == len(lines) - 1:
                continue  # a torn last line from our killed writer
            out.problems.append((where, got))
            continue
        key, items, generation = got
        if key is None:
            out.by_line[number] = items
            continue
        if key in out.by_id and (generation == out.generation[key] or None in generation):
            out.problems.append((key, Failure(None, "duplicate_id", f"{where}: id {key!r} appears more than once")))
        out.by_id[key], out.generation[key] = items, generation
    return out


def _episode_lines(path: Path):
    """(line number, Episode or RecordError) of an episodes file; a torn tail of our writer is passed over."""
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f):
            if not line.strip():
                continue
            try:
                yield number, Episode.from_json(line)
            except RecordError as exc:
                if exc.reason == "malformed_json" and not line.endswith("\n"):
                    continue  # a torn last line of a killed writer
                yield number, exc


def _fail(report: ValidationReport, key: str, failures: list[Failure]) -> None:
    report.failed += 1
    report.by_reason.update(f.reason for f in failures)
    report.episodes.append({"id": key, "failures": [f.to_dict() for f in failures]})


def _certify(report: ValidationReport, episode: Episode, items: list, failures: list[Failure],
             cjk_threshold: float) -> None:
    """Count the items' outcomes (:func:`sftdata.checks.certify.certify_items`) and keep the unsure ones."""
    for index, c in enumerate(certify_items(items, episode, cjk_threshold=cjk_threshold, failures=failures)):
        report.outcomes[c.outcome] += 1
        if c.outcome == "unsure":
            report.unsure_by_reason[c.first] += 1
            report.unsure.append({"id": episode.id, "index": index, "reasons": [r.to_dict() for r in c.reasons]})


def validate_files(episodes_path: str | Path, annotations_path: str | Path,
                   cjk_threshold: float = CJK_THRESHOLD, own: bool | None = None) -> ValidationReport:
    """Check every annotation against its episode. ``own``: the annotations are this tool's ledger (default:
    when the file is the run's ``annotations.jsonl`` beside the episodes)."""
    episodes_path, annotations_path = Path(episodes_path), Path(annotations_path)
    if not episodes_path.is_file():
        raise FatalError(f"episodes file {episodes_path} does not exist")
    if own is None:
        own = annotations_path.resolve() == (episodes_path.parent / "annotations.jsonl").resolve()
    ann = _load_annotations(annotations_path, own)
    report = ValidationReport()
    seen: set[str] = set()
    for number, episode in _episode_lines(episodes_path):
        if isinstance(episode, RecordError):
            report.checked += 1
            _fail(report, f"{episodes_path.name}:{number + 1}", [Failure(None, episode.reason, episode.detail)])
            continue
        seen.add(episode.id)
        items = ann.by_id.get(episode.id, ann.by_line.get(number))
        if items is None:
            report.missing.append(episode.id)
            continue
        schema = schema_failures(items)
        failures = schema or check_items(items, episode, cjk_threshold=cjk_threshold)
        report.checked += 1
        if not schema:
            _certify(report, episode, items, failures, cjk_threshold)
        if failures:
            _fail(report, episode.id, failures)
        else:
            report.passed += 1
    for where, failure in ann.problems:
        report.checked += 1
        _fail(report, where, [failure])
    report.unknown = sorted(set(ann.by_id) - seen)
    return report


def format_report(report: ValidationReport) -> str:
    lines = [f"checked {report.checked}   passed {report.passed}   failed {report.failed}"
             + (f"   without annotation {len(report.missing)}" if report.missing else "")
             + (f"   annotations without episode {len(report.unknown)}" if report.unknown else "")]
    if report.outcomes:
        o = report.outcomes
        lines.append(f"items: certified {o['certified']}   unsure {o['unsure']}   rejected {o['rejected']}"
                     + ("   (unsure items go to a judge model or a reviewer: sftdata judge --backend openai, "
                        "sftdata review export --only unsure)" if o["unsure"] else ""))
        for reason, count in report.unsure_by_reason.most_common():
            lines.append(f"  unsure: {reason:<28} {count:>6}")
    if report.by_reason:
        width = max(len(r) for r in report.by_reason)
        lines.append("failures by reason:")
        lines += [f"  {reason:<{width}}  {count:>6}" for reason, count in report.by_reason.most_common()]
        for ep in report.episodes[:5]:
            first = ep["failures"][0]
            where = "list" if first["index"] is None else f"item {first['index'] + 1}"
            lines.append(f"  e.g. episode {ep['id']}, {where}: {first['reason']}: {first['detail']}")
    return "\n".join(lines)


VALIDATION_COUNTS = ("checked", "passed", "failed", "by_reason")


@dataclass
class ValidateFiles:
    """What ``sftdata validate`` checks when it is not given a run, and where it writes the full report."""

    episodes_path: Path | None = option(None, "An episodes.jsonl made elsewhere (with --annotations, instead of RUN).",
                                        cli="--episodes", config=False,
                                        click_type=PathType(exists=True, dir_okay=False, as_path=True))
    annotations_path: Path | None = option(None, "Annotation lines: {id, items} records, or one raw seed 002 list per "
                                           "episode line.", cli="--annotations", config=False,
                                           click_type=PathType(exists=True, dir_okay=False, as_path=True))
    report: Path | None = option(None, "Write the full report as JSON.", config=False,
                                 click_type=PathType(dir_okay=False, as_path=True))


def validated(payload: tuple[Path, Path, float]) -> ValidationReport:
    """The one unit of ``sftdata validate``: the whole report of the annotations checked against the episodes."""
    return validate_files(*payload)


def _validate_run(payload: tuple[Path, Path, float]) -> dict[str, Any]:
    """The one unit of the validate stage: the run's annotations checked, as the manifest keeps the counts."""
    report = validated(payload)
    return {"checked": report.checked, "passed": report.passed, "failed": report.failed,
            "by_reason": dict(report.by_reason)}


class ValidateStage(Stage):
    """Check reasoning/action alignment of an annotation file and report why items fail (exit 1 on failures).

    \b
    Examples:
      sftdata validate processed/demo
      sftdata validate --episodes episodes.jsonl --annotations reconstructions.jsonl --report report.json
    """

    # sftdata run's validate stage: every annotation of the run checked against its episode, redone only when the
    # episodes, the annotations, the options or the checks changed (validate_fingerprint); the command checks a
    # run or two files and reports every failure, without a manifest entry (see invoke)
    name, options, resumes, key = "validate", ValidateTable, False, "annotations"
    arguments, flags_before, flags_after = (("run_dir", "run?"),), (Flags(ValidateFiles),), (EXECUTOR_FLAGS,)
    process = staticmethod(_validate_run)

    def fingerprint(self) -> dict[str, Any]:
        return validate_fingerprint(self.run, self.opts.cjk_threshold)

    def done(self, previous: dict[str, Any]) -> bool:
        return all(k in previous for k in VALIDATION_COUNTS)

    def units(self):
        yield self.key, (self.run.episodes_path, self.run.annotations_path, self.opts.cjk_threshold)

    def write(self, key: str, counts: dict[str, Any]) -> None:
        self.counts = counts

    def entry(self) -> dict[str, Any]:
        return self.counts

    @classmethod
    def invoke(cls, echo: Any, opts: ValidateTable, *, run_dir: Path | None, episodes_path: Path | None,
               annotations_path: Path | None, report: Path | None, executor: str, address: str | None) -> None:
        from .executors import executor as make_executor
        from .io import write_json_atomic

        if run_dir is not None:
            if episodes_path or annotations_path:
                raise UsageError("give either RUN or --episodes with --annotations, not both")
            episodes_path, annotations_path = run_dir / "episodes.jsonl", run_dir / "annotations.jsonl"
            if not annotations_path.exists():
                raise FatalError(f"{run_dir} has no annotations.jsonl: run `sftdata annotate` first")
        elif not (episodes_path and annotations_path):
            raise UsageError("give RUN, or both --episodes and --annotations")
        with make_executor(executor, 1, address) as chosen:  # the check is one unit
            [(_, result)] = chosen.map(validated, [("annotations", (episodes_path, annotations_path,
                                                                    opts.cjk_threshold))])
        if isinstance(result, BaseException):
            raise result
        if report:
            write_json_atomic(report, result.to_dict())
        echo(format_report(result))
        if not result.ok:
            raise SystemExit(1)
