"""What each command imports (read from ``sys.modules`` in a fresh interpreter, never timed): the LLM SDK only
where a command talks to an endpoint, matplotlib only where it draws, and ``--version`` none of the commands."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap

from sftdata.cli_base import COMMAND_MODULES

HEAVY = ("openai", "matplotlib", "tiktoken", "pyarrow", "cv2")

# a fresh interpreter runs command lines one after another and prints, after each, which heavy modules are loaded
PROBE = textwrap.dedent("""
    import contextlib, io, json, sys
    from sftdata.cli_base import main

    seen = {}
    for args in json.loads(sys.argv[1]):
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            code = main(args, standalone_mode=False, prog_name="sftdata")
        assert code in (None, 0), (args, code, out.getvalue()[-2000:])
        seen[" ".join(args)] = {"heavy": sorted(m for m in %r if m in sys.modules),
                                "commands_loaded": "sftdata.cli" in sys.modules}
    print("PROBE" + json.dumps(seen))
""" % (HEAVY,))


def probe(*command_lines: list[str]) -> dict[str, dict]:
    result = subprocess.run([sys.executable, "-c", PROBE, json.dumps(list(command_lines))], capture_output=True,
                            text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.rsplit("PROBE", 1)[1])


# a fresh interpreter imports each command module, sftdata.cli last, and prints which commands each one registered
REGISTERED = textwrap.dedent("""
    import importlib, json
    from sftdata.cli_base import main

    registered, seen = {}, set()
    for module in sorted(set(%r) - {"cli"}) + ["cli"]:
        importlib.import_module("sftdata." + module)
        registered.update((name, module) for name in set(main.commands) - seen)
        seen = set(main.commands)
    print("PROBE" + json.dumps(registered))
""" % (list(COMMAND_MODULES.values()),))


def test_every_command_is_registered_by_the_module_the_map_names():
    """The lazy group imports only the module the map names for a command: that module must register it (a
    command made from its stage class is registered where the builder is called)."""
    result = subprocess.run([sys.executable, "-c", REGISTERED], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    assert json.loads(result.stdout.rsplit("PROBE", 1)[1]) == COMMAND_MODULES


def test_version_imports_no_command():
    seen = probe(["--version"])
    assert seen["--version"] == {"heavy": [], "commands_loaded": False}


def test_no_command_help_imports_a_heavy_library():
    lines = [[name, "--help"] for name in COMMAND_MODULES]
    lines += [["ingest", kind, "--help"] for kind in ("androidcontrol", "annotated", "mind2web")]
    lines += [["review", kind, "--help"] for kind in ("export", "import", "push", "pull")]
    for line, loaded in probe(*lines).items():
        assert loaded["heavy"] == [], line


def test_the_offline_pipeline_imports_neither_the_sdk_nor_matplotlib(tmp_path):
    """sample -> ingest -> annotate (template) -> judge (rules) -> validate -> export -> summary import neither the
    OpenAI SDK nor matplotlib; report draws, so matplotlib comes in with it (and still no SDK)."""
    sample, run = str(tmp_path / "s.tfrecord.gz"), str(tmp_path / "run")
    steps = [["sample", sample, "--episodes", "2", "--size", "270x600"],
             ["ingest", "androidcontrol", sample, "--out", run, "--no-progress"],
             ["annotate", run, "--no-progress"], ["judge", run, "--no-progress"], ["validate", run],
             ["export", run, "--format", "qwen2.5-vl", "--out", str(tmp_path / "out"), "--no-progress"],
             ["summary", run], ["report", run, "--out", str(tmp_path / "report.html")]]
    seen = probe(*steps)
    for line, loaded in seen.items():
        expected = ["matplotlib"] if line.startswith("report") else []
        assert [m for m in loaded["heavy"] if m in ("openai", "matplotlib")] == expected, line
