"""Read Qwen answers as Qwen-Agent does, then check each call against the Qwen cookbooks' tools (run with the
client virtualenv's Python).

The ``<tool_call>`` blocks are read by Qwen-Agent's own function-call post-processing (``NousFnCallPrompt``, the
hermes template Qwen2.5-VL and Qwen3-VL use); each call's arguments go through Qwen-Agent's ``BaseTool``
verification against the tool's parameter schema, and the arguments its action needs are checked as the
cookbook tool's ``call`` reads them. The tools are those of the official cookbooks
(``cookbooks/utils/agent_function_call.py`` of QwenLM/Qwen2.5-VL and QwenLM/Qwen3-VL): ``mobile_use`` for
phones and ``computer_use`` for pages, described here by their action lists and parameter types.

stdin: JSON lines ``{"id", "answer", "family"}`` (``qwen2.5-vl`` or ``qwen3-vl``); stdout: ``{"id", "ok",
"error", "read"}`` with ``read`` = ``{"name", "arguments"}`` of the one call.
"""
from importlib.metadata import version

from qwen_agent.llm.fncall_prompts.nous_fncall_prompt import NousFnCallPrompt
from qwen_agent.llm.schema import ASSISTANT, ContentItem, Message
from qwen_agent.tools.base import BaseTool
from driver_io import serve

_TYPES = {"coordinate": "array", "coordinate2": "array", "keys": "array", "text": "string", "time": "number",
          "pixels": "number"}
_STATUS = {"type": "string", "enum": ["success", "failure"]}
_BUTTON = {"type": "string", "enum": ["Back", "Home", "Menu", "Enter"]}
# action -> the arguments the cookbook tool's ``call`` reads for it
MOBILE = {"key": {"text"}, "click": {"coordinate"}, "long_press": {"coordinate", "time"},
          "swipe": {"coordinate", "coordinate2"}, "type": {"text"}, "system_button": {"button"}, "open": {"text"},
          "wait": {"time"}, "terminate": {"status"}}
COMPUTER_25 = {"key": {"keys"}, "type": {"text"}, "mouse_move": {"coordinate"}, "left_click": set(),
               "left_click_drag": {"coordinate"}, "right_click": set(), "middle_click": set(), "double_click": set(),
               "scroll": {"pixels"}, "wait": {"time"}, "terminate": {"status"}}
COMPUTER_3 = {**COMPUTER_25, "triple_click": set(), "hscroll": {"pixels"}, "answer": {"text"}}
TOOLS = {("qwen2.5-vl", "mobile_use"): MOBILE, ("qwen3-vl", "mobile_use"): MOBILE,
         ("qwen2.5-vl", "computer_use"): COMPUTER_25, ("qwen3-vl", "computer_use"): COMPUTER_3}


def tool(family: str, name: str) -> BaseTool:
    actions = TOOLS[(family, name)]
    props = {"action": {"type": "string", "enum": sorted(actions)}, "status": _STATUS}
    props.update({key: {"type": kind} for key, kind in _TYPES.items()})
    if name == "mobile_use":
        props["button"] = _BUTTON

    class CookbookTool(BaseTool):
        description = f"{name} as in the Qwen cookbooks"
        parameters = {"type": "object", "properties": props, "required": ["action"]}

        def call(self, params, **kwargs):
            params = self._verify_json_format_args(params)  # Qwen-Agent's schema check
            missing = actions[params["action"]] - set(params)
            if missing:
                raise KeyError(f"action {params['action']!r} needs {sorted(missing)}")
            return params

    CookbookTool.name = name
    return CookbookTool()


def read(row: dict) -> dict:
    out = NousFnCallPrompt().postprocess_fncall_messages([Message(ASSISTANT, [ContentItem(text=row["answer"])])])
    calls = [m.function_call for m in out if m.function_call]
    if len(calls) != 1:
        raise ValueError(f"{len(calls)} tool calls read, the format says one")
    call = calls[0]
    if (row["family"], call.name) not in TOOLS:
        raise ValueError(f"no tool {call.name!r} for {row['family']}")
    arguments = tool(row["family"], call.name).call(call.arguments)
    return {"name": call.name, "arguments": arguments}


def main() -> None:
    serve("qwen-agent", version("qwen-agent"), read)


if __name__ == "__main__":
    main()
