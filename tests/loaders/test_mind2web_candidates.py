"""Mind2Web candidates read box first: the steps built are the ones parsing every candidate gives, on the generated
release sample (with the bulk of the release: about 2,000 negatives a row) and on candidates made to mislead."""
from __future__ import annotations

import json

import pyarrow.parquet as pq
import pytest

from sftdata.errors import RecordError
from sftdata.loaders import mind2web
from sftdata.loaders.mind2web import UNKNOWN, parse_candidate, quick_box
from sftdata.loaders.mind2web_tasks import step_of_row
from sftdata.synthetic.mind2web import Bloat, write_parquet


def candidate(attributes: dict | str, **fields) -> str:
    text = attributes if isinstance(attributes, str) else json.dumps(attributes)
    return json.dumps({"tag": "div", "attributes": text, **fields})


MISLEADING = [
    candidate({"backend_node_id": "1", "bounding_box_rect": "10,20,30,40"}),  # plain: read quickly
    candidate({"aria_label": 'bounding_box_rect": "0,0,5,5', "backend_node_id": "2"}),  # only in a value
    candidate({"aria_label": "bounding_box_rect", "bounding_box_rect": "10,20,30,40"}),  # twice
    candidate('{"bounding_\\u0062ox_rect": "0,0,5,5", "backend_node_id": "3"}'),  # the key spelled with an escape
    candidate({"bounding_box_rect": "-1,-1,-1,-1"}),  # not rendered
    candidate({"bounding_box_rect": "a,b,c,d"}),  # unreadable
    json.dumps({"tag": "div", "bounding_box_rect": "0,0,5,5", "attributes": "{}"}),  # outside attributes
    json.dumps({"tag": "div", "attributes": {"bounding_box_rect": 7}}),  # not a string
    "not JSON bounding_box_rect\": \"1,1,1,1\"",
]


@pytest.mark.parametrize("text", MISLEADING)
def test_a_quick_box_never_keeps_out_a_candidate_that_parsing_places(text):
    quick = quick_box(text)
    if quick is UNKNOWN:
        return
    try:
        parsed = parse_candidate(text).box
    except Exception:
        return  # a broken candidate is left out either way
    assert parsed is None or parsed == quick


def test_quick_boxes_agree_with_parsed_ones_on_the_release_sample(tmp_path):
    path = tmp_path / "bulky.parquet"
    write_parquet(path, tasks=2, seed=3, bloat=Bloat(negatives=500))
    seen = 0
    for row in pq.read_table(path).to_pylist():
        for text in row["neg_candidates"] + row["pos_candidates"]:
            quick = quick_box(text)
            assert quick is not UNKNOWN  # the release's candidates are all read quickly
            assert quick == parse_candidate(text).box
            seen += 1
    assert seen > 1000


def test_steps_are_the_ones_parsing_every_candidate_builds(tmp_path, monkeypatch):
    path = tmp_path / "bulky.parquet"
    write_parquet(path, tasks=3, seed=5, bloat=Bloat(negatives=800))
    rows = [step_of_row(r) for r in pq.read_table(path).to_pylist()]
    for row in rows:
        row.neg = list(row.neg) + MISLEADING
    quick = [outcome(r) for r in rows]
    assert sum(isinstance(o, dict) for o in quick) >= 10
    monkeypatch.setattr(mind2web, "quick_box", lambda value: UNKNOWN)  # parse every candidate
    monkeypatch.setattr(mind2web, "shown_boxes", lambda values, page, crop: ({}, list(range(len(values)))))
    assert [outcome(r) for r in rows] == quick


EDGES = [f"{x},{y},{w},{h}" for x, y, w, h in [
    (0, 996, 100, 4), (0, 997, 100, 4), (0, 1716, 100, 10), (0, 1717, 100, 10), (0, 1000, 3.5, 10), (0, 1000, 3.99, 10),
    (-50, 1000, 54, 10), (-50, 1000, 53.5, 10), (1276, 1000, 50, 10), (1277.2, 1000, 50, 10), (0, 1000, 0, 10),
    (0, 1000, 100, -3), (-1, -1, -1, -1), (0, 4995, 100, 100), (0, 999.999999999, 10, 10), (0.5, 1000.5, 4, 4),
    (0, 1000, "1e3", 10), ("1" * 400, 1000, 5, 5), (" 12", 1000, 5, 5)]]  # the last three: not plain decimals


def test_all_at_once_places_boxes_as_one_by_one_does():
    """shown_boxes against quick_box + _shown, candidate by candidate, on boxes at the crop's edges (3 or 4
    pixels shown, fractions, off the page, not rendered, numbers too long for a float) and misleading texts."""
    from sftdata.loaders.mind2web import _shown
    from sftdata.loaders.mind2web_boxes import shown_boxes

    texts = [candidate({"bounding_box_rect": rect}) for rect in EDGES] + MISLEADING
    page, crop = (1280, 5000), (0, 1000, 1280, 1720)
    known, unknown = shown_boxes(texts, page, crop)
    for i, text in enumerate(texts):
        box = quick_box(text)
        if i in unknown:
            continue  # read one by one
        assert box is not UNKNOWN and known.get(i) == _shown(box, *page, crop), (i, text)
    assert {i for i, t in enumerate(texts) if quick_box(t) is UNKNOWN} <= set(unknown)
    assert set(unknown) & set(range(len(EDGES))) == {len(EDGES) - 3, len(EDGES) - 2, len(EDGES) - 1}
    assert shown_boxes(texts + [{"attributes": {}}], page, crop) == ({}, list(range(len(texts) + 1)))


def test_a_broken_candidate_gives_its_place_to_the_next():
    """With room for two others, a broken candidate at the top is skipped and the third one takes its place."""
    from sftdata.loaders.mind2web import Candidate, shown_candidates

    target = Candidate("button", "9", (10.0, 900.0, 110.0, 940.0), {}, True)
    broken = '{"attributes": "{\\"bounding_box_rect\\": \\"0,710,50,20\\"}", "tag": ['
    negatives = [candidate({"bounding_box_rect": f"0,{y},50,20", "backend_node_id": str(y)}) for y in (800, 760)]
    chosen = shown_candidates([broken] + negatives, [target], target, (1280, 5000), (0, 700, 1280, 1420), 3)
    assert [c.node_id for _, c in chosen] == ["760", "800", "9"]


def outcome(row) -> dict | str:
    """The step built from ``row`` (as JSON), or the reason it was dropped."""
    try:
        return mind2web.build_step(row, row.index, None).to_dict()
    except RecordError as exc:
        return exc.reason
