"""Which of a row's ~2,000 negative candidates can show in the crop, decided for all of them at once.

Arrow's compute kernels read each candidate's ``bounding_box_rect`` from its JSON text (the rule of
:func:`.mind2web.quick_box`: the key named once and plainly) and numpy places every box as
:func:`.mind2web._shown` does. Only a box written as plain decimals (``-?digits[.digits]``, at most 15 and 20 digits, where Arrow's and
Python's number parsing agree to the bit, and no cast can fail) is decided here; any other candidate is left to the per-candidate path.
A known box is the box parsing the candidate gives, or the candidate has none (:func:`.mind2web.quick_box`).

>>> import json
>>> texts = [json.dumps({"attributes": json.dumps({"bounding_box_rect": r})}) for r in ("0,100,50,20", "0,3000,50,20")]
>>> shown_boxes(texts, (1280, 5000), (0, 0, 1280, 720))
({0: (0, 100, 50, 120)}, [])
>>> shown_boxes(texts + [{"attributes": {}}], (1280, 5000), (0, 0, 1280, 720))  # not all text: no opinion
({}, [0, 1, 2])
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

NUMBER = r"-?[0-9]{1,15}(?:\.[0-9]{1,20})?"  # plain decimals that every float parser reads the same way
# what follows the key: its value in a JSON text ("...") or in a JSON text inside another (\"...\", the release's)
VALUE = r'^\\?"\s*:\s*\\?"(?P<x>{n}),(?P<y>{n}),(?P<w>{n}),(?P<h>{n})\\?"'.format(n=NUMBER)
AFTER_KEY = 200  # characters after the key that can hold a plain value
KEY = "bounding_box_rect"
ESCAPE = r"\\u00[2-7]"
MIN_VISIBLE = 4  # an element showing less than this many pixels of one side in the crop is left out


def shown_boxes(values: Sequence[Any], page: tuple[int, int], crop: tuple[int, int, int, int]
                ) -> tuple[dict[int, tuple[int, int, int, int]], list[int]]:
    """The candidates of ``values`` (JSON texts) whose box is known, as {index: bounds in the crop} of those
    showing ``MIN_VISIBLE`` pixels of each side in ``crop`` (page pixels) of a ``page`` (width, height), and the
    indexes whose box is not known here (to be read one by one). Every other candidate shows nothing."""
    if not values:
        return {}, []
    try:
        texts = pa.array(values, type=pa.string())
        plain = np.asarray(pc.and_(pc.equal(pc.count_substring(texts, KEY), 1),
                                   pc.invert(pc.match_substring_regex(texts, ESCAPE, ignore_case=True))
                                   ).fill_null(False), dtype=bool)
        once = np.flatnonzero(plain)  # the key once: what follows it, read with an anchored pattern
        after = pc.list_element(pc.split_pattern(texts.filter(pa.array(plain)), pattern=KEY, max_splits=1), 1)
        parts = pc.extract_regex(pc.utf8_slice_codeunits(after, 0, AFTER_KEY), VALUE)
        x, y, w, h = (np.full(len(values), np.nan) for _ in range(4))
        for column, k in zip((x, y, w, h), "xywh"):  # struct_field: no match is null, not ""
            column[once] = np.asarray(pc.cast(pc.struct_field(parts, k), pa.float64()).fill_null(np.nan))
    except (pa.ArrowException, TypeError):  # objects (the text-only JSON), other types: the per-candidate path
        return {}, list(range(len(values)))
    known = ~np.isnan(x)
    with np.errstate(invalid="ignore"):
        rendered = (w > 0) & (h > 0)
        page_w, page_h = page
        left, top = np.maximum(0, np.floor(x)), np.maximum(0, np.floor(y))
        right, bottom = np.minimum(page_w, np.ceil(x + w)), np.minimum(page_h, np.ceil(y + h))
        on_page = (right > left) & (bottom > top)
        c_left, c_top, c_right, c_bottom = crop
        left, top = np.maximum(left, c_left) - c_left, np.maximum(top, c_top) - c_top
        right, bottom = np.minimum(right, c_right) - c_left, np.minimum(bottom, c_bottom) - c_top
        shows = known & rendered & on_page & (right - left >= MIN_VISIBLE) & (bottom - top >= MIN_VISIBLE)
    where = np.flatnonzero(shows)
    bounds = np.stack([left[where], top[where], right[where], bottom[where]], axis=1).astype(np.int64).tolist()
    return dict(zip(where.tolist(), map(tuple, bounds))), np.flatnonzero(~known).tolist()
