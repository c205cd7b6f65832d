"""The family registry holds every model-family fact once: each format's family is registered, UI-TARS has a
family of its own, and no module outside ``sftdata/families/`` writes a family's markup, token ids, pixel limits,
default system or point grid itself."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from sftdata.families import FAMILIES, TEMPLATES, point_families
from sftdata.formats import get_format, load_all
from sftdata.geometry import RELATIVE_MAX, from_relative, to_relative

PACKAGE = Path(__file__).resolve().parents[2] / "sftdata"
FAMILIES_DIR = PACKAGE / "families"


def _code_constants(path: Path):
    """(line, value) of the constants a module's code holds (docstrings left out: they may name the facts)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docstrings.add(id(first.value))
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and id(node) not in docstrings:
            yield node.lineno, node.value


def _family_facts() -> tuple[set[int], set[str]]:
    """The numbers and texts that are facts of a registered family or its template (the distinctive ones: token
    ids, vocabulary sizes, pixel limits; markup, systems)."""
    numbers, texts = set(), set()
    for fam in FAMILIES.values():
        numbers |= {fam.first_special_id, fam.vocab_size, fam.min_pixels, fam.max_pixels, *fam.pixel_limits}
        numbers |= {fam.token_id(t) for t in fam.special_tokens}
        texts |= {s for s in (fam.agent_system, fam.point_markup) if s}
    numbers = {n for n in numbers if n > 10_000 and n & (n - 1)}  # not a round size other code may share
    for template in TEMPLATES.values():
        texts |= {*template.markers, template.image, template.assistant_opener, template.prefix} - {""}
        texts |= {template.default_system} - {None}
    return numbers, texts


def test_no_module_outside_the_registry_states_a_family_fact():
    numbers, texts = _family_facts()
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if FAMILIES_DIR in path.parents:
            continue
        for line, value in _code_constants(path):
            if isinstance(value, int) and not isinstance(value, bool) and value in numbers:
                found.append(f"{path.relative_to(PACKAGE.parent)}:{line}: {value}")
            elif isinstance(value, str) and any(t in value for t in texts):
                found.append(f"{path.relative_to(PACKAGE.parent)}:{line}: {value[:60]!r}")
    assert not found, "family facts outside sftdata/families/:\n" + "\n".join(found)


def test_the_check_sees_a_stated_fact(tmp_path):
    numbers, texts = _family_facts()
    module = tmp_path / "m.py"
    module.write_text('"""Mentions <|im_start|> and 151655 in a docstring."""\nIMAGE_PAD = 151655\n'
                      'OPEN = "<|im_start|>user"\n', encoding="utf-8")
    values = [v for _, v in _code_constants(module)]
    assert values == [151655, "<|im_start|>user"]
    assert 151655 in numbers and any(t in "<|im_start|>user" for t in texts)


@pytest.mark.parametrize("name", sorted(load_all()))
def test_every_format_names_registered_families(name):
    fmt = get_format(name)
    assert fmt.family in FAMILIES
    assert fmt.families is None or (fmt.family in fmt.families and set(fmt.families) <= set(FAMILIES))


def test_every_family_names_a_registered_template_and_base():
    for fam in FAMILIES.values():
        assert fam.template is TEMPLATES[fam.swift_template]
        assert fam.base is None or fam.base in FAMILIES


def test_ui_tars_has_its_own_family_on_its_base_image_rule():
    tars = FAMILIES["ui-tars"]
    base = FAMILIES[tars.base]
    assert tars.default_model != base.default_model and tars.point_markup == "<point>{x} {y}</point>"
    assert tars.same_image_space(base) and tars.resize(1080, 2400) == base.resize(1080, 2400)
    fmt = get_format("ui-tars")
    assert fmt.family == tars.base  # exports train the base model unless --family ui-tars
    assert "ui-tars" in fmt.families and "ui-tars" in get_format("qwen2.5-vl").families
    assert "ui-tars" not in get_format("qwen3-vl").families  # a grid is not a resized image


def test_grids_are_the_registry_and_geometry_constants():
    qwen3 = FAMILIES["qwen3-vl"]
    fmt = get_format("qwen3-vl")
    assert qwen3.grid == 999 and [p for p in point_families("qwen3-vl")] == ["qwen3-vl"]
    assert fmt.family == "qwen3-vl" and str(qwen3.grid) in fmt.coordinates
    assert to_relative((1079, 2399), 1080, 2400) == (RELATIVE_MAX - 1, RELATIVE_MAX)
    assert from_relative((RELATIVE_MAX, RELATIVE_MAX), 1080, 2400) == (1079, 2399)
    assert f"0..{RELATIVE_MAX}" in get_format("gui-agent-zh").coordinates
