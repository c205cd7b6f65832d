"""Label Studio result objects for the review labeling config, as a reviewer's annotation holds them."""
from __future__ import annotations

import json


def decision(step: int, choice: str, reasoning: str | None = None, function: dict | None = None) -> list[dict]:
    out = [{"from_name": f"decision_{step}", "to_name": f"screenshot_{step}", "type": "choices",
            "value": {"choices": [choice]}}]
    if reasoning is not None:
        out.append({"from_name": f"reasoning_{step}", "to_name": f"screenshot_{step}", "type": "textarea",
                    "value": {"text": [reasoning]}})
    if function is not None:
        out.append({"from_name": f"function_{step}", "to_name": f"screenshot_{step}", "type": "textarea",
                    "value": {"text": [json.dumps(function, ensure_ascii=False)]}})
    return out


def export_of(tasks: list[dict], annotations: dict[int, list[dict]]) -> list[dict]:
    """A Label Studio JSON export: task i with the annotations given for it ({"result", "completed_by", "id",
    "updated_at"})."""
    out = []
    for i, task in enumerate(tasks):
        anns = [{"id": 100 * i + n, "completed_by": a.get("completed_by", 1), "was_cancelled": False,
                 "created_at": a.get("updated_at", "2026-01-01T00:00:00Z"),
                 "updated_at": a.get("updated_at", "2026-01-01T00:00:00Z"), "result": a["result"]}
                for n, a in enumerate(annotations.get(i, []))]
        out.append({"id": i + 1, "data": task["data"], "annotations": anns})
    return out


CLEAN_EDIT = "当前屏幕上可以看到目标入口，这一步照着任务继续往下做。"
HINDSIGHT_EDIT = "这是第 2 步，共 7 步，点击之后页面显示出详情。"
