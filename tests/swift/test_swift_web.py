"""The mixed run (conftest.py: phone fixtures and sample, Mind2Web sample, annotated web trajectories), exported
in every format (a phone-only or web-only format exports its part), goes through ms-swift's own loader and
``template.encode``: every row encodes, image tokens equal ours, our lengths are never under Swift's, labels only
on the answer."""
import json

import pytest

from sftdata.export.stage import ExportOptions, export_run
from sftdata.formats import get_format

pytestmark = pytest.mark.swift  # needs ms-swift (tests/extras.py)

CASES = [("qwen2.5-vl", {}), ("qwen2.5-vl", {"agent_tools": True}), ("qwen3-vl", {"agent_tools": True}),
         ("qwen3-vl", {}), ("ui-tars", {}), ("gui-agent-zh", {}), ("browser-use", {"som": True}),
         ("browser-use-0.1", {}), ("browser-use-0.13", {"som": True}), ("mobile-agent", {"som": True}),
         ("app-use", {}), ("androidlab", {}), ("androidlab-fenced", {})]


@pytest.mark.parametrize("fmt,options", CASES, ids=[f"{f}-{'-'.join(o) or 'plain'}" for f, o in CASES])
def test_swift_encodes_mixed_phone_and_web_rows(mixed_run, tiny_models, tmp_path, fmt, options):
    from sftdata.families import FAMILIES, png_size
    from sftdata.preflight.tiny import swift_encode_rows

    out = tmp_path / "out"
    manifest = export_run(mixed_run, out, ExportOptions(format=fmt, split_ratio=0.0, progress=False,
                                                            **options)).manifest
    family = FAMILIES[manifest["family"]]
    lengths = json.loads((out / "lengths.json").read_text())["train"]
    rows, encoded = [], []
    for shard in manifest["shards"]["train"]:
        rows += [json.loads(x) for x in (out / shard).read_text(encoding="utf-8").splitlines()]
        encoded += swift_encode_rows(tiny_models[manifest["family"]], out / shard, root_image_dir=out)
    assert len(encoded) == len(rows) == len(lengths) > 0
    web = 0
    for row, got, ours in zip(rows, encoded, lengths):
        assert got["image_pads"] == sum(family.image_tokens(*png_size(out / image)) for image in row["images"])
        assert ours >= got["length"] and got["assistant_only"] and got["labelled"] > 0
        if manifest["text_tokens"]["method"] == "exact":
            assert ours <= got["length"] * 1.01
        web += any(m["role"] == "system" and ("browser" in m["content"] or "computer_use" in m["content"])
                   for m in row["messages"]) or "computer_use" in row.get("tools", "")
    platforms = get_format(fmt).platforms
    if platforms == ("mobile",):
        assert web == 0
    elif platforms == ("web",):
        assert web == len(rows)
    elif fmt != "gui-agent-zh":  # one shard set holds both kinds of rows (gui-agent-zh: one prompt for both)
        assert 0 < web < len(rows)
