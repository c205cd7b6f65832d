"""The rules judge discriminates: ambiguous targets, names from nowhere, memory against the history."""
from __future__ import annotations

from sftdata.judge.rules import rules_verdict
from sftdata.judge.screen_rules import absent_names, ambiguous_target
from sftdata.model import Action, Element, Episode, Screenshot, Step
from sftdata.checks.memory_check import memory_problems

SHOT = Screenshot("0" * 64, "x.png", 1080, 2400)
CARTS = [Element(i, (600, 400 + 300 * i, 1000, 480 + 300 * i), text="Add to cart", flags=("visible", "clickable"))
         for i in range(6)]
TITLES = [Element(10 + i, (40, 400 + 300 * i, 560, 480 + 300 * i), text=f"Earbuds #{i + 1}", flags=("visible",))
          for i in range(6)]


def _cart_step(rank: int) -> Step:
    box = CARTS[rank - 1]
    point = ((box.bounds[0] + box.bounds[2]) // 2, (box.bounds[1] + box.bounds[3]) // 2)
    return Step(0, SHOT, Action("click", point=point, element=box), elements=CARTS + TITLES)


def _call(target: str) -> dict:
    return {"reasoning": "加入购物车。", "function": {"name": "click", "parameters": {"target_element": target}}}


def test_six_identical_buttons_need_an_ordinal_or_position():
    step = _cart_step(3)
    assert "shared by 6" in ambiguous_target(_call("“Add to cart”按钮"), step)
    assert ambiguous_target(_call("第三个“Add to cart”按钮"), step) is None
    assert ambiguous_target(_call("“Earbuds #3”右侧的“Add to cart”按钮"), step) is None
    assert "the 2nd of the 6" in ambiguous_target(_call("第二个“Add to cart”按钮"), step)
    assert ambiguous_target(_call("the third “Add to cart” button"), step) is None
    assert "last" in ambiguous_target(_call("最后一个“Add to cart”按钮"), step)


def test_a_unique_label_is_unambiguous():
    step = Step(0, SHOT, Action("click", point=(800, 440), element=CARTS[0]), elements=[CARTS[0]] + TITLES)
    assert ambiguous_target(_call("“Add to cart”按钮"), step) is None


def test_quoted_names_must_be_somewhere_the_agent_could_see():
    ep = Episode("e", "sample", "把 Earbuds #3 加入购物车", [_cart_step(3), Step(1, SHOT, Action("done"))])
    assert absent_names({"reasoning": "本步的指令是“Add the third earbuds to the cart”，点击“Add to cart”。"}, ep, 0) == \
        ["Add the third earbuds to the cart"]
    assert absent_names({"reasoning": "“Earbuds #3”旁边有“Add to cart”，点击它。"}, ep, 0) == []
    unknown = Episode("u", "annotated", "g", [Step(0, SHOT, Action("click", point=(5, 5))), Step(1, SHOT, Action("done"))])
    assert absent_names({"reasoning": "点击“随便什么”。"}, unknown, 0) == []  # no texts known: not judged


def test_the_rules_judge_fails_what_passed_before():
    ep = Episode("e", "sample", "把 Earbuds #3 加入购物车", [_cart_step(3), Step(1, SHOT, Action("done"))])
    items = [_call("“Add to cart”按钮"), {"reasoning": "任务已经完成。", "function": {"name": "done", "parameters": {}},
                                         "memory": "尚未开始操作"}]
    verdicts, _ = rules_verdict(ep, items)
    assert verdicts[0].target_unambiguous is False and verdicts[0].score < 5
    assert verdicts[1].grounded is False and "memory_contradicts_history" in verdicts[1].why
    items[0]["function"]["parameters"]["target_element"] = "第三个“Add to cart”按钮"
    items[0]["reasoning"] = "向下滚动页面，查看下方更多的选项。"
    verdicts, _ = rules_verdict(ep, items)
    assert verdicts[0].target_unambiguous and verdicts[0].aligned is False


def test_memory_against_the_history():
    left = Action("swipe", point=(900, 1200), end=(200, 1200), direction="left")
    ep = Episode("m", "sample", "向左滑动 3 次", [Step(0, SHOT, Action("click", point=(5, 5))),
                                               Step(1, SHOT, left), Step(2, SHOT, left), Step(3, SHOT, Action("done"))])
    assert memory_problems("已做：点击控件、向左滑动×2；已向左滑动 2/3 次，还剩 1 次", ep, 3) == []
    assert memory_problems("swiped left 2 of 3 times, 1 remain", ep, 3) == []
    assert memory_problems("已向左滑动 3/3 次", ep, 3) == ["says 3 swipe(s) left, the history has 2"]
    assert memory_problems("已做：点击控件、向左滑动", ep, 3) == ["lists 2 action(s), the history has 3"]
    assert memory_problems("已做：点击控件、输入“a”、向左滑动", ep, 3) == ["action 2 is “输入“a””, the history's is swipe"]
    assert memory_problems("尚未开始操作", ep, 2) == ["says nothing was done, the history has 2 action(s)"]
    assert memory_problems("已滑动 0 次", ep, 0) == ["counts zero swipes on a step that does not swipe"]
    assert memory_problems("用户想看几张照片，我在相册里。", ep, 3) == []  # nothing readable: nothing judged
