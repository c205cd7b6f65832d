"""The Appium (UiAutomator2) session app-use's ``App`` drives, as a recorder: what the phone would do, not done.

app-use 0.0.3's ``App`` and ``GestureService`` talk to the device through a selenium/Appium driver. This one
answers the calls they make on the paths of the exported answers and records the touch, key and text each
produces, in screenshot pixels (importable in the app-use virtualenv):

* W3C pointer actions (``driver.execute(W3C_ACTIONS)``: taps, and the swipe/long-press fallbacks) -> ``tap``,
  ``long_press`` (held 400 ms or more, Android's long-press timeout) or ``swipe``;
* ``mobile: swipeGesture`` -> the ``swipe`` UiAutomator2 performs for it: ``Gestures.swipeRect`` of the area,
  from the edge opposite the direction, ``percent`` of the area's size (up: from the bottom centre upwards);
* ``mobile: longClickGesture`` -> ``long_press``; ``mobile: dragGesture`` -> ``drag`` (a long press, then a move);
  ``mobile: type`` -> ``type``; ``press_keycode`` -> ``key`` (4 back, 3 home, 66 enter, 67 delete);
* ``switch_to.active_element.clear()`` -> ``clear``.

Every command is performed as sent: the check is what app-use asks the device to do.
"""
from __future__ import annotations

from types import SimpleNamespace

KEYCODES = {3: "home", 4: "back", 66: "enter", 67: "delete"}
LONG_PRESS_MS = 400


def swipe_rect(left, top, width, height, direction, percent) -> dict:
    """The finger's path of UiAutomator2's swipe over an area (androidx.test.uiautomator ``Gestures.swipeRect``)."""
    right, bottom = int(left) + int(width), int(top) + int(height)
    left, top = int(left), int(top)
    cx, cy = (left + right) >> 1, (top + bottom) >> 1
    dx, dy = int((right - left) * percent), int((bottom - top) * percent)
    start, end = {"left": ((right, cy), (right - dx, cy)), "right": ((left, cy), (left + dx, cy)),
                  "up": ((cx, bottom), (cx, bottom - dy)), "down": ((cx, top), (cx, top + dy))}[direction.lower()]
    return {"op": "swipe", "start": list(start), "end": list(end)}


def _pointer(actions: list[dict]) -> dict:
    """One touch pointer's W3C action sequence -> the gesture it makes."""
    at, down, moved, held = None, None, False, 0
    for step in actions:
        if step["type"] == "pointerMove":
            at = [step["x"], step["y"]]
            moved = moved or (down is not None and at != down)
        elif step["type"] == "pointerDown":
            down, moved, held = at, False, 0
        elif step["type"] == "pause" and down is not None:
            held += step.get("duration", 0)
    if moved:
        return {"op": "swipe", "start": down, "end": at}
    return {"op": "long_press" if held >= LONG_PRESS_MS else "tap", "point": down}


class RecordingDevice:
    """The selenium/Appium driver app-use calls, recording ``ops`` (see the module docstring)."""

    capabilities = {"platformName": "Android", "automationName": "UiAutomator2"}

    def __init__(self, width: int, height: int):
        self.size = {"width": width, "height": height}
        self.ops: list[dict] = []
        self.switch_to = SimpleNamespace(active_element=SimpleNamespace(
            clear=lambda: self.ops.append({"op": "clear"}),
            send_keys=lambda text: self.ops.append({"op": "type", "text": text})))

    def get_window_size(self) -> dict:
        return dict(self.size)

    def press_keycode(self, keycode: int, metastate=None, flags=None) -> None:
        self.ops.append({"op": "key", "key": KEYCODES.get(keycode, str(keycode))})

    def execute(self, command: str, params: dict | None = None) -> dict:
        if command != "actions":  # selenium's Command.W3C_ACTIONS
            raise NotImplementedError(f"the recording device does not answer {command!r}")
        for device in params["actions"]:
            if device["type"] == "pointer" and any(a["type"] == "pointerDown" for a in device["actions"]):
                self.ops.append(_pointer(device["actions"]))
        return {"value": None}

    def execute_script(self, script: str, args: dict | None = None):
        args = args or {}
        if script == "mobile: swipeGesture":
            self.ops.append(swipe_rect(args["left"], args["top"], args["width"], args["height"], args["direction"],
                                       args["percent"]))
        elif script == "mobile: longClickGesture":
            self.ops.append({"op": "long_press", "point": [args["x"], args["y"]]})
        elif script == "mobile: dragGesture":
            self.ops.append({"op": "drag", "start": [args["startX"], args["startY"]],
                             "end": [args["endX"], args["endY"]]})
        elif script == "mobile: type":
            self.ops.append({"op": "type", "text": args["text"]})
        else:
            self.ops.append({"op": "script", "script": script})
