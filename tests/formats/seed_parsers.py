"""Answer parsers written from the seed texts alone, one per agent format (never the formats' own ``parse``).

Each ``parse_<format>(answer, system, user)`` returns ``(action name, args)`` in the seed's own vocabulary and
raises :class:`SeedGrammarError` on anything its seed does not allow. ``system`` and ``user`` are the sample's
prompt and user message: some seeds tie the answer to them (the screen resolution the Qwen tool declares, the
element indexes and boxes the user message lists).

* ``react-zh`` - seed 002 "Output Format": one JSON object ``{"reasoning", "function": {"name", "parameters"}}``
  with seed 002's six functions and their required parameters (``swipe.direction`` in UP/DOWN/LEFT/RIGHT),
  plus the three functions the project adds for AndroidControl (``press_back``, ``press_home``, ``wait``, no
  parameters): :data:`REACT_EXTENSIONS`.
* ``qwen2.5-vl`` / ``qwen3-vl`` - seed 004 F.2 / F.3 "Response format": exactly ``Thought:`` (one concise
  sentence), ``Action:`` (a short imperative, one sentence), one ``<tool_call>`` block with
  ``{"name": "mobile_use", "arguments": {...}}``, nothing else; arguments per the tool schema (F.3 has no
  ``key``; its ``open`` comes from Qwen3-VL's own cookbook tool and must be declared in the prompt's tool),
  coordinates inside the declared ``{width}x{height}`` (999x999 for F.3).
* ``ui-tars`` - seed 004 F.4: ``Thought: ...`` then a last line ``Action: <call>`` with a call of the Action
  Space, written as there (single-quoted strings, ``'<point>x y</point>'``).
* ``mobile-agent`` - seed 000 "Response Rules": one JSON object ``{"current_state": {"evaluation_previous_goal",
  "memory", "next_goal"}, "action": [{name: params}]}``; evaluation starts with Success/Failed/Unknown; the
  actions the seed names (``tap``/``enter_text`` by listed index, ``scroll``, ``swipe``, ``extract_content``,
  ``done``, go back, wait) plus the format's declared extras (:data:`MOBILE_EXTENSIONS`); an index must be
  listed in the user message's ``[index]<type> 'text'`` lines with a non-empty text ("Element description or
  visible text"), and ``enter_text`` must address a field marked "(text input - use enter_text action)".
* ``gui-agent-zh`` - seed 001 "输出格式（严格 JSON）": keys status/description/target/action{type, coordinates,
  text}; status in completed|in_progress|failed; type in the seed's enum; ``[x, y]`` or ``[[x1, y1], [x2, y2]]``
  for drag; ``[0, 0]`` only (and always) for wait/completed/failed; ``target`` "明确无歧义" (non-empty) wherever
  the action has a place, "页面正在加载" for a loading wait; ``description`` a concise one-line description.
* ``androidlab`` - seed 004 F.1: ``<think>...</think>`` then ``<answer>`` with ONE line of code: ``do(action=
  "Tap"|"Long Press", element=[x1, y1, x2, y2])``, ``do(action="Type", text=...)``, ``do(action="Swipe",
  direction=..., dist=..., element=...)``, ``do(action="Launch", app=...)``, ``do(action="Back")`` or
  ``finish(message=...)``; an element box must be one the user message lists ("choose one element from the
  current state") and lie on the screen.
* ``browser-use`` - seed 003 "RESPONSE FORMAT": one JSON object ``{"current_state": {"page_summary",
  "evaluation_previous_goal", "memory", "next_goal"}, "action": [...]}``; evaluation starts with
  Success/Failed/Unknown; the action list holds 1 to 10 items ("use maximum 10 actions per sequence"), each an
  object with exactly one action name ("only one action name per item") from the actions the seed names
  (``click_element``, ``input_text``, ``select_dropdown_option``, ``scroll_down``/``scroll_up``, ``go_to_url``,
  ``go_back``, ``open_new_tab``, ``extract_page_content``, ``done``); an ``index`` must be one the user
  message's ``[index]<element_type>element_text</element_type>`` lines list ("Only use indexes that exist in
  the provided element list"); ``done`` comes last ("Use the done action as the last action").
"""
from __future__ import annotations

import ast
import json
import re


class SeedGrammarError(ValueError):
    """The answer breaks its seed's output grammar."""


def _fail(what: str, text: str) -> SeedGrammarError:
    return SeedGrammarError(f"{what}: {text[:200]!r}")


# a sentence ends at a Chinese stop, or at an ASCII one followed by a space or the end (not "1. " numbering)
_SENTENCE_END = re.compile(r"[。！？]|(?<!\d)[.!?](?=\s|$)")


_QUOTE = re.compile(r"“[^”]*”|「[^」]*」|‘[^’]*’|\"[^\"]*\"")


def sentences(text: str) -> int:
    """How many sentences ``text`` holds (a trailing fragment without a stop counts as one); quoted text, such as
    the words to type, is a literal and ends no sentence."""
    text = _QUOTE.sub("Q", text.strip())
    ends = [m.end() for m in _SENTENCE_END.finditer(text)]
    return len(ends) + (1 if not ends or ends[-1] < len(text) else 0)


def _json_object(text: str, keys: set[str]) -> dict:
    try:
        data = json.loads(text)
    except ValueError:
        raise _fail("not one JSON object", text) from None
    if not isinstance(data, dict) or set(data) != keys:
        raise _fail(f"keys must be exactly {sorted(keys)}", text)
    return data


def _point(value, size: tuple[int, int] | None = None) -> tuple[int, int]:
    if not (isinstance(value, list) and len(value) == 2 and all(type(v) is int for v in value)):
        raise _fail("a point is a list of two integers", str(value))
    if size is not None and not (0 <= value[0] < size[0] + 1 and 0 <= value[1] < size[1] + 1):
        raise _fail(f"point outside the declared {size[0]}x{size[1]} screen", str(value))
    return value[0], value[1]


# --- react-zh (seed 002) ---------------------------------------------------------------------------------------
REACT_FUNCTIONS = {"click": {"target_element"}, "long_press": {"target_element"}, "input": {"text"},
                   "swipe": {"direction"}, "done": set(), "open_app": {"app_name"}}
REACT_EXTENSIONS = {"press_back": set(), "press_home": set(), "wait": set()}  # the project's, not seed 002's


def parse_react_zh(answer: str, system: str = "", user: str = "") -> tuple[str, dict]:
    data = _json_object(answer, {"reasoning", "function"})
    if not isinstance(data["reasoning"], str) or not data["reasoning"].strip():
        raise _fail("reasoning must be a non-empty string", answer)
    fn = data["function"]
    if not isinstance(fn, dict) or set(fn) != {"name", "parameters"} or not isinstance(fn["parameters"], dict):
        raise _fail('function must be {"name", "parameters": {...}}', answer)
    name, params = fn["name"], fn["parameters"]
    required = {**REACT_FUNCTIONS, **REACT_EXTENSIONS}.get(name)
    if required is None:
        raise _fail(f"unknown function {name!r}", answer)
    if set(params) != required or not all(isinstance(v, str) and v.strip() for v in params.values()):
        raise _fail(f"{name} takes exactly {sorted(required)} as non-empty strings", answer)
    if name == "swipe" and params["direction"] not in ("UP", "DOWN", "LEFT", "RIGHT"):
        raise _fail("swipe direction must be UP, DOWN, LEFT or RIGHT", answer)
    return name, params


# --- qwen2.5-vl / qwen3-vl (seed 004 F.2 / F.3) -----------------------------------------------------------------
_QWEN = re.compile(r"Thought: (?P<thought>[^\n]+)\nAction: (?P<action>[^\n]+)\n<tool_call>\n(?P<call>[^\n]+)\n"
                   r"</tool_call>")
_RESOLUTION = re.compile(r"The screen's resolution is (\d+)x(\d+)")
_F2_ACTIONS = {"key": {"text"}, "click": {"coordinate"}, "long_press": {"coordinate", "time"},
               "swipe": {"coordinate", "coordinate2"}, "type": {"text"}, "answer": {"text"},
               "system_button": {"button"}, "open": {"text"}, "wait": {"time"}, "terminate": {"status"}}
_F3_ACTIONS = {k: v for k, v in _F2_ACTIONS.items() if k != "key"}  # + open, as Qwen3-VL's cookbook tool


def _parse_mobile_use(answer: str, system: str, actions: dict[str, set[str]]) -> tuple[str, dict]:
    match = _QWEN.fullmatch(answer)
    if match is None:
        raise _fail("not exactly 'Thought: <line>\\nAction: <line>\\n<tool_call>\\n<json>\\n</tool_call>'", answer)
    for part in ("thought", "action"):
        if sentences(match.group(part)) != 1:
            raise _fail(f"{part.capitalize()} must be one sentence", match.group(part))
    resolution = _RESOLUTION.search(system)
    if resolution is None:
        raise _fail("the system prompt declares no screen resolution", system)
    size = (int(resolution.group(1)), int(resolution.group(2)))
    call = _json_object(match.group("call"), {"name", "arguments"})
    args = call["arguments"]
    if call["name"] != "mobile_use" or not isinstance(args, dict):
        raise _fail("the call must be mobile_use with an arguments object", answer)
    name = args.get("action")
    if name not in actions or set(args) != {"action"} | actions[name]:
        raise _fail(f"action {name!r} with arguments {sorted(args)} is not in the tool", answer)
    if f'"{name}"' not in system:
        raise _fail(f"action {name!r} is not declared in the prompt's tool", system)
    for key in ("coordinate", "coordinate2"):
        if key in args:
            args[key] = _point(args[key], size)
    if name == "system_button" and args["button"] not in ("Back", "Home", "Menu", "Enter"):
        raise _fail("unknown system button", answer)
    if name == "terminate" and args["status"] not in ("success", "failure"):
        raise _fail("terminate status must be success or failure", answer)
    if "time" in args and not isinstance(args["time"], (int, float)):
        raise _fail("time must be a number", answer)
    return name, {k: v for k, v in args.items() if k != "action"}


def parse_qwen25_vl(answer: str, system: str, user: str = "") -> tuple[str, dict]:
    return _parse_mobile_use(answer, system, _F2_ACTIONS)


def parse_qwen3_vl(answer: str, system: str, user: str = "") -> tuple[str, dict]:
    if "The screen's resolution is 999x999" not in system:
        raise _fail("F.3's tool declares a 999x999 screen", system)
    return _parse_mobile_use(answer, system, _F3_ACTIONS)


# --- ui-tars (seed 004 F.4) -------------------------------------------------------------------------------------
_UITARS = re.compile(r"Thought: (?P<thought>.+)\nAction: (?P<call>[^\n]+)", re.S)
_POINT = re.compile(r"<point>(\d+) (\d+)</point>")
_F4_ACTIONS = {"click": {"point"}, "long_press": {"point"}, "type": {"content"}, "scroll": {"point", "direction"},
               "open_app": {"app_name"}, "drag": {"start_point", "end_point"}, "press_home": set(),
               "press_back": set(), "finished": {"content"}}


def _call(code: str) -> tuple[str, dict]:
    """``name(key=literal, ...)`` read as Python: keyword arguments with constant values only."""
    try:
        node = ast.parse(code.strip(), mode="eval").body
    except SyntaxError:
        raise _fail("not one call", code) from None
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name) or node.args:
        raise _fail("not a call with keyword arguments", code)
    try:
        return node.func.id, {k.arg: ast.literal_eval(k.value) for k in node.keywords}
    except ValueError:
        raise _fail("an argument is not a literal", code) from None


def parse_ui_tars(answer: str, system: str = "", user: str = "") -> tuple[str, dict]:
    match = _UITARS.fullmatch(answer)
    if match is None or "\nAction:" in match.group("thought") or not match.group("thought").strip():
        raise _fail("not 'Thought: ...' followed by one last line 'Action: <call>'", answer)
    name, args = _call(match.group("call"))
    if name not in _F4_ACTIONS or set(args) != _F4_ACTIONS[name]:
        raise _fail(f"{name}({', '.join(args)}) is not in the Action Space", answer)
    for key in ("point", "start_point", "end_point"):
        if key in args:
            point = _POINT.fullmatch(args[key]) if isinstance(args[key], str) else None
            if point is None:
                raise _fail(f"{key} must be '<point>x y</point>'", answer)
            args[key] = (int(point.group(1)), int(point.group(2)))
    if name == "scroll" and args["direction"] not in ("down", "up", "right", "left"):
        raise _fail("scroll direction must be down, up, right or left", answer)
    if not all(isinstance(v, (str, tuple)) for v in args.values()):
        raise _fail("arguments are strings", answer)
    return name, args


# --- mobile-agent (seed 000) ------------------------------------------------------------------------------------
MOBILE_ACTIONS = {"tap": {"index"}, "enter_text": {"index", "text"}, "scroll": {"direction"},
                  "swipe": {"direction"}, "extract_content": {"goal"}, "done": {"text", "success"},
                  "back": set(), "wait": set()}  # named in the seed's examples, or in its rules ("go back", "wait")
MOBILE_EXTENSIONS = {"long_press": {"index"}, "open_app": {"app_name"}, "home": set()}  # the format's prompt's
_LISTED = re.compile(r"^\[(\d+)\]<([^>]*)> '(.*)'(?P<input> \(text input - use enter_text action\))?$", re.M)


def parse_mobile_agent(answer: str, system: str, user: str) -> tuple[str, dict]:
    data = _json_object(answer, {"current_state", "action"})
    state = data["current_state"]
    if not isinstance(state, dict) or set(state) != {"evaluation_previous_goal", "memory", "next_goal"} or not all(
            isinstance(v, str) and v.strip() for v in state.values()):
        raise _fail("current_state must hold evaluation_previous_goal, memory and next_goal as text", answer)
    if not re.match(r"(Success|Failed|Unknown)\b", state["evaluation_previous_goal"]):
        raise _fail("evaluation_previous_goal starts with Success, Failed or Unknown", answer)
    actions = data["action"]
    if not isinstance(actions, list) or not actions or not all(isinstance(a, dict) and len(a) == 1 for a in actions):
        raise _fail("action is a list of objects with one action name each", answer)
    (name, params), = actions[0].items()
    known = {**MOBILE_ACTIONS, **MOBILE_EXTENSIONS}
    if len(actions) != 1 or name not in known or not isinstance(params, dict) or set(params) != known[name]:
        raise _fail(f"one known action with its parameters (got {name!r})", answer)
    if "index" in params:
        listed = {int(m.group(1)): m for m in _LISTED.finditer(user)}
        line = listed.get(params["index"]) if type(params["index"]) is int else None
        if line is None:
            raise _fail(f"index {params['index']!r} is not listed in the current state", answer)
        if not line.group(3).strip():
            raise _fail(f"element [{params['index']}] is listed without a description or visible text", answer)
        if name == "enter_text" and not line.group("input"):
            raise _fail(f"enter_text on [{params['index']}], which is not marked as a text input", answer)
    if name in ("scroll", "swipe") and params["direction"] not in ("up", "down", "left", "right"):
        raise _fail("direction must be up, down, left or right", answer)
    if name == "done" and not isinstance(params["success"], bool):
        raise _fail("done.success is true or false", answer)
    return name, params


# --- gui-agent-zh (seed 001) ------------------------------------------------------------------------------------
GUI_TYPES = {"click", "double_click", "long_press", "right_click", "drag", "scroll_up", "scroll_down", "input",
             "hotkey", "wait"}
LOADING = "页面正在加载"


def parse_gui_agent_zh(answer: str, system: str = "", user: str = "") -> tuple[str, dict]:
    data = _json_object(answer, {"status", "description", "target", "action"})
    if data["status"] not in ("completed", "in_progress", "failed"):
        raise _fail("unknown status", answer)
    description, target, act = data["description"], data["target"], data["action"]
    if not isinstance(description, str) or not description.strip() or "\n" in description:
        raise _fail("description is a concise one-line text", answer)
    if not isinstance(target, str):
        raise _fail("target is a string", answer)
    if not isinstance(act, dict) or set(act) != {"type", "coordinates", "text"} or act["type"] not in GUI_TYPES:
        raise _fail("action must be {type (seed enum), coordinates, text}", answer)
    kind, coords, text = act["type"], act["coordinates"], act["text"]
    if not isinstance(text, str):
        raise _fail("action.text is a string", answer)
    if kind == "drag":
        if not (isinstance(coords, list) and len(coords) == 2):
            raise _fail("drag coordinates are [[x1, y1], [x2, y2]]", answer)
        coords = [_point(coords[0]), _point(coords[1])]
    else:
        coords = _point(coords)
    no_place = kind == "wait" or data["status"] != "in_progress"
    if no_place != (coords == (0, 0)):
        raise _fail("[0, 0] is for wait / completed / failed, and only for them", answer)
    if data["status"] == "in_progress" and kind == "wait" and target != LOADING:
        raise _fail(f"a loading wait has target {LOADING!r}", answer)
    if not no_place and not target.strip():
        raise _fail("target must name the element unambiguously", answer)
    if kind not in ("input", "hotkey", "click") and text:
        raise _fail(f"{kind} has an empty text", answer)
    if kind == "input" and not text:
        raise _fail("input has the text to type", answer)
    return kind, {"status": data["status"], "target": target, "coordinates": coords, "text": text,
                  "description": description}


# --- androidlab (seed 004 F.1) ----------------------------------------------------------------------------------
_ANDROIDLAB = re.compile(r"<think>\n(?P<think>.+)\n</think>\n<answer>\n(?P<code>[^\n]+)\n</answer>", re.S)
_F1_DO = {"Tap": ({"element"}, set()), "Long Press": ({"element"}, set()), "Type": ({"text"}, set()),
          "Swipe": ({"direction"}, {"dist", "element"}), "Launch": ({"app"}, set()), "Back": (set(), set())}
_BOX = re.compile(r"\[(\d+), ?(\d+), ?(\d+), ?(\d+)\]")


def parse_androidlab(answer: str, system: str, user: str, size: tuple[int, int] | None = None) -> tuple[str, dict]:
    match = _ANDROIDLAB.fullmatch(answer)
    if match is None or not match.group("think").strip():
        raise _fail("not '<think>\\n...\\n</think>\\n<answer>\\n<one line>\\n</answer>'", answer)
    name, args = _call(match.group("code"))
    if name == "finish":
        if set(args) - {"message"} or not isinstance(args.get("message", ""), str):
            raise _fail("finish(message=...) only", answer)
        return "Finish", args
    if name != "do" or args.get("action") not in _F1_DO:
        raise _fail(f"{name}(action={args.get('action')!r}) is not an F.1 operation", answer)
    kind = args.pop("action")
    required, optional = _F1_DO[kind]
    if not required <= set(args) <= required | optional:
        raise _fail(f"{kind} takes {sorted(required)} (optionally {sorted(optional)})", answer)
    if kind == "Swipe" and (args["direction"] not in ("up", "down", "left", "right")
                            or args.get("dist", "medium") not in ("long", "medium", "short")):
        raise _fail("swipe direction up/down/left/right, dist long/medium/short", answer)
    if "element" in args:
        box = args["element"]
        if not (isinstance(box, list) and len(box) == 4 and all(type(v) is int for v in box)
                and box[0] < box[2] and box[1] < box[3]):
            raise _fail("element is [x1, y1, x2, y2] with x1 < x2, y1 < y2", answer)
        listed = {tuple(int(v) for v in m.groups()) for m in _BOX.finditer(user)}
        if tuple(box) not in listed:
            raise _fail(f"element {box} is not one the current state lists", answer)
        if size is not None and (min(box) < 0 or box[2] > size[0] or box[3] > size[1]):
            raise _fail(f"element {box} lies off the {size[0]}x{size[1]} screen", answer)
    return kind, args


# --- browser-use (seed 003) -------------------------------------------------------------------------------------
BROWSER_ACTIONS = {"click_element": ({"index"}, set()), "input_text": ({"index", "text"}, set()),
                   "select_dropdown_option": ({"index", "text"}, set()), "scroll_down": (set(), {"amount"}),
                   "scroll_up": (set(), {"amount"}), "go_to_url": ({"url"}, set()), "go_back": (set(), set()),
                   "open_new_tab": (set(), set()), "extract_page_content": (set(), set()),
                   "done": (set(), {"text"})}  # (required, optional) parameters
_BROWSER_LISTED = re.compile(r"^\[(\d+)\]<([^<>/\s]+)>(.*)</\2>$", re.M)


def parse_browser_use(answer: str, system: str = "", user: str = "") -> list[tuple[str, dict]]:
    data = _json_object(answer, {"current_state", "action"})
    state = data["current_state"]
    keys = {"page_summary", "evaluation_previous_goal", "memory", "next_goal"}
    if not isinstance(state, dict) or set(state) != keys or not all(isinstance(v, str) for v in state.values()):
        raise _fail(f"current_state must hold exactly {sorted(keys)} as strings", answer)
    if not re.match(r"(Success|Failed|Unknown) - \S", state["evaluation_previous_goal"]):
        raise _fail("evaluation_previous_goal is 'Success|Failed|Unknown - why'", answer)
    if not state["memory"].strip() or not state["next_goal"].strip():
        raise _fail("memory and next_goal say something", answer)
    actions = data["action"]
    if not isinstance(actions, list) or not 1 <= len(actions) <= 10:
        raise _fail("action is a list of 1 to 10 actions", answer)
    listed = {int(m.group(1)): m for m in _BROWSER_LISTED.finditer(user)}
    out = []
    for n, item in enumerate(actions):
        if not isinstance(item, dict) or len(item) != 1:
            raise _fail("each action item holds exactly one action name", answer)
        (name, params), = item.items()
        if name not in BROWSER_ACTIONS or not isinstance(params, dict):
            raise _fail(f"unknown action {name!r}", answer)
        required, optional = BROWSER_ACTIONS[name]
        if not required <= set(params) <= required | optional:
            raise _fail(f"{name} takes {sorted(required)} (optionally {sorted(optional)})", answer)
        if "index" in params and (type(params["index"]) is not int or params["index"] not in listed):
            raise _fail(f"index {params['index']!r} is not in the element list", answer)
        for key in ("text", "url"):
            if key in params and not (isinstance(params[key], str) and params[key].strip()):
                raise _fail(f"{name}.{key} is a non-empty string", answer)
        if name == "done" and n != len(actions) - 1:
            raise _fail("done is the last action", answer)
        out.append((name, params))
    return out


def parse_androidlab_fenced(answer: str, system: str, user: str, size: tuple[int, int] | None = None):
    """F.1's answer with its code line between ``` fences (what Android-Lab's executor path runs)."""
    fenced = re.fullmatch(r"(?s)(.*<answer>\n)```\n([^\n]*)\n```\n(</answer>)", answer)
    if fenced is None:
        raise _fail("the code line must sit between ``` lines inside <answer>", answer)
    return parse_androidlab("".join(fenced.groups()[:2]) + "\n" + fenced.group(3), system, user, size)


PARSERS = {"react-zh": parse_react_zh, "qwen2.5-vl": parse_qwen25_vl, "qwen3-vl": parse_qwen3_vl,
           "ui-tars": parse_ui_tars, "mobile-agent": parse_mobile_agent, "gui-agent-zh": parse_gui_agent_zh,
           "androidlab": parse_androidlab, "androidlab-fenced": parse_androidlab_fenced}  # browser-use's parser returns a list of actions: it is used on its own
