"""Property-based tests of the parsers that read what we do not control: LLM replies, TFRecord framing and the
run config. Whatever the input, each ends in a value or in the package's own error with a reason (a
ReplyError / RecordError / FatalError), never in another exception."""
from __future__ import annotations

import json
import random
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sftdata.config import parse_config
from sftdata.errors import FatalError, RecordError
from sftdata.loaders.tfrecord import frame_record, read_tfrecords
from sftdata.annotate.parse import ReplyError, parse_reply

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
ITEM = {"reasoning": "点击设置。", "function": {"name": "click", "parameters": {"target_element": "设置"}}}

json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                                        max_size=4),
                           max_leaves=20)


@SETTINGS
@given(st.one_of(st.text(max_size=400), json_values.map(lambda v: json.dumps(v, ensure_ascii=False)),
                 st.builds(lambda pre, post: pre + json.dumps([ITEM]) + post, st.text(max_size=50),
                           st.text(max_size=50))))
def test_any_llm_reply_parses_to_a_list_or_a_reply_error(text):
    try:
        items = parse_reply(text)
    except ReplyError as exc:
        assert exc.reason  # a machine-readable reason for the ledger / the re-ask
        return
    assert isinstance(items, list)  # possibly empty: the alignment check then names item_count_mismatch


@SETTINGS
@given(st.lists(st.binary(max_size=64), min_size=1, max_size=5), st.binary(max_size=200),
       st.integers(min_value=0, max_value=10_000), st.sampled_from(["flip", "cut", "insert", "none"]))
def test_any_damaged_tfrecord_yields_frames_or_record_errors(records, garbage, where, damage):
    data = bytearray(b"".join(frame_record(r) for r in records))
    at = where % (len(data) + 1)
    if damage == "flip" and data:
        data[at % len(data)] ^= 0xFF
    elif damage == "cut":
        data = data[:at]
    elif damage == "insert":
        data[at:at] = garbage
    found = []
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "x.tfrecord"
        path.write_bytes(bytes(data))
        for frame in read_tfrecords(path, compression="none"):
            if frame.error is not None:
                assert isinstance(frame.error, RecordError) and frame.error.reason
            else:
                found.append(bytes(frame.data))
    if damage == "none":
        assert found == records
    assert all(f in records for f in found)  # a resync never invents a record


_KEYS = ["run_dir", "workers", "strict", "sources", "annotate", "export", "report", "validate", "format",
         "memory", "split_ratio", "backend", "type", "paths", "max_length", "family", "typo"]
toml_scalars = st.one_of(st.integers(min_value=-5, max_value=10**6), st.booleans(), st.text(max_size=12),
                         st.floats(allow_nan=False, allow_infinity=False), st.lists(st.text(max_size=6), max_size=2))


def _toml(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return json.dumps(value)  # a basic TOML string


@SETTINGS
@given(st.dictionaries(st.sampled_from(_KEYS), toml_scalars, max_size=6),
       st.lists(st.tuples(st.sampled_from(["[annotate]", "[[export]]", "[[sources]]", "[report]", "[bogus]"]),
                          st.dictionaries(st.sampled_from(_KEYS), toml_scalars, max_size=4)), max_size=3),
       st.integers(0, 2**31))
def test_any_config_is_a_config_or_one_fatal_error(top, tables, seed):
    lines = [f"{k} = {_toml(v)}" for k, v in top.items()]
    for header, body in tables:
        lines.append(header)
        lines += [f"{k} = {_toml(v)}" for k, v in body.items()]
    text = "\n".join(lines)
    if random.Random(seed).random() < 0.2:  # sometimes not TOML at all
        text = text.replace("=", ":", 1)
    try:
        parse_config(text, Path("/nonexistent-base"))
    except FatalError as exc:
        assert str(exc) and "\n" not in str(exc).strip()
