"""Validate answers with browser-use's own agent output model (run with a browser-use virtualenv's Python).

The model is built the way browser-use's agent builds it before it asks the LLM: the action model from the
registry of its tools (``Tools`` from 0.7 on, ``Controller`` in 0.1.x), then ``AgentOutput`` typed with those
actions. An answer is accepted when the model validates it and every item of its action list names exactly one
registered action with its parameters, the way the agent's ``act`` reads it (``model_dump(exclude_unset=True)``),
and an ``index`` parameter addresses one of the listed elements.

stdin: JSON lines ``{"id", "answer", "elements"}`` (how many elements the prompt listed); stdout: ``{"id", "ok",
"error", "read"}`` with ``read`` = the actions as ``[{name: params}]``.
"""
import logging
import os
from importlib.metadata import version

os.environ.setdefault("ANONYMIZED_TELEMETRY", "false")
os.environ.setdefault("BROWSER_USE_LOGGING_LEVEL", "error")
logging.disable(logging.WARNING)

from browser_use.agent.views import AgentOutput  # noqa: E402
from driver_io import registered_actions, serve  # noqa: E402

try:  # 0.7 and later
    from browser_use.tools.service import Tools as Registry
    FIRST_INDEX = 1
except ImportError:  # 0.1.x
    from browser_use.controller.service import Controller as Registry
    FIRST_INDEX = 0

ACTIONS = Registry().registry.create_action_model()
OUTPUT = AgentOutput.type_with_custom_actions(ACTIONS)


def main() -> None:
    serve("browser-use", version("browser-use"),
          lambda row: registered_actions(OUTPUT.model_validate_json(row["answer"]), row, FIRST_INDEX))


if __name__ == "__main__":
    main()
