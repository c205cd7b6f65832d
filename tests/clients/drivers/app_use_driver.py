"""Validate answers with app-use's own agent output model (run with the app-use virtualenv's Python).

As app-use's agent does before it asks the LLM: the action model from its controller's registry, then
``AgentOutput`` typed with it. app-use's action model ignores unknown action names (an unknown name validates to
an empty action), so an answer is accepted only when every item of its action list names exactly one registered
action with its parameters (``model_dump(exclude_unset=True)``, as the controller's ``act`` reads it) and an
``index`` addresses one of the listed elements.

stdin: JSON lines ``{"id", "answer", "elements"}``; stdout: ``{"id", "ok", "error", "read"}``.
"""
import logging
from importlib.metadata import version

logging.disable(logging.WARNING)

from app_use.agent.views import AgentOutput  # noqa: E402
from app_use.controller.service import Controller  # noqa: E402
from driver_io import registered_actions, serve  # noqa: E402

ACTIONS = Controller().registry.create_action_model()
OUTPUT = AgentOutput.type_with_custom_actions(ACTIONS)


def main() -> None:
    serve("app-use", version("app-use"),
          lambda row: registered_actions(OUTPUT.model_validate_json(row["answer"]), row, 0))


if __name__ == "__main__":
    main()
