"""Element helpers shared by the element formats: which elements a model is shown (labelled or typed, boxes
clipped to the screen), which one a tap addresses, which field an input types into; measured on the real
AndroidControl fixture and the generated sample."""
from __future__ import annotations

import pytest

from sftdata.formats import CannotExpress, StepContext
from sftdata.formats import elements as el
from sftdata.model import Action, Element, Episode, Screenshot, Step

SHOT = Screenshot("0" * 64, "x.png", 1080, 2400)
V = ("visible",)


def _step(action: Action, elements: list[Element]) -> Step:
    return Step(0, SHOT, action, elements=elements)


def test_listed_needs_visibility_a_box_on_screen_an_interaction_and_a_name():
    els = [Element(0, (0, 0, 100, 100), text="a", flags=("clickable",) + V),
           Element(1, (0, 0, 100, 100), text="hidden", flags=("clickable",)),
           Element(2, (5, 5, 5, 50), text="flat", flags=("clickable",) + V),
           Element(3, (0, 0, 100, 100), text="Close ad", flags=("focusable",) + V),  # a web control
           Element(4, (0, 0, 100, 100), flags=("checkable",) + V, class_name="android.widget.CheckBox"),
           Element(5, (0, 0, 100, 100), hint="name", flags=("editable",) + V, class_name="android.widget.EditText"),
           Element(6, (0, 200, 100, 300), flags=("clickable",) + V, class_name="android.widget.LinearLayout"),
           Element(7, (0, 400, 100, 500), flags=("focusable",) + V, class_name="android.widget.Button"),
           Element(8, (1100, 0, 1200, 100), text="off screen", flags=("clickable",) + V),
           Element(9, (0, 600, 100, 700), flags=("clickable",) + V, class_name="android.widget.TextView")]
    step = _step(Action("back"), els)
    assert [e.index for e in el.interactive(step)] == [0, 3, 4, 5]
    assert el.listing(step) == ("[0]<View> 'a'\n[1]<View> 'Close ad'\n[2]<CheckBox> 'not checked, top left'\n"
                                "[3]<EditText> 'name' (text input - use enter_text action)")


def test_boxes_are_clipped_to_the_screen():
    web = Element(0, (0, 294, 1084, 2213), text="page", class_name="android.webkit.WebView", flags=("scrollable",) + V)
    tab = Element(1, (984, 438, 1183, 630), text="Home", flags=("clickable",) + V)
    item, tab_item = el.listed(_step(Action("back"), [web, tab]))
    assert (item.bounds, tab_item.bounds) == ((0, 294, 1080, 2213), (984, 438, 1080, 630))
    assert item.node is web and tab_item.center == (1032, 534)


def test_a_clickable_container_takes_its_contents_text_but_not_another_controls():
    row = Element(0, (0, 100, 1080, 300), class_name="android.widget.LinearLayout", flags=("clickable",) + V)
    name = Element(1, (20, 120, 400, 180), text="妈妈", class_name="android.widget.TextView", flags=V, depth=1)
    preview = Element(2, (20, 190, 700, 260), text="晚上回家吃饭吗？", flags=V, depth=1)
    photo = Element(3, (800, 120, 900, 220), desc="照片 妈妈", class_name="android.widget.ImageView", flags=V, depth=1)
    button = Element(4, (950, 150, 1050, 250), class_name="android.widget.FrameLayout", flags=("clickable",) + V, depth=1)
    icon_text = Element(5, (960, 160, 1040, 240), text="删除", flags=V, depth=2)
    outside = Element(6, (0, 400, 1080, 500), text="下一行", flags=V)
    step = _step(Action("back"), [row, name, preview, photo, button, icon_text, outside])
    assert el.listing(step) == "[0]<LinearLayout> '晚上回家吃饭吗？ 照片 妈妈'\n[1]<FrameLayout> '删除'"
    # a container above its content in the tree (depth) never takes text from a shallower node
    parent = Element(7, (0, 0, 1080, 2400), text="页面", flags=V, depth=0)
    inner = Element(8, (0, 0, 1080, 2400), class_name="android.widget.FrameLayout", flags=("clickable",) + V, depth=1)
    assert el.listing(_step(Action("back"), [parent, inner])) == ""


def test_tap_on_an_unlabeled_node_resolves_to_its_labelled_clickable_ancestor():
    row = Element(0, (0, 100, 1080, 300), class_name="android.widget.LinearLayout", flags=("clickable",) + V)
    label = Element(1, (20, 150, 400, 250), text="Wi-Fi", flags=V)
    icon = Element(2, (900, 150, 1000, 250), class_name="android.widget.LinearLayout", flags=("clickable",) + V)
    scroller = Element(3, (0, 0, 1080, 2400), class_name="android.widget.ScrollView", flags=("scrollable",) + V)
    els = [scroller, row, label, icon]
    target = el.tap_target(_step(Action("click", point=(950, 200), element=icon), els))
    assert target.node == row and target.label == "Wi-Fi"  # the unlabeled icon is not listed; its row is
    assert el.tap_target(_step(Action("click", point=(100, 200), element=label), els)).node == row
    # only a scroll container under the point: no tap target (its centre is not what was touched)
    assert el.tap_target(_step(Action("click", point=(100, 1200), element=scroller), els)) is None


def test_a_focusable_control_of_its_own_is_its_own_target_or_none():
    ad = Element(0, (36, 351, 1044, 2155), text="?aaxitk=1", flags=("clickable",) + V)
    close = Element(1, (913, 351, 1044, 472), text="Close ad", flags=("focusable",) + V)
    blank = Element(2, (913, 351, 1044, 472), flags=("focusable",) + V)
    assert el.tap_target(_step(Action("click", point=(978, 411), element=close), [ad, close])).node == close
    assert el.tap_target(_step(Action("click", point=(978, 411), element=blank), [ad, blank])) is None


def test_missing_tree_and_unaddressable_taps_raise_their_reasons():
    ep = Episode("e", "sample", "g", [_step(Action("click", point=(1, 1)), []), Step(1, SHOT, Action("done"))])
    with pytest.raises(CannotExpress) as e:
        el.require_tap_target(StepContext(ep, 0))
    assert e.value.reason == "no_accessibility_tree"
    ep.steps[0] = _step(Action("click", point=(1, 1)), [Element(0, (500, 500, 600, 600), text="x", flags=("clickable",) + V)])
    with pytest.raises(CannotExpress) as e:
        el.require_tap_target(StepContext(ep, 0))
    assert e.value.reason == "element_not_indexed"


def test_swipe_area_and_lookup_by_bounds():
    outer = Element(0, (0, 0, 1090, 2400), class_name="android.widget.ScrollView", flags=("scrollable",) + V)
    inner = Element(1, (0, 500, 1080, 900), class_name="androidx.recyclerview.widget.RecyclerView",
                    flags=("scrollable",) + V)
    step = _step(Action("swipe", point=(540, 700), end=(100, 700)), [outer, inner])
    assert el.largest_scrollable(step, (540, 700)).node == outer
    assert el.largest_scrollable(step, None) is None
    assert el.by_bounds(step, (0, 0, 1080, 2400)) == outer  # the clipped box, as the formats write it
    assert el.by_bounds(step, (0, 500, 1080, 900)) == inner and el.by_bounds(step, (1, 2, 3, 4)) is None


def test_a_nameless_element_of_a_described_type_says_its_state_and_place():
    els = [Element(0, (900, 100, 1000, 200), class_name="android.widget.Switch", flags=("checkable", "checked") + V),
           Element(1, (0, 300, 1080, 2100), class_name="androidx.recyclerview.widget.RecyclerView",
                   flags=("scrollable",) + V),
           Element(2, (0, 2200, 100, 2300), class_name="android.widget.ImageButton", flags=("clickable",) + V)]
    assert el.listing(_step(Action("back"), els)) == ("[0]<Switch> 'checked, top right'\n"
                                                      "[1]<RecyclerView> 'scrollable, centre'\n"
                                                      "[2]<ImageButton> 'bottom left'")


def test_an_untargeted_tap_is_described_by_type_and_position():
    node = Element(0, (0, 2200, 200, 2400), class_name="android.widget.LinearLayout", flags=("clickable",) + V)
    step = _step(Action("click", point=(100, 2300), element=node), [node])
    assert el.untargeted(step) == "the LinearLayout at the bottom left of the screen"
    assert el.untargeted(step, "zh") == "屏幕左下方的 LinearLayout"


def _check_listings(episodes) -> tuple[int, int]:
    """Every listed element is on screen and has a text; returns (listed elements, taps whose target has no
    label)."""
    listed = unnamed_taps = 0
    for episode, _ in episodes:
        for step in episode.steps:
            w, h = step.screenshot.width, step.screenshot.height
            for item in el.listed(step):
                listed += 1
                x1, y1, x2, y2 = item.bounds
                assert 0 <= x1 < x2 <= w and 0 <= y1 < y2 <= h, item
                assert item.label, item  # its own, its content's, or (a described type) its state and place
                assert "\n" not in item.label
            if step.action.type in ("click", "long_press") and step.elements:
                target = el.tap_target(step)
                unnamed_taps += target is not None and not target.label
    return listed, unnamed_taps


def test_real_androidcontrol_listings_are_on_screen_and_named(ac_episodes):
    listed, unnamed_taps = _check_listings(ac_episodes)
    assert listed > 100 and unnamed_taps == 0
    taps = [step for ep, _ in ac_episodes for step in ep.steps if step.action.type == "click"]
    assert taps and all(el.tap_target(step) is not None for step in taps)  # "Close ad" is its own control


def test_sample_taps_never_address_a_nameless_element(sample_episodes):
    listed, unnamed_taps = _check_listings(sample_episodes)
    assert listed > 500 and unnamed_taps == 0


def test_a_long_label_is_cut():
    link = Element(0, (0, 0, 500, 100), text="ref=" + "x" * 200, flags=("clickable",) + V)
    (item,) = el.listed(_step(Action("back"), [link]))
    assert len(item.label) == el.LABEL_CHARS and item.label.endswith("…") and item.label.startswith("ref=xx")
