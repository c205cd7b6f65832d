"""Validate answers with app-use's own agent output model (run with the app-use virtualenv's Python).

As app-use's agent does before it asks the LLM: the action model from its controller's registry, then
``AgentOutput`` typed with it. app-use's action model ignores unknown action names (an unknown name validates to
an empty action), so an answer is accepted only when every item of its action list names exactly one registered
action with its parameters (``model_dump(exclude_unset=True)``, as the controller's ``act`` reads it) and an
``index`` addresses one of the listed elements.

stdin: JSON lines ``{"id", "answer", "elements"}``; stdout: ``{"id", "ok", "error", "read"}``.
"""
import json
import logging
import sys
from importlib.metadata import version

logging.disable(logging.WARNING)

from app_use.agent.views import AgentOutput  # noqa: E402
from app_use.controller.service import Controller  # noqa: E402

ACTIONS = Controller().registry.create_action_model()
OUTPUT = AgentOutput.type_with_custom_actions(ACTIONS)


def read(row: dict) -> list[dict]:
    output = OUTPUT.model_validate_json(row["answer"])
    actions = []
    for item in output.action:
        called = {name: params for name, params in item.model_dump(exclude_unset=True).items() if params is not None}
        if len(called) != 1:
            raise ValueError(f"an action item names {len(called)} registered actions")
        (name, params), = called.items()
        index = params.get("index") if isinstance(params, dict) else None
        if index is not None and not 0 <= index < row["elements"]:
            raise ValueError(f"{name}: index {index} is not one of the {row['elements']} listed elements")
        actions.append({name: params})
    return actions


def main() -> None:
    print(json.dumps({"client": "app-use", "version": version("app-use")}), flush=True)
    for line in sys.stdin:
        row = json.loads(line)
        try:
            out = {"id": row["id"], "ok": True, "error": None, "read": read(row)}
        except Exception as exc:  # the client's refusal, whatever its kind, is the finding
            out = {"id": row["id"], "ok": False, "error": f"{type(exc).__name__}: {str(exc)[:500]}", "read": None}
        print(json.dumps(out, ensure_ascii=False), flush=True)


if __name__ == "__main__":
    main()
