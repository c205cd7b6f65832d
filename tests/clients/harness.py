"""Every exported answer of the demo through the real client of its format: tried, accepted, read as meant,
executed as recorded.

The demo's inputs are generated as ``make demo`` generates them (same generators, same seeds), reconstructed by
the template backend and exported in every format. Each answer then goes to the clients that consume its format,
each in its own virtualenv (``make clients``), through a driver in ``drivers/`` that uses the client's own
parser or models, and, where the client has an executor, runs the answer through it on a recording device or
browser; ``execution.py`` compares what it did with the step the answer was exported from:

=====================  ==================================================  =========================================
client                 what reads (and executes) the answer                formats
=====================  ==================================================  =========================================
ui-tars 0.5.1          ``ui_tars.action_parser``                           ui-tars
qwen-agent 0.0.34      Qwen-Agent's ``<tool_call>`` parsing + cookbook      qwen2.5-vl, qwen3-vl
                       tools' schemas
browser-use 0.1.36     its ``AgentOutput`` + controller (``act``)           browser-use, browser-use-0.1
browser-use 0.13.14    its ``AgentOutput`` + tools (``act``)                browser-use, browser-use-0.13
app-use 0.0.3          its ``AgentOutput`` + controller (``act``)           mobile-agent, app-use
Android-Lab, MobileRL  their executors' path to ``exec`` (not on an index)  androidlab, androidlab-fenced
=====================  ==================================================  =========================================

``python tests/clients/harness.py`` prints the table of the README (``make clients-table``).
"""
from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
VENVS = ROOT / ".venv-clients"
DRIVERS = Path(__file__).with_name("drivers")
sys.path.insert(0, str(DRIVERS))

import execution  # noqa: E402 (beside this file)

DEMO_CONFIG = """run_dir = "run"
workers = 2
[[sources]]
type = "androidcontrol"
paths = ["sample.tfrecord.gz"]
[[sources]]
type = "mind2web"
paths = ["mind2web.parquet"]
[[sources]]
type = "annotated"
root = "web-annotated"
[annotate]
backend = "template"
[report]
enabled = false
"""


@dataclass
class Answer:
    id: str
    format: str
    answer: str
    user: str
    width: int
    height: int
    recorded: StepContext  # the step the answer was exported from

    @property
    def elements(self) -> int:
        """How many indexed elements the prompt listed."""
        return len(re.findall(r"^\[\d+\]<", self.user, re.M))


@dataclass
class Trial:
    format: str
    client: str
    version: str = ""
    tried: int = 0
    accepted: int = 0
    agreed: int = 0  # accepted and read as the answer means it
    executed: int | None = None  # accepted and executed as the recorded step did (clients with an executor)
    failures: list[str] = field(default_factory=list)
    reasons: Counter = field(default_factory=Counter)


def build_demo(workdir: Path) -> Path:
    """The demo's run (inputs generated as ``make demo`` does), annotated by the template backend."""
    from click.testing import CliRunner

    from sftdata.cli import main

    runner = CliRunner()
    for args in (["sample", str(workdir / "sample.tfrecord.gz"), "--episodes", "12", "--seed", "0"],
                 ["sample", str(workdir / "mind2web.parquet"), "--mind2web", "--seed", "0"],
                 ["sample", str(workdir / "web-annotated"), "--annotated-web", "--seed", "0"]):
        result = runner.invoke(main, args)
        assert result.exit_code == 0, result.output
    (workdir / "demo.toml").write_text(DEMO_CONFIG)
    result = runner.invoke(main, ["run", str(workdir / "demo.toml"), "--no-progress"])
    assert result.exit_code == 0, result.output
    return workdir / "run"


def exported_answers(run_dir: Path, out: Path, formats: list[str]) -> tuple[dict[str, list[Answer]], dict[str, dict]]:
    """Export the run in each format (as ``sftdata export`` does) and read every sample's answer back; also the
    steps each export dropped, by reason (its manifest's ``dropped``)."""
    from PIL import Image

    from sftdata.export.stage import ExportOptions, export_run
    from sftdata.rundir import RunDir

    answers: dict[str, list[Answer]] = {}
    dropped: dict[str, dict] = {}
    for name in formats:
        target = out / name
        manifest = export_run(RunDir(run_dir), target, ExportOptions(format=name, split_ratio=0.0,
                                                                     progress=False)).manifest
        rows, recorded = [], execution.recorded_steps(run_dir, name)
        for shard in manifest["shards"]["train"]:
            for n, line in enumerate((target / shard).read_text(encoding="utf-8").splitlines()):
                row = json.loads(line)
                by_role = {m["role"]: m["content"] for m in row["messages"]}
                with Image.open(target / row["images"][-1]) as image:
                    width, height = image.size
                rows.append(Answer(f"{name}:{shard}:{n}", name, by_role["assistant"], by_role["user"], width, height,
                                   recorded[(by_role["user"], by_role["assistant"])]))
        answers[name] = rows
        dropped[name] = manifest.get("dropped", {})
    return answers, dropped


def _driver(venv: str | None, driver: str, rows: list[dict]) -> tuple[str, list[dict]]:
    python = sys.executable if venv is None else str(VENVS / venv / "bin" / "python")
    proc = subprocess.run([python, str(DRIVERS / driver)], input="".join(json.dumps(r) + "\n" for r in rows),
                          capture_output=True, text=True, timeout=600)
    lines = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    if proc.returncode != 0 or not lines or len(lines) != len(rows) + 1:
        raise RuntimeError(f"{driver} in {venv} failed (exit {proc.returncode}): {proc.stderr[-2000:]}")
    head = lines[0]
    return f"{head['client']} {head['version']}", lines[1:]


# --- what each client must read for an answer to count as "read as meant" --------------------------------------
def _ui_tars_agrees(answer: Answer, read: dict) -> bool:
    from sftdata.formats import coords

    call = re.search(r"^Action: (\w+)\((.*)\)$", answer.answer, re.M)
    if call is None or read["type"] != call.group(1):
        return False
    size = (answer.width, answer.height)  # ui-tars writes pixels of the image the ui-tars family sees
    ours = [coords.from_resized((int(x), int(y)), size, "ui-tars")
            for x, y in re.findall(r"<point>(\d+) (\d+)</point>", call.group(2))]
    theirs = list(read["points"].values())
    tolerance = 1.5 * answer.width / coords.resized_size(size, "ui-tars")[0]
    if len(ours) != len(theirs) or any(abs(a - b) > tolerance for p, q in zip(ours, theirs) for a, b in zip(p, q)):
        return False
    text = re.search(r"content='((?:[^'\\]|\\.)*)'", call.group(2))
    return text is None or read["inputs"].get("content") == ast.literal_eval(f"'{text.group(1)}'")


def _qwen_agrees(answer: Answer, read: dict) -> bool:
    blocks = re.findall(r"<tool_call>\n(.*?)\n</tool_call>", answer.answer, re.S)
    return len(blocks) == 1 and json.loads(blocks[0]) == {"name": read["name"], "arguments": read["arguments"]}


def _json_actions_agree(answer: Answer, read: dict) -> bool:
    """The client's actions are the answer's, parameter for parameter (its defaults filled in aside)."""
    ours, read = json.loads(answer.answer)["action"], read["actions"]
    return len(ours) == len(read) and all(
        set(a) == set(b) and all(b[n].get(k) == v for n in a for k, v in a[n].items()) for a, b in zip(ours, read))


def _exec_agrees(answer: Answer, read: dict) -> bool:
    read = read["call"]
    code = re.search(r"((?:do|finish)\(.*\))", answer.answer).group(1)
    call = ast.parse(code, mode="eval").body
    args = {kw.arg: ast.literal_eval(kw.value) for kw in call.keywords}
    if call.func.id == "finish":
        return read == {"operation": "finish", "message": args.get("message")}
    action, element = args.pop("action"), args.pop("element", None)
    same_box = element is None and read["element"] is None or (
        read["element"] is not None and all(abs(a - b) < 0.5 for a, b in zip(element, read["element"])))
    return read["action"] == action and same_box and read["kwargs"] == args


@dataclass(frozen=True)
class Client:
    name: str
    venv: str | None  # under .venv-clients; None: this Python (the executors' path needs nothing installed)
    driver: str
    formats: tuple[str, ...]
    agrees: object
    extra: dict = field(default_factory=dict)
    source: str | None = None  # for a client run from its source's path rather than installed: repo@commit
    executes: bool = False  # the driver also runs the answer through the client's executor (read["executed"])

    def row(self, answer: Answer) -> dict:
        family = "qwen3-vl" if answer.format == "qwen3-vl" else "qwen2.5-vl"
        screen = {"screen": execution.screen(answer.recorded)} if self.executes else {}
        return {"id": answer.id, "answer": answer.answer, "width": answer.width, "height": answer.height,
                "family": family, "elements": answer.elements, **screen, **self.extra}


CLIENTS = (
    Client("ui-tars", "agents", "ui_tars_driver.py", ("ui-tars",), _ui_tars_agrees),
    Client("qwen-agent", "agents", "qwen_agent_driver.py", ("qwen2.5-vl", "qwen3-vl"), _qwen_agrees),
    Client("browser-use 0.1", "browser-use-0.1", "browser_use_driver.py", ("browser-use", "browser-use-0.1"),
           _json_actions_agree, executes=True),
    Client("browser-use 0.13", "browser-use-0.13", "browser_use_driver.py", ("browser-use", "browser-use-0.13"),
           _json_actions_agree, executes=True),
    Client("app-use", "app-use", "app_use_driver.py", ("mobile-agent", "app-use"), _json_actions_agree,
           executes=True),
    Client("Android-Lab", None, "android_lab_driver.py", ("androidlab", "androidlab-fenced"), _exec_agrees,
           {"path": "android-lab"}, "Android-Lab executor path (THUDM/Android-Lab@373fc1d)", executes=True),
    Client("MobileRL", None, "android_lab_driver.py", ("androidlab", "androidlab-fenced"), _exec_agrees,
           {"path": "mobilerl"}, "MobileRL executor path (THUDM/MobileRL@82f3b7e), pixel boxes", executes=True),
    Client("MobileRL relative", None, "android_lab_driver.py", ("androidlab", "androidlab-fenced"), _exec_agrees,
           {"path": "mobilerl", "relative": True},
           "MobileRL executor path (THUDM/MobileRL@82f3b7e), shipped config: is_relative_bbox", executes=True),
)
FORMATS = sorted({f for c in CLIENTS for f in c.formats})


def installed(client: Client) -> bool:
    return client.venv is None or (VENVS / client.venv / "bin" / "python").exists()


def try_clients(answers: dict[str, list[Answer]], clients=CLIENTS) -> list[Trial]:
    trials = []
    for client in clients:
        for name in client.formats:
            rows = answers[name]
            version, results = _driver(client.venv, client.driver, [client.row(a) for a in rows])
            trial = Trial(name, client.name, client.source or version, tried=len(rows),
                          executed=0 if client.executes else None)
            for answer, result in zip(rows, results):
                if result["ok"]:
                    trial.accepted += 1
                    if client.agrees(answer, result["read"]):
                        trial.agreed += 1
                    else:
                        trial.reasons["read_otherwise"] += 1
                        trial.failures.append(f"{answer.id}: read otherwise: {result['read']} <- {answer.answer!r}")
                    if client.executes:
                        _count_execution(trial, answer, result["read"]["executed"])
                else:
                    trial.reasons[result["error"].split(":")[0]] += 1
                    trial.failures.append(f"{answer.id}: {result['error'][:300]} <- {answer.answer[-300:]!r}")
            trials.append(trial)
    return trials


def _count_execution(trial: Trial, answer: Answer, executed: list[dict]) -> None:
    otherwise = execution.differs(answer.recorded, executed)
    if otherwise is None:
        trial.executed += 1
    else:
        trial.reasons["executed_otherwise"] += 1
        trial.failures.append(f"{answer.id}: executed otherwise: {otherwise}")


def table(trials: list[Trial], dropped: dict[str, dict]) -> str:
    """The README's table: per format and client, answers tried, accepted, read as meant, executed as recorded
    (``-``: a parser without an executor) and refused (why); and the steps the export of that format dropped."""
    lines = ["| format | client | answers | accepted | read as meant | executed as recorded | refusals | "
             "steps dropped at export (reason) |", "|---|---|---|---|---|---|---|---|"]
    for t in trials:
        why = ", ".join(f"{k} {v}" for k, v in t.reasons.most_common()) or "-"
        drops = ", ".join(f"{k} {v}" for k, v in sorted(dropped[t.format].items())) or "-"
        executed = "-" if t.executed is None else t.executed
        lines.append(f"| {t.format} | {t.version} | {t.tried} | {t.accepted} | {t.agreed} | {executed} | {why} | "
                     f"{drops} |")
    return "\n".join(lines)


def main() -> int:
    missing = [c.name for c in CLIENTS if not installed(c)]
    if missing:
        print(f"not installed (make clients): {', '.join(missing)}", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory(prefix="sftdata-clients-") as tmp:
        run_dir = build_demo(Path(tmp))
        answers, dropped = exported_answers(run_dir, Path(tmp) / "export", FORMATS)
        print(table(try_clients(answers), dropped))
    return 0


if __name__ == "__main__":
    sys.exit(main())
