"""Step numbers (issue 11): machine-readable step indexes are 0-based everywhere (episodes.jsonl ``index``,
sample ``step``); every text a person reads (inspect captions, reject details, CLI messages, prompts) says the
1-based "step N"."""
from __future__ import annotations

import json
import re
from pathlib import Path

from PIL import Image

from sftdata.formats import CannotExpress, StepContext, load_all
from sftdata.ingest import IngestOptions, ingest_annotated
from sftdata.inspect import caption_lines
from sftdata.io import iter_jsonl
from sftdata.model import Action, Episode, Screenshot, Step, check_episode
from sftdata.rundir import RunDir

from accounting import assert_accounted

PACKAGE = Path(__file__).resolve().parents[2] / "sftdata"
SHOT = Screenshot("0" * 64, "images/x.png", 1080, 2400)
# "step {x}" / "Step {x}" / "截图 {x}" / "item {x}" / "第 {x} 步" in an f-string, where x is a bare index (ctx.index,
# step.index, i, idx, record["index"]): a 0-based number printed for people. "{ctx.index + 1}" is right.
NUMBERED = re.compile(r"(?i)\b(?:step|item|screenshot|action)\s\{([^}]*)\}"
                      r"|截图\s?\{([^}]*)\}|第\s?\{([^}]*)\}\s?[步项张]")
INDEX = re.compile(r"""^(?:[\w.]*\.)?(?:index|i|idx|j|k)$|\[['"]index['"]\]$""")


def test_every_printed_step_number_in_the_package_is_one_based():
    wrong = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for m in NUMBERED.finditer(line):
                expr = next(g for g in m.groups() if g is not None).replace(" ", "")
                if INDEX.search(expr):
                    wrong.append(f"{path.relative_to(PACKAGE.parent)}:{number}: {m.group()}")
    assert not wrong, "0-based step numbers in human-facing text:\n" + "\n".join(wrong)


def test_inspect_labels_the_first_frame_step_1():
    assert caption_lines(0, Action("back"), "返回")[0].startswith("step 1 ")
    assert caption_lines(4, Action("done"), None)[0].startswith("step 5 ")


def test_structural_problems_name_one_based_steps():
    steps = [Step(0, SHOT, Action("done")), Step(1, SHOT, Action("back"))]
    assert check_episode(Episode("e", "x", "g", steps)) == ["step 1: done before the last step",
                                                            "step 2: last action is back, not done"]


def _frame(path: Path) -> None:
    Image.new("RGB", (100, 200), (210, 210, 210)).save(path)


def test_ingest_keeps_0_based_indexes_and_rejects_say_1_based_steps(tmp_path):
    root = tmp_path / "raw"
    for name, actions in {"good": ["BACK", "DONE"], "bad": ["BACK", "CLICK [5000,5]", "DONE"]}.items():
        (root / name).mkdir(parents=True)
        for i in range(len(actions)):
            _frame(root / name / f"{i:03d}.png")
        (root / name / "task.json").write_text(json.dumps({"goal": "g", "marked": False, "actions": actions}),
                                               encoding="utf-8")
    run = RunDir(tmp_path / "run")
    ingest_annotated(root, run, IngestOptions(), progress=False)
    (episode,) = list(run.episode_records())
    assert [s["index"] for s in episode["steps"]] == [0, 1]
    (reject,) = list(iter_jsonl(run.rejects_path))
    assert reject["reason"] == "point_outside_screen" and reject["detail"].startswith("step 2: "), reject
    assert_accounted(run.path, inputs=2)


def test_a_format_that_cannot_express_the_first_step_says_step_1():
    episode = Episode("e", "x", "g", [Step(0, SHOT, Action("click", point=(5, 5))), Step(1, SHOT, Action("done"))])
    details = []
    for name, fmt in load_all().items():
        try:
            fmt.render(StepContext(episode, 0, items=None))
        except CannotExpress as exc:
            details.append((name, exc.detail))
    assert details, "no format refuses an unannotated step"
    for name, detail in details:
        assert re.search(r"\bstep 1\b", detail) and not re.search(r"\bstep 0\b", detail), (name, detail)
