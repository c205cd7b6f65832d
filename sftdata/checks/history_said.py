"""What earlier steps did, said after the decision: checked against the episode's history, not refused for its words.

A writer who justifies a decision often says how the screen got here: ``照片已经翻过了``, ``列表已经滚过了``, ``The view has
shifted``, ``Tickets was set to 2 earlier``, ``Everything is set``, ``已经回到主屏幕了``. The same words tell a result
when they say what this step's action brings (``向上滑。列表已经滚过了``). The history tells them apart:
:func:`earlier_done` accepts a claim when an action before this step is of the kind it names (a swipe for 滚/翻/
scrolled, a click for 点过/切过/clicked, typing or a pick for 填/set/filled, the app opened, the home key)
and this step's action is not (unless the claim says ``上一步``/``earlier`` and names another element than this
step's), and, when the claim names an element or value, an earlier action of that kind was on it.

>>> from sftdata.model import Action, Episode, Screenshot, Step
>>> shot = Screenshot("0" * 64, "x.png", 1080, 2400)
>>> ep = Episode("e", "m", "翻几张照片后回到桌面", [Step(0, shot, Action("swipe", direction="left")),
...                                             Step(1, shot, Action("home")),
...                                             Step(2, shot, Action("done"))])
>>> earlier_done("照片已经翻过了", ep, 1).strip(), earlier_done("照片已经翻过了", ep, 0)
('照片', None)
>>> earlier_done("已经回到主屏幕了", ep, 2).strip()
''
"""
from __future__ import annotations

import re
import unicodedata

from ..model import Episode
from .calls import count_of, element_label, target_element
from .gui_terms import translations
from .hedges import EARLIER_ZH
from .screen_text import screen_texts

# the kinds of action a claim names, by the action types that do them
_KINDS = {
    "swipe": (("swipe", "scroll"),
              r"(?:[左右上下]|[往向][左右上下前后回])?(?:滑|滚|翻|划)|往下拉|往上拉"
              r"|回(?=到了(?:顶部|顶端|最上面|最顶上|开头|底部|最底下|最下面))",  # 现在回到了顶部: where a swipe left it
              r"scrolled|swiped|flipped|shifted|jumped|slid|paged|moved"),
    "click": (("click",),
              r"(?<![\d地重])点(?![钟数])(?:击|开)?|(?<!长)按(?!钮|键)|切|勾",
              r"clicked|tapped|(?<!long-)(?<!long )pressed|ticked|toggled|switched|checked|confirmed"),
    "long_press": (("long_press",), r"长按", r"long[- ]press(?:ed)?"),
    "type": (("type", "input", "select"),
             r"输入?|填(?:写|入)?|选(?![项中])(?:择|好)?|设(?!置)(?:好)?|设置好",
             r"typed|entered|filled(?: in)?|set|selected|chosen|picked"),
    "open": (("open_app", "click", "long_press"), r"打开|开过|加载好|加载完", r"opened|launched|loaded"),
    "home": (("home",), r"回(?:到|了)?(?:主屏幕?|桌面)", r"back (?:on|at|to) the home screen|gone home|went home"),
    # a part of the task said finished (``the toggle is done``, ``The shoe has been added``, ``前半部分完成了``): an
    # earlier tap or typing's, when this step's action is neither
    "finish": (("click", "long_press", "type", "input", "select"),
               r"完成|做完|搞定|弄完|办完|加(?:入|进)了?购物车|保存|删(?:掉|除)|处理掉|发(?:送|出去?)",
               r"done|finished|complete|completed|handled|added|saved|deleted|sent|toggled"),
}
# a part of the task said finished by what removed or sent it (``银行那条已经删掉了``, ``the reply was sent``), and the
# controls that do it
_REMOVED = re.compile(r"删(?:掉|除)|处理掉|\b(?:deleted|removed)\b|(?P<sent>发(?:送|出去?)|\bsent\b)", re.I)
_CONTROLS = {"delete": re.compile(r"删除|\bdelete\b|\bremove\b", re.I), "send": re.compile(r"发送|\bsend\b", re.I)}
# "just" before a verb of doing: ``刚被滑过去了``, ``刚左滑到了第 7 张`` (an earlier step's, told as done)
JUST_DONE_ZH = r"刚被?(?=[滑翻划滚点按切])"
# said as done before now: 已经, 过, 上一步, already, has/was …-ed, earlier
_PAST_ZH = re.compile(r"已经|(?<![不未])已|早就|刚才|前面|" + JUST_DONE_ZH + "|" + EARLIER_ZH + r"|[滑滚翻划点按切勾输填选设开]过")
_PAST_EN = re.compile(r"\b(?:already|earlier|before|previously|last step|previous step|has|have|had|'ve|was|were"
                      r"|just|i|we|my)\b", re.I)
_EARLIER = re.compile(EARLIER_ZH + r"|刚才|" + JUST_DONE_ZH + r"|前[两二三几]步|\b(?:earlier|previously|last step|previous step|before|just (?=\w+ed\b)"
                      r"|(?:my|the) (?:first|last|previous|earlier)(?: (?:two|three|few))? (?:steps?|swipes?|flicks?|scrolls?|taps?"
                      r"|clicks?))\b", re.I)
# every field set: ``Everything is set``, ``The form is filled``, ``表单齐了``, ``都填好了``
_ALL_SET = re.compile(r"\b(?:everything|all(?: (?:the|three|two|four|of the))?(?: \w+)?|the form|both(?: \w+)?"
                      r"|every (?:field|box|input|filter))\s+(?:is|are|'s)\s+(?:now\s+|already\s+)?"
                      r"(?:set|filled(?: in)?|in place|ready)\b|\b(?:are|is)\s+(?:now\s+|already\s+)?(?:all|both)\s+(?:set|filled(?: in)?"
                      r"|in place|entered|in)\b|\b(?:filters|fields|inputs|values|boxes) (?:are|'re) (?:now\s+|already\s+)?(?:set|filled)\b"
                      r"|(?:表单|信息|条件|筛选|都)(?:已经|已)?(?:齐了|齐全|就位|到位|填好了?|填完了?|设好了?|选好了?)", re.I)
# an earlier swipe as done, the clause after it what it brought: ``After the scroll``, ``上滑之后``
_AFTER_SWIPE = (r"\bafter (?:the|my|that|this|those) (?:(?:previous|last|earlier|first) )?(?:(?:up|down|left|right)(?:ward)?[- ]?)?"
                r"(?:scroll|swipe|flick)s?(?: (?:up|down|left|right)\b)?"
                r"|\bafter (?:scrolling|swiping)\b"
                r"|(?:上滑|下滑|左滑|右滑|滑动|滚动|往上滑|往下滑|往上翻|往下翻)(?:之后|以后|后)")
# earlier swipes counted: ``two swipes in``, ``after two left swipes`` (as many before this step)
_COUNTED_SWIPES = re.compile(r"\b(?P<n>one|two|three|four|a few|several|\d+)\s+(?:(?:left|right|up|down)(?:wards?)?\s+)?"
                             r"(?:scrolls?|swipes?)\b", re.I)
# the same in Chinese: ``往后翻了两张``, ``连着左滑了三次``
_COUNTED_SWIPES_ZH = re.compile(r"(?:滑|翻|划|滚)(?:了|过)\s*(?P<n>[一二两三四五六七八九十\d]|\d+)\s*(?:次|张|下|屏|页)")
_SWIPES_DONE = re.compile(rf"{_COUNTED_SWIPES.pattern}|{_AFTER_SWIPE}"
                          r"|\b(?:scrolling|swiping)(?: back| up| down)? (?:brought|moved|put)\b"
                          r"|\b(?:the|my|that) (?:(?:up|down|left|right)[- ]?)?(?:swipe|scroll) (?:has |had )?(?:brought|moved|put)\b", re.I)
# a sentence that opens on an earlier swipe as done: what follows is what it brought (``上滑之后，…``, ``After the
# scroll, …``), when the history holds that swipe and this step's action is no swipe
OPENS_AFTER_EARLIER = re.compile(rf"^\s*(?:{_AFTER_SWIPE})", re.I)
# the same anywhere in a clause: ``The list is back at the top after my swipe down`` (the clause is what it brought)
AFTER_EARLIER = re.compile(_AFTER_SWIPE, re.I)
# a page or app said open now: ``The search page is open``, ``Settings is already up``
_OPEN_NOW = re.compile(r"\b(?:is|are|'s)\s+(?:already\s+)?(?:open|up|loaded)\b(?!\s+(?:to|at|on|for|and)\b)"
                       r"|\b(?:came|popped)\s+up\b(?=\s+(?:after|when|once)\b)", re.I)  # the keyboard came up after tapping it
# a participle told as the state now: ``The results are scrolled to the bottom``
_IS_DONE = re.compile(r"\b(?:is|are|'s|'re)\s+(?:now\s+|already\s+|all\s+)?$", re.I)
# where the subject of a part said finished starts: after a clause's mark or joining word (``…, so the toggle is done``)
_SUBJECT_CUT = re.compile(r"[，,；;:：。.!?]|\b(?:and|so|but|then|now)\b\s*", re.I)
# the earlier action a change is told with: ``The page shifted when I clicked #19``
_WHEN_I = re.compile(r"\s+(?:when|after|as)\s+(?:i|we)\s+(?P<verb>\w+ed|hit|set|put)\b", re.I)
# a typed value still where the typing put it: ``Maple Street is already in the box``, ``起点已经是 Union Station``
_ALREADY_IN = re.compile(r"\b(?:is|are|'s)\s+already\s+(?:in|there|entered|typed)\b|已经在(?:框|输入框|搜索框)(?:里|中)", re.I)
# a field said to hold a value already: ``起点已经是 Union Station``, ``The keywords box already shows data analyst``
# (held only when the value after it is one an earlier step typed or picked)
_ALREADY_SHOWS = re.compile(r"\balready\s+(?:shows|holds|reads|contains|says)\b|(?:已经|已)(?:是|显示|填着|写着)(?=\s*[“「\"A-Za-z0-9])", re.I)
# what an earlier search brought: ``The search for 蓝牙耳机 has returned a list``
_SEARCHED = re.compile(r"\b(?:the|my) (?:search|query)\b[^.;,]{0,40}?\b(?:has|have|had)\s+"
                       r"(?:returned|brought up|turned up)\b", re.I)
# how often or how far it was done, and the perfective: ``once``, ``twice``, ``一屏``, ``几张``, ``了``
_COUNT = re.compile(r"\b(?:once|twice|(?:two|three|a few|several) times)\b|[一两几二三]\s*(?:次|屏|张|下)|了", re.I)


def _done_zh(said: str, m: re.Match[str], verb: str) -> bool:
    """Is the verb ``m`` of ``said`` told as done: a mark of the past shortly before it (``已经翻``, ``刚才点了``) or
    the perfective after it (``翻过``, ``点了``, ``填好``), or after the verbs of its kind it is listed with
    (``左滑右滑都翻过``, ``勾上了``; ``verb``: the kind's pattern), and no mark of what is still to come right before it
    (``再打开``, ``要点``)?"""
    before = re.split(r"[，,。；;]", said[max(0, m.start() - 8):m.start()])[-1]  # its own clause's marks only
    if re.search(r"(?:再|要|去|将|会|准备|打算|想|先|得)\s*$", before):
        return False
    past = [p for p in _PAST_ZH.finditer(before) if not re.search(r"[再要将会]", before[p.end():])]
    listed = rf"(?:[、和与跟]?(?:{verb}))*\s*[都也]?\s*(?:{verb})?" if verb else ""
    return bool(past) or re.match(rf"{listed}\s*(?:一下|到|成|上)?\s*[过了完好]", said[m.end():]) is not None


def first_claim(said: str, start: int = 0) -> int | None:
    """Where in ``said`` (from ``start`` on) its first claim of what an earlier step did starts, with the mark of
    the past before it (``上一步上滑``, ``I already scrolled``); None when it makes none."""
    said = unicodedata.normalize("NFKC", said)
    starts = [a for a, _ in _claims(said)[0] if a >= start]
    if not starts:
        return None
    marks = [m.start() for m in (*_PAST_ZH.finditer(said), *_PAST_EN.finditer(said)) if m.start() >= start]
    return min(starts + [a for a in marks if a < min(starts) and not re.search(r"[再要将会]|\b(?:to|then|will)\b",
                                                                               said[a:min(starts)])])


def earlier_done(said: str, episode: Episode, index: int) -> str | None:
    """``said`` with its claims of what earlier steps did blanked, when every one holds in the history of step
    ``index`` of ``episode`` and none is what this step's action does (see the module doc); None when it makes no
    such claim, or one the history does not hold."""
    said = unicodedata.normalize("NFKC", said)
    spans, claimed = _claims(said)
    if not claimed:
        return None
    kinds = set(claimed)
    first = claimed[min(range(len(spans)), key=lambda k: spans[k][0])]
    if first in ("click", "long_press") and _held(first, said, episode, index, named=first == "click"):
        kinds = {first} | (kinds - {"swipe", "open", "click"})  # I clicked the #25 title and the list shifted, my
        # long-press switched the list into selection mode: what that earlier action did
    if not all(_held(kind, said, episode, index) for kind in kinds):
        return None
    rest = said
    for a, b in spans + [m.span() for m in _PAST_ZH.finditer(said)] + [m.span() for m in _PAST_EN.finditer(said)]:
        rest = rest[:a] + " " * (b - a) + rest[b:]
    return _COUNT.sub(lambda m: " " * len(m.group()), rest)


def _claims(said: str) -> tuple[list[tuple[int, int]], list[str]]:
    """The spans of ``said``'s claims of what earlier steps did, and the kind of action each names."""
    spans: list[tuple[int, int]] = []
    claimed: list[str] = []
    for m in _ALL_SET.finditer(said):
        spans.append(m.span())
        claimed.append("type")
    for m in _SWIPES_DONE.finditer(said):  # One scroll is done, two swipes in: the earlier swipes counted
        spans.append(m.span())
        claimed.append("swipe")
    for m in (*_ALREADY_IN.finditer(said), *_ALREADY_SHOWS.finditer(said)):  # Maple Street is already in the box
        spans.append(m.span())
        claimed.append("type")
    for m in _SEARCHED.finditer(said):  # The search for 蓝牙耳机 has returned a list: what the typing brought
        spans.append(m.span())
        claimed.append("type")
    for m in _OPEN_NOW.finditer(said):  # The search page is open: what an earlier click or launch opened
        spans.append(m.span())
        claimed.append("open")
    for kind, (_, zh, en) in _KINDS.items():
        for m in re.finditer(zh, said):
            if _done_zh(said, m, zh):
                spans.append(m.span())
                claimed.append(kind)
        for m in re.finditer(rf"\b(?:{en})\b", said, re.I):
            when = _WHEN_I.match(said, m.end())
            if (_PAST_EN.search(said[:m.start()]) or _EARLIER.search(said[m.end():]) or when
                    or _IS_DONE.search(said[:m.start()])):
                landed = re.match(r"\s+(?:on|to|at|into)\b", said[m.end():]) if kind == "open" else None
                start = m.start()
                if kind == "finish" and _IS_DONE.search(said[:m.start()]):  # the toggle is done: what was finished
                    start = max([0] + [b.start() if b.group()[:1].isalpha() else b.end()  # … so the toggle
                                       for b in _SUBJECT_CUT.finditer(said[:m.start()])])  # is done: and its joint
                spans.append((start, m.end() + (landed.end() if landed else 0)))  # opened on Recent: where to
                # The page shifted when I clicked: the change is the click's, said as its kind
                claimed.append(next((k for k, (_, _, words) in _KINDS.items() if when and re.fullmatch(
                    words, when["verb"], re.I)), kind))
    return spans, claimed


def _held(kind: str, said: str, episode: Episode, index: int, named: bool = False) -> bool:
    """Did an action before step ``index`` do ``kind`` (on what ``said`` names, when it names what one acted on),
    while this step's action does not (or does it on another element, when ``said`` says it was earlier or names
    that element)? ``named``: only when ``said`` names what the earlier action was on."""
    types = _KINDS[kind][0]
    step = episode.steps[index]
    removal = _REMOVED.search(said) if kind == "finish" else None
    if removal:  # 银行那条已经删掉了: an earlier tap on a Delete (Send) control, and this step's is on none
        control = _CONTROLS["send" if removal["sent"] else "delete"]
        labels = [(element_label(t) or "") if (t := target_element(s)) is not None else "" for s in episode.steps[:index + 1]]
        return any(control.search(x) for x in labels[:-1]) and not control.search(labels[-1])
    done = [s for s in episode.steps[:index] if s.action.type in types]
    if not done:
        return False
    low = " ".join([said.lower()] + [term for _, term in translations(said.lower())])  # 姓名已经填好了: Full name
    if kind == "open":  # The gallery just opened on Recent · 6月: where it opened is the screen now
        low = re.sub(r"\b(opened|launched|loaded)\s+(?:on|to|at|into|with)\b.*$", r"\1", low)
    values = [(s.action.text or "").strip().lower() for s in done if (s.action.text or "").strip()]
    for m in _ALREADY_SHOWS.finditer(said) if kind == "type" else ():  # 已经是 Union Station: that value, typed before
        if not any(low[m.end():].lstrip(" “「\"'").startswith(v) for v in values):
            return False
    names = []
    for s in done:
        target = target_element(s)
        names += [(element_label(target) or "").strip().lower() if target is not None else "",
                  (s.action.text or "").strip().lower(), (s.action.app or "").strip().lower()]
    names += [n for name in names for n in re.findall(r"#\d+", name)]  # when I clicked #19: a result by its number
    names = [n for n in names if len(n) >= 2]
    if step.action.type in types:  # this step does it too: only an earlier one said so, or named, is history
        target = target_element(step)
        name = (element_label(target) or "").strip().lower() if target is not None else ""
        own = set(re.findall(r"[a-z]{4,}", name))  # Name is filled, the earlier field Full name: a word of its label,
        words = {w for n in names for w in re.findall(r"[a-z]{4,}", n)} - own  # none of this step's target's
        earlier_named = any(_names(n, low) and n != name for n in names) or (
            any(_names(w, low) for w in words) and not any(_names(w, low) for w in own))
        counted = _COUNTED_SWIPES.search(said) if kind == "swipe" else None  # after two left swipes: as many before
        zh_counted = _COUNTED_SWIPES_ZH.search(said) if kind == "swipe" else None  # 已经往后翻了两张, 已经翻过一屏
        many = (count_of(counted["n"]) or 2) if counted else (count_of(zh_counted["n"]) or 0) if zh_counted else 0
        earlier_counted = many >= (2 if counted else 1) and len(done) >= many  # a few, several: 2
        if not (_EARLIER.search(said) or earlier_named or earlier_counted) or (len(name) >= 2 and _names(name, low)):
            return False
    if named:
        return any(_names(n, low) for n in names)
    if not names or any(_names(n, low) for n in names):
        return True  # a swipe or a key names nothing; else the claim names what was acted on
    others = {t for t in screen_texts(step) if len(t) >= 2 and not any(t in n for n in names)}
    return not any(_names(o, low) for o in others)  # Date was clicked earlier, when the click was on Search


def _names(name: str, low: str) -> bool:
    """Does ``low`` name ``name``: a whole word where the name is in Latin letters (``To`` is not in ``Boston``)?"""
    return re.search(rf"(?<![a-z0-9]){re.escape(name)}(?![a-z0-9])" if name[:1].isascii() and name[-1:].isascii()
                     else re.escape(name), low) is not None


__all__ = ["AFTER_EARLIER", "JUST_DONE_ZH", "OPENS_AFTER_EARLIER", "earlier_done", "first_claim"]
