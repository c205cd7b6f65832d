"""Hindsight found in the data: text a reasoning names that only a later screen shows (``future_screen_text``).

Wording rules (:mod:`sftdata.checks.hindsight`) catch "点击后进入了…"; they miss "设置页就出来了" or "the Wi-Fi
list now shows Home-5G" said in words they were not written for. This check reads the screens instead: a word of
the reasoning that is on a later screen (:func:`sftdata.checks.screen_text.screen_texts`: on-screen accessibility
nodes, DOM text or OCR lines) but on no screen up to the current one, not in the goal and not typed or opened by
the agent so far, can only come from the future. Candidates are the quoted spans of the text and the later
screens' labels, or their parts between separators (``好评率 98% · 5.3万人已购`` -> ``好评率 98%``), that occur
in it, spaces ignored (at least :data:`MIN_CJK` CJK or :data:`MIN_LATIN` Latin characters, so that "确定" or
"OK" in a plan is not evidence; a price such as ``¥459`` counts). A screen without any text is unknown, not empty: it neither
adds known words nor supplies future ones.

>>> from sftdata.model import Action, Element, Episode, Screenshot, Step
>>> shot = Screenshot("0" * 64, "x.png", 1080, 2400)
>>> def screen(i, *labels, action=Action("click", point=(5, 5))):
...     els = [Element(j, (0, 100 * j, 1080, 100 * j + 90), text=t, flags=("visible",)) for j, t in enumerate(labels)]
...     return Step(i, shot, action, elements=els)
>>> ep = Episode("e", "sample", "打开蓝牙", [screen(0, "设置", "显示"), screen(1, "蓝牙", "已配对的设备"),
...                                        screen(2, "蓝牙", "已配对的设备", action=Action("done"))])
>>> future_screen_text("点击“设置”，应该能找到蓝牙开关。", ep, 0)
[]
>>> future_screen_text("点击“设置”，已配对的设备列表就出来了。", ep, 0)
[FutureText(word='已配对的设备', screen=1)]
>>> later_screen_words("点“设置”，进去后已配对的设备在最上面。", ep, 0)
[FutureText(word='已配对的设备', screen=1)]
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..model import Episode
from .calls import CJK_CLASS, grammar_word, normalize
from .decision import quotes_in
from .gui_terms import SEARCH_BOX, TEXT_BOX, translations
from .screen_text import PRICE as _PRICE, element_texts, screen_texts, visible_elements
from .target_evidence import is_text_box

MIN_CJK = 3  # an unquoted later-screen label must have at least this many CJK characters...
MIN_LATIN = 5  # ...or this many Latin letters/digits to count as named
MIN_QUOTED = 2  # a quoted span of this length or more is a name
_CJK = re.compile(rf"[{CJK_CLASS}\u3040-\u30ff]")
_SPACES = re.compile(r"\s+")
_COMMAS = re.compile(r"[，,、；;]+")  # a known label's: 购物车 0 件 is 购物车，0 件商品 said without its comma
_SEPARATORS = re.compile(r"\s*[·•|/，,、:：;；()（）]\s*")
_MODEL = re.compile(r"\d.*[a-z]|[a-z].*\d", re.I)  # a model number such as WH-1000XM4
_WORD = re.compile(r"[a-z0-9]")
_COUNTER = re.compile(r"(\d{1,4})\s*/\s*(\d{1,4})")
_COUNTED = re.compile(r"[个件张条项次位只本台份篇首款封页组]")  # a word that opens with a measure word follows a number


# a label that is only the kind of a box (an unnamed search box's ``搜索框``): a common noun, which names a later
# screen's box no more than one the current screen shows (the home screen's Google bar)
BOX_KINDS = frozenset(SEARCH_BOX + TEXT_BOX)


def _box_shown(episode: Episode, index: int) -> bool:
    """Does the screen of step ``index`` show a box one types into, or a search bar (``Google 搜索 Search``)?"""
    return any(is_text_box(e) or _SEARCH.search(" ".join(element_texts(e))) for e in visible_elements(episode.steps[index]))


_SEARCH = re.compile(r"搜索|\bsearch\b", re.I)


@dataclass(frozen=True)
class FutureText:
    """``word`` of the text, first shown on screen ``screen`` (a step index, 0-based)."""

    word: str
    screen: int


def _weight(text: str) -> tuple[int, int]:
    return len(_CJK.findall(text)), len(_WORD.findall(text))


def _long_enough(text: str) -> bool:
    cjk, latin = _weight(text)
    return cjk >= MIN_CJK or latin >= MIN_LATIN or (cjk >= 2 and latin >= 2)


def known_texts(episode: Episode, index: int) -> list[str]:
    """What the agent can know at step ``index``: every screen so far (and a web page's address), the goal, what
    it typed and opened."""
    known = [normalize(episode.goal or "")]
    for step in episode.steps[:index + 1]:
        known += screen_texts(step)
        action = step.action
        touched = [action.element] if action.element is not None else []
        touched += [e for e in step.elements if action.point is not None and e.contains(action.point)]
        known += [t for e in touched for t in element_texts(e)]
        known += [normalize(v) for v in (action.text, action.app, action.url, step.url) if v]
    return [k for k in known if k]


def _is_known(word: str, known: str) -> bool:
    """``known``: the flat known texts (see :func:`_flat`) joined by NUL, so one search answers."""
    flat = _COMMAS.sub("", _flat(word))
    return bool(flat) and flat in known


def _flat(text: str) -> str:
    """Without spaces: "好评率 98%" and "好评率98%" are one name."""
    return _SPACES.sub("", text)


def _names(label: str) -> list[str]:
    """The whole label and its parts between separators (``好评率 98% · 5.3万人已购`` -> ``好评率 98%``,
    ``5.3万人已购``, ``好评率``...), the long enough ones; a price (``¥459``, ``$230.00``) counts as a name, a
    single English word of a longer label (``products`` of ``Search products``) does not."""
    words = [p.strip() for p in label.split()  # not "products" alone, nor a counted unit ("个对话" of "1 个对话")
             if (_CJK.search(p) or _MODEL.search(p)) and not _COUNTED.match(p)]
    parts = [label] + [p.strip() for p in _SEPARATORS.split(label)] + words
    out = []
    for part in parts:
        if part and part not in out and (_long_enough(part) or _PRICE.fullmatch(part)):
            out.append(part)
    return out


def _later_screens(episode: Episode, index: int):
    for step in episode.steps[index + 1:]:
        texts = screen_texts(step)
        if texts:
            yield step.index, texts


_TASK_SENTENCE = re.compile(r"(?:^|(?<=[。！？!?\n])|(?<=\.\s))\s*(?:(?:the |my |our )?(?:task|goal)\b|任务|目标)(?:[^。！？!?\n.]|\.(?!\s|$))*"
                            r"(?:[。！？!?\n]|\.(?=\s|$)|$)", re.I)


def without_task(text: str) -> str:
    """``text`` less its sentences that open with the task (``任务是…加一件到购物车。``): the goal's words, perhaps
    translated, not a later screen's.

    >>> without_task("任务是把鞋加到购物车。先打开商城。")
    '先打开商城。'
    """
    return _TASK_SENTENCE.sub(" ", text).strip()


# a thing said to be absent from the screen: what follows the negation is no word of a later screen
_ABSENT = re.compile(r"(?:还)?(?:没有|没|并无|不见)(?:任何)?(?:可点的)?[^，,。；;、\s]{0,8}"
                     r"|[^，,。；;、\s]{1,8}?(?:也|都)?还?没(?:有)?(?:出来|出现|显示|加载出来|弹出来?)"  # 搜索框也还没出来
                     r"|\b(?:no|without|there's no|there is no|not yet any)\s+(?:[\w'-]+\s+){0,2}[\w'-]+", re.I)


_JSON_KEY = re.compile(r"[\"“]\w+[\"”]\s*[:：]")  # {"thought": …, "action": …}: a field's name, not a label


def future_screen_text(text: str, episode: Episode, index: int) -> list[FutureText]:
    """The words of ``text`` that only a screen after step ``index`` shows (first such screen each), in order; a
    sentence that restates the task is the goal's (:func:`without_task`)."""
    if not isinstance(text, str) or not text.strip() or index + 1 >= len(episode.steps):
        return []
    text = _ABSENT.sub(" ", without_task(_JSON_KEY.sub(" ", text)))  # 没有搜索框: said absent, of this screen
    if not any(True for _ in _later_screens(episode, index)):
        return []
    known = "\x00".join(_COMMAS.sub("", _flat(k)) for k in known_texts(episode, index))
    if not any(screen_texts(s) for s in episode.steps[:index + 1]):
        return []  # nothing is known about the screens so far: absence proves nothing
    box_shown = _box_shown(episode, index)
    body = _flat(normalize(text))
    found: list[FutureText] = []
    seen: set[str] = set()
    quoted = [normalize(q) for q in quotes_in(text)]
    for later_index, texts in _later_screens(episode, index):
        for label in texts:
            if label in seen or _is_known(label, known) or (label in BOX_KINDS and box_shown):
                continue
            word = next((q for q in quoted if q and (q == label or (len(q) >= MIN_QUOTED and q in label
                                                                      and _long_enough(q)))
                         and not _is_known(q, known)), None)
            if word is None:
                word = next((n for n in _names(label) if _flat(n) in body and not _is_known(n, known)
                             and not grammar_word(n, text)), None)
            if word is None and (m := _COUNTER.fullmatch(label)) and re.search(
                    rf"(?<!\d){m.group(1)}\s*(?:/|of|out of)\s*{m.group(2)}(?!\d)"
                    rf"|(?<!\d){m.group(2)}\s*张(?:照片)?(?:里|中)的?第\s*{m.group(1)}\s*张"  # 30 张里的第 1 张
                    rf"|第\s*{m.group(1)}\s*张\s*[，,/（(]?\s*共\s*{m.group(2)}(?!\d)", text):
                word = label  # a viewer's position, 8 / 30: the agent cannot know it before it is shown
            if word is None or word in seen:
                continue
            seen.update((label, word))
            found.append(FutureText(word, later_index))
    return found


_TOKEN = re.compile(rf"[{CJK_CLASS}\u3040-\u30ff]{{2,}}|[a-z0-9][a-z0-9'&.-]*[a-z0-9]", re.I)
MIN_TOKEN_LATIN = 4  # a later screen's word of this many Latin characters (or two CJK) in a text is a doubt


def later_screen_words(text: str, episode: Episode, index: int) -> list[FutureText]:
    """The words of ``text`` (two CJK characters or :data:`MIN_TOKEN_LATIN` Latin ones, a whole word of a later
    screen's label) that only a screen after step ``index`` shows: not enough to call it hindsight
    (:func:`future_screen_text` asks for longer names), enough to doubt it (``results come back with Family
    earbuds`` where only the next screen shows ``Family earbuds mini #1``)."""
    if not isinstance(text, str) or not text.strip() or index + 1 >= len(episode.steps):
        return []
    if not any(screen_texts(s) for s in episode.steps[:index + 1]):
        return []  # nothing is known about the screens so far: absence proves nothing
    goal_terms = [t for _, t in translations(normalize(episode.goal or ""))]  # photos for a goal's 照片
    known = "\x00".join(_COMMAS.sub("", _flat(k)) for k in [*known_texts(episode, index), *goal_terms])
    box_shown = _box_shown(episode, index)
    said = {m.group().lower() for m in _TOKEN.finditer(normalize(text))}
    body = _flat(normalize(text))
    found: list[FutureText] = []
    seen: set[str] = set()
    for later_index, texts in _later_screens(episode, index):
        for label in texts:
            for m in _TOKEN.finditer(label):
                word = m.group().lower()
                cjk = _CJK.match(word) is not None
                if word in seen or (not cjk and len(word) < MIN_TOKEN_LATIN) or _is_known(word, known) \
                        or grammar_word(word, text) or (word in BOX_KINDS and box_shown):
                    continue
                if (word in body) if cjk else (word in said):
                    seen.add(word)
                    found.append(FutureText(word, later_index))
    return found


# a figure a screen shows: a price, a time of day, a share, a decimal, a number of three digits or more (not a counter
# such as 9/30, which one swipe back from 10/30 tells, nor a goal's ordinal said in digits, the 13th)
_FIGURE = re.compile(r"(?<![\d/.:])(?:[¥$€£]\s*)?\d+(?:[.:]\d+)*\s*%?(?![\d/.:])")


def later_figures(text: str, episode: Episode, index: int) -> list[FutureText]:
    """The figures of ``text`` (``¥129``, ``16:16``, ``62%``, ``$418.99``) that no screen so far, the goal or the
    history shows and a later screen does: what only acting tells, however the text hedges it (``再往上滑，就能看到
    Sony ¥129``), wherever it stands (a deliberation weighs its options before its decision)."""
    if not isinstance(text, str) or index + 1 >= len(episode.steps):
        return []
    if not any(screen_texts(s) for s in episode.steps[:index + 1]):
        return []
    known = _flat("\x00".join(known_texts(episode, index)))
    numbers = set(re.findall(r"\d+", known))  # a figure whose digits the screens so far show as a number is known
    later = [(i, _flat("\x00".join(texts))) for i, texts in _later_screens(episode, index)]
    found = []
    for m in _FIGURE.finditer(_COUNTER.sub(" ", normalize(text))):
        figure = _flat(m.group())
        digits = re.sub(r"\D", "", figure)
        if (len(digits) < 3 and not re.search(r"[¥$€£%.:]", figure)) or figure in known or digits in numbers:
            continue
        shown = next((i for i, blob in later if re.search(rf"(?<![\d.:]){re.escape(figure)}(?![\d])", blob)), None)
        if shown is not None:
            found.append(FutureText(m.group().strip(), shown))
    return found


def future_detail(found: list[FutureText], index: int) -> str:
    """A sentence for the check's failure: the words and the screens they come from (1-based).

    >>> future_detail([FutureText("已配对的设备", 1)], 0)
    '“已配对的设备” appears on screen 2, not on screens 1–1'
    """
    parts = [f"“{f.word}” appears on screen {f.screen + 1}" for f in found[:3]]
    return "; ".join(parts) + f", not on screens 1–{index + 1}"
