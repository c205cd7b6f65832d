"""Check reconstructions against their episodes' ground truth and report why items fail.

Annotation lines may be this project's records (``{"id", "items", ...}``), any object with an ``id`` and a list
under ``items``/``reconstruction``/``output``, or a bare seed-002 list, matched to the episode on the same line
number. Episodes are streamed; only the (small) annotations are held in memory.
"""
from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import FatalError
from .model import Episode
from .react.check import CJK_THRESHOLD, check_items
from .react.parse import schema_failures

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

    def to_dict(self) -> dict[str, Any]:
        return {"checked": self.checked, "passed": self.passed, "failed": self.failed,
                "failures_by_reason": dict(self.by_reason.most_common()), "missing": self.missing,
                "unknown": self.unknown, "failing_episodes": self.episodes}

    @property
    def ok(self) -> bool:
        return self.failed == 0 and self.checked > 0


def _load_annotations(path: Path) -> tuple[dict[str, list], dict[int, list]]:
    by_id: dict[str, list] = {}
    by_line: dict[int, list] = {}
    try:
        # split on \n only: str.splitlines() also breaks at U+2028/U+2029/U+0085, which JSON keeps raw in strings
        lines = path.read_text(encoding="utf-8").split("\n")
        if lines and lines[-1] == "":
            lines.pop()
    except (OSError, UnicodeDecodeError) as exc:
        raise FatalError(f"cannot read annotations {path}: {exc}") from None
    for number, line in enumerate(lines):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as exc:
            if number == len(lines) - 1:
                continue  # a torn last line from a killed writer
            raise FatalError(f"{path}:{number + 1}: not valid JSON ({exc.msg})") from None
        if isinstance(value, list):
            by_line[number] = value
        elif isinstance(value, dict) and "id" in value:
            items = next((value[k] for k in _LIST_KEYS if isinstance(value.get(k), list)), None)
            if items is None:
                raise FatalError(f"{path}:{number + 1}: no list under any of {', '.join(_LIST_KEYS)}")
            by_id[str(value["id"])] = items
        else:
            raise FatalError(f"{path}:{number + 1}: expected an object with an id, or a list")
    return by_id, by_line


def validate_files(episodes_path: str | Path, annotations_path: str | Path,
                   cjk_threshold: float = CJK_THRESHOLD) -> ValidationReport:
    episodes_path, annotations_path = Path(episodes_path), Path(annotations_path)
    if not episodes_path.is_file():
        raise FatalError(f"episodes file {episodes_path} does not exist")
    by_id, by_line = _load_annotations(annotations_path)
    report = ValidationReport()
    seen: set[str] = set()
    with open(episodes_path, encoding="utf-8") as f:
        for number, line in enumerate(f):
            if not line.strip():
                continue
            try:
                episode = Episode.from_json(line)
            except (ValueError, KeyError) as exc:
                if not line.endswith("\n"):
                    continue  # a torn last line of a killed writer
                raise FatalError(f"{episodes_path}:{number + 1}: not an episode ({exc})") from None
            seen.add(episode.id)
            items = by_id.get(episode.id, by_line.get(number))
            if items is None:
                report.missing.append(episode.id)
                continue
            failures = schema_failures(items) or check_items(items, episode, cjk_threshold=cjk_threshold)
            report.checked += 1
            if failures:
                report.failed += 1
                report.by_reason.update(f.reason for f in failures)
                report.episodes.append({"id": episode.id, "failures": [f.to_dict() for f in failures]})
            else:
                report.passed += 1
    report.unknown = sorted(set(by_id) - seen)
    return report


def format_report(report: ValidationReport) -> str:
    lines = [f"checked {report.checked}   passed {report.passed}   failed {report.failed}"
             + (f"   without annotation {len(report.missing)}" if report.missing else "")
             + (f"   annotations without episode {len(report.unknown)}" if report.unknown else "")]
    if report.by_reason:
        width = max(len(r) for r in report.by_reason)
        lines.append("failures by reason:")
        lines += [f"  {reason:<{width}}  {count:>6}" for reason, count in report.by_reason.most_common()]
        for ep in report.episodes[:5]:
            first = ep["failures"][0]
            where = "list" if first["index"] is None else f"item {first['index']}"
            lines.append(f"  e.g. episode {ep['id']}, {where}: {first['reason']}: {first['detail']}")
    return "\n".join(lines)
