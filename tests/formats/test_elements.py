"""Element helpers shared by the element formats: which elements are interactive, how they are listed, which
one a tap addresses, which field an input types into."""
from __future__ import annotations

import pytest

from sftdata.formats import CannotExpress, StepContext
from sftdata.formats import elements as el
from sftdata.model import Action, Element, Episode, Screenshot, Step

SHOT = Screenshot("0" * 64, "x.png", 1080, 2400)


def _step(action: Action, elements: list[Element]) -> Step:
    return Step(0, SHOT, action, elements=elements)


def test_interactive_needs_visibility_area_and_an_interaction_flag():
    els = [Element(0, (0, 0, 100, 100), text="a", flags=("clickable", "visible")),
           Element(1, (0, 0, 100, 100), text="hidden", flags=("clickable",)),
           Element(2, (5, 5, 5, 50), text="flat", flags=("clickable", "visible")),
           Element(3, (0, 0, 100, 100), text="plain", flags=("focusable", "visible")),
           Element(4, (0, 0, 100, 100), desc="box", flags=("checkable", "visible"), class_name="android.widget.CheckBox"),
           Element(5, (0, 0, 100, 100), hint="name", flags=("editable", "visible"), class_name="android.widget.EditText")]
    step = _step(Action("back"), els)
    assert [e.index for e in el.interactive(step)] == [0, 4, 5]
    assert el.listing(step) == ("[0]<View> 'a'\n[1]<CheckBox> 'box'\n"
                                "[2]<EditText> 'name' (text input - use enter_text action)")


def test_tap_target_prefers_the_smallest_enclosing_tappable_element():
    row = Element(0, (0, 100, 1080, 300), flags=("clickable", "visible"))
    button = Element(1, (900, 150, 1000, 250), desc="more", flags=("clickable", "visible"))
    scroller = Element(2, (0, 0, 1080, 2400), flags=("scrollable", "visible"))
    label = Element(3, (20, 150, 400, 250), text="Wi-Fi", flags=("visible",))
    assert el.tap_target(_step(Action("click", point=(950, 200), element=button), [scroller, row, button])) == button
    assert el.tap_target(_step(Action("click", point=(100, 200), element=label), [scroller, row, button, label])) == row
    # only a scroll container under the point: no tap target (its centre is not what was touched)
    assert el.tap_target(_step(Action("click", point=(100, 1200)), [scroller])) is None


def test_missing_tree_and_unaddressable_taps_raise_their_reasons():
    ep = Episode("e", "sample", "g", [_step(Action("click", point=(1, 1)), []), Step(1, SHOT, Action("done"))])
    with pytest.raises(CannotExpress) as e:
        el.require_tap_target(StepContext(ep, 0))
    assert e.value.reason == "no_accessibility_tree"
    ep.steps[0] = _step(Action("click", point=(1, 1)), [Element(0, (500, 500, 600, 600), flags=("clickable", "visible"))])
    with pytest.raises(CannotExpress) as e:
        el.require_tap_target(StepContext(ep, 0))
    assert e.value.reason == "element_not_indexed"


def test_swipe_area_and_lookup_by_bounds():
    outer = Element(0, (0, 0, 1080, 2400), flags=("scrollable", "visible"))
    inner = Element(1, (0, 500, 1080, 900), flags=("scrollable", "visible"))
    step = _step(Action("swipe", point=(540, 700), end=(100, 700)), [outer, inner])
    assert el.largest_scrollable(step, (540, 700)) == outer
    assert el.largest_scrollable(step, None) is None
    assert el.by_bounds(step, (0, 500, 1080, 900)) == inner and el.by_bounds(step, (1, 2, 3, 4)) is None
