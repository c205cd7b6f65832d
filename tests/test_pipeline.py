"""sftdata run: the example config, config errors, skipping finished stages, redoing only what changed."""
import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from sftdata.cli import main
from sftdata.config import example_config, parse_config
from sftdata.errors import FatalError
from built_once import sample_file

pytestmark = pytest.mark.slow  # many seconds of CPU: scheduled first (tests/conftest.py)

CONFIG = """run_dir = "run"
workers = {workers}
[[sources]]
type = "androidcontrol"
paths = ["s.tfrecord.gz"]
[annotate]
backend = "template"
[[export]]
format = "qwen2.5-vl"
memory = true
split_ratio = 0.2
[[export]]
format = "react-zh"
history = {history}
[validate]
cjk_threshold = {cjk}
[report]
enabled = {report}
samples = {samples}
"""


@pytest.fixture
def workdir(tmp_path):
    sample_file(tmp_path / "s.tfrecord.gz", n_episodes=6, seed=1, size=(360, 800))
    return tmp_path


def _run(workdir: Path, history=4, workers=1, report="false", samples=3, cjk=0.5):
    (workdir / "cfg.toml").write_text(CONFIG.format(history=history, workers=workers, report=report, samples=samples,
                                                    cjk=cjk))
    result = CliRunner().invoke(main, ["run", str(workdir / "cfg.toml"), "--no-progress"])
    assert result.exit_code == 0, result.output
    return result.output


def test_example_config_parses_and_names_every_stage():
    cfg = parse_config(example_config(), Path("/x"))
    assert cfg.run_dir == Path("/x/processed/my-run") and cfg.workers == 2
    assert [e.format for e in cfg.exports] == ["qwen2.5-vl", "react-zh"] and cfg.report
    printed = CliRunner().invoke(main, ["run", "--print-example-config"])
    assert printed.exit_code == 0 and printed.output == example_config()


@pytest.mark.parametrize("text,message", [
    ('run_dir = "r"\n[[sources]]\ntype = "androidcontrol"\npats = ["a"]\n', "unknown key(s) pats"),
    ('run_dir = "r"\n[[sources]]\ntype = "tfrecord"\npaths = ["a"]\n', "type must be"),
    ('[[sources]]\ntype = "androidcontrol"\npaths = ["a"]\n', "run_dir is required"),
    ('run_dir = "r"\n', "at least one [[sources]]"),
    ('run_dir = "r"\n[[sources]]\ntype = "androidcontrol"\npaths = ["a"]\n[annotate]\nbakend = "x"\n', "bakend"),
    ('run_dir = "r"\n[[sources]]\ntype = "androidcontrol"\npaths = ["a"]\n[[export]]\nformat = "x"\nmemroy = 1\n',
     "memroy"),
    ("run_dir = [", "not valid TOML"),
])
def test_config_errors_name_the_problem(text, message):
    with pytest.raises(FatalError, match=message.replace("[", r"\[").replace("(", r"\(").replace(")", r"\)")):
        parse_config(text, Path("/x"))


def test_run_then_rerun_skips_then_redoes_only_the_changed_export(workdir):
    first = _run(workdir)
    assert "balanced" in first and "NOT BALANCED" not in first
    run = workdir / "run"
    exports = run / "export"
    qwen_manifest = (exports / "qwen2.5-vl-memory" / "manifest.json").stat().st_mtime_ns
    react_manifest = (exports / "react-zh" / "manifest.json").stat().st_mtime_ns
    annotations = (run / "annotations.jsonl").read_bytes()

    second = _run(workdir)
    assert ("skipped, already done: ingest androidcontrol, annotate, validate, export qwen2.5-vl-memory, "
            "export react-zh") in second
    assert (exports / "react-zh" / "manifest.json").stat().st_mtime_ns == react_manifest

    third = _run(workdir, history=1)  # only the react-zh export depends on this option
    assert "export qwen2.5-vl-memory" in third.split("skipped, already done:")[1]
    assert "export react-zh" not in third.split("skipped, already done:")[1]
    assert (exports / "qwen2.5-vl-memory" / "manifest.json").stat().st_mtime_ns == qwen_manifest
    assert (exports / "react-zh" / "manifest.json").stat().st_mtime_ns != react_manifest
    assert (run / "annotations.jsonl").read_bytes() == annotations
    manifest = json.loads((run / "manifest.json").read_text())
    assert all(a["balanced"] for k, a in manifest["stages"]["pipeline"]["last"]["accounting"].items() if k != "ingested")
    # every stage keeps its entry in the run's manifest, export and report included
    entry = manifest["stages"]["export"]["export/react-zh"]
    assert entry["finished"] and entry["fingerprint"]["options"]["history"] == 1
    assert entry["samples"]["train"] > 0 and entry["format"] == "react-zh"

    shutil.rmtree(exports / "react-zh")  # the manifest says done, but the export is gone: it is made again
    fourth = _run(workdir, history=1)
    assert "export react-zh" not in fourth.split("skipped, already done:")[1]
    assert (exports / "react-zh" / "manifest.json").is_file()


def _skipped(output: str) -> list[str]:
    return output.split("skipped, already done: ")[1].split(")")[0].split(", ") if "skipped, already" in output else []


def test_a_run_with_nothing_to_do_validates_and_draws_nothing(workdir):
    first = _run(workdir, report="true", samples=0)
    run = workdir / "run"
    page = run / "report.html"
    drawn, validated = page.stat().st_mtime_ns, json.loads((run / "manifest.json").read_text())["stages"]["validate"]
    second = _run(workdir, report="true", samples=0)
    assert {"validate", "report"} <= set(_skipped(second)) and "validate" not in second.split("elapsed:")[1].split("(")[0]
    assert page.stat().st_mtime_ns == drawn
    line = next(x for x in first.splitlines() if x.startswith("validate:"))
    assert line in second.splitlines() and line.endswith(" 0 failing")  # the counts, read back from the manifest
    assert json.loads((run / "manifest.json").read_text())["stages"]["validate"] == validated

    def again(**kw) -> set[str]:
        out = _run(workdir, report="true", samples=0, **kw)
        assert page.is_file()
        return set(_skipped(out))

    # each change redoes the stages that read it, and only those
    assert "validate" not in (skipped := again(cjk=0.4)) and "report" in skipped  # the check's option
    (run / "rejects.jsonl").write_bytes((run / "rejects.jsonl").read_bytes())  # a ledger the page counts: new mtime
    assert "validate" in (skipped := again(cjk=0.4)) and "report" not in skipped
    page.unlink()  # the page is gone
    assert "validate" in (skipped := again(cjk=0.4)) and "report" not in skipped
    (run / "annotations.jsonl").write_bytes((run / "annotations.jsonl").read_bytes())  # what both read
    assert not {"validate", "report"} & again(cjk=0.4)
    saved = run / "export" / "react-zh" / "eval" / "preds.json"  # an evaluation saved beside an export: the page shows it
    saved.parent.mkdir()
    saved.write_text("{}")
    assert "validate" in (skipped := again(cjk=0.4)) and "report" not in skipped


def test_workers_give_the_same_shards(workdir, tmp_path_factory):
    _run(workdir, workers=1)
    one = sorted((workdir / "run" / "export" / "react-zh").glob("*.jsonl"))
    other = tmp_path_factory.mktemp("w2")
    (other / "s.tfrecord.gz").write_bytes((workdir / "s.tfrecord.gz").read_bytes())
    _run(other, workers=2)
    two = sorted((other / "run" / "export" / "react-zh").glob("*.jsonl"))
    assert [p.read_bytes() for p in one] == [p.read_bytes() for p in two]
