"""Does the decision's object single out the call's target on the screen? (positive evidence for certify)

The words of the decision's object (what its verb acts on, a pronoun's antecedent, an appositive) are scored
against every visible element: the words it shares with the element's texts (a CJK run or a Latin word, a price,
a ``#25``), an ordinal among the element's alike controls (``第二个``, ``the first result``, ``the last one``), a
place on the screen (``右上角``, ``at the bottom``) and a role (``搜索框``, ``the checkbox``, ``the Save button``).
The target counts with the nodes around the tapped point and the elements of its card (the smallest box around
the point that is not a quarter of the screen, or the texts beside a tall thumbnail). The object names the target
when the target's group scores highest, strictly above every other element: twins (six "加入购物车") are told
apart only by an ordinal, a place or a word of their card.

>>> from sftdata.model import Action, Element, Screenshot, Step
>>> shot = Screenshot("0" * 64, "x.png", 1080, 2400)
>>> box = Element(0, (36, 150, 1044, 260), desc="搜索框", hint="Search products", flags=("visible", "editable"))
>>> cam = Element(1, (944, 160, 1034, 250), desc="拍照搜索", flags=("visible",))
>>> step = Step(0, shot, Action("click", point=(500, 200), element=box), elements=[box, cam])
>>> [e.kind for e in target_evidence("the search box at the top", step)]
['name', 'place', 'role']
>>> target_evidence("拍照搜索图标", step)
[]
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..model import Element, Step
from .calls import CJK_CLASS, ZH_DIGITS, element_label, longest_first, normalize, target_element
from .grid import grid_cell
from .screen_places import at_place, screen_cells, screen_places
from .gui_terms import translated
from .screen_text import element_texts, visible_elements
from .label_words import without_label_parts, without_words
from .target_group import card_of, group_of, in_front, inside, own_texts, peers_of
from .twin_places import names_whole, twin_place_picked


@dataclass(frozen=True)
class Evidence:
    """One thing the reasoning says that the call does: ``kind`` (verb, name, card, ordinal, place, role, value,
    direction, app, done, url) and the words that say it."""

    kind: str
    words: str

    def to_dict(self) -> dict[str, str]:
        return {"kind": self.kind, "words": self.words}


_CJK_RUN = re.compile(rf"[{CJK_CLASS}]+")
_LATIN = re.compile(r"[#$¥€£]?[a-z0-9][a-z0-9'&.+@-]*[a-z0-9%]|[#$¥€£]?[a-z0-9]", re.I)
_STOP = {"the", "and", "for", "with", "now", "new", "this", "that", "one", "its", "you", "your", "all", "more", "from",
         "into", "to", "of", "in", "on", "at", "by", "or", "is", "are", "it", "button", "icon", "link", "tab", "box",
         "field", "page", "item", "option", "menu", "row", "card", "list", "app", "photo", "image", "picture"}
_CJK_WEIGHT = 2  # a CJK character says about as much as two Latin letters


def _latin_words(text: str) -> set[str]:
    """The Latin words of a normalised text that can name something: 3+ characters or with a digit or a sign."""
    return {w.strip(".'") for w in _LATIN.findall(text)
            if (len(w) >= 3 or re.search(r"[\d#$¥€£]", w)) and w.strip(".'") not in _STOP}


def _common_cjk(said: str, label: str) -> int:
    """Length of the longest run of 2+ CJK characters of ``label`` that ``said`` holds."""
    best = 0
    for run in _CJK_RUN.findall(label):
        for size in range(len(run), max(best, 1), -1):
            if any(run[i:i + size] in said for i in range(len(run) - size + 1)):
                best = max(best, size)
                break
    return best


def name_score(said: str, label: str) -> tuple[int, str]:
    """How much of ``label`` the normalised text ``said`` names (CJK characters count double), and the words."""
    label = normalize(label)
    if not label:
        return 0, ""
    flat_said, flat_label = said.replace(" ", ""), label.replace(" ", "")
    if len(flat_label) >= 2 and flat_label in flat_said:  # the whole label
        cjk = sum(len(run) for run in _CJK_RUN.findall(flat_label))
        return cjk * _CJK_WEIGHT + (len(flat_label) - cjk) + 2, label
    cjk = _common_cjk(said, label)
    latin = _latin_words(label) & _latin_words(said)
    score = cjk * _CJK_WEIGHT * (cjk >= 2) + sum(len(w) for w in latin)
    return score, " ".join(sorted(latin)) if latin else (label if cjk >= 2 else "")


_EN_ORD = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
           "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13, "fourteenth": 14, "fifteenth": 15,
           "sixteenth": 16, "seventeenth": 17, "eighteenth": 18, "nineteenth": 19, "twentieth": 20, "top": 1}
_EN_NTH = (r"(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth|fourteenth"
           r"|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|thirtieth|fortieth|fiftieth"
           r"|(?:twenty|thirty|forty|fifty)[- ]?(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth)"
           r"|\d{1,2}(?:st|nd|rd|th))")
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "thirtieth": 30, "fortieth": 40, "fiftieth": 50}
_THING = (r"(?:one|result|item|row|entry|card|photo|picture|thumbnail|image|listing|option|link|product|flight|house"
          r"|book|job|recipe|tab|button|suggestion|conversation|thread|chat|message|hit|match|gadget|novel|car|hotel"
          r"|field|box|icon|app|video|song|article|post|line|column|cell|choice|offer|deal|show|event|ticket|home)s?")
_ORDINAL = re.compile(r"第\s*(\d{1,2}|[一二两三四五六七八九十]{1,3})\s*(?:个|项|条|件|行|张|位|款|家|篇|本|首|台|部|辆|套|栋|间|场|份|集)"
                      rf"|\bthe\s+(?:very\s+)?({_EN_NTH})\b(?!\s+(?:part|half|step|time|page))|\b({_EN_NTH})(?=\s+(?:\w+\s+)?{_THING}\b)"
                      r"|(最后一[个项条件张款家]|\bthe last\b(?!\s+(?:step|time|tap|one i)))"
                      r"|(?:排)?(?:在)?(?:最)?(?:前面|上面)的?(?:那)?(?:一)?[个条张款]|(最上面|最顶上|\btopmost\b)", re.I)
_NUMBERED = "#{}"  # how a listing numbers its items in their titles (``Urban house fresh #25``)


def _number(word: str) -> int:
    low = word.lower()
    if low.isdigit():
        return int(low)
    if low in _EN_ORD:
        return _EN_ORD[low]
    tens = re.match(r"(twenty|thirty|forty|fifty|thirtieth|fortieth|fiftieth)[- ]?(\w*)$", low)
    if tens:  # twenty-fifth
        return _TENS[tens.group(1)] + _EN_ORD.get(tens.group(2), 0)
    if len(low) == 3 and low[1] == "十":  # 二十五
        return 10 * ZH_DIGITS.get(low[0], 1) + ZH_DIGITS.get(low[2], 0)
    if low[:-2].isdigit():
        return int(low[:-2])
    if low.startswith("十"):
        return 10 + ZH_DIGITS.get(low[1:], 0)
    if len(low) == 2 and low.endswith("十"):
        return 10 * ZH_DIGITS.get(low[0], 1)
    return ZH_DIGITS.get(low, 0)


def said_rank(said: str) -> int | None:
    """The rank an ordinal of ``said`` gives (1-based), -1 for "the last", None when there is none.

    >>> said_rank("第二个加入购物车"), said_rank("the last one"), said_rank("tap Save")
    (2, -1, None)
    """
    m = _ORDINAL.search(said)
    if m is None:
        return None
    if m.group(4):
        return -1
    if m.group(1) or m.group(2) or m.group(3):
        return _number(m.group(1) or m.group(2) or m.group(3)) or None
    return 1


def is_text_box(e: Element) -> bool:
    """A box one types into (an editable node, an input or textarea other than a button or a tick)."""
    return e.has("editable") or (e.tag.lower() in ("input", "textarea") and e.attr("type").lower() not in (
        "checkbox", "radio", "submit", "button")) or "EditText" in e.class_name


def is_field(e: Element) -> bool:
    """A form field: a text box or a select."""
    return is_text_box(e) or e.tag.lower() == "select" or "Spinner" in e.class_name


def _checkbox(e: Element) -> bool:
    return e.attr("type").lower() in ("checkbox", "radio") or "CheckBox" in e.class_name or (
        e.has("checkable") and "Switch" not in e.class_name)


_ROLES = (  # words -> what an element must be to fit them
    (r"搜索框|搜索栏|输入框|文本框|地址栏|编辑框|\b(?:search|text|input|query|address|email|name|phone)"
     r" ?(?:box|bar|field|input)\b|\b(?:field|textbox|input box)\b", is_text_box),
    (r"复选框|勾选框|勾选|打勾|\bcheck ?box\b|\btick\b|\bradio\b", _checkbox),
    (r"开关|\bswitch\b|\btoggle\b", lambda e: e.has("checkable") or "Switch" in e.class_name),
    (r"下拉(?:框|菜单|列表)|\bdrop-?down\b|\bselect (?:box|menu)\b", lambda e: e.tag.lower() == "select"
     or "Spinner" in e.class_name),
    (r"链接|\blink\b", lambda e: e.tag.lower() == "a"),
    (r"联想(?:词|项)?|\b(?:suggestions?|autocomplete)\b", lambda e: not is_field(e)),  # a suggestion, not the box
    (r"头像|\bavatar\b|\bprofile (?:picture|photo)\b", lambda e: any("头像" in t or "avatar" in t for t in element_texts(e))),
    (r"图片|照片|缩略图|封面|\b(?:photo|picture|image|thumbnail|pic)\b", lambda e: e.tag.lower() == "img" or "Image" in e.class_name
     or any(re.search(r"图片|照片|photo|image|picture", t) for t in element_texts(e))),
    (r"返回箭头|返回按钮|后退按钮|\bback (?:arrow|button)\b|\bnavigate up\b", lambda e: any(
        re.search(r"返回|后退|\bback\b|navigate up", t) for t in element_texts(e))),
)
_ROLE_RE = [(re.compile(p, re.I), fits) for p, fits in _ROLES]


def _caption(element: Element, own_label: str) -> bool:
    """A text of the target's card that its own label holds (the title beside ``商品图片 罗技 机械键盘``): the same
    thing named twice, not a rival. Either label may hold the other, where :func:`_repeats_name` asks the own
    label to hold the caption's (a suggestion ``机械键盘 2024新款`` repeats no twin's name ``机械键盘``)."""
    label = normalize(element_label(element)).replace(" ", "")
    return bool(label) and (label in own_label or own_label in label)


def _repeats_name(element: Element, own_label: str) -> bool:
    """Is ``element``'s label a part of the target's own (``Anker 5G 智能手机`` of ``商品图片 Anker 5G 智能手机``): a
    caption that repeats the name, as each twin's card does?"""
    label = normalize(element_label(element)).replace(" ", "")
    return len(label) >= 2 and label in own_label


def _score(said: str, texts: list[str]) -> tuple[int, str]:
    best = (0, "")
    for text in texts:
        best = max(best, name_score(said, text))
    return best


def target_evidence(said: str, step: Step, own: list[str] = ()) -> list[Evidence]:
    """The evidence that ``said`` (the decision's object, any language) names the step's target among the visible
    elements; empty when it does not single it out. ``own``: more names of the target (the call's quoted label),
    used when the screen's texts are unknown."""
    evidence, total, rivals, _ = _weigh(said, step, own)
    if not any(ev.kind in ("name", "card", "ordinal", "role") for ev in evidence) or total <= rivals:
        return []
    return [] if _off_the_bar(said, step) else evidence


_TOP_BAR = re.compile(r"工具栏|标题栏|顶栏|导航栏|\b(?:tool ?bar|action bar|app bar|title bar|top bar|header bar)\b", re.I)
_BOTTOM = re.compile(r"底部|底栏|下方|\bbottom\b", re.I)
_BAR_SHARE = .2  # a top bar lies within this share of the screen's height


def _off_the_bar(said: str, step: Step) -> bool:
    """Does ``said`` place its element in the top bar (``the 删除 in the top-right toolbar``) while the target lies
    well below it (a dialog's button mid-screen)?"""
    target = target_element(step)
    if target is None or not step.screenshot.height or not _TOP_BAR.search(said) or _BOTTOM.search(said):
        return False
    return target.center[1] / step.screenshot.height > _BAR_SHARE


def place_fits(said: str, step: Step) -> bool:
    """Does ``said`` place the step's target where it is (``the bottom-centre button``)?"""
    return any(ev.kind == "place" for ev in _weigh(said, step, ())[0])


def names_rival(said: str, step: Step) -> bool:
    """Does ``said`` name another visible element better than the target (by its words, not a place alone)?"""
    evidence, total, _, named = _weigh(said, step, ())
    return named > total and named >= 4


_BUTTON = (re.compile(r"按钮|\bbutton\b", re.I), lambda e: e.tag.lower() == "button" or "Button" in e.class_name
           or e.attr("type").lower() in ("submit", "button"))


def head_names_other(head: str, step: Step) -> bool:
    """Does ``head`` (what an object that also places its element names as the thing acted on: ``Save 按钮`` of
    ``它那一行右边的 Save 按钮``) name another element, not the target? Its words name none of the target's nodes
    and name another element elsewhere on the screen whole (its label), or its role (``按钮``) fits none of the
    target's nodes but an element of the target's card: the right card, another control of it."""
    head = normalize(head)
    target = target_element(step)
    visible = visible_elements(step)
    if target is None or not visible or not head.strip():
        return False
    visible = in_front(step, target, visible)
    group = group_of(step, target, visible)
    point = step.action.point or target.center
    own_label = normalize(element_label(target))
    others = {normalize(element_label(e)).strip() for e in visible if e not in group and not e.contains(point)}
    named = [o for o in others if names_whole(head, o) and o not in own_label]
    rest = head
    for other in sorted(named, key=longest_first):  # Save recipe of 它右边的 Save recipe: its words are not the title's
        rest = rest.replace(other, " ")
    if _score(rest, [t for e in group for t in own_texts(e, target, group, visible)])[0]:
        return False
    if named:
        return True
    card = [e for e in card_of(step, target, visible) if e not in group]
    return any(pattern.search(head) and not any(fits(e) for e in group) and any(fits(e) for e in card)
               for pattern, fits in _ROLE_RE + [_BUTTON])


def _unique_whole(said: str, label: str, target: Element, visible: list[Element], point) -> bool:
    """Does ``said`` name the target's whole label, which no other element of the screen shows (``第二条“机械键盘
    2024新款”`` among suggestions counted from another row: the label decides, not the count)?"""
    label = label.strip()
    return len(label) >= 4 and names_whole(said, label) and not any(
        e is not target and not e.contains(point) and normalize(element_label(e)).strip() == label for e in visible)


def _weigh(said: str, step: Step, own) -> tuple[list[Evidence], int, int, int]:
    """(the target's evidence, its score, the best score of another element, the best score another element's
    words alone give) for ``said``."""
    said = normalize(said)
    target = target_element(step)
    visible = visible_elements(step)
    if target is None or not visible:
        names = [n for n in own if n and name_score(said, n)[0] >= 2]
        return ([Evidence("name", names[0])], 2, 0, 0) if names else ([], 0, 0, 0)
    point = step.action.point or target.center
    visible = in_front(step, target, visible)
    group = group_of(step, target, visible)
    said = translated(said, [t for e in visible for t in element_texts(e)], [t for e in group for t in element_texts(e)],
                      [element_texts(e) for e in visible if e not in group and is_field(e)]  # 保存 for a Save button
                      + [[normalize(element_label(e))] for e in visible if e not in group and not is_field(e)
                         and e.tag.lower() in ("a", "button") and " " in normalize(element_label(e)).strip()])
    # 下一页 for the page's one Next page link (a name of two words; not 搜索 for any Search button)
    card = [e for e in card_of(step, target, visible) if e not in group]
    peers = peers_of(step, target, visible)
    name, name_words = _score(said, [t for e in group for t in own_texts(e, target, group, visible)]
                              + [normalize(o) for o in own])
    label = normalize(element_label(target))
    own_label = label.replace(" ", "")
    unshared = said.replace(label, " ") if label else said  # the words besides the target's own label
    card_texts = [t for e in card if e not in peers for t in element_texts(e)]
    twinned = any(p is not target and normalize(element_label(p)) == label for p in peers)  # two 商品图片 Anker …:
    telling = [t for e in card if e not in peers and not (twinned and _repeats_name(e, own_label))
               for t in element_texts(e)]  # each card's caption repeats its name, which tells them not apart
    card_score, card_words = _score(unshared, telling)
    if twinned or any(_score(unshared, element_texts(p))[0] >= card_score for p in peers if p is not target):
        unshared = without_words(unshared, label)  # a twin shares the name: the card's other words must tell
        card_score, card_words = _score(unshared, telling)  # them apart (Samsonite 跑步鞋（¥3999 那一款）)
    scores = {id(e): _score(said, element_texts(e))[0] for e in visible if e not in group and not (
        e in card and _caption(e, own_label) or twinned and e not in peers and _repeats_name(e, own_label))}
    # (a twin's caption: its card weighs it)
    named = dict(scores)
    evidence = []
    total = name
    if name:
        evidence.append(Evidence("name", name_words))
    if card_score > 0 and not any(_score(unshared, element_texts(p))[0] >= card_score for p in peers if p is not target
                                  and normalize(element_label(p)) != label):  # a twin's name is the target's too
        total += card_score
        evidence.append(Evidence("card", card_words))
        for e in card:  # the card's words are the target's here, not a rival's
            scores.pop(id(e), None)
            named.pop(id(e), None)
    theirs = unshared  # a rival control weighs with its own card, as the target does (the 华为 one at ¥39), by the
    for text in [label] + card_texts:  # words the target's card does not share (商品图 of 商品图片 neither)
        theirs = without_label_parts(theirs, text)
    controls = peers + [target]
    for peer in peers:
        if id(peer) in scores and not peer.contains(point):
            rival_card = [e for e in card_of(step, peer, visible, peer.center)  # its texts, not a control's copy
                          if not any(inside(e, c) or inside(c, e) for c in controls)]
            scores[id(peer)] += _score(theirs, [t for e in rival_card for t in element_texts(e)])[0]
    cell = grid_cell(said, peers) if len(peers) >= 4 else None
    rank = said_rank(said) if cell is None else None  # 第三行中间那张 is a cell of the grid, not the third photo
    if cell is not None and cell[1] is not None:
        if cell[1] is target or cell[1].contains(point):
            total += 6
            evidence.append(Evidence("ordinal", cell[0]))
        else:
            scores[id(cell[1])] = scores.get(id(cell[1]), 0) + 6 + name
    numbered = re.compile(rf"{_NUMBERED.format(rank)}(?!\d)") if rank and rank > 0 else None
    if numbered is not None and any(numbered.search(t) for e in card + group for t in element_texts(e)):
        total += 6  # the 25th listing: the card titled #25
        evidence.append(Evidence("ordinal", _ORDINAL.search(said).group()))
        rank = None
    fitting = [fits for pattern, fits in _ROLE_RE if pattern.search(said) and fits(target)]
    ranked = [p for p in peers if all(fits(p) for fits in fitting)]  # the first suggestion: of the suggestions
    if rank is not None and len(ranked) >= 2:
        chosen = ranked[-1] if rank == -1 else (ranked[rank - 1] if rank <= len(ranked) else None)
        if chosen is target or (chosen is not None and chosen.contains(point)):
            total += 6
            evidence.append(Evidence("ordinal", _ORDINAL.search(said).group()))
        elif chosen is not None and not _unique_whole(said, label, target, visible, point):
            scores[id(chosen)] = scores.get(id(chosen), 0) + 6 + name  # (a label of its own said whole: the count differs)
    for words, xs, ys in screen_places(said) + screen_cells(said):  # middle right: a cell of the screen, finer
        if at_place(target, step, xs, ys):
            total += 3
            evidence.append(Evidence("place", words))
        for e in visible:
            if id(e) in scores and at_place(e, step, xs, ys):
                scores[id(e)] += 3
    picked = twin_place_picked(said, step) if twinned else None  # the upper Bose card: among
    if picked:  # its twins, the place picks the target's own
        total += 3
        evidence.append(Evidence("place", picked))
    card_role = False
    for pattern, fits in _ROLE_RE:
        m = pattern.search(said)
        if not m:
            continue
        if any(fits(e) for e in group):
            total += 3
            evidence.append(Evidence("role", m.group()))
        elif any(fits(e) for e in card if e not in peers):
            card_role = True  # its title link, of an Apply button's card: the card's other control is named
        for e in visible:
            if id(e) in scores and fits(e):
                scores[id(e)] += 3
    rival = max(scores.values(), default=0)
    return evidence, total, max(rival, total) if card_role else rival, max(named.values(), default=0)


__all__ = ["Evidence", "head_names_other", "is_field", "name_score", "names_rival", "said_rank", "target_evidence"]
