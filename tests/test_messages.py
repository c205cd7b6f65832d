"""Messages that say what to do, through the real CLI: a partial ingest names what it rejected, an element-based
export of tree-less screens points at --ocr, config errors name the file and the key (and where a relative path
was looked for), names of formats (and every other choice) are taken in any case with close names suggested, an
unknown episode id lists the run's ids, and inspect writes the image format its --out names."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

from sftdata.cli import main
from sftdata.config import load_config
from sftdata.errors import FatalError
from sftdata.formats import get_format


def cli(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def _folder(root: Path, name: str, actions: list, frames: int) -> None:
    folder = root / name
    folder.mkdir(parents=True)
    for i in range(frames):
        Image.new("RGB", (270, 600), (200, 30 * i, 90)).save(folder / f"{i:03d}.png")
    (folder / "task.json").write_text(json.dumps({"goal": "打开设置", "actions": actions, "marked": False},
                                                 ensure_ascii=False), encoding="utf-8")


@pytest.fixture
def mostly_rejected(tmp_path) -> Path:
    """One good folder and seven bad ones."""
    root = tmp_path / "mine"
    _folder(root, "a_good", ["CLICK [500,500]", "DONE"], 2)
    for i in range(7):
        _folder(root, f"b_bad{i}", ["CLICK [500,500]", "BACK"], 3)  # DONE missing
    return root


def test_a_partial_ingest_exits_0_and_names_what_it_rejected(mostly_rejected, tmp_path):
    result = cli("ingest", "annotated", mostly_rejected, "--out", tmp_path / "run", "--no-progress")
    assert result.exit_code == 0, result.output
    line = next(line for line in result.output.splitlines() if line.startswith("rejected:"))
    assert line.startswith("rejected: b_bad0 (missing_done), b_bad1 (missing_done)")
    assert "and 2 more" in line and line.endswith(f"{tmp_path / 'run' / 'rejects.jsonl'}")


def test_an_element_format_on_screens_without_a_tree_points_at_ocr(mostly_rejected, tmp_path):
    run = tmp_path / "run"
    assert cli("ingest", "annotated", mostly_rejected, "--out", run, "--no-progress").exit_code == 0
    assert cli("annotate", run, "--no-progress").exit_code == 0
    result = cli("export", run, "--format", "mobile-agent", "--out", tmp_path / "ma")
    assert result.exit_code == 3
    assert "every step was dropped (no_accessibility_tree 2)" in result.output
    assert "`sftdata ingest annotated ROOT --out RUN --ocr`" in result.output


def test_config_errors_name_the_file_and_the_key(tmp_path):
    config = tmp_path / "conf" / "run.toml"
    config.parent.mkdir()
    config.write_text('run_dir = "r"\n[[sources]]\ntype = "annotated"\nroot = "raw/mine"\n')
    result = cli("run", config)
    assert result.exit_code == 1 and (f"{config} [sources 1 (annotated)]: root: {config.parent / 'raw' / 'mine'} does "
                                      f"not exist (relative paths in a config are relative to the config file's "
                                      f"folder, {config.parent})") in " ".join(result.output.split())
    assert load_config(config).sources[0].root == config.parent / "raw" / "mine"  # a library may set it later
    (config.parent / "raw" / "mine").mkdir(parents=True)
    config.write_text('run_dir = "r"\n[[sources]]\ntype = "annotated"\nroot = "raw/mine"\ntolerance = "x"\n')
    with pytest.raises(FatalError, match=rf"^{config} \[sources 1 \(annotated\)\]: tolerance = 'x' should be"):
        load_config(config)
    config.write_text('run_dir = "r"\nworkrs = 2\n')
    with pytest.raises(FatalError, match=rf"^{config}: unknown key\(s\) workrs"):
        load_config(config)
    result = cli("run", config)
    assert result.exit_code == 1 and f"{config}: unknown key(s) workrs" in result.output


def test_the_example_config_says_relative_paths_are_relative_to_it():
    example = cli("run", "--print-example-config").output
    assert "Relative paths are relative to this file" in example
    assert '# root = "raw/annotated"             # The folder of trajectories, relative to this file.' in example


def test_format_names_are_taken_in_any_case_and_typos_get_close_names(mostly_rejected, tmp_path):
    assert get_format("React-ZH").name == "react-zh"
    with pytest.raises(KeyError, match="did you mean qwen2.5-vl or qwen3-vl"):
        get_format("qwen25vl")
    run = tmp_path / "run"
    cli("ingest", "annotated", mostly_rejected, "--out", run, "--no-progress")
    cli("annotate", run, "--no-progress")
    exported = cli("export", run, "--format", "React-ZH", "--out", tmp_path / "rz")
    assert exported.exit_code == 0 and "(react-zh)" in exported.output
    typo = cli("export", run, "--format", "ui_tars", "--out", tmp_path / "x")
    assert typo.exit_code == 2 and "unknown format 'ui_tars'; did you mean ui-tars?" in typo.output
    config = tmp_path / "run.toml"
    config.write_text(f'run_dir = "r"\n[[sources]]\ntype = "annotated"\nroot = "{mostly_rejected}"\n'
                      '[annotate]\nbackend = "Template"\n[[export]]\nformat = "QWEN2.5-VL"\n[[export]]\nformat = "reactzh"\n')
    with pytest.raises(FatalError, match=r"\[export 2\]: format = 'reactzh' should be one of .*; did you mean react-zh"):
        load_config(config)
    config.write_text(config.read_text().replace('format = "reactzh"', 'format = "React-Zh"'))
    cfg = load_config(config)
    assert [e.format for e in cfg.exports] == ["qwen2.5-vl", "react-zh"] and cfg.annotate.backend == "template"


def test_an_unknown_episode_id_lists_the_runs_ids(mostly_rejected, tmp_path):
    run = tmp_path / "run"
    cli("ingest", "annotated", mostly_rejected, "--out", run, "--no-progress")
    result = cli("inspect", run, "--episode", "a_god", "--out", tmp_path / "x.png")
    assert result.exit_code == 1
    assert f"--episode: no episode a_god in {run / 'episodes.jsonl'}; did you mean a_good? (its ids: a_good)" \
        in result.output
    for command in ("annotate", "judge"):
        if command == "judge":
            cli("annotate", run, "--no-progress")
        result = cli(command, run, "--episodes", "nope,a_good", "--no-progress")
        assert result.exit_code == 1 and "--episodes: no episode nope in" in result.output, result.output
        assert "(its ids: a_good)" in result.output


def test_inspect_writes_the_format_its_out_names(mostly_rejected, tmp_path):
    run = tmp_path / "run"
    cli("ingest", "annotated", mostly_rejected, "--out", run, "--no-progress")
    for name, magic in (("sheet.jpg", b"\xff\xd8\xff"), ("sheet.JPEG", b"\xff\xd8\xff"), ("sheet.png", b"\x89PNG")):
        assert cli("inspect", run, "--episode", "a_good", "--out", tmp_path / name).exit_code == 0
        assert (tmp_path / name).read_bytes().startswith(magic), name
    refused = cli("inspect", run, "--episode", "a_good", "--out", tmp_path / "sheet.gif")
    assert refused.exit_code == 1 and "end the name with .png, .jpg or .jpeg" in refused.output
    assert not (tmp_path / "sheet.gif").exists()
