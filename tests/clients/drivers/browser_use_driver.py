"""Validate answers with browser-use's own agent output model, then execute them with its controller (0.1.x) or
tools (0.7 and later) on a recording browser (run with a browser-use virtualenv's Python).

The model is built the way browser-use's agent builds it before it asks the LLM: the action model from the
registry of its tools (``Tools`` from 0.7 on, ``Controller`` in 0.1.x), then ``AgentOutput`` typed with those
actions. An answer is accepted when the model validates it and every item of its action list names exactly one
registered action with its parameters, the way the agent's ``act`` reads it (``model_dump(exclude_unset=True)``),
and an ``index`` parameter addresses one of the listed elements. Each accepted answer then runs as the agent's
``multi_act`` runs it: the controller's or tools' ``act`` per action (the registry's ``execute_action``), until
one is done or fails, on a browser whose selector map holds the listed elements and which records what the page
would do (``browser_stub``).

stdin: JSON lines ``{"id", "answer", "elements", "screen"}`` (how many elements the prompt listed, and the
listed elements); stdout: ``{"id", "ok", "error", "read"}`` with ``read`` = ``{"actions": [{name: params}],
"executed": [operations]}``.
"""
import asyncio
import logging
import os
import tempfile
from importlib.metadata import version

os.environ.setdefault("ANONYMIZED_TELEMETRY", "false")
os.environ.setdefault("BROWSER_USE_LOGGING_LEVEL", "error")
logging.disable(logging.CRITICAL)

from browser_use.agent.views import AgentOutput  # noqa: E402
from browser_stub import RecordingContext, RecordingSession  # noqa: E402
from driver_io import act_all, registered_actions, serve  # noqa: E402

try:  # 0.7 and later
    from browser_use.filesystem.file_system import FileSystem
    from browser_use.tools.service import Tools as Registry
    FIRST_INDEX = 1
except ImportError:  # 0.1.x
    from browser_use.controller.service import Controller as Registry
    FIRST_INDEX = 0

REGISTRY = Registry()
OUTPUT = AgentOutput.type_with_custom_actions(REGISTRY.registry.create_action_model())
FILES = tempfile.TemporaryDirectory(prefix="browser-use-files-")


async def execute(actions: list, screen: dict) -> list[dict]:
    if FIRST_INDEX:
        browser = RecordingSession(screen, FIRST_INDEX)
        files = FileSystem(FILES.name)
        reported = await act_all(lambda action: REGISTRY.act(action, browser, file_system=files), actions)
        await browser.event_bus.stop()
    else:
        browser = RecordingContext(screen, FIRST_INDEX)
        reported = await act_all(lambda action: REGISTRY.act(action, browser), actions)
    return browser.ops + reported


def read(row: dict) -> dict:
    output = OUTPUT.model_validate_json(row["answer"])
    actions = registered_actions(output, row, FIRST_INDEX)
    return {"actions": actions, "executed": asyncio.run(execute(output.action, row["screen"]))}


def main() -> None:
    serve("browser-use", version("browser-use"), read)


if __name__ == "__main__":
    main()
