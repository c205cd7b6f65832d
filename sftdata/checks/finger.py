"""The finger's direction a clause says: finger words (滑, swipe, 下拉, ``finger moves up``) as said, view words
(滚动, 翻, scroll) reversed, a movement from one side to another (``right-to-left``, ``从右往左``) toward its end."""
from __future__ import annotations

import re

from .quoting import mask_quotes

_DIRECTIONS = {"上": "up", "下": "down", "左": "left", "右": "right"}
_OPPOSITE = {"up": "down", "down": "up", "left": "right", "right": "left"}
FINGER_ZH = re.compile(r"(?:手指)?(?:向|往|朝)?(?<![上下左右])([上下左右])(?:方)?(?:(?<=[向往朝][上下左右])一)?(?:滑|划|拖|拉|推(?!荐|送|广))|(?<![上下左右])([上下左右])滑|下拉(?=[^框菜单列表选项里中]|$)|上拉")
_VIEW_ZH = re.compile(r"(?:向|往|朝)?(?<![上下左右])([上下左右])(?:方)?(?:滚|翻)|(?:滚动|翻)(?:到|至)?(?:页面|列表)?(?:的)?([上下])(?:方|面|部)")
FINGER_EN = re.compile(r"\b(?:swipe|swiping|flick|drag|dragging|pull|pulling)\s+(?:\w+\s+){0,3}?(up|down|left|right)(?:wards?)?\b"
                        r"|\b(up|down|left|right)(?:ward)?\s+swipe\b", re.I)
FINGER_MOVES = re.compile(r"\b(?:finger|content)\s+(?:(?:moves?|moving|going|goes|travels?|drags?|dragging|slides?|sliding|pushes|pushing"
                           r"|sweeps?|heads?|runs?)\s+)?(up|down|left|right)(?:wards?)?\b"
                           r"|\bfrom (?:the )?(left|right|top|bottom) to (?:the )?(left|right|top|bottom)\b"
                           r"|从([上下左右])(?:边|侧|方)?(?:往|向|到)([上下左右])|手指\s*(?:要|会|是)?\s*(?:向|往|朝|(?=[上下左右][移滑划拖推动]))([上下左右])", re.I)  # 手指向上, 手指上移
_FROM_TO = re.compile(r"\b(left|right|top|bottom)\s*(?:(?:-|–|→|->)\s*(?:to\s*-?\s*)?|\s+to\s+)(?:the\s+)?"
                      r"(left|right|top|bottom)\b(?!\s+(?:side|edge|corner|column|half))", re.I)
_SIDE = {"top": "up", "bottom": "down", "left": "left", "right": "right", "上": "up", "下": "down", "左": "left",
         "右": "right"}
_VIEW_EN = re.compile(r"\b(?:scroll|scrolling|page)\s+(?:\w+\s+){0,3}?(up|down|left|right)(?:wards?)?\b", re.I)
_REVEAL_BELOW = re.compile(r"(?:浏览|查看|看看|看到)更多|查看下方|看下方|下方(?:的)?更多|更多(?:的)?(?:内容|选项|商品|结果|条目)|加载更多|下面的内容"
                           r"|\b(?:see|reveal|load|show) (?:more|what is below|the rest)\b", re.I)


def finger_direction(clause: str) -> str | None:
    """The finger direction a clause states: finger words (滑, swipe, 下拉) as said, view words (滚动, 翻, scroll)
    reversed; a swipe 'to see more below' without a direction word is up.

    >>> finger_direction("向下滚动页面"), finger_direction("手指向下滑动"), finger_direction("scroll down the list")
    ('up', 'down', 'up')
    """
    masked = mask_quotes(clause)
    m = _FROM_TO.search(masked)
    if m:  # right-to-left, from right to left: toward the end side, whatever else the clause says
        return _SIDE[m.group(2).lower()]
    m = FINGER_MOVES.search(masked)
    if m:  # finger up / from right to left / 从右往左
        return (m.group(1) or "").lower() or _SIDE[(m.group(3) or m.group(5) or m.group(6)).lower()]
    m = FINGER_ZH.search(masked)
    if m:
        if m.group().startswith("下拉"):
            return "down"
        if m.group().startswith("上拉"):
            return "up"
        said = _DIRECTIONS[m.group(1) or m.group(2)]
        if said == "down" and _REVEAL_BELOW.search(masked) and not re.search(r"手指|finger", masked, re.I):
            return None  # 向下滑动浏览更多: often the view's direction in everyday Chinese; ambiguous, so unsaid
        return said
    m = _VIEW_ZH.search(masked)
    if m:
        return _OPPOSITE[_DIRECTIONS[m.group(1) or m.group(2)]]
    m = FINGER_EN.search(masked)
    if m:
        return (m.group(1) or m.group(2)).lower()
    m = _VIEW_EN.search(masked)
    if m:
        return _OPPOSITE[m.group(1).lower()]
    if _REVEAL_BELOW.search(masked):
        return "up"
    return None


_SOUGHT_BELOW = re.compile(r"\b(?:further|farther|lower) down\b|\b(?:until|till|to|toward|towards) the (?:very )?(?:end|bottom) of the"
                           r" (?:list|page|feed|results)\b|更下面|更靠下|下面还有|下方还有|后面还有|直到(?:列表)?(?:底部|最底下|到底)"
                           r"|\b(?:see|reveal|load|show)\s+(?:even\s+|some\s+|a\s+few\s+)?more\b"  # to see even more: what comes next
                           r"|\b(?:at|near)\s+the\s+bottom\b(?=[^.;]{0,40}\b(?:into|in)\s+(?:full\s+)?view\b)"  # the card at the
                           r"|\bat\s+the\s+bottom\b[^.;]{0,12}\bfully\b", re.I)  # bottom, brought fully into view
_SOUGHT_ABOVE = re.compile(r"\b(?:further|farther|higher) up\b|\bback (?:at|to|near) the top\b|更上面|更靠上"
                           r"|上面还有|上方还有|回到顶部|回到最上面", re.I)
_RETURN = re.compile(r"\bback (?:up|down)\b|\bgo(?:ing)? back\b|往回|回去|退回", re.I)
_SCROLLED = re.compile(r"\b(?:scroll|scrolling|swipe|swiping|page|paging|go|going|keep)\s+$", re.I)
_DENIED_BEFORE = re.compile(r"(?:\b(?:nothing|no|not|none)\b|没|不)[^.。;；,，]{0,20}$", re.I)  # nothing better further down


def sought_direction(text: str) -> str | None:
    """The finger direction that brings into view where ``text`` says the thing sought is: further down, up;
    higher up, down; None when it says neither or both (the check of a swipe said in view words, whose direction
    two conventions read either way).

    >>> sought_direction("Keep scrolling; Airplane mode might be further down"), sought_direction("上面还有几款")
    ('up', 'down')
    """
    masked = mask_quotes(text)
    if _RETURN.search(masked):
        return None  # further down it only gets pricier, so scroll back up: where it was, not where it is

    def said(pattern: re.Pattern[str]) -> bool:  # (not the way a scroll goes: Scroll further up)
        return any(not _DENIED_BEFORE.search(masked[:m.start()]) and not _SCROLLED.search(masked[:m.start()])
                   for m in pattern.finditer(masked))
    below, above = said(_SOUGHT_BELOW), said(_SOUGHT_ABOVE)
    return None if bool(below) == bool(above) else "up" if below else "down"


FINGER = re.compile(r"手指|\bfinger\b", re.I)
"""The finger named: a clause that names it says how a swipe goes (``so the finger moves left again``), no outcome."""

GLOSS = re.compile(r"[（(]\s*(?:the\s+)?(?:finger|content|page|list|view|screen|feed|手指|内容|页面|列表)[^()（）]{0,24}?"
                   r"(?:up|down|left|right|上|下|左|右)[^()（）]{0,24}[)）]"
                   r"|(?:—|–|--|\s-\s)\s*(?:the\s+|my\s+)?(?:finger|手指)\s*(?:moves?|moving|goes|going|travels|slides|往|向|朝)?\s*"
                   r"(?:up|down|left|right|upward|downward|上|下|左|右)[滑划拖移]?\s*(?=$|[.。,，;；\n])"
                   r"|\b(?:the\s+)?(?:finger|content|list|page|view|feed)\s+(?:moves|scrolls|goes|slides|travels)\s+"
                   r"(?:up|down|left|right|upward|downward|on|along)\b(?=\s*(?:$|[.。,，;；)）\n]|so\b))"
                   r"|(?<![^\s，,：:(（])(?:列表|内容|页面)(?:就|会)?(?:往|向)[上下左右](?:走|移|滚|动)(?:一点|一些|一截)?(?=\s*(?:$|[。，,；;)）\n]))",
                   re.I)  # (finger moves up), （手指向下）, … — finger moves down, content moves down: how, not what happens


def mask_gloss(text: str) -> str:
    """``text`` with each swipe gloss blanked to spaces of its length (offsets kept): it says how, not what then.

    >>> mask_gloss("Swipe up (finger moves up).").split()
    ['Swipe', 'up', '.']
    """
    return GLOSS.sub(lambda m: " " * len(m.group()), text)


def finger_gloss(text: str) -> str | None:
    """The finger's direction said as a gloss of its own, beside a swipe that names none (``往回滑一点，手指向下``,
    ``scroll back a little, finger moving down``): explicit finger words only.

    >>> finger_gloss("手指向下。"), finger_gloss("so it's in view")
    ('down', None)
    """
    m = FINGER_MOVES.search(mask_quotes(text))
    return ((m.group(1) or "").lower() or _SIDE[(m.group(3) or m.group(5) or m.group(6)).lower()]) if m else None

