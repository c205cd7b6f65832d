"""Mind2Web runs balance: a task is an input (an episode or one ``ingest`` reject), a dropped step is a line of
stage ``ingest:step`` of an episode that exists, through a resume, repeated task rows and a whole pipeline run."""
import pytest
import pyarrow as pa
import pyarrow.parquet as pq
from click.testing import CliRunner

from accounting import assert_accounted
from sftdata.cli import main
from sftdata.synthetic.mind2web import TASKS, write_parquet

pytestmark = pytest.mark.slow  # many seconds of CPU: scheduled first (tests/conftest.py)


def _ingest(*args):
    return CliRunner().invoke(main, ["ingest", "mind2web", *map(str, args), "--no-progress"])


def test_sample_ingest_is_accounted_through_a_resume(tmp_path):
    sample = tmp_path / "sample.parquet"
    write_parquet(sample)
    assert _ingest(sample, "--out", tmp_path / "run", "--limit", "5").exit_code == 0
    assert_accounted(tmp_path / "run", inputs=5)
    assert _ingest(sample, "--out", tmp_path / "run").exit_code == 0
    acc = assert_accounted(tmp_path / "run", inputs=len(TASKS))
    assert len(acc.episodes) == len(TASKS) - 1 and acc.ingest_rejects == 1


def test_repeated_task_rows_are_an_input_of_their_own(tmp_path):
    sample = tmp_path / "sample.parquet"
    write_parquet(sample, tasks=3)
    table = pq.read_table(sample).to_pylist()
    repeated = table + table[:2]  # the first task's rows again, after the others
    path = tmp_path / "repeated.parquet"
    pq.write_table(pa.Table.from_pylist(repeated, schema=pq.read_schema(sample)), path)
    assert _ingest(path, "--out", tmp_path / "run").exit_code == 0
    assert_accounted(tmp_path / "run", inputs=4)
    assert _ingest(path, "--out", tmp_path / "run2", "--limit", "1").exit_code == 0
    assert _ingest(path, "--out", tmp_path / "run2").exit_code == 0
    assert_accounted(tmp_path / "run2", inputs=4)  # the repeat is ledgered once across the resume


def test_pipeline_run_over_mind2web_balances(tmp_path):
    sample = tmp_path / "sample.parquet"
    write_parquet(sample, tasks=5)
    config = tmp_path / "run.toml"
    config.write_text('run_dir = "run"\n[[sources]]\ntype = "mind2web"\npaths = ["sample.parquet"]\n'
                      '[annotate]\nbackend = "template"\n[[export]]\nformat = "qwen2.5-vl"\n'
                      '[report]\nenabled = false\n',
                      encoding="utf-8")
    result = CliRunner().invoke(main, ["run", str(config), "--no-progress"])
    assert result.exit_code == 0, result.output
    assert "balanced" in result.output
    assert_accounted(tmp_path / "run", inputs=5)
