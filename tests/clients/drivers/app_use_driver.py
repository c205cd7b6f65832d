"""Validate answers with app-use's own agent output model, then execute them with its controller on a recording
phone (run with the app-use virtualenv's Python).

As app-use's agent does: the action model from its controller's registry, then ``AgentOutput`` typed with it.
app-use's action model ignores unknown action names (an unknown name validates to an empty action), so an answer
is accepted only when every item of its action list names exactly one registered action with its parameters
(``model_dump(exclude_unset=True)``, as the controller's ``act`` reads it) and an ``index`` addresses one of the
listed elements. Each accepted answer then runs as the agent's ``multi_act`` runs it: ``Controller.act`` per
action (the registry's ``execute_action``), until one is done or fails, against app-use's own ``App`` whose
selector map holds the listed elements (highlight index = listed index, the element's box as its viewport
coordinates) and whose Appium driver records what the phone would do (``appium_stub``).

stdin: JSON lines ``{"id", "answer", "elements", "screen"}``; stdout: ``{"id", "ok", "error", "read"}`` with
``read`` = ``{"actions": [{name: params}], "executed": [operations]}``.
"""
import asyncio
import logging
from importlib.metadata import version

logging.disable(logging.CRITICAL)

from app_use.agent.views import AgentOutput  # noqa: E402
from app_use.app.app import App  # noqa: E402
from app_use.app.gestures import GestureService  # noqa: E402
from app_use.controller.service import Controller  # noqa: E402
from app_use.nodes.app_node import AppElementNode, AppState, CoordinateSet, ViewportInfo  # noqa: E402
from appium_stub import RecordingDevice  # noqa: E402
from driver_io import act_all, registered_actions, serve  # noqa: E402

CONTROLLER = Controller()
OUTPUT = AgentOutput.type_with_custom_actions(CONTROLLER.registry.create_action_model())


def phone(screen: dict) -> tuple[App, RecordingDevice]:
    """app-use's ``App`` as it stands once connected (``App()`` itself opens an Appium session), on a recording
    device, with the listed elements as its selector map."""
    device = RecordingDevice(screen["width"], screen["height"])
    app = App.__new__(App)
    app.platform_name, app.driver, app.timeout, app.element_tree_builder = "Android", device, 30, None
    app.gesture_service = GestureService(device)
    root = AppElementNode(tag_name="hierarchy")
    nodes = {}
    for index, item in enumerate(screen["listed"]):
        left, top, right, bottom = item["box"]
        nodes[index] = AppElementNode(
            tag_name=item["class"], text=item["text"] or None, parent=root, is_interactive=True,
            is_in_viewport=True, highlight_index=index, viewport_info=ViewportInfo(screen["width"], screen["height"]),
            viewport_coordinates=CoordinateSet(left, top, right - left, bottom - top))
    root.children = list(nodes.values())
    app._cached_state = AppState(element_tree=root, selector_map=nodes)
    return app, device


def read(row: dict) -> dict:
    output = OUTPUT.model_validate_json(row["answer"])
    actions = registered_actions(output, row, 0)
    app, device = phone(row["screen"])
    reported = asyncio.run(act_all(lambda action: CONTROLLER.act(action, app), output.action))
    return {"actions": actions, "executed": device.ops + reported}


def main() -> None:
    serve("app-use", version("app-use"), read)


if __name__ == "__main__":
    main()
