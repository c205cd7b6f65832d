"""Every reason ingest can ledger is in the documented reason lists of docs/cli.md: a user who meets one in
rejects.jsonl can look it up. Reasons are read from the code (every ``RecordError("reason", ...)`` of the loaders,
the ingest stage and the value checks they call), so a new reason cannot be left out."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = [*(ROOT / "sftdata" / "loaders").glob("*.py"), *(ROOT / "sftdata" / "ingest").glob("*.py"),
           *(ROOT / "sftdata" / "ocr").glob("*.py"), ROOT / "sftdata" / "values.py"]
NOT_LEDGERED = {"malformed_json"}  # values.loads_strict's; the loaders ledger it as bad_task_json


def reasons_in(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "RecordError" and node.args:
            found |= {c.value for c in ast.walk(node.args[0]) if isinstance(c, ast.Constant)
                      and isinstance(c.value, str) and c.value.isidentifier() and c.value.islower()}
    return found


def test_every_ingest_reason_is_documented():
    docs = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    reasons = set().union(*map(reasons_in, SOURCES)) - NOT_LEDGERED
    assert {"no_task_json", "bad_action_json", "bad_feature_type", "unexpected_error"} <= reasons
    missing = sorted(r for r in reasons if f"`{r}`" not in docs)
    assert not missing, f"reasons ingest can ledger that docs/cli.md does not list: {missing}"
