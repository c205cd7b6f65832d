"""``qwen3-vl``: seed 004 F.3's ``mobile_use`` tool, points on a 999x999 grid.

Like :mod:`.qwen25_vl` (same answer layout: ``Thought`` / ``Action`` / ``<tool_call>``), but the tool says the
screen is 999x999 and every point is written on that grid: ``g = round(x / (W - 1) * 999)``, back
``x = round(g / 999 * (W - 1))`` (grid 0 and 999 are the first and last pixel, :mod:`.coords`). F.3's action
enum has no ``open``, but the ``mobile_use`` tool of Qwen3-VL's own cookbook (the one the model was tuned with)
has it, so an ``open_app`` step is ``open{text: app}`` (listed in the tool) rather than dropped.
A web episode uses Qwen3-VL's ``computer_use`` tool on the same grid (:mod:`.computer_use`), with ``hscroll``.

>>> from sftdata.model import Action, Episode, Screenshot, Step
>>> shot = Screenshot("0" * 64, "x.png", 1080, 2400)
>>> ep = Episode("e", "sample", "浏览商品", [Step(0, shot, Action("swipe", point=(540, 1600), end=(540, 800))),
...                                         Step(1, shot, Action("done"))])
>>> items = [{"reasoning": "向上滑动查看更多商品。", "function": {"name": "swipe", "parameters": {"direction": "UP"}}},
...          {"reasoning": "已经完成。", "function": {"name": "done", "parameters": {}}}]
>>> ctx = StepContext(ep, 0, items)
>>> print(FORMAT.render(ctx))
Thought: 向上滑动查看更多商品。
Action: 向上滑动
<tool_call>
{"name": "mobile_use", "arguments": {"action": "swipe", "coordinate": [500, 666], "coordinate2": [500, 333]}}
</tool_call>
>>> FORMAT.parse(FORMAT.render(ctx), ctx) == FORMAT.quantize(ctx)
True
"""
from __future__ import annotations

from ..families import FAMILIES, point_families
from . import computer_use, coords
from .base import StepContext, register
from .qwen25_vl import MobileUse


class Qwen3VL(MobileUse):
    name = "qwen3-vl"
    family = "qwen3-vl"
    families = point_families(family)
    coordinates = "{0}x{0} grid: g = round(x / (W - 1) * {0}), back x = round(g / {0} * (W - 1))".format(
        FAMILIES[family].grid)
    enum = ("click", "long_press", "swipe", "type", "answer", "system_button", "open", "wait", "terminate")
    text_actions = ("type", "answer", "open")
    human_name = False
    computer_enum = computer_use.QWEN3_ENUM

    def resolution(self, ctx: StepContext) -> tuple[int, int]:
        return coords.grid(self.family), coords.grid(self.family)

    def forward(self, point, ctx: StepContext) -> list[int]:
        return list(coords.to_grid(point, ctx.size, self.family))

    def back(self, point, ctx: StepContext) -> tuple[int, int]:
        return coords.from_grid(tuple(point), ctx.size, self.family)


FORMAT = register(Qwen3VL())
