"""The documented table of perturbations (docs/rl.md), row by row: on every step of every format where a
perturbation can be made, its answer earns exactly the table's rewards; every row of the table is exercised,
each in the formats it can be made in."""
from collections import Counter
from pathlib import Path

import pytest

from sftdata.formats import CannotExpress, StepContext, get_format, names
from sftdata.rewards import read_solution, score_answer, solution_of
from sftdata.rewards.perturb import COLUMNS, PERTURBATIONS, table_markdown

pytestmark = pytest.mark.slow  # many seconds of CPU: scheduled first (tests/conftest.py)

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rl.md"


@pytest.fixture(scope="module")
def steps(rl_run):
    annotations = rl_run.latest_annotations()
    return [(ep, annotations[ep.id]["items"]) for ep in rl_run.episodes() if ep.id in annotations]


def _perturbed(fmt_name, steps):
    fmt = get_format(fmt_name)
    for episode, items in steps:
        for index in range(len(episode.steps)):
            ctx = StepContext(episode, index, items)
            try:
                sol = read_solution(solution_of(fmt, ctx, fmt.render(ctx), f"{episode.id}:{index}"))
            except CannotExpress:
                continue
            for p in PERTURBATIONS:
                text = p.make(fmt, ctx, sol)
                if text is not None:
                    yield p, ctx, sol, text


@pytest.mark.parametrize("fmt", names())
def test_every_perturbation_earns_its_documented_reward(steps, fmt):
    made = Counter()
    for p, ctx, sol, text in _perturbed(fmt, steps):
        got = score_answer(text, sol)
        assert [got[c] for c in COLUMNS] == pytest.approx(list(p.expected), abs=1e-9), (fmt, p.name, sol.id, text)
        if p.name != "ground truth":
            assert text != sol.answer, (fmt, p.name, sol.id)  # the perturbation changed the answer
        made[p.name] += 1
    assert made["ground truth"] and made["broken grammar"] == made["ground truth"]
    # a format that writes points (or picks elements) gets the click rows of the table
    if fmt != "react-zh":
        assert made["click on a neighbour"] and made["click outside the box"] and made["back for a click"], made
    if fmt.startswith("androidlab"):
        assert made["huge box"], made


def test_every_row_of_the_table_is_exercised(steps):
    made = Counter(p.name for fmt in names() for p, *_ in _perturbed(fmt, steps))
    assert set(made) == {p.name for p in PERTURBATIONS}, made


def test_the_huge_box_would_hit_without_the_guard(steps):
    """The guard is what stops it: the huge box's centre (the point the answer taps) is on the target."""
    for p, ctx, sol, text in _perturbed("androidlab", steps):
        if p.name == "huge box":
            parsed = get_format("androidlab").parse(text, sol.step_context())
            left, top, right, bottom = sol.box_px
            assert left <= parsed.point[0] < right and top <= parsed.point[1] < bottom


def test_the_docs_hold_the_table():
    assert table_markdown() in DOCS.read_text(encoding="utf-8")
