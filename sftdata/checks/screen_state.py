"""A state said of the screen, checked against the current screen rather than refused for its words.

A writer who describes the screen after the decision says states: ``Bluetooth (Off)``, ``搜索框里已经是 vegan lasagna 了``,
``The chat with Alice Chen is open``, ``Project Team 已经被选中``. The same words tell a result when they say the state
the action brings (``Bluetooth is now On`` before the tap that turns it on). The current screen tells them apart:
:func:`current_state_said` holds when every state a clause says is one the current screen shows: an on/off value is
the one the named row shows now (its own line or the subtitle under it), a page, dialog or mode said to be open or
selected is named by the current screen's texts or a value typed before, and the acted-on element is not what the
state is said of.

>>> from sftdata.model import Action, Element, Episode, Screenshot, Step
>>> shot = Screenshot("0" * 64, "x.png", 1080, 2400)
>>> row = Element(0, (0, 300, 800, 380), text="Bluetooth", flags=("visible",))
>>> value = Element(1, (0, 380, 800, 430), text="Off", flags=("visible",))
>>> wifi = Element(2, (0, 100, 800, 180), text="Wi-Fi", flags=("visible", "clickable"))
>>> step = Step(0, shot, Action("click", (400, 140), element=wifi), elements=[wifi, row, value])
>>> ep = Episode("e", "m", "Turn Bluetooth on", [step])
>>> current_state_said("Bluetooth is Off right now", ep, 0), current_state_said("Bluetooth is now On", ep, 0)
(True, False)
>>> current_state_said("Wi-Fi is already open", ep, 0)  # the acted-on element's state is the action's to bring
False
"""
from __future__ import annotations

import re
import unicodedata

from ..model import Element, Episode, Step
from .calls import CJK_CLASS, element_label, longest_first, target_element
from .gui_terms import VERB_TERMS, translations
from .quoting import QUOTE
from .screen_text import label_pattern, screen_texts, visible_elements, with_squeezed_counters
from .target_evidence import is_text_box

# an on/off value said as a state (``(Off)``, ``is now On``, ``当前是关闭``), not ``on`` the preposition
_VALUE = re.compile(r"\b((?-i:On|Off|ON|OFF))\b"
                    r"|(?:\b(?:is|are|'s|now|currently|already|marked|reads|shows|showing|set to"
                    r"|toggled|switched)\s+)(on|off)\b(?!\s*(?:(?:the|a|an|this|that|its|my|page|screen|photo)\b|\d|#|[\u4e00-\u9fff]))"
                    r"|(开启|关闭|开着|关着|已开|已关)", re.I)  # not now on 5/30, is on the results page: a place
_ON, _OFF = {"on", "开启", "开着", "已开", "enabled"}, {"off", "关闭", "关着", "已关", "disabled"}
_STATE_VALUES = _ON | _OFF  # a value, never a row's name
# what says a state holds now rather than comes: ``already``, ``is open``, ``已经``, ``被选中``, ``加载好了``
_PERFECT = re.compile(r"\b(?:already|now|currently|right now|at the moment)\b"
                      r"|\b(?:is|are|'s|'re)\s+(?:now\s+|already\s+|currently\s+)?(?:open|up|showing|shown|selected"
                      r"|checked|ticked|active|focused|highlighted|enabled|disabled|filled in|loaded"
                      r"|in (?:selection|multi-?select(?:ion)?) mode)\b|\bhas focus\b"
                      r"|已经|(?<![不未])已|现在|当前|目前|此时|被选中|选中|勾选|勾上|高亮|开着|关着|(?<=[的着])状态", re.I)
# a thing said to be open in a view: ``The viewer has the 10:34 shot open`` (the thing is what is checked)
_HAS_OPEN = re.compile(r"(\bhas\s+(?:the\s+|a\s+)?[^,.;]{1,40}?\s+)(open|up)\b", re.I)
# what the perfect (已, 已经) makes a state: 已经打开, 已经加载好了, 已经删掉了
_PERFECTIVE = re.compile(r"打开|加载(?:好|完)?|删掉|删除|了")
# a field said to hold nothing: ``the input is empty``, ``邮箱、电话还空着``
_EMPTY = re.compile(r"\b(?:empty|blank)\b|空的|空着|是空|还空|为空")
_PIECE = re.compile(r"[^，,；;、]+")
# the acted-on element said to be in sight now (``the Display row is visible now``): what it acts on, not a result
_IN_VIEW = re.compile(r"\b(?:is|are|'s)\s+(?:now\s+)?(?:visible|on (?:the )?screen|in view)(?:\s+now)?\b", re.I)


def without_states(said: str, episode: Episode, index: int) -> str:
    """``said`` with what :func:`current_state_said` checks set aside: the current screen's texts (a control named
    删除 or Open is no state word), a keyboard said to be up while the screen shows its keys, the on/off values, the
    perfect forms (``is open``, ``已经…了``)."""
    return _without_states(in_screen_words(unicodedata.normalize("NFKC", said), episode.steps[index]), episode, index)


def _without_states(rest: str, episode: Episode, index: int) -> str:
    """:func:`without_states` of a text already in the screen's words (:func:`in_screen_words`)."""
    if keyboard_shown(episode.steps[index]):
        rest = _KEYBOARD_UP.sub(lambda m: "▪" * len(m.group()), rest)
    for label in _labels(episode, index):
        if label.lower() not in _STATE_VALUES:
            rest = label_pattern(label).sub(lambda m: "▪" * len(m.group()), rest)
    rest = _HAS_OPEN.sub(lambda m: m.group(1) + " " * len(m.group(2)), rest)
    told = _EMPTY.sub(" ", _PERFECT.sub(" ", _VALUE.sub(" ", rest)))
    return _PERFECTIVE.sub(" ", told) if re.search(r"(?<![不未])已", rest) else told


# a keyboard said to be up: ``the keyboard is showing``, ``keyboard up``, ``键盘已经弹出``, ``键盘弹起来了``; a field's
# focus comes with it
_KEYBOARD_UP = re.compile(r"\b(?:the\s+|a\s+)?(?:on-?screen\s+|soft\s+)?keyboard(?:\s+(?:is|'s|has))?(?:\s+(?:already|now|still))?"
                          r"(?:\s+(?:up|open|out|showing|shown|visible|displayed|there|popped up|come up))?\b"
                          r"|键盘(?:已经|已|也|还)?(?:弹出来?了?|弹起来?了?|打开了?|出来了?|升起来?了?|开着|在下面)?"
                          # and the focus it comes with: ``the cursor is in the box``, ``has focus``, ``光标在框里``
                          r"|\b(?:the\s+)?cursor(?:\s+(?:is|'s|sits|blinks))?\s+in\b|\b(?:is|are)\s+(?:already\s+|now\s+)?focused\b"
                          r"|\bhas\s+(?:the\s+)?focus\b|光标(?:已经|已)?(?:在|停在|落在)|(?:已经|已)?(?:获得|拿到)了?焦点|(?:已经|已)?聚焦了?", re.I)
_KEYS = frozenset(("空格", "换行", "符号", "space", "return", "shift", "?123"))


def in_screen_words(said: str, step: Step) -> str:
    """``said`` with each term of the GUI lexicon that translates a label of ``step``'s screen, and is not shown
    itself, in that label's words (``蓝牙那一行已经是 On 了`` on an English Settings page: ``bluetooth那一行…``)."""
    shown = {t.lower() for t in screen_texts(step)}
    for term, other in translations(said.lower()):
        if other in shown and term not in shown and term not in VERB_TERMS:
            said = re.sub(re.escape(term), lambda _: other, said, flags=re.I)
    return said


def keyboard_shown(step: Step) -> bool:
    """Does ``step``'s screen show an on-screen keyboard (two of its keys: 空格, 换行, 符号, space, return)?"""
    keys = {(t or "").strip().lower() for e in visible_elements(step) for t in (e.text, e.desc)}
    return len(keys & _KEYS) >= 2


def keyboard_said(said: str, episode: Episode, index: int) -> bool:
    """Does ``said`` say the keyboard is up while the current screen shows one (``键盘已经弹出``)?"""
    return _KEYBOARD_UP.search(said) is not None and keyboard_shown(episode.steps[index])


def current_state_said(said: str, episode: Episode, index: int) -> bool:
    """Does every state ``said`` tells (a sentence or clause after the decision, that tells no change once
    :func:`without_states`) hold on the current screen, step ``index`` of ``episode`` (see the module doc)?"""
    step = episode.steps[index]
    said = in_screen_words(unicodedata.normalize("NFKC", said), step)
    if "▪" not in _without_states(said, episode, index) and not said_empty(said, episode, index):
        return False  # names nothing of the current screen (nor an empty field it shows): nothing to check against
    name = _acted_name(step)
    for piece in _PIECE.finditer(said):  # the acted-on element, said in a clause that says a state
        told = piece.group()
        if len(name) >= 2 and name in told.lower() and _PERFECT.search(_VALUE.sub(" ", _IN_VIEW.sub(" ", told))) \
                and not _VALUE.search(told):
            return False  # (an on/off value said of it is checked, with the others, below)
    if _EMPTY.search(said) and not said_empty(said, episode, index):
        return False  # ``the box is empty``: a field of the current screen holds nothing now
    return all(_value_holds(m, said, step) for m in _VALUE.finditer(said))


def named_quotes(said: str, episode: Episode, index: int) -> str:
    """``said`` with the inside of each quotation blanked: to ``▪`` where it is a text the current screen shows (or
    the Chinese half of a bilingual one: ``最近`` of ``最近 Recent · 6月``), or a value an earlier step typed said of
    a field (``The keywords box already shows 'data analyst'``: a name, for :func:`current_state_said` to find; not
    ``the reply “OK” sits as a bubble``), to ``□`` otherwise (offsets hold)."""
    typed = {s.action.text.strip().lower() for s in episode.steps[:index] if s.action.text}
    labels = _labels(episode, index)
    names = {t.lower() for t in labels} - (set() if _FIELD.search(said) else typed)
    names |= {t.split()[0].lower() for t in labels if " " in t and re.search(f"[{CJK_CLASS}]{{2}}", t.split()[0])}

    def blank(m: re.Match[str]) -> str:
        inside = next(g for g in m.groups() if g is not None)
        mark = "▪" if unicodedata.normalize("NFKC", inside).strip().lower() in names else "□"
        return m.group()[0] + mark * (len(m.group()) - 2) + m.group()[-1]
    return QUOTE.sub(blank, said)


_FIELD = re.compile(r"\b(?:box|field|input|search bar|text ?box)\b|框|栏", re.I)


def value_shown(said: str, episode: Episode, index: int) -> bool:
    """Does ``said`` tell an on/off value (``蓝牙那一行已经是 On 了``) that the named row shows on the current screen,
    every state it tells holding there (:func:`current_state_said`)?"""
    return _VALUE.search(said) is not None and current_state_said(said, episode, index)


def said_empty(said: str, episode: Episode, index: int) -> bool:
    """Does ``said`` say a field holds nothing (``the Check-out box is empty``, ``电话还空着``) while the current screen
    shows one that does: no text of its own on a phone (where the tree keeps what was typed), and on a web page none
    that an earlier step typed into?"""
    if not _EMPTY.search(said):
        return False
    typed_into = {element_label(s.action.element) for s in episode.steps[:index]
                  if s.action.type == "type" and s.action.element is not None}
    return any(is_text_box(e) and not (e.text or "").strip() and element_label(e) not in typed_into
               for e in visible_elements(episode.steps[index]))



# what came to be: the previous step's result when what it names is new on the current screen
_ARRIVAL = re.compile(r"\b(?:is|are|'s|'re)\s+(?:now\s+)?back\b(?:\s+(?:to|at|on|in)\b)?|\bback (?:at|on|to|in)\b"
                      r"|\b(?:switched|put|turned|went|changed)\s+(?:\w+\s+){0,3}?into\b|\bhas\s+(?:now\s+)?(?:appeared"
                      r"|opened|loaded|popped up|come up)\b|\b(?:appeared|popped up|came up|showed up)\b"
                      r"|(?<!已)(?<!已经)(?:回到了?|弹出了?|弹出来了|出现了|进入了|打开了|加载(?:好|完|出来)了|切到了|切换到了)", re.I)
_WORDS = re.compile(f"[a-z]{{2}}|[{CJK_CLASS}]{{2}}", re.I)  # a name, not a price or a count alone
_DEPARTURE = re.compile(r"\b(?:clos\w*|disappear\w*|vanish\w*|gone|dismiss\w*|hid\w*)\b|消失|关掉|关闭|没了|不见"
                        r"|\b(?:scrolled|slid|moved)\s+(?:up\s+|down\s+)?(?:off|out of view|away)\b|\bout of view\b"
                        r"|\bno longer (?:in|on|there|shown|visible|listed|appears?|shows?(?: up)?)\b|被(?:滑|划|滚)(?:到|出)?(?:上面|上方|下面|下方|屏幕外)?去?了"
                        r"|(?:被|已经?)?(?:滑|划|滚|顶)(?:到|出)?了?(?:上面|上方|下面|下方|屏幕外|上|下)去?(?:了|看不(?:到|见)了?)"
                        r"|(?:滑|划|滚)出(?:了)?屏幕|不在(?:屏幕|列表)(?:上|里)?了", re.I)  # Bluetooth scrolled off the top


def previous_result(said: str, episode: Episode, index: int) -> str | None:
    """``said`` with its words of arrival blanked, when it tells what came to be (``is back at the top``, ``弹出了确认框``,
    ``switched the list into selection mode``) and names a text the current screen shows and the previous one did not
    (a name, not a price, nor the acted-on element's), or with its words of departure blanked, when it tells what
    went away (``李娜's thread is gone``) and names a text the previous screen showed and the current one does not:
    the result of the step before, which the agent sees now. None otherwise."""
    said = unicodedata.normalize("NFKC", said)  # as the screen's texts are (删除此对话？ is 删除此对话?)
    if index == 0:
        return None
    before = set(screen_texts(episode.steps[index - 1]))
    acted = _acted_name(episode.steps[index])
    if _DEPARTURE.search(said) and not _ARRIVAL.search(said):  # 李娜's thread is gone: shown before (on any screen
        now = set(screen_texts(episode.steps[index]))  # so far), not now
        shown = {t for step in episode.steps[:index] for t in screen_texts(step)}
        named = said + "\x00" + "\x00".join({in_screen_words(said, step) for step in episode.steps[:index]})  # 蓝牙
        gone = [t for t in shown - now if len(t) >= 2 and t not in _STATE_VALUES and t != acted and _WORDS.search(t)
                and label_pattern(t).search(named) and not any(t in n for n in now)]
        return _DEPARTURE.sub(lambda m: " " * len(m.group()), said) if gone else None
    if not _ARRIVAL.search(said) or _DEPARTURE.search(said):
        return None
    labels = _labels(episode, index)
    new = [t for t in labels if t.lower() not in before and t.lower() not in _STATE_VALUES
           and t.lower() != acted and _WORDS.search(t) and _named_alone(t.lower(), said.lower(), labels)]
    return _ARRIVAL.sub(lambda m: " " * len(m.group()), said) if new else None


_CJK_CHAR = re.compile(f"[{CJK_CLASS}]")


def _named_alone(label: str, said: str, labels: list[str]) -> bool:
    """Is ``label`` said somewhere not as a piece of a longer name the screen shows (``耳机`` the tab, not inside
    ``蓝牙耳机``, which ``无线蓝牙耳机`` holds)?"""
    longer = [t.lower() for t in labels if len(t) > len(label) and label in t.lower()]
    for m in re.finditer(re.escape(label), said):
        a, b = m.start(), m.end()  # the name with the CJK character beside it, on either side
        wider = ([said[a - 1:b]] if a and _CJK_CHAR.match(said[a - 1]) else []) + (
            [said[a:b + 1]] if b < len(said) and _CJK_CHAR.match(said[b]) else [])
        if not any(w in t for w in wider for t in longer):
            return True
    return False


# a value said to hold still: ``Job type still says Any``, ``State 还是 Alabama``
_STILL = re.compile(r"\b(?:still|remains?)\s+(?:(?:shows?|reads?|says?|is|on|at|set to|showing|reading)\s+)*"
                    r"|(?:还是|仍是|仍然是|依然是|依旧是|还显示|仍显示|还停在|还在)\s*", re.I)


def still_held(said: str, episode: Episode, index: int) -> str | None:
    """``said`` with its words of sameness blanked, when each says a value still held that the current screen shows
    (or an earlier step typed), of a row it names before it (``Job type still says Any``, ``State 还是 Alabama``):
    the screen as it is, not the one the action leaves. None when it says none, or one the screen does not show."""
    said = in_screen_words(unicodedata.normalize("NFKC", said), episode.steps[index])
    found = list(_STILL.finditer(said))
    labels = [t for t in _labels(episode, index) if t.lower() not in _STATE_VALUES]
    shown = screen_texts(episode.steps[index])
    for m in found:
        default = _DEFAULT.match(said, m.end())
        if default and not re.match(r"\s*\w", said[default.end():]):  # the list is still the default one
            if not _as_first_screen(episode, index):
                return None
            continue
        if _EMPTY.match(said, m.end()):  # 搜索框还是空的, the date field is still blank: an empty field shown now
            if not said_empty(said, episode, index):
                return None
            continue
        if _VALUE_FIRST.match(said, m.end()) and any(re.search(rf"(?<!\w){re.escape(t.lower())}\s+(?:is|are|'s)\s+$",
                                                             said[:m.start()].lower()) for t in labels):
            continue  # Any is still selected: the value first, shown now
        at = default.end() if default else m.end()  # Guests 还是默认的 1: the value after it
        value, after = _VALUE.match(said, at), said[at:].lower().lstrip()
        word = re.match(r"\w+", after)
        held = _value_holds(value, said, episode.steps[index]) if value else (
            any(after.startswith(t.lower()) for t in labels)
            or (default is not None and word is not None and word.group() in shown))
        if not held or not any(t.lower() in said[:m.start()].lower() for t in labels):
            return None
    return _STILL.sub(lambda m: " " * len(m.group()), said) if found else None


# what a value said first is still: ``Any is still selected``
_VALUE_FIRST = re.compile(r"(?:selected|set|chosen|picked|shown|checked|in place|the value|the choice)\b", re.I)
# a value or list as it was first shown: ``the default 1``, ``the unfiltered default``, ``默认列表``
_DEFAULT = re.compile(r"\s*(?:the\s+)?(?:unfiltered\s+|original\s+)?default(?:\s+(?:one|list|listing|rows|results|order))?\b"
                      r"|\s*默认(?:的)?(?:列表|排序|结果)?", re.I)


def _as_first_screen(episode: Episode, index: int) -> bool:
    """Does step ``index`` show what the episode's first screen did (most of its texts were there): a list still the
    default one, before any search or filter changed it?"""
    now = [t for t in screen_texts(episode.steps[index]) if len(t) >= 2]
    first = set(screen_texts(episode.steps[0]))
    return index > 0 and bool(now) and sum(t in first for t in now) >= 0.8 * len(now)


def _acted_name(step: Step) -> str:
    """The acted-on element's label, lower-cased ("" when the action has none)."""
    target = target_element(step)
    return (element_label(target) or "").strip().lower() if target is not None else ""


def _labels(episode: Episode, index: int) -> list[str]:
    """The current screen's element texts of two characters or more, and the values typed or picked before it
    (a web page's field shows what was typed, its tree does not), longest first."""
    out = {t for t in with_squeezed_counters(screen_texts(episode.steps[index])) if len(t) >= 2}  # 7 / 30, said 7/30
    out |= {s.action.text.strip() for s in episode.steps[:index] if s.action.text and len(s.action.text.strip()) >= 2}
    return sorted(out, key=longest_first)


def _value_holds(m: re.Match[str], said: str, step: Step) -> bool:
    """Is the on/off value ``m`` (found in a piece of ``said``) the one the row named nearest before it shows now?"""
    value = next(g for g in m.groups() if g).lower()
    row = _row_named_before(said[:said.find(m.group()) + 1] if m.group() in said else said, step)
    shown = _shown_value(row, step) if row is not None else None
    return shown is not None and (value in _ON) == (shown in _ON) and (value in _OFF) == (shown in _OFF)


def _row_named_before(before: str, step: Step) -> Element | None:
    """The element of ``step`` whose label ``before`` names last (the mention that ends rightmost, the longest of
    those)."""
    best, at = None, (-1, 0)
    for e in visible_elements(step):
        label = (element_label(e) or "").strip()
        if len(label) >= 2 and label.lower() not in _STATE_VALUES:
            k = before.lower().rfind(label.lower())
            if k >= 0 and (k + len(label), len(label)) > at:  # Battery Saver, not the Battery inside it
                best, at = e, (k + len(label), len(label))
    return best


def in_row(row: Element, step: Step) -> list[Element]:
    """The visible elements of ``step`` other than ``row`` in its line or just under it (a settings row's subtitle)."""
    top, bottom = row.bounds[1], row.bounds[3]
    below = bottom + (bottom - top) * 1.5
    return [e for e in visible_elements(step) if e is not row and top <= (e.bounds[1] + e.bounds[3]) / 2 <= below]


def _shown_value(row: Element, step: Step) -> str | None:
    """The on/off value shown in ``row``'s line or just under it (a settings row's subtitle), lower-cased."""
    near = [e for e in in_row(row, step) if (element_label(e) or "").strip().lower() in _STATE_VALUES]
    near.sort(key=lambda e: (e.bounds[1], e.bounds[0]))
    return (element_label(near[0]) or "").strip().lower() if near else None


__all__ = ["current_state_said", "in_row", "in_screen_words", "keyboard_said", "keyboard_shown", "named_quotes", "previous_result", "said_empty", "still_held", "value_shown", "without_states"]
