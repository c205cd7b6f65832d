"""Validate answers with browser-use's own agent output model (run with a browser-use virtualenv's Python).

The model is built the way browser-use's agent builds it before it asks the LLM: the action model from the
registry of its tools (``Tools`` from 0.7 on, ``Controller`` in 0.1.x), then ``AgentOutput`` typed with those
actions. An answer is accepted when the model validates it and every item of its action list names exactly one
registered action with its parameters, the way the agent's ``act`` reads it (``model_dump(exclude_unset=True)``),
and an ``index`` parameter addresses one of the listed elements.

stdin: JSON lines ``{"id", "answer", "elements"}`` (how many elements the prompt listed); stdout: ``{"id", "ok",
"error", "read"}`` with ``read`` = the actions as ``[{name: params}]``.
"""
import json
import logging
import os
import sys
from importlib.metadata import version

os.environ.setdefault("ANONYMIZED_TELEMETRY", "false")
os.environ.setdefault("BROWSER_USE_LOGGING_LEVEL", "error")
logging.disable(logging.WARNING)

from browser_use.agent.views import AgentOutput  # noqa: E402

try:  # 0.7 and later
    from browser_use.tools.service import Tools as Registry
    FIRST_INDEX = 1
except ImportError:  # 0.1.x
    from browser_use.controller.service import Controller as Registry
    FIRST_INDEX = 0

ACTIONS = Registry().registry.create_action_model()
OUTPUT = AgentOutput.type_with_custom_actions(ACTIONS)


def read(row: dict) -> list[dict]:
    output = OUTPUT.model_validate_json(row["answer"])
    actions = []
    for item in output.action:
        called = {name: params for name, params in item.model_dump(exclude_unset=True).items() if params is not None}
        if len(called) != 1:
            raise ValueError(f"an action item names {len(called)} registered actions: {item!r}")
        (name, params), = called.items()
        index = params.get("index") if isinstance(params, dict) else None
        if index is not None and not FIRST_INDEX <= index < FIRST_INDEX + row["elements"]:
            raise ValueError(f"{name}: index {index} is not one of the {row['elements']} listed elements")
        actions.append({name: params})
    return actions


def main() -> None:
    print(json.dumps({"client": "browser-use", "version": version("browser-use")}), flush=True)
    for line in sys.stdin:
        row = json.loads(line)
        try:
            out = {"id": row["id"], "ok": True, "error": None, "read": read(row)}
        except Exception as exc:  # the client's refusal, whatever its kind, is the finding
            out = {"id": row["id"], "ok": False, "error": f"{type(exc).__name__}: {str(exc)[:500]}", "read": None}
        print(json.dumps(out, ensure_ascii=False), flush=True)


if __name__ == "__main__":
    main()
