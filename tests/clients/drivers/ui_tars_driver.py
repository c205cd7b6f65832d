"""Read answers with the ``ui-tars`` package's own parser (run with the client virtualenv's Python).

stdin: JSON lines ``{"id", "answer", "width", "height"}`` (the original screenshot's size); stdout: one line per
answer ``{"id", "ok", "error", "read"}`` where ``read`` is what ``parse_action_to_structure_output`` returned
(action type, inputs, points converted to original pixels). ``ok`` means exactly one action came out.
"""
import json
from importlib.metadata import version

from driver_io import serve

from ui_tars.action_parser import parse_action_to_structure_output


def _pixels(box: str, width: int, height: int) -> list[float]:
    x1, y1, x2, y2 = json.loads(box)
    return [(x1 + x2) / 2 * width, (y1 + y2) / 2 * height]


def read(row: dict) -> dict:
    width, height = row["width"], row["height"]
    actions = parse_action_to_structure_output(row["answer"], 1000, height, width, model_type="qwen25vl")
    if len(actions) != 1:
        raise ValueError(f"{len(actions)} actions parsed, expected one")
    action = actions[0]
    inputs = dict(action["action_inputs"])
    points = {key: _pixels(inputs.pop(key), width, height) for key in ("start_box", "end_box") if key in inputs}
    return {"type": action["action_type"], "inputs": inputs, "points": points, "thought": action["thought"]}


def main() -> None:
    serve("ui-tars", version("ui-tars"), read)


if __name__ == "__main__":
    main()
