"""Every exported row through ms-swift's own ``template.encode`` (nothing of Swift is mocked): the real fixtures
and sample data, in qwen2.5-vl, qwen3-vl and react-zh (GLM-4.1V), with and without memory, history images and
agent tools. Zero errors, image tokens equal to ours, our lengths never under Swift's (and equal to them for
the Qwen families), labels only on the answer, and Swift's sequential packs equal to the manifest's."""
import json

import pytest

from sftdata.export.stage import ExportOptions, export_run

pytestmark = pytest.mark.swift  # needs ms-swift (tests/extras.py)

VARIANTS = {"plain": {}, "memory": {"memory": True}, "history": {"history_images": 2},
            "tools": {"agent_tools": True}, "all": {"memory": True, "history_images": 2, "agent_tools": True}}
CASES = [(fmt, v) for fmt in ("qwen2.5-vl", "qwen3-vl") for v in VARIANTS] + \
        [("react-zh", v) for v in ("plain", "all")]
_ENCODED: dict = {}


def _export_and_encode(run, models, tmp_path_factory, fmt, variant):
    if (fmt, variant) not in _ENCODED:
        from sftdata.preflight.tiny import swift_encode_rows

        out = tmp_path_factory.mktemp("exp") / f"{fmt}-{variant}"
        result = export_run(run, out, ExportOptions(format=fmt, split_ratio=0.2, progress=False, **VARIANTS[variant]))
        manifest = result.manifest
        rows, encoded = {}, {}
        for split, shards in manifest["shards"].items():
            rows[split], encoded[split] = [], []
            for shard in shards:
                rows[split] += [json.loads(x) for x in (out / shard).read_text(encoding="utf-8").splitlines()]
                encoded[split] += swift_encode_rows(models[manifest["family"]], out / shard, root_image_dir=out)
        _ENCODED[fmt, variant] = out, manifest, rows, encoded
    return _ENCODED[fmt, variant]


@pytest.mark.parametrize("fmt,variant", CASES)
def test_swift_encodes_every_row_as_we_measured_it(mixed_run, tiny_models, tmp_path_factory, fmt, variant):
    from sftdata.families import FAMILIES, png_size

    out, manifest, rows, encoded = _export_and_encode(mixed_run, tiny_models, tmp_path_factory, fmt, variant)
    lengths = json.loads((out / "lengths.json").read_text())
    family = FAMILIES[manifest["family"]]
    exact = manifest["text_tokens"]["method"] == "exact"
    assert exact == (fmt != "react-zh")
    total = 0
    for split in rows:
        assert len(encoded[split]) == len(rows[split]) == len(lengths[split])  # Swift's loader dropped nothing
        for row, got, ours in zip(rows[split], encoded[split], lengths[split]):
            pads = sum(family.image_tokens(*png_size(out / image)) for image in row["images"])
            assert got["image_pads"] == pads
            assert sum(m["content"].count("<image>") for m in row["messages"]) == len(row["images"])
            assert ours >= got["length"]  # never under: the max_length guard is a bound
            if exact:
                assert ours <= got["length"] * 1.01
            assert got["assistant_only"] and got["labelled"] > 0
            total += 1
    assert total == sum(manifest["samples"].values()) > 30


@pytest.mark.parametrize("fmt,variant", [("qwen2.5-vl", "plain"), ("qwen3-vl", "all")])
def test_swift_forms_the_packs_the_manifest_predicts(mixed_run, tiny_models, tmp_path_factory, fmt, variant):
    from sftdata.preflight.tiny import swift_packs

    out, manifest, rows, encoded = _export_and_encode(mixed_run, tiny_models, tmp_path_factory, fmt, variant)
    max_length = manifest["options"]["max_length"]
    ours = json.loads((out / "lengths.json").read_text())["train"]
    real = [e["length"] for e in encoded["train"]]
    packs = swift_packs(real, max_length)  # Swift's own packing function over Swift's own lengths
    # our rows are best-fit-decreasing bins written back to back: next-fit over our lengths closes each bin
    assert packs == swift_packs(ours, max_length)
    assert len(packs) == manifest["packing"]["train"]["packs"] > 1
