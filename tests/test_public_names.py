"""Modules share names through their public interface: no module of sftdata imports another module's private
(underscore) name or reads one as ``module._name``, so a module's private helpers can change without breaking its
neighbours."""
from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "sftdata"


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _module(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    """The absolute name of the module ``node`` imports from."""
    if not node.level:
        return node.module or ""
    base = module.split(".")[:len(module.split(".")) - node.level + (1 if is_package else 0)]
    return ".".join(base + ([node.module] if node.module else []))


def private_uses(path: Path, module: str | None = None) -> list[str]:
    """``from x import _name`` and ``x._name`` in ``path`` (the module ``module``, by default the one its place in
    the package names) where ``x`` is another sftdata module."""
    module, is_package = module or _module(path), path.name == "__init__.py"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    modules: dict[str, str] = {}  # local name -> the sftdata module it is bound to
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            source = _imported(node, module, is_package)
            for alias in node.names:
                if source.startswith("sftdata") and source != module and _private(alias.name):
                    found.append(f"{module}: from {source} import {alias.name}")
                modules[alias.asname or alias.name] = f"{source}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                modules[alias.asname or alias.name.split(".")[0]] = alias.name if alias.asname else alias.name.split(".")[0]
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and _private(node.attr) and isinstance(node.value, ast.Name)
                and modules.get(node.value.id, "").startswith("sftdata")):
            found.append(f"{module}: {node.value.id}.{node.attr}")
    return found


def test_no_module_uses_another_modules_private_name():
    found = [use for path in sorted(PACKAGE.rglob("*.py")) for use in private_uses(path)]
    assert found == []


def test_the_check_finds_both_kinds(tmp_path):
    """A private import and a private attribute of an imported module are both found (a module's own are not)."""
    path = tmp_path / "example.py"
    path.write_text("from .template import _clean\nfrom ..io import write_json\nfrom .. import io\nio._private()\n"
                    "from .example import _own\nimport sftdata.io as sio\nsio._hidden\n", encoding="utf-8")
    assert sorted(use.split(": ", 1)[1] for use in private_uses(path, "sftdata.annotate.example")) == [
        "from sftdata.annotate.template import _clean", "io._private", "sio._hidden"]
