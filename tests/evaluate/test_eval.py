"""``sftdata eval`` against an RL export: the ground-truth answers score 100% under every matcher; broken
predictions are all counted and shown (answers that do not parse, ids not in the export, lines that are no
prediction, second predictions of a row, rows without one); ms-swift's result rows are matched by prompt."""
import json

import pytest
from click.testing import CliRunner

from rl_support import ground_truth_lines, rows
from sftdata.cli import main
from sftdata.evaluate import evaluate, format_eval
from sftdata.evaluate.matchers import MATCHERS
from sftdata.export.stage import ExportOptions, export_run


@pytest.fixture(scope="module")
def exports(rl_run, tmp_path_factory):
    root = tmp_path_factory.mktemp("eval-exports")
    out = {}
    for fmt in ("qwen2.5-vl", "mobile-agent", "androidlab", "react-zh", "browser-use"):
        out[fmt] = root / fmt
        export_run(rl_run, out[fmt], ExportOptions(format=fmt, rl=True, split_ratio=0.3, progress=False))
    export_run(rl_run, root / "sft", ExportOptions(format="qwen2.5-vl", progress=False))
    out["sft"] = root / "sft"
    return out


def _figures(r):
    groups = [r["overall"], *r["by_source"].values(), *r["by_platform"].values(), *r["by_action"].values()]
    return groups


@pytest.mark.parametrize("fmt", ["qwen2.5-vl", "mobile-agent", "androidlab", "react-zh", "browser-use"])
def test_ground_truth_answers_score_100_percent_under_every_matcher(exports, tmp_path, fmt):
    preds = tmp_path / "gt.jsonl"
    preds.write_text(ground_truth_lines(exports[fmt]), encoding="utf-8")
    r = evaluate(preds, exports[fmt])
    assert r["matched"] == r["export_rows"] == r["lines"] > 0
    assert r["missing"]["count"] == r["unknown"]["count"] == r["unparsed"]["count"] == 0
    for f in _figures(r):
        assert f["parse_rate"] == f["type_accuracy"] == 1.0
        assert all(f["step_success"][m] == 1.0 for m in MATCHERS), f
        assert f["text_exact"] in (None, 1.0) and f["text_f1"] in (None, 1.0) and f["direction_accuracy"] in (None, 1.0)
    assert all(set(c) == {t} for t, c in r["confusion"]["rows"].items())  # the diagonal only
    assert set(r["by_action"]) >= {"click"}


def test_broken_predictions_are_counted_and_shown_never_dropped(exports, tmp_path):
    export = exports["qwen2.5-vl"]
    good = ground_truth_lines(export).splitlines()
    ids = [json.loads(line)["id"] for line in good]
    lines = [good[0], good[1],
             json.dumps({"id": ids[2], "response": "I think I should tap the button."}),  # does not parse
             json.dumps({"id": ids[3], "response": None}),  # not even text
             json.dumps({"id": "no-such-episode:0", "response": "x"}),  # not in the export
             "{not json", json.dumps({"id": ids[4]}),  # no prediction
             good[0]]  # a second prediction for a row
    preds = tmp_path / "mixed.jsonl"
    preds.write_text("\n".join(lines) + "\n\n", encoding="utf-8")
    r = evaluate(preds, export)
    assert r["lines"] == len(lines) == r["matched"] + r["unknown"]["count"] + r["unreadable"]["count"] \
        + r["duplicates"]["count"]
    assert (r["matched"], r["unknown"]["count"], r["unreadable"]["count"], r["duplicates"]["count"]) == (4, 1, 2, 1)
    assert r["missing"]["count"] == r["export_rows"] - 4
    assert r["unparsed"]["count"] == 2 and {e["id"] for e in r["unparsed"]["examples"]} == {ids[2], ids[3]}
    assert r["overall"]["parse_rate"] == 0.5 and r["confusion"]["rows"]
    assert sum(c.get("unparsed", 0) for c in r["confusion"]["rows"].values()) == 2
    text = format_eval(r)
    for said in ("not in the export: 1", "lines that are no prediction: 2", "second predictions for a row (ignored): 1",
                 f"export rows without a prediction: {r['export_rows'] - 4}", "answers that do not parse in qwen2.5-vl: 2",
                 "no <tool_call> block", "I think I should tap", "no-such-episode:0", "not JSON"):
        assert said in text, said


def test_swift_infer_rows_are_matched_by_their_prompt(exports, tmp_path):
    """The shape `swift infer --result_path` writes: the row's messages with the answer appended, images as
    {"bytes", "path"}, no id and no solution (the ms-swift test runs the real command)."""
    export = exports["mobile-agent"]
    out = []
    for row in rows(export):
        answer = json.loads(row["solution"])["answer"]
        out.append({"response": answer, "labels": None, "logprobs": None,
                    "messages": row["messages"] + [{"role": "assistant", "content": answer}],
                    "images": [{"bytes": None, "path": str(export / p)} for p in row["images"]],
                    "dataset": "val-00000-of-00001.jsonl"})
    preds = tmp_path / "infer.jsonl"
    preds.write_text("".join(json.dumps(o, ensure_ascii=False) + "\n" for o in out), encoding="utf-8")
    r = evaluate(preds, export)
    assert r["matched"] == r["export_rows"] == len(out) and r["overall"]["step_success"]["box"] == 1.0


def test_the_command_writes_a_table_and_json(exports, rl_run, tmp_path):
    export = exports["androidlab"]
    preds = tmp_path / "gt.jsonl"
    preds.write_text(ground_truth_lines(export), encoding="utf-8")
    runner = CliRunner()
    shown = runner.invoke(main, ["eval", str(preds), "--export", str(export)])
    assert shown.exit_code == 0, shown.output
    assert "overall" in shown.output and "point-4%" in shown.output and "action types" in shown.output
    saved = json.loads((export / "eval" / "gt.json").read_text(encoding="utf-8"))
    assert saved["overall"]["step_success"]["aitw"] == 1.0
    machine = runner.invoke(main, ["eval", str(preds), "--export", str(export), "--json", "-"])
    assert machine.exit_code == 0 and json.loads(machine.output)["matched"] == saved["matched"]
    # an export with an eval folder is still ours to replace
    forced = runner.invoke(main, ["export", str(rl_run.path), "--format", "androidlab", "--rl", "--split-ratio", "0.3",
                                  "--out", str(export), "--force"])
    assert forced.exit_code == 0 and "train with: bash" in forced.output and "train_grpo.sh" in forced.output
    assert not (export / "eval").exists()  # its evaluations went with the export they scored


def test_an_sft_export_or_no_match_is_a_clear_error(exports, tmp_path):
    preds = tmp_path / "p.jsonl"
    preds.write_text(json.dumps({"id": "x:0", "response": "a"}) + "\n", encoding="utf-8")
    runner = CliRunner()
    sft = runner.invoke(main, ["eval", str(preds), "--export", str(exports["sft"])])
    assert sft.exit_code == 1 and "SFT export" in sft.output and "Traceback" not in sft.output
    none = runner.invoke(main, ["eval", str(preds), "--export", str(exports["react-zh"])])
    assert none.exit_code == 3 and "no prediction" in none.output and "Traceback" not in none.output


def test_the_run_report_shows_the_evaluations_of_its_exports(tmp_path):
    from support import sample_run

    run = sample_run(tmp_path, 3, annotate=True)
    export = run.path / "export" / "rl-qwen3"
    export_run(run, export, ExportOptions(format="qwen3-vl", rl=True, split_ratio=0, progress=False))
    preds = tmp_path / "gt.jsonl"
    preds.write_text(ground_truth_lines(export), encoding="utf-8")
    assert CliRunner().invoke(main, ["eval", str(preds), "--export", str(export)]).exit_code == 0
    assert CliRunner().invoke(main, ["report", str(run.path), "--out", str(tmp_path / "r.html")]).exit_code == 0
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    section = page.split('<section id="evaluation">', 1)[1].split("</section>", 1)[0]
    assert "rl-qwen3 · gt" in section and "data:image/png;base64," in section and "box-1.2" in section
    assert "100.0%" in section and "0 rows have no prediction" in section
