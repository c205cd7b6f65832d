"""The checks modules share names through their public interface: no module imports another's private
(underscore) name, so a module's private helpers can change without breaking its neighbours."""
from __future__ import annotations

import ast
from pathlib import Path

CHECKS = Path(__file__).resolve().parents[2] / "sftdata" / "checks"


def test_no_checks_module_imports_a_private_name():
    private = []
    for path in sorted(CHECKS.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level:
                private += [f"{path.name}: {node.module}.{a.name}" for a in node.names
                            if a.name.startswith("_") and not a.name.startswith("__")]
    assert private == []
