"""Task memory: counts the task's own items for looping goals, lists what was done otherwise, and never knows
the recorded episode's length (cutting or extending the episode after the step changes nothing)."""
from __future__ import annotations

import re

import pytest

from sftdata.model import Action, Element, Episode, Screenshot, Step
from sftdata.annotate.progress import looping, task_memory

SHOT = Screenshot("0" * 64, "x.png", 1080, 2400)
LEFT = Action("swipe", point=(900, 1200), end=(200, 1200))
STEP_COUNTS = re.compile(r"共\s*\d+\s*步|剩余\s*\d+\s*步|\d+\s*steps?\b|步骤")


def _tap(label: str, index: int) -> Step:
    el = Element(index, (100, 300 + 200 * index, 900, 450 + 200 * index), text=label,
                 class_name="android.widget.Button", flags=("clickable", "visible"))
    return Step(index, SHOT, Action("click", point=el.center, element=el), elements=[el])


@pytest.mark.parametrize("goal,kind,total,direction", [
    ("向左滑动浏览 3 张照片", "swipe", 3, "left"),
    ("Flip through the photos", "swipe", None, None),
    ("swipe left 4 times in the gallery", "swipe", 4, "left"),
    ("删除所有草稿", "verb", None, None),
    ("Delete each of the 2 drafts", "verb", 2, None),
    ("依次给 3 位联系人发送“你好”", "input", 3, None),
    ("把两件商品加入购物车", "verb", 2, None),
])
def test_looping_goals(goal, kind, total, direction):
    loop = looping(goal)
    assert loop is not None and (loop.kind, loop.total, loop.direction) == (kind, total, direction)


@pytest.mark.parametrize("goal", ["打开设置", "Search for 机械键盘 and open one product", "给妈妈发消息“3 个苹果”",
                                  "打开一张照片", "Reserve the last hotel in Lisbon for 3 guests",
                                  "Buy two tickets for the thirteenth jazz show"])
def test_plain_goals_do_not_loop(goal):
    assert looping(goal) is None


def test_swipes_counted_with_remaining():
    steps = [_tap("相册", 0)] + [Step(i, SHOT, LEFT) for i in range(1, 4)] + [Step(4, SHOT, Action("done"))]
    ep = Episode("g", "sample", "打开相册，向左滑动 3 次查看照片", steps)
    zh = [task_memory(ep, i, None, "zh") for i in range(5)]
    assert "；已向左滑动 0/3 次，还剩 3 次；" in zh[1] and "；已向左滑动 2/3 次，还剩 1 次；" in zh[3]
    assert zh[3].startswith("已做：点击") and "向左滑动×2" in zh[3]  # the history stays beside the count
    assert zh[4].__contains__("；已向左滑动 3/3 次")
    assert "; swiped left 1 of 3 times, 2 remain; " in task_memory(ep, 2, None, "en")


def test_deletions_counted_once_per_item():
    """Tapping 删除 and then confirming 删除 is one deletion, not two."""
    steps = [_tap("草稿一", 0), _tap("删除", 1), _tap("删除", 2), _tap("草稿二", 3), _tap("删除", 4), _tap("删除", 5),
             Step(6, SHOT, Action("done"))]
    steps = [Step(i, s.screenshot, s.action, elements=s.elements) for i, s in enumerate(steps)]
    ep = Episode("d", "sample", "删除这 2 个草稿", steps)
    assert "；已删除 1/2 个，还剩 1 个；" in task_memory(ep, 3, None, "zh")
    assert "；已删除 2/2 个" in task_memory(ep, 6, None, "zh")
    assert "; deleted 2 of 2 items" in task_memory(ep, 6, None, "en")


def test_items_summaries_are_used():
    steps = [Step(0, SHOT, Action("click", point=(500, 500))), Step(1, SHOT, Action("done"))]
    ep = Episode("s", "annotated", "关闭弹窗", steps)
    assert task_memory(ep, 1, [{"action_summary": "点击右上角的关闭按钮"}], "zh") == \
        "已做：点击右上角的关闭按钮；目标：“关闭弹窗”"
    assert task_memory(ep, 1, None, "zh") == "已做：点击控件；目标：“关闭弹窗”"


def test_never_the_episode_length():
    """The same earlier steps give the same memory whatever follows them."""
    steps = [_tap("设置", 0), Step(1, SHOT, Action("back")), Step(2, SHOT, Action("home")), Step(3, SHOT, Action("done"))]
    ep = Episode("n", "sample", "Open Settings, then go home", steps)
    for i in range(len(steps)):
        cut = Episode("n", "sample", ep.goal, steps[:i + 1])
        for language in ("zh", "en"):
            text = task_memory(ep, i, None, language)
            assert text == task_memory(cut, i, None, language)
            assert "\n" not in text and not STEP_COUNTS.search(text), text


@pytest.mark.parametrize("goal", ["Start the timer for all runners", "Find the address of every store"])
def test_english_verbs_are_whole_words(goal):
    loop = looping(goal)  # "star" is not in "start", "add" not in "address"
    assert loop is None or loop.verb == -1


def test_ineffective_steps_are_noted_and_not_counted():
    missed = Step(1, SHOT, LEFT, meta={"ineffective": True})
    steps = [_tap("相册", 0), missed, Step(2, SHOT, LEFT), Step(3, SHOT, Action("done"))]
    ep = Episode("m", "sample", "向左滑动 2 次", steps)
    assert task_memory(ep, 3, None, "zh") == "已做：点击“相册”、向左滑动（没有反应）、向左滑动；已向左滑动 1/2 次，还剩 1 次；目标：“向左滑动 2 次”"
    plain = Episode("p", "sample", "打开相册", steps)
    assert task_memory(plain, 3, None, "zh") == "已做：点击“相册”、向左滑动（没有反应）、向左滑动；目标：“打开相册”"
    assert "swiped left (no effect)" in task_memory(plain, 3, None, "en")


def test_a_web_page_is_scrolled_not_swiped():
    from sftdata.model import Action, Episode, Screenshot, Step
    from sftdata.annotate.progress import task_memory

    shot = Screenshot("0" * 64, "x.png", 1280, 720)
    steps = [Step(i, shot, Action("scroll", direction="down")) for i in range(2)] + [Step(2, shot, Action("done"))]
    web = Episode("w", "annotated", "向下滚动 3 次查看更多商品", steps, platform="web")
    assert "；已向下滚动 2/3 次，还剩 1 次；" in task_memory(web, 2, None, "zh")
    assert "; scrolled down 2 of 3 times, 1 remain; " in task_memory(web, 2, None, "en")


def test_an_ordinal_is_not_a_loop():
    steps = [Step(0, SHOT, Action("click", point=(500, 500))), Step(1, SHOT, Action("click", point=(500, 900))),
             Step(2, SHOT, Action("done"))]
    for goal in ("打开第二件商品", "打开第 2 件商品", "Open the second product"):
        assert looping(goal) is None
        assert task_memory(Episode("o", "annotated", goal, steps), 2, None, "zh") == \
            f"已做：点击控件×2；目标：“{goal}”"


def test_no_zero_counter_when_the_goal_gives_no_total():
    swipe = Action("swipe", point=(900, 1200), end=(200, 1200))
    steps = [Step(0, SHOT, Action("input", text="a")), Step(1, SHOT, swipe), Step(2, SHOT, Action("done"))]
    ep = Episode("z", "annotated", "翻看所有照片", steps)
    assert task_memory(ep, 1, None, "zh") == "已做：输入“a”；目标：“翻看所有照片”"  # not "已滑动 0 次"
    assert task_memory(ep, 2, None, "zh") == "已做：输入“a”、向左滑动；已滑动 1 次；目标：“翻看所有照片”"


def test_the_whole_history_is_kept_in_compact_form():
    swipe = Action("swipe", point=(540, 1600), end=(540, 600))
    steps = [Step(i, SHOT, swipe) for i in range(6)] + [Step(6, SHOT, Action("back")), Step(7, SHOT, Action("done"))]
    text = task_memory(Episode("h", "annotated", "看看设置", steps), 7, None, "zh")
    assert text == "已做：向上滑动×6、返回上一页；目标：“看看设置”"  # nothing cut to the last three
