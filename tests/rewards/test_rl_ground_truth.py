"""Every row of an RL export, in every format of the registry: the ground-truth answer scores 1.0 on every rule,
and the row's prompt and images are the SFT sample's of the same step (the answer taken off), with the same
drops, split and shards."""
import json
from collections import Counter

import pytest

from rl_support import rows
from sftdata.export.stage import ExportOptions, export_run
from sftdata.formats import names
from sftdata.rewards import RULES, read_solution, score_answer

pytestmark = pytest.mark.slow  # many seconds of CPU: scheduled first (tests/conftest.py)


@pytest.mark.parametrize("fmt", names())
def test_ground_truth_scores_one_on_every_rule_and_the_prompt_is_the_sft_samples(rl_run, tmp_path, fmt):
    rl, sft = tmp_path / "rl", tmp_path / "sft"
    export_run(rl_run, rl, ExportOptions(format=fmt, rl=True, split_ratio=0.3, progress=False))
    export_run(rl_run, sft, ExportOptions(format=fmt, split_ratio=0.3, progress=False))
    got = rows(rl)
    assert got, fmt
    for row in got:
        sol = read_solution(row["solution"])
        parts = score_answer(sol.answer, row["solution"])
        assert set(RULES) <= set(parts)
        assert all(v == 1.0 for v in parts.values()), (fmt, row["id"], parts, sol.answer)
        assert sol.format == fmt and row["id"] == sol.id and [m["role"] for m in row["messages"]] == ["system", "user"]
    # the same prompts, images and answers as the SFT samples, step for step
    prompt = (lambda r: (json.dumps(r["messages"][:2], ensure_ascii=False), tuple(r["images"])))  # noqa: E731
    sft_rows = rows(sft)
    answers = Counter((prompt(r), r["messages"][2]["content"]) for r in sft_rows)
    assert Counter((prompt(r), read_solution(r["solution"]).answer) for r in got) == answers
    m_rl, m_sft = (json.loads((d / "manifest.json").read_text()) for d in (rl, sft))
    assert m_rl["samples"] == m_sft["samples"] and m_rl["dropped"] == m_sft["dropped"]
    assert json.loads((rl / "splits.json").read_text()) == json.loads((sft / "splits.json").read_text())
    assert len(json.loads((rl / "lengths.json").read_text())["train"]) == m_rl["samples"]["train"]
    assert (rl / "train_grpo.sh").is_file() and (rl / "sftdata_rewards.py").is_file() and not (rl / "train.sh").exists()


def test_the_solution_holds_the_ground_truth_in_the_formats_space(rl_run, tmp_path):
    out = tmp_path / "rl"
    export_run(rl_run, out, ExportOptions(format="qwen3-vl", rl=True, split_ratio=0, progress=False))
    clicks = [json.loads(r["solution"]) for r in rows(out) if json.loads(r["solution"])["action"]["type"] == "click"]
    boxed = [s for s in clicks if s["box_px"]]
    assert boxed
    for s in boxed:
        (w, h), (left, top, right, bottom) = s["screen"], s["box_px"]
        x, y = s["action"]["point"]
        assert left <= x < right and top <= y < bottom  # the point as the format says it is on its target
        grid = [round(left / (w - 1) * 999), round(top / (h - 1) * 999)]  # qwen3-vl's 999 grid
        assert s["box"][:2] == grid and all(0 <= v <= 999 for v in s["box"])
        assert {"format", "id", "source", "platform", "answer", "context"} <= set(s)
