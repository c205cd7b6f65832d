"""Predictions read and matched to the rows of an RL export (``sftdata export --rl``).

Two kinds of lines are read, in any mix:

* ms-swift's ``swift infer --result_path`` rows: ``{"response", "labels", "logprobs", "messages", "images",
  ...}``; ``messages`` is the dataset row's with the answer appended, ``images`` are ``{"bytes", "path"}``
  objects (or paths). ms-swift keeps no other column of the row (not ``id``, not ``solution``), so such a
  row is matched to the export's by its prompt: the messages up to the last user turn and the images' file
  names. Rows with the same prompt are matched in order.
* plain ``{"id": "EPISODE:STEP", "response": "..."}`` lines, ids as the export writes them.

A line that is neither (not JSON, no response) is counted as unreadable, with examples; a prediction whose
row is not in the export (or whose row already has one) is counted too; so are export rows left without one.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path, PurePath
from typing import Any, Iterator

from ..errors import FatalError
from ..io import read_json
from ..rewards.solution import read_solution

EXAMPLES = 5  # examples kept of each kind of problem


@dataclass
class ExportRows:
    """The rows of an RL export: id -> solution text, prompt key -> ids (in shard order)."""

    path: Path
    manifest: dict[str, Any]
    solutions: dict[str, str] = field(default_factory=dict)
    split: dict[str, str] = field(default_factory=dict)
    by_prompt: dict[tuple, list[str]] = field(default_factory=dict)


def prompt_key(messages: list[dict], images: list[Any]) -> tuple:
    """The messages up to the last user turn (role, content) and the images' file names."""
    last = max((i for i, m in enumerate(messages) if isinstance(m, dict) and m.get("role") == "user"), default=-1)
    turns = tuple((str(m.get("role")), str(m.get("content"))) for m in messages[:last + 1])
    names = tuple(PurePath(str(i.get("path") if isinstance(i, dict) else i)).name for i in images or ())
    return turns, names


def load_export(export_dir: Path) -> ExportRows:
    """Every row of the RL export in ``export_dir``; FatalError for a folder that is not one."""
    manifest = read_json(export_dir / "manifest.json", default=None)
    if not isinstance(manifest, dict) or "shards" not in manifest:
        raise FatalError(f"{export_dir} is not an sftdata export (no manifest.json with shards): run "
                         "`sftdata export RUN --format F --rl --out DIR`")
    if not (manifest.get("options") or {}).get("rl"):
        raise FatalError(f"{export_dir} is an SFT export: its rows carry no ground truth to score against; "
                         "export the same run with --rl and run `swift infer` on those rows")
    rows = ExportRows(export_dir, manifest)
    for split, names in manifest["shards"].items():
        for name in names:
            try:
                with open(export_dir / name, encoding="utf-8") as f:
                    for line in f:
                        row = json.loads(line)
                        read_solution(row["solution"])  # a row without a readable ground truth is no RL row
                        rows.solutions[row["id"]] = row["solution"]
                        rows.split[row["id"]] = split
                        rows.by_prompt.setdefault(prompt_key(row["messages"], row["images"]), []).append(row["id"])
            except (OSError, ValueError, KeyError, TypeError) as exc:
                raise FatalError(f"{export_dir / name}: not a shard of an RL export ({type(exc).__name__}: "
                                 f"{exc})") from None
    return rows


@dataclass
class Matched:
    """The predictions of a file, matched to export rows."""

    responses: dict[str, Any] = field(default_factory=dict)  # row id -> the response (text, or whatever came)
    lines: int = 0
    unreadable: list[dict] = field(default_factory=list)  # {"line", "why"} (all of them; examples shown)
    unknown: list[dict] = field(default_factory=list)  # predictions whose row is not in the export
    duplicates: list[dict] = field(default_factory=list)  # a second prediction for a row


def _lines(path: Path) -> Iterator[tuple[int, str]]:
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            yield from enumerate(f, start=1)
    except OSError as exc:
        raise FatalError(f"cannot read {path}: {exc.strerror or exc}") from None


def match_predictions(path: Path, rows: ExportRows) -> Matched:
    """Read ``path`` and match each prediction to its export row (see the module docstring)."""
    out = Matched()
    taken: dict[tuple, int] = {}  # prompt key -> how many of its rows are matched
    for number, line in _lines(path):
        if not line.strip():
            continue
        out.lines += 1
        try:
            record = json.loads(line)
        except ValueError as exc:
            out.unreadable.append({"line": number, "why": f"not JSON ({exc})"})
            continue
        if not isinstance(record, dict) or "response" not in record:
            out.unreadable.append({"line": number, "why": "no response field"})
            continue
        response = record["response"]
        if "id" in record:
            rid = str(record["id"])
            if rid not in rows.solutions:
                out.unknown.append({"line": number, "id": rid})
                continue
        elif isinstance(record.get("messages"), list):
            key = prompt_key(record["messages"], record.get("images") or [])
            ids = rows.by_prompt.get(key)
            if not ids:
                out.unknown.append({"line": number, "id": None, "prompt": _excerpt(key)})
                continue
            n = taken.get(key, 0)
            taken[key] = n + 1
            rid = ids[min(n, len(ids) - 1)]
        else:
            out.unreadable.append({"line": number, "why": "neither an id nor the row's messages"})
            continue
        if rid in out.responses:
            out.duplicates.append({"line": number, "id": rid})
            continue
        out.responses[rid] = response
    return out


def _excerpt(key: tuple) -> str:
    turns, _ = key
    user = next((content for role, content in reversed(turns) if role == "user"), "")
    return " ".join(user.split())[:120]
