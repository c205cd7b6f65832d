"""Multimodal-Mind2Web: the generated release-schema sample, grouping and order, drops, crops, JSON, resume, CLI."""
import io
import json
import shutil

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from PIL import Image

from sftdata.cli import main
from sftdata.ingest import IngestOptions
from sftdata.ingest.mind2web import Mind2WebOptions, ingest_mind2web
from sftdata.io import iter_jsonl
from sftdata.loaders.dom_text import texts_by_node_id
from sftdata.errors import RecordError
from sftdata.loaders.mind2web import StepInput, build_step, crop_box, parse_box
from sftdata.rundir import RunDir
from sftdata.synthetic.mind2web import TASKS, write_parquet, write_text_json

pytestmark = pytest.mark.slow  # many seconds of CPU: scheduled first (tests/conftest.py)

# the release's features, in order (osunlp/Multimodal-Mind2Web dataset card), as datasets writes them
RELEASE = [("action_uid", "string"), ("raw_html", "string"), ("cleaned_html", "string"), ("operation", "string"),
           ("pos_candidates", "list<item: string>"), ("neg_candidates", "list<item: string>"),
           ("website", "string"), ("domain", "string"), ("subdomain", "string"), ("annotation_id", "string"),
           ("confirmed_task", "string"), ("screenshot", "struct<bytes: binary, path: string>"),
           ("action_reprs", "list<item: string>"), ("target_action_index", "string"),
           ("target_action_reprs", "string")]
STEPS = sum(len(t[3]) for t in TASKS)


def ingest(paths, run_dir, *, viewport=(1280, 720), screenshots=None, **opts):
    run = RunDir(run_dir)
    with run.writing():
        result = ingest_mind2web([str(p) for p in paths], run, IngestOptions(**opts),
                                 Mind2WebOptions(viewport=viewport, screenshots=screenshots), progress=False)
    return run, result


def rows(path):
    return pq.read_table(path).to_pylist()  # the test's own small file: read whole to check it


@pytest.fixture(scope="module")
def sample(tmp_path_factory):
    path = tmp_path_factory.mktemp("m2w") / "sample.parquet"
    assert write_parquet(path) == STEPS
    return path


@pytest.fixture(scope="module")
def sample_run(sample, tmp_path_factory):
    return ingest([sample], tmp_path_factory.mktemp("run") / "run")


def test_sample_has_the_release_schema_and_layout(sample):
    pf = pq.ParquetFile(sample)
    assert [(f.name, str(f.type)) for f in pf.schema_arrow] == RELEASE
    features = json.loads(pf.schema_arrow.metadata[b"huggingface"])["info"]["features"]
    assert features["screenshot"] == {"_type": "Image"} and list(features) == [name for name, _ in RELEASE]
    assert pf.metadata.num_row_groups > 3
    table = rows(sample)
    ids = [r["annotation_id"] for r in table]
    blocks = [ids[0]] + [b for a, b in zip(ids, ids[1:]) if a != b]
    assert len(blocks) == len(set(blocks)) == len(TASKS)  # each task's rows consecutive
    for task in set(ids):
        assert [r["target_action_index"] for r in table if r["annotation_id"] == task] == \
            [str(i) for i in range(ids.count(task))]
    first = table[0]
    assert json.loads(first["operation"]).keys() == {"original_op", "value", "op"}
    attrs = json.loads(json.loads(first["pos_candidates"][0])["attributes"])
    assert {"backend_node_id", "bounding_box_rect"} <= attrs.keys()
    assert Image.open(io.BytesIO(first["screenshot"]["bytes"])).format == "JPEG"
    heights = {Image.open(io.BytesIO(r["screenshot"]["bytes"])).size for r in table if r["screenshot"]}
    assert {w for w, _ in heights} == {1280} and all(1500 <= h <= 5000 for _, h in heights)
    assert max(h for _, h in heights) > 4000


def test_generator_is_deterministic(sample, tmp_path):
    again = tmp_path / "again.parquet"
    write_parquet(again)
    assert rows(again) == rows(sample)


def test_episodes_steps_and_every_drop_reason(sample_run):
    run, result = sample_run
    episodes = list(run.episodes())
    assert len(episodes) == len(TASKS) - 1 and result.by_reason == {"box_outside_page": 1}
    assert sum(len(e.steps) for e in episodes) >= 55
    steps = [r for r in run.rejects() if r["stage"] == "ingest:step"]
    assert sorted(r["reason"] for r in steps) == ["after_dropped_step", "box_outside_page", "missing_screenshot",
                                                   "no_positive_candidate"]
    kept = {e.id: e for e in episodes}
    for r in steps:  # each dropped step names its episode, which keeps only the steps before it
        assert r["episode_id"] in kept and r["action_uid"] and len(kept[r["episode_id"]].steps) <= r["step"]
    cut = next(r for r in steps if r["reason"] == "box_outside_page")
    assert len(kept[cut["episode_id"]].steps) == cut["step"]
    whole = next(r for r in run.rejects() if r["stage"] == "ingest")
    assert [s["reason"] for s in whole["steps"]] == ["box_outside_page", "after_dropped_step"]
    for e in episodes:
        assert e.platform == "web" and not e.ends_with_done and e.steps[-1].action.type != "done"
        assert e.meta["website"] and e.meta["no_final_screen"] is True
        assert [s.index for s in e.steps] == list(range(len(e.steps)))
        assert all(s.url is None for s in e.steps)
    counts = run.manifest()["stages"]["ingest"]["mind2web"]["counts"]
    assert counts["in"] == len(TASKS) and counts["steps"]["dropped"] == 4


def test_every_target_lies_inside_its_crop_and_coordinates_follow_it(sample, sample_run):
    run, _ = sample_run
    source = {r["action_uid"]: r for r in rows(sample)}
    types = set()
    for episode in run.episodes():
        for step in episode.steps:
            shot, crop = step.screenshot, step.meta["crop"]
            left, top, right, bottom = crop["box"]
            assert (right - left, bottom - top) == (shot.width, shot.height) == (1280, 720)
            assert 0 <= top and bottom <= crop["page"]["height"]
            a = step.action
            types.add(a.type)
            x0, y0, x1, y1 = a.element.bounds
            assert 0 <= x0 < x1 <= shot.width and 0 <= y0 < y1 <= shot.height
            assert a.element.contains(a.point)
            row = source[step.meta["action_uid"]]
            x, y, w, h = (float(v) for v in json.loads(json.loads(row["pos_candidates"][0])["attributes"])
                          ["bounding_box_rect"].split(","))
            assert abs(x - left - x0) <= 1 and abs(y - top - y0) <= 1  # the page box moved into the crop
            for e in step.elements:
                assert 0 <= e.bounds[0] < e.bounds[2] <= shot.width and 0 <= e.bounds[1] < e.bounds[3] <= shot.height
            assert step.meta["action_repr"] == row["target_action_reprs"]
    assert types == {"click", "type", "select"}


def test_page_kept_byte_for_byte_and_crop_is_its_pixels(sample, sample_run):
    run, _ = sample_run
    source = {r["action_uid"]: r for r in rows(sample)}
    episode = next(e for e in run.episodes() if max(s.meta["crop"]["page"]["height"] for s in e.steps) > 4000)
    step = max(episode.steps, key=lambda s: s.meta["crop"]["box"][1])
    page_bytes = (run.path / step.meta["crop"]["page"]["path"]).read_bytes()
    assert page_bytes == source[step.meta["action_uid"]]["screenshot"]["bytes"]
    page = Image.open(io.BytesIO(page_bytes)).convert("RGB")
    crop = Image.open(run.path / step.screenshot.path)
    assert crop.format == "PNG" and step.meta["crop"]["box"][1] > 2000
    assert crop.convert("RGB").tobytes() == page.crop(tuple(step.meta["crop"]["box"])).tobytes()


def test_action_types_values_and_element_labels(sample_run):
    run, _ = sample_run
    steps = [s for e in run.episodes() for s in e.steps]
    typed = next(s for s in steps if s.action.type == "type" and s.action.text == "Boston")
    assert typed.action.element.tag == "input" and typed.action.element.hint == "From"
    assert "editable" in typed.action.element.flags and typed.action.target == 'textbox "From"'
    chosen = next(s for s in steps if s.action.type == "select" and s.action.text == "Business")
    assert chosen.action.element.tag == "select" and chosen.action.element.attr("name") == "cabin"
    assert chosen.action.target == 'combobox "Cabin"' and chosen.action.element.text == "Economy"  # before choosing
    link = next(s for s in steps if s.action.type == "click" and s.action.element.tag == "a"
                and s.action.element.text.endswith("#25"))
    assert link.action.target.startswith('link "') and "clickable" in link.action.element.flags


def test_target_is_not_always_in_the_middle(sample_run):
    run, _ = sample_run
    places = []
    for e in run.episodes():
        for s in e.steps:
            box, page_h = s.meta["crop"]["box"], s.meta["crop"]["page"]["height"]
            if box[1] > 0 and box[3] < page_h:  # the window could move freely
                places.append(s.action.point[1] / s.screenshot.height)
    assert len(places) >= 10 and max(places) - min(places) > 0.4
    assert all(0.1 <= p <= 0.9 for p in places)


def test_crop_rule_for_tall_and_edge_targets():
    assert crop_box((0, 0, 100, 40), (1280, 5000), (1280, 720), "a")[1] == 0  # near the top: window at the top
    assert crop_box((0, 4980, 100, 5000), (1280, 5000), (1280, 720), "a")[3] == 5000
    tall = crop_box((0, 1000, 1280, 3000), (1280, 5000), (1280, 720), "a")
    assert tall == (0, 1000, 1280, 1720)  # a target taller than the window: cut, starting at its top
    assert crop_box((10, 10, 50, 50), (1280, 600), (1280, 720), "a") == (0, 0, 1280, 600)  # a short page: whole
    assert parse_box("0,0,0,10") is None and parse_box("nan,1,2,3") is None


def _row(box="100,1000.5,600,2000", image=None, op="CLICK", pos=True):
    if image is None:
        out = io.BytesIO()
        Image.new("RGB", (1280, 4000), (200, 210, 220)).save(out, format="JPEG")
        image = out.getvalue()
    target = json.dumps({"tag": "div", "attributes": json.dumps({"backend_node_id": "5", "bounding_box_rect": box,
                                                                "aria_label": "Results"})})
    return StepInput("task", "uid-9", 0, json.dumps({"op": op, "value": "x"}), [target] if pos else [], [],
                     '<div backend_node_id="5">All results</div>', image)


def test_a_target_taller_than_the_window_is_cut_and_pointed_at_its_visible_part():
    step = build_step(_row(), 0, None)
    assert step.meta["crop"]["box"] == [0, 1000, 1280, 1720]
    assert step.action.element.bounds == (100, 0, 700, 720) and step.action.point == (400, 360)
    assert step.action.target == 'div "All results"'


@pytest.mark.parametrize("row, reason", [
    (_row(pos=False), "no_positive_candidate"), (_row(box="-1,-1,-1,-1"), "box_outside_page"),
    (_row(box="10,4100,50,20"), "box_outside_page"), (_row(box="10,10,0,20"), "box_outside_page"),
    (_row(image=b"\xff\xd8 torn"), "bad_image"), (_row(image=b""), "missing_screenshot"),
    (_row(op="DRAG"), "unknown_operation")])
def test_each_step_reason(row, reason):
    with pytest.raises(RecordError) as caught:
        build_step(row, 0, None)
    assert caught.value.reason == reason


def test_text_of_nodes_from_cleaned_html():
    html = ('<div backend_node_id="1"><a backend_node_id="2">Flights <span backend_node_id="3">to Rome</span></a>'
            '<input backend_node_id="4" placeholder="x"><p backend_node_id="5">broken <b>markup</p></div>')
    assert texts_by_node_id(html, ["2", "3", "4", "5"]) == {"2": "Flights to Rome", "3": "to Rome", "4": "",
                                                            "5": "broken markup"}


def test_one_task_across_row_groups_and_two_files(sample, sample_run, tmp_path):
    table = pq.read_table(sample)
    first, second = tmp_path / "part-0.parquet", tmp_path / "part-1.parquet"
    pq.write_table(table.slice(0, 8), first, row_group_size=3)  # row 8 is in the middle of the second task
    pq.write_table(table.slice(8), second, row_group_size=3)
    run, _ = ingest([first, second], tmp_path / "run")
    whole, _ = sample_run
    assert [(e.id, [s.meta["action_uid"] for s in e.steps]) for e in run.episodes()] == \
        [(e.id, [s.meta["action_uid"] for s in e.steps]) for e in whole.episodes()]


def test_a_folder_is_its_shards_in_natural_order(sample, sample_run, tmp_path):
    table = pq.read_table(sample)
    folder = tmp_path / "data"
    folder.mkdir()
    pq.write_table(table.slice(0, 8), folder / "train-2-of-10.parquet", row_group_size=3)  # 2 before 10
    pq.write_table(table.slice(8), folder / "train-10-of-10.parquet", row_group_size=3)
    (folder / "._train-1-of-10.parquet").write_bytes(b"macOS litter")  # never an input
    run, _ = ingest([folder], tmp_path / "run")
    whole, _ = sample_run
    assert [e.id for e in run.episodes()] == [e.id for e in whole.episodes()]
    empty = tmp_path / "empty"
    empty.mkdir()
    result = CliRunner().invoke(main, ["ingest", "mind2web", str(empty), "--out", str(tmp_path / "r2")])
    assert result.exit_code == 1 and "holds no .parquet or .json file" in result.output
    assert "Traceback" not in result.output


def test_steps_ordered_by_target_action_index(sample, sample_run, tmp_path):
    table = rows(sample)
    task = table[0]["annotation_id"]
    shuffled = [r for r in table if r["annotation_id"] == task][::-1] + [r for r in table if r["annotation_id"] != task]
    path = tmp_path / "reversed.parquet"
    pq.write_table(pa.Table.from_pylist(shuffled, schema=pq.read_schema(sample)), path)
    run, _ = ingest([path], tmp_path / "run")
    whole, _ = sample_run
    got = next(e for e in run.episodes() if e.id == task)
    want = next(e for e in whole.episodes() if e.id == task)
    assert [s.meta["action_uid"] for s in got.steps] == [s.meta["action_uid"] for s in want.steps]


def test_rows_of_a_task_after_other_tasks_are_a_duplicate(sample, tmp_path):
    table = rows(sample)
    a, b = table[0]["annotation_id"], table[6]["annotation_id"]
    mixed = table[:2] + [r for r in table if r["annotation_id"] == b] + table[2:5]
    path = tmp_path / "mixed.parquet"
    pq.write_table(pa.Table.from_pylist(mixed, schema=pq.read_schema(sample)), path)
    run, result = ingest([path], tmp_path / "run")
    assert {e.id: len(e.steps) for e in run.episodes()} == {a: 2, b: 6}
    assert result.by_reason == {"duplicate_episode": 1}


def test_text_only_json_with_and_without_screenshots(sample_run, tmp_path):
    path = write_text_json(tmp_path / "json")
    run, result = ingest([path], tmp_path / "with", screenshots=str(tmp_path / "json" / "screenshots"))
    whole, _ = sample_run
    assert [(e.id, e.goal, [s.screenshot.sha256 for s in e.steps]) for e in run.episodes()] == \
        [(e.id, e.goal, [s.screenshot.sha256 for s in e.steps]) for e in whole.episodes()]
    bare, result = ingest([path], tmp_path / "without")
    assert list(bare.episodes()) == [] and result.by_reason == {"missing_screenshot": len(TASKS)}


def test_resume_and_second_ingest(sample, tmp_path):
    run, first = ingest([sample], tmp_path / "run", limit=4)
    assert first.new_exported + first.new_rejected == 4
    run, rest = ingest([sample], tmp_path / "run")
    assert rest.new_exported + rest.new_rejected == len(TASKS) - 4
    again = CliRunner().invoke(main, ["ingest", "mind2web", str(sample), "--out", str(tmp_path / "run"),
                                      "--no-progress"])
    assert again.exit_code == 0 and "nothing to do" in again.output
    lines = list(iter_jsonl(run.rejects_path))
    keys = [(r["episode_id"], r.get("step")) for r in lines]
    assert len(keys) == len(set(keys)) == 5
    assert len(list(run.episodes())) == len(TASKS) - 1


def test_viewport_option(sample, tmp_path):
    result = CliRunner().invoke(main, ["ingest", "mind2web", str(sample), "--out", str(tmp_path / "run"),
                                       "--viewport", "800x600", "--no-progress", "--limit", "2"])
    assert result.exit_code == 0, result.output
    steps = [s for e in RunDir(tmp_path / "run").episodes() for s in e.steps]
    assert {(s.screenshot.width, s.screenshot.height) for s in steps} == {(800, 600)}
    assert all(s.action.element.contains(s.action.point) for s in steps)
    bad = CliRunner().invoke(main, ["ingest", "mind2web", str(sample), "--out", str(tmp_path / "r2"),
                                    "--viewport", "wide"])
    assert bad.exit_code == 2 and "WIDTHxHEIGHT" in bad.output


def test_cli_errors_are_clear(sample, tmp_path):
    not_parquet = tmp_path / "notes.parquet"
    not_parquet.write_text("not a shard")
    other = tmp_path / "other.parquet"
    pq.write_table(pa.table({"a": [1, 2]}), other)
    truncated = tmp_path / "torn.parquet"
    truncated.write_bytes(sample.read_bytes()[:5000])
    for path, words in ((not_parquet, "neither a Parquet shard"), (other, "not a Multimodal-Mind2Web shard"),
                        (truncated, "not a Parquet file")):
        result = CliRunner().invoke(main, ["ingest", "mind2web", str(path), "--out", str(tmp_path / "run")])
        assert result.exit_code == 1 and words in result.output, result.output
        assert "Traceback" not in result.output and isinstance(result.exception, SystemExit)
    shutil.rmtree(tmp_path / "run", ignore_errors=True)
    nothing = CliRunner().invoke(main, ["ingest", "mind2web", str(write_text_json(tmp_path / "j", tasks=2)),
                                        "--out", str(tmp_path / "run")])
    assert nothing.exit_code == 3 and "all 2 inputs were rejected" in nothing.output


def test_sample_command_writes_parquet_and_json(tmp_path):
    out = tmp_path / "m.parquet"
    result = CliRunner().invoke(main, ["sample", str(out), "--mind2web", "--episodes", "2",
                                       "--mind2web-json", str(tmp_path / "j")])
    assert result.exit_code == 0, result.output
    assert pq.ParquetFile(out).metadata.num_rows == len(TASKS[0][3]) + len(TASKS[1][3])
    assert (tmp_path / "j" / "train_0.json").is_file()
