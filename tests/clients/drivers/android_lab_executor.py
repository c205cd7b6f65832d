"""``do`` and ``finish`` as Android-Lab's and MobileRL's text executors define them, with a controller that
records what the phone would do instead of sending adb commands (written anew from
``page_executor/text_executor.py`` and ``utils_mobile/and_controller.py`` of THUDM/Android-Lab 373fc1d and
``android_lab/`` of THUDM/MobileRL 82f3b7e).

What each operation does on the device, as ``ops`` (screenshot pixels):

* Tap / Long Press: ``tap`` / ``long_press`` at the centre of the element box (after MobileRL's relative-box
  conversion when configured);
* Swipe: ``swipe`` from the box's centre (the screen's without a box) by the controller's distance: ``short``
  w/10, ``medium`` w/5, ``long`` w; twice that up or down; sideways once that (Android-Lab) or 2.5 times (MobileRL);
* Type: ``clear`` (100 deletes), ``type``, then ``key enter`` (both executors press Enter after every Type);
* Back / Home / Enter: ``key``; Launch: ``launch{app}`` (the name; the executors then pick the closest of their own
  app names by edit distance); Wait: ``wait``; finish: ``done{text}``.
"""

SIDEWAYS = {"android-lab": 1.0, "mobilerl": 2.5}


class RecordingExecutor:
    """``do`` and ``finish`` of the text executors; ``done`` is the call as their ``current_return`` says it."""

    def __init__(self, actions: tuple[str, ...], width: int, height: int, relative: bool, path: str):
        self.actions, self.width, self.height, self.relative = actions, width, height, relative
        self.sideways = SIDEWAYS[path]
        self.done = None
        self.ops: list[dict] = []

    def _box(self, element):
        if element is None or not self.relative or any(v > 999 for v in element):
            return element
        return [element[0] * self.width / 999, element[1] * self.height / 999,
                element[2] * self.width / 999, element[3] * self.height / 999]

    def _centre(self, element) -> list:
        if isinstance(element, list) and len(element) == 4:
            return [(element[0] + element[2]) / 2, (element[1] + element[3]) / 2]
        if isinstance(element, list) and len(element) == 2:
            return list(element)
        raise ValueError("Invalid element format")

    def _swipe(self, element, direction: str, dist="medium") -> None:
        x, y = self._centre(element) if element is not None else [self.width // 2, self.height // 2]
        unit = int(self.width / 10) * {"long": 10, "medium": 2}.get(dist, 1) if isinstance(dist, str) else dist
        dx, dy = {"up": (0, -2 * unit), "down": (0, 2 * unit), "left": (-unit * self.sideways, 0),
                  "right": (unit * self.sideways, 0)}[direction]
        self.ops.append({"op": "swipe", "start": [x, y], "end": [x + dx, y + dy]})

    def do(self, action=None, element=None, **kwargs):
        assert action in self.actions, "Unsupported Action"
        box = self._box(element)
        if action in ("Tap", "Long Press"):
            self.ops.append({"op": "tap" if action == "Tap" else "long_press", "point": self._centre(box)})
        elif action == "Swipe":
            assert "direction" in kwargs, "direction is required for swipe"
            self._swipe(box, kwargs["direction"], kwargs.get("dist", "medium"))
        elif action == "Type":
            assert "text" in kwargs, "text is required for type"
            self.ops += [{"op": "clear"}, {"op": "type", "text": kwargs["text"]}, {"op": "key", "key": "enter"}]
        elif action == "Launch":
            assert "app" in kwargs, "app is required for launch"
            self.ops.append({"op": "launch", "app": kwargs["app"]})
        elif action in ("Back", "Press Back", "Home", "Enter"):
            self.ops.append({"op": "key", "key": action.removeprefix("Press ").lower()})
        elif action == "Wait":
            self.ops.append({"op": "wait"})
        else:
            raise NotImplementedError(action)
        self.done = {"operation": "do", "action": action, "element": box, "kwargs": kwargs}

    def finish(self, message=None):
        self.ops.append({"op": "done", "text": message, "success": True})
        self.done = {"operation": "finish", "message": message}
