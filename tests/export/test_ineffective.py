"""Export of ineffective steps (the action left the screen unchanged): kept by default, or dropped and counted
as ``ineffective_step`` (library, CLI and run config)."""
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from sftdata.cli import main
from sftdata.config import parse_config
from sftdata.errors import FatalError
from sftdata.export.stage import ExportOptions, export_run
from support import sample_run


@pytest.fixture(scope="module")
def annotated_run(tmp_path_factory):
    return sample_run(tmp_path_factory.mktemp("ineffective"), 8, (540, 1200), annotate=True)


def _ineffective(run):
    return [(e.id, s.index) for e in run.episodes() for s in e.steps if s.meta.get("ineffective")]


def test_the_sample_has_a_repeated_tap_that_did_nothing(annotated_run):
    flagged = _ineffective(annotated_run)
    assert flagged, "the synthetic sample should hold at least one ineffective step"
    for eid, index in flagged:
        (episode,) = [e for e in annotated_run.episodes() if e.id == eid]
        step, retry = episode.steps[index], episode.steps[index + 1]
        assert step.action.type == retry.action.type == "click"  # the same button, tapped again
        assert step.action.element.label == retry.action.element.label
        assert not retry.meta["ineffective"]
    steps = [s for e in annotated_run.episodes() for s in e.steps]
    assert all(("ineffective" in s.meta) == (s.action.type != "done") for s in steps)


def test_keep_is_the_default_and_drop_counts_the_steps(annotated_run, tmp_path):
    steps = sum(len(e.steps) for e in annotated_run.episodes())
    n = len(_ineffective(annotated_run))
    kept = export_run(annotated_run, tmp_path / "keep", ExportOptions(split_ratio=0.0, progress=False,
                                                                      include_unsure=True))
    assert sum(kept.samples.values()) == steps and "ineffective_step" not in kept.dropped
    dropped = export_run(annotated_run, tmp_path / "drop",
                         ExportOptions(split_ratio=0.0, progress=False, ineffective="drop", include_unsure=True))
    manifest = json.loads((tmp_path / "drop" / "manifest.json").read_text())
    assert sum(dropped.samples.values()) == steps - n
    assert manifest["dropped"]["ineffective_step"] == n and manifest["options"]["ineffective"] == "drop"
    assert manifest["dropped_episodes"] == {}  # the rest of the episode is still exported
    with pytest.raises(FatalError, match="keep or drop"):
        export_run(annotated_run, tmp_path / "bad", ExportOptions(ineffective="skip", progress=False))


def test_cli_and_config_take_the_choice(annotated_run, tmp_path):
    res = CliRunner().invoke(main, ["export", str(annotated_run.path), "--format", "react-zh", "--out",
                                    str(tmp_path / "sft"), "--ineffective", "drop", "--no-progress"])
    assert res.exit_code == 0, res.output
    assert "ineffective_step" in res.output
    res = CliRunner().invoke(main, ["export", str(annotated_run.path), "--format", "react-zh", "--out",
                                    str(tmp_path / "x"), "--ineffective", "maybe"])
    assert res.exit_code == 2 and "maybe" in res.output
    head = 'run_dir = "r"\n[[sources]]\ntype = "androidcontrol"\npaths = ["a.gz"]\n[[export]]\nformat = "react-zh"\n'
    assert parse_config(head + 'ineffective = "drop"\n', Path("/d")).exports[0].ineffective == "drop"
    assert parse_config(head, Path("/d")).exports[0].ineffective == "keep"
    with pytest.raises(FatalError, match="ineffective = .all. should be one of keep, drop"):
        parse_config(head + 'ineffective = "all"\n', Path("/d"))


def test_run_names_a_dropping_export_apart():
    from sftdata.pipeline import export_name

    assert export_name(ExportOptions(ineffective="drop"), {"react-zh"}) == "react-zh-effective"
    assert export_name(ExportOptions(), set()) == "react-zh"
