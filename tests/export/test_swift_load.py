"""Our shards through ms-swift's own dataset loader (the ``swift`` extra; CI installs it with the CPU torch):
every sample survives, every <image> has an image, every image path resolves and decodes."""
import json

import pytest

from sftdata.export.stage import ExportOptions, export_run
from support import sample_run

pytestmark = pytest.mark.swift  # needs ms-swift (tests/extras.py)


@pytest.fixture(scope="module")
def export_dir(tmp_path_factory):
    root = tmp_path_factory.mktemp("swift")
    return sample_run(root, 12, (540, 1200), annotate=True), root


@pytest.mark.parametrize("fmt,tools", [("react-zh", False), ("react-zh", True)])
def test_swift_loads_every_sample(export_dir, fmt, tools, monkeypatch):
    run, root = export_dir
    out = root / f"sft-{fmt}-{tools}"
    result = export_run(run, out, ExportOptions(format=fmt, agent_tools=tools, history_images=1, split_ratio=0.2,
                                                progress=False))
    monkeypatch.setenv("ROOT_IMAGE_DIR", str(out))
    from swift import dataset as swift_dataset
    from swift.template.vision_utils import _check_path, load_image

    for split in ("train", "val"):
        shards = [str(out / name) for name in result.manifest["shards"][split]]
        if not shards:
            continue
        dataset, _ = swift_dataset.load_dataset(shards, num_proc=1, load_from_cache_file=False)
        assert len(dataset) == result.samples[split]  # zero rows dropped
        for row in dataset:
            tags = sum(m["content"].count("<image>") for m in row["messages"] if m["content"])
            assert tags == len(row["images"]) >= 1
            for image in row["images"]:
                path = image["path"] if isinstance(image, dict) else image
                resolved = _check_path(path)
                assert resolved is not None and resolved.startswith(str(out))
                assert load_image(resolved).size[0] == 540
            if tools:  # swift parses the tools JSON string into a list
                parsed = row["tools"] if isinstance(row["tools"], list) else json.loads(row["tools"])
                assert {t["function"]["name"] if isinstance(t, dict) else json.loads(t)["function"]["name"]
                        for t in parsed} >= {"click", "done"}
                assert row["messages"][-1]["role"] == "tool_call"
