"""Seed 002 function calls and the canonical actions they stand for.

Phones: seed 002's functions (``click``, ``long_press``, ``input``, ``swipe``, ``open_app``, ``done``) extended
with ``press_back``, ``press_home`` and ``wait``, which AndroidControl needs. Web pages (``episode.web``):
``click``, ``type`` (target and text), ``select`` (target and the option's value), ``scroll`` (the direction the
*view* moves), ``go_to_url``, ``go_back``, ``new_tab`` and ``done``. An action a platform's table lacks keeps
the other platform's name (a ``wait`` on a web page is ``wait``).

>>> from sftdata.model import Action
>>> function_name(Action("back")), function_name(Action("back"), web=True)
('press_back', 'go_back')
>>> expected_parameters(Action("swipe", point=(540, 1600), end=(540, 800)))
{'direction': 'UP'}
>>> expected_parameters(Action("select", point=(10, 10), text="Business"))
{'value': 'Business'}
"""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Any

from ..model import ELEMENT_ACTIONS, Action, Element, Step

ITEM_FIELDS = ("thought", "action_summary", "observation", "memory")  # optional, next to reasoning + function

FUNCTION_OF = {"click": "click", "long_press": "long_press", "input": "input", "swipe": "swipe",
               "open_app": "open_app", "back": "press_back", "home": "press_home", "wait": "wait", "done": "done"}
WEB_FUNCTION_OF = {"click": "click", "type": "type", "select": "select", "scroll": "scroll", "go_to_url": "go_to_url",
                   "back": "go_back", "new_tab": "new_tab", "done": "done"}
ACTION_OF = {**{v: k for k, v in WEB_FUNCTION_OF.items()}, **{v: k for k, v in FUNCTION_OF.items()}}
FUNCTIONS = tuple(FUNCTION_OF.values())
WEB_FUNCTIONS = tuple(WEB_FUNCTION_OF.values())
TARGET_FUNCTIONS = ("click", "long_press", "type", "select")  # functions with a target_element parameter
# web attributes that name an element without visible text, in the order they are tried
NAMING_ATTRS = ("aria_label", "aria-label", "title", "alt", "placeholder", "label")
ID_ATTRS = ("name", "id")

_SPACE = re.compile(r"\s+")


def function_name(action: Action, web: bool = False) -> str:
    first, other = (WEB_FUNCTION_OF, FUNCTION_OF) if web else (FUNCTION_OF, WEB_FUNCTION_OF)
    return first.get(action.type) or other[action.type]


def expected_parameters(action: Action) -> dict[str, Any]:
    """The parameters the ground truth fixes exactly (targets are free text, so not here): typed ``text``,
    a select's ``value``, a swipe's finger or a scroll's view ``direction``, ``app_name``, ``url``."""
    t = action.type
    if t in ("input", "type"):
        return {"text": action.text}
    if t == "select":
        return {"value": action.text}
    if t in ("swipe", "scroll"):
        return {"direction": (action.direction or "").upper()}
    if t == "open_app":
        return {"app_name": action.app}
    if t == "go_to_url" or (t == "new_tab" and action.url):
        return {"url": action.url}
    return {}


def longest_first(text: str) -> tuple[int, str]:
    """A sort key: longer texts first, texts of one length in a fixed order (a set's own order changes from run
    to run, and which of two labels of one length is read first can change a reading).

    >>> sorted({"dark theme", "brightness", "on"}, key=longest_first)
    ['brightness', 'dark theme', 'on']
    """
    return -len(text), text


@lru_cache(maxsize=1 << 16)  # the same labels and words are normalised millions of times over a corpus
def normalize(text: str) -> str:
    """Case-, width- and space-insensitive form for 'does this text mention that one' checks.

    >>> normalize("  Ｍobiles\\n Category ")
    'mobiles category'
    """
    return _SPACE.sub(" ", unicodedata.normalize("NFKC", text)).strip().lower()


# English words of grammar, not names: a later page's "About" link is not what "the goal is about Maple Street"
# says, nor a "From" field what "pick Business from the Cabin dropdown" names
FUNCTION_WORDS = frozenset("about above after again along among around below before behind beside between beyond "
                           "during every first from into never onto other over since still their there these those "
                           "though through under until where which while with within without would could should"
                           .split())


def grammar_word(name: str, text: str) -> bool:
    """``name`` (lower case) is a word of grammar (:data:`FUNCTION_WORDS`) that ``text`` writes in lower case only.

    >>> grammar_word("about", "the goal is about Maple Street"), grammar_word("from", "Tap From, then type")
    (True, False)
    """
    return name in FUNCTION_WORDS and not re.search(rf"\b(?:{name[:1].upper()}{name[1:]}|{name.upper()})\b", text)


GROUNDING_PREFIX = 24


def web_label(element: Element) -> str:
    """What names a web element, '' when nothing does: its visible text, else its description (aria label,
    title, alt) or hint (placeholder), else a naming attribute, else its ``name`` or ``id``. A dropdown is named
    by its label before its text (the text of a ``select`` is every option).

    >>> web_label(Element(0, (0, 0, 9, 9), tag="input", attrs=(("name", "q"),)))
    'q'
    >>> web_label(Element(0, (0, 0, 9, 9), text="Economy Business", tag="select", attrs=(("aria_label", "Cabin"),)))
    'Cabin'
    """
    named = [element.desc, element.hint] + [element.attr(a) for a in NAMING_ATTRS]
    if element.attr("type").lower() in ("submit", "button", "reset"):
        named.append(element.attr("value"))
    order = named + [element.text] if element.tag.lower() == "select" else [element.text] + named
    for value in order + [element.attr(a) for a in ID_ATTRS]:
        if value and value.strip():
            return _SPACE.sub(" ", value).strip()
    return ""


def element_label(element: Element) -> str:
    """An element's grounding text: :func:`web_label` for a web element (one with a tag or attributes), else its
    accessibility text or content description."""
    if element.tag or element.attrs:
        return web_label(element)
    return (element.text or element.desc).strip()


def target_element(step: Step) -> Element | None:
    """The element a click/long-press/type/select acts on: the action's own element, else the smallest visible
    labelled element containing the point (an unlabelled own element when nothing is labelled), else None."""
    action = step.action
    if action.type not in ELEMENT_ACTIONS:
        return None
    candidates = [action.element] if action.element is not None else []
    if action.point is not None:
        candidates += sorted((e for e in step.elements if e.contains(action.point) and e.has("visible") and e.area > 0),
                             key=lambda e: e.area)
    return next((e for e in candidates if element_label(e)), None)


def grounding_label(step: Step) -> str | None:
    """The text a click/long-press (and, on web pages, type/select) target must mention, if the step knows
    one: the label of :func:`target_element` (:func:`element_label`). Long labels are cut to their first 24
    characters (quoting a paragraph is not required)."""
    element = target_element(step)
    if element is None:
        return None
    return normalize(element_label(element))[:GROUNDING_PREFIX].strip() or None


def mentions(haystack: str, needle: str) -> bool:
    return normalize(needle) in normalize(haystack)


CJK_CLASS = "\u3400-\u9fff"
"""The CJK ideographs (the unified block and extension A), for a character class: ``rf"[A-Za-z{CJK_CLASS}]"``."""
CJK = re.compile(f"[{CJK_CLASS}]")
"""One CJK ideograph."""
ZH_DIGITS = {c: i + 1 for i, c in enumerate("一二三四五六七八九十")} | {"两": 2}
"""The Chinese numerals one to ten (``两`` is two), as numbers."""
EN_DIGITS = {w: i + 1 for i, w in enumerate("one two three four five six seven eight nine ten".split())}
"""The English numerals one to ten, as numbers."""


def count_of(word: str) -> int | None:
    """The number a count word says (``3``, ``three``, ``三``, ``两``), None for any other word.

    >>> count_of("three"), count_of("两"), count_of("12"), count_of("few")
    (3, 2, 12, None)
    """
    word = word.strip().lower()
    return int(word) if word.isdigit() else ZH_DIGITS.get(word) or EN_DIGITS.get(word)


@lru_cache(maxsize=1 << 12)
def word_pattern(term: str, joiners: str = "") -> re.Pattern[str]:
    """The pattern of ``term`` (normalised) as a whole word: an end of it that is a Latin letter or a digit may
    not run on into another letter or digit (nor into one of ``joiners``); a CJK end may (Chinese has no spaces)."""
    edge = "a-z0-9" + re.escape(joiners)
    head = rf"(?<![{edge}])" if term[:1].isascii() and term[:1].isalnum() else ""
    tail = rf"(?![{edge}])" if term[-1:].isascii() and term[-1:].isalnum() else ""
    return re.compile(head + re.escape(term) + tail)


def said_as_word(term: str, text: str, *, joiners: str = "", shortest: int = 1, shortest_cjk: int = 1) -> bool:
    """``text`` says ``term`` as a whole word, case, width and spaces aside (see :func:`word_pattern`); a term
    shorter than ``shortest`` characters (``shortest_cjk`` when it holds a CJK character) is never said.
    ``joiners``: characters that join words (``-`` keeps ``in`` out of ``check-in``).

    >>> said_as_word("Save", "tap SAVE now"), said_as_word("save", "autosave"), said_as_word("保存", "点保存按钮")
    (True, False, True)
    >>> said_as_word("in", "check-in"), said_as_word("in", "check-in", joiners="-")
    (True, False)
    >>> said_as_word("ok", "tap ok", shortest=4), said_as_word("确定", "点确定", shortest=4, shortest_cjk=2)
    (False, True)
    """
    flat = normalize(term)
    if len(flat) < (shortest_cjk if CJK.search(flat) else shortest) or not flat:
        return False
    return word_pattern(flat, joiners).search(normalize(text)) is not None
