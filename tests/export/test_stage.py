"""The export stage end to end: shards, images, manifest, train.sh, splits, drops, atomic replacement."""
import hashlib
import json

import pytest
from click.testing import CliRunner

from sftdata.cli import main
from sftdata.export.stage import ExportOptions, export_run, split_of
from sftdata.rundir import RunDir
from support import sample_run

pytestmark = pytest.mark.slow  # many seconds of CPU: scheduled first (tests/conftest.py)


@pytest.fixture(scope="module")
def annotated_run(tmp_path_factory):
    return sample_run(tmp_path_factory.mktemp("export"), 12, (540, 1200), annotate=True)


def _lines(out, prefix="train"):
    rows = []
    for path in sorted(out.glob(f"{prefix}-*.jsonl")):
        rows += [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    return rows


def test_export_writes_swift_samples_with_original_images(annotated_run, tmp_path):
    out = tmp_path / "sft"
    result = export_run(annotated_run, out, ExportOptions(split_ratio=0.2, progress=False))
    rows = _lines(out) + _lines(out, "val")
    steps = sum(len(e.steps) for e in annotated_run.episodes())
    held = json.loads((out / "held_back.json").read_text())  # the steps the checks could not certify
    assert all(h["outcome"] == "unsure" and h["reason"] and h["detail"] for h in held)
    assert result.manifest["certification"]["unsure"] == len(held) == result.dropped["unsure"] < 0.1 * steps
    assert len(rows) == steps - len(held) == sum(result.samples.values())
    by_sha = {s.screenshot.sha256: s for e in annotated_run.episodes() for s in e.steps}
    for row in rows:
        roles = [m["role"] for m in row["messages"]]
        assert roles == ["system", "user", "assistant"]
        assert sum(m["content"].count("<image>") for m in row["messages"]) == len(row["images"]) == 1
        for rel in row["images"]:
            data = (out / rel).read_bytes()
            sha = hashlib.sha256(data).hexdigest()
            assert sha in by_sha and (annotated_run.path / by_sha[sha].screenshot.path).read_bytes() == data
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["samples"] == result.samples and manifest["format"] == "react-zh"
    assert manifest["prompt_versions"] == {"react_zh_v3": 12} and manifest["backends"] == {"template": 12}
    assert manifest["tokens"]["total"]["count"] == steps - len(held)
    assert 0 < manifest["packing"]["train"]["efficiency"] <= manifest["packing"]["train"]["lower_bound_efficiency"] <= 1
    assert len(list((out / "images").iterdir())) == len({r for row in rows for r in row["images"]})
    lengths = json.loads((out / "lengths.json").read_text())
    assert [len(lengths["train"]), len(lengths["val"])] == [result.samples["train"], result.samples["val"]]
    assert max(lengths["train"] + lengths["val"]) == manifest["tokens"]["total"]["max"]
    script = (out / "train.sh").read_text()
    assert "swift sft" in script and "--packing true" in script and "--packing_strategy sequential" in script
    assert "train-00000-of-00001.jsonl" in script and "--max_length 16384" in script


def test_an_episode_never_spans_splits(annotated_run, tmp_path):
    out = tmp_path / "sft"
    export_run(annotated_run, out, ExportOptions(split_ratio=0.5, progress=False, include_unsure=True))
    splits = json.loads((out / "splits.json").read_text())
    assert splits["train"] and splits["val"] and not set(splits["train"]) & set(splits["val"])
    steps = {e.id: len(e.steps) for e in annotated_run.episodes()}
    for name in ("train", "val"):
        assert len(_lines(out, name)) == sum(steps[i] for i in splits[name])
        assert all(split_of(i, 0.5, 0) == name for i in splits[name])


def test_history_images_and_memory(annotated_run, tmp_path):
    out = tmp_path / "sft"
    export_run(annotated_run, out, ExportOptions(history_images=2, memory=True, split_ratio=0, progress=False))
    rows = _lines(out)
    assert max(len(r["images"]) for r in rows) == 3
    assert all(r["messages"][1]["content"].count("<image>") == len(r["images"]) for r in rows)
    assert all("记忆：" in r["messages"][2]["content"] for r in rows)


def test_long_samples_are_dropped_and_counted(annotated_run, tmp_path):
    full = export_run(annotated_run, tmp_path / "all", ExportOptions(progress=False)).manifest["tokens"]["total"]
    limit = full["p50"]
    out = tmp_path / "sft"
    result = export_run(annotated_run, out, ExportOptions(max_length=limit, progress=False))
    manifest = json.loads((out / "manifest.json").read_text())
    assert 0 < result.dropped["over_max_length"] < full["count"]
    assert manifest["dropped"]["over_max_length"] == result.dropped["over_max_length"]
    assert manifest["tokens"]["total"]["max"] <= limit
    assert sum(result.samples.values()) + result.dropped["over_max_length"] == full["count"]


def test_unannotated_episodes_are_counted(annotated_run, tmp_path):
    run = RunDir(tmp_path / "partial")
    run.path.mkdir()
    run.episodes_path.write_bytes(annotated_run.episodes_path.read_bytes())
    (run.path / "images").symlink_to(annotated_run.path / "images")
    lines = (annotated_run.path / "annotations.jsonl").read_text(encoding="utf-8").splitlines()
    (run.path / "annotations.jsonl").write_text("\n".join(lines[:5]) + "\n", encoding="utf-8")
    result = export_run(run, tmp_path / "sft", ExportOptions(progress=False))
    assert result.dropped["episode_not_annotated"] == 7


def test_agent_tools_variant(annotated_run, tmp_path):
    out = tmp_path / "sft"
    export_run(annotated_run, out, ExportOptions(agent_tools=True, split_ratio=0, progress=False))
    row = _lines(out)[0]
    assert [m["role"] for m in row["messages"]] == ["system", "user", "assistant", "tool_call"]
    call = json.loads(row["messages"][-1]["content"])
    assert set(call) == {"name", "arguments"}
    assert {t["function"]["name"] for t in json.loads(row["tools"])} >= {"click", "swipe", "done"}


def test_a_failed_export_leaves_the_previous_one(annotated_run, tmp_path, monkeypatch):
    out = tmp_path / "sft"
    export_run(annotated_run, out, ExportOptions(progress=False))
    before = (out / "manifest.json").read_bytes()
    import sftdata.export.stage as stage

    def boom(*a, **k):
        raise RuntimeError("disk on fire")
    monkeypatch.setattr(stage, "write_shards", boom)
    with pytest.raises(RuntimeError):
        export_run(annotated_run, out, ExportOptions(memory=True, progress=False), force=True)
    assert (out / "manifest.json").read_bytes() == before


def test_cli_export_and_hf_dataset(annotated_run, tmp_path):
    out, hf = tmp_path / "sft", tmp_path / "hf"
    result = CliRunner().invoke(main, ["export", str(annotated_run.path), "--format", "react-zh", "--out", str(out),
                                       "--hf-dataset", str(hf), "--split-ratio", "0", "--no-progress"])
    assert result.exit_code == 0, result.output
    assert "exported" in result.output and "packing:" in result.output
    from datasets import load_from_disk
    ds = load_from_disk(str(hf))
    assert ds["train"].num_rows == len(_lines(out))
    first = ds["train"][0]
    assert first["images"][0].size[0] == 540 and first["messages"][0]["role"] == "system"
    bad = CliRunner().invoke(main, ["export", str(annotated_run.path), "--format", "nope", "--out", str(out)])
    assert bad.exit_code == 2 and "unknown format 'nope'" in bad.output


def test_pixel_limits_reach_resized_coordinates(annotated_run, tmp_path):
    def first_click(out):
        for row in _lines(out):
            answer = row["messages"][-1]["content"]
            if '"action": "click"' in answer:
                return json.loads(answer.split("<tool_call>")[1].split("</tool_call>")[0])["arguments"]["coordinate"]
    full = first_click(export_run(annotated_run, tmp_path / "a", ExportOptions(
        format="qwen2.5-vl", split_ratio=0, progress=False)).out)
    small = first_click(export_run(annotated_run, tmp_path / "b", ExportOptions(
        format="qwen2.5-vl", split_ratio=0, max_pixels=200 * 28 * 28, progress=False)).out)
    assert small[0] < full[0] and small[1] < full[1]  # a smaller resized image, smaller pixel coordinates


def test_agent_tools_do_not_repeat_the_tool_listing(annotated_run, tmp_path):
    out = export_run(annotated_run, tmp_path / "t", ExportOptions(format="qwen2.5-vl", agent_tools=True,
                                                                  split_ratio=0, progress=False)).out
    row = _lines(out)[0]
    assert "<tools>" not in row["messages"][0]["content"] and json.loads(row["tools"])
    assert row["messages"][-1]["role"] == "tool_call"
    assert "<tool_call>" not in row["messages"][-2]["content"]


def test_workers_build_the_same_export(annotated_run, tmp_path):
    one = export_run(annotated_run, tmp_path / "one", ExportOptions(split_ratio=0.3, progress=False)).out
    two = export_run(annotated_run, tmp_path / "two", ExportOptions(split_ratio=0.3, workers=2, progress=False)).out
    names = sorted(p.name for p in one.glob("*.jsonl"))
    assert names == sorted(p.name for p in two.glob("*.jsonl")) and names
    assert all((one / n).read_bytes() == (two / n).read_bytes() for n in names)


def test_an_export_is_noted_in_the_run_manifest_unless_the_run_is_read_only(annotated_run, tmp_path):
    out = tmp_path / "noted"
    export_run(annotated_run, out, ExportOptions(progress=False))
    entry = annotated_run.manifest()["stages"]["export"][str(out.resolve())]
    assert entry["finished"] and entry["samples"] == json.loads((out / "manifest.json").read_text())["samples"]
    assert entry["fingerprint"] == json.loads((out / "manifest.json").read_text())["fingerprint"]

    before = annotated_run.manifest_path.read_bytes()
    with annotated_run.writing():  # another writer holds the run: the export is made, nothing is noted
        import multiprocessing
        ctx = multiprocessing.get_context("spawn")
        proc = ctx.Process(target=_export_in_child, args=(str(annotated_run.path), str(tmp_path / "busy")))
        proc.start()
        proc.join(120)
    assert proc.exitcode == 0 and (tmp_path / "busy" / "manifest.json").is_file()
    assert annotated_run.manifest_path.read_bytes() == before


def _export_in_child(run_path, out):
    export_run(RunDir(run_path), out, ExportOptions(progress=False))


def test_a_plain_export_ledgers_what_it_drops_and_is_not_redone_unchanged(tmp_path):
    """`sftdata export` (not only `sftdata run`) puts the episodes it cannot use into the run's rejects as
    export:<folder name>, once; an unchanged export is not redone without --force, and is with it."""
    import shutil

    run = sample_run(tmp_path / "src", 3, annotate=True)
    copy = tmp_path / "run"
    shutil.copytree(run.path, copy)
    lines = (copy / "annotations.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    (copy / "annotations.jsonl").write_text("".join(lines[1:]), encoding="utf-8")  # one episode not annotated
    out = copy / "export" / "web"
    args = ["export", str(copy), "--format", "browser-use", "--out", str(out)]
    first = CliRunner().invoke(main, args)
    assert first.exit_code != 0 and "nothing to export" in first.output  # phone episodes only: no web sample
    ledger = [r for r in RunDir(copy).rejects() if r.get("stage", "").startswith("export:")]
    assert ledger == []  # a failed export ledgers nothing
    out = copy / "export" / "mobile"
    args = ["export", str(copy), "--format", "mobile-agent", "--out", str(out)]
    assert CliRunner().invoke(main, args).exit_code == 0
    manifest = (out / "manifest.json").read_bytes()
    again = CliRunner().invoke(main, args)
    assert again.exit_code == 0 and "nothing to do" in again.output and (out / "manifest.json").read_bytes() == manifest
    forced = CliRunner().invoke(main, [*args, "--force"])
    assert forced.exit_code == 0 and "exported" in forced.output
    dropped = json.loads(manifest)["dropped_episodes"]
    assert list(dropped.values()) == ["episode_not_annotated"]
    ledger = [r for r in RunDir(copy).rejects() if r.get("stage") == "export:mobile"]
    assert sorted(r["episode_id"] for r in ledger) == sorted(dropped)  # once each, across the three commands
    assert all(r["reason"] == dropped[r["episode_id"]] for r in ledger)
