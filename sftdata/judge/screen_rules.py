"""Rules of the offline judge that read the screen: is the target singled out, is the named text there?

- :func:`ambiguous_target`: the tapped element's label is shared by other visible elements (six "Add to cart"
  buttons) and the item's ``target_element`` gives no ordinal or position that singles it out, or gives one that
  points at another of them (``第二个`` for the third, ``左侧`` for the rightmost).
- :func:`absent_names`: quoted text of the reasoning, ``observation`` or target that is on no screen so far, not in
  the goal and not typed or opened by the agent: named from nowhere the agent could see. A screen without any
  text (no tree, no OCR) is unknown, and nothing is judged on it.

>>> from sftdata.model import Action, Element, Episode, Screenshot, Step
>>> shot = Screenshot("0" * 64, "x.png", 1080, 2400)
>>> buttons = [Element(i, (600, 400 + 300 * i, 1000, 480 + 300 * i), text="加入购物车", flags=("visible",))
...            for i in range(3)]
>>> step = Step(0, shot, Action("click", point=(800, 740), element=buttons[1]), elements=buttons)
>>> ambiguous_target({"function": {"name": "click", "parameters": {"target_element": "“加入购物车”按钮"}}}, step)
'“加入购物车” is shared by 3 visible elements and the target gives no ordinal or position'
>>> ambiguous_target({"function": {"name": "click", "parameters": {"target_element": "第二个“加入购物车”按钮"}}}, step)
>>> ambiguous_target({"function": {"name": "click", "parameters": {"target_element": "第一个“加入购物车”按钮"}}}, step)
'the target says the 1st of the 3 “加入购物车”, the tapped one is the 2nd'
"""
from __future__ import annotations

import re
from typing import Any

from ..model import Episode, Step
from ..checks.calls import element_label, normalize, target_element
from ..checks.decision import quotes_in
from ..checks.future_text import known_texts
from ..checks.screen_text import knows_screen, same_label, screen_texts

_ZH_NUM = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10}
_EN_ORD = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
           "ninth": 9, "tenth": 10}
_ORDINAL = re.compile(r"第\s*(\d{1,2}|[一二两三四五六七八九十]{1,2})\s*(?:个|项|条|件|行|张|位|款|家|篇)?"
                      r"|\b(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|\d{1,2}(?:st|nd|rd|th))\b",
                      re.I)
_LAST = re.compile(r"最后一[个项条件行]|\blast\b", re.I)
_POSITION = re.compile(r"左|右|上|下|顶|底|中间|中央|居中|旁边|后面|前面|下方|上方|所在|对应|同一行|一栏|那一|里的|中的|\b(?:top|bottom|left|right"
                       r"|upper|lower|middle|centre|center|next to|beside|below|above|under|row|column|card)\b",
                       re.I)


def _number(word: str) -> int:
    if word.isdigit():
        return int(word)
    low = word.lower()
    if low in _EN_ORD:
        return _EN_ORD[low]
    if low[:-2].isdigit():
        return int(low[:-2])
    if word == "十":
        return 10
    if word.startswith("十"):
        return 10 + _ZH_NUM.get(word[1:], 0)
    if word.endswith("十"):
        return 10 * _ZH_NUM.get(word[0], 1)
    return _ZH_NUM.get(word, 0)


def _suffix(n: int) -> str:
    return {1: "st", 2: "nd", 3: "rd"}.get(n if n < 20 else n % 10, "th")


def ambiguous_target(item: Any, step: Step) -> str | None:
    """Why the item's target does not single out the tapped element among its twins, None when it does (or
    the step has no labelled target)."""
    fn = item.get("function") if isinstance(item, dict) else None
    if not isinstance(fn, dict) or fn.get("name") not in ("click", "long_press", "type", "select"):
        return None
    target = target_element(step)
    if target is None or not element_label(target):
        return None
    twins, rank = same_label(step, target)
    if len(twins) < 2:
        return None
    words = str((fn.get("parameters") or {}).get("target_element") or "")
    label = element_label(target)
    m = _ORDINAL.search(_unquoted(words))
    if m:
        said = _number(m.group(1) or m.group(2))
        if said and said != rank:
            return f"the target says the {said}{_suffix(said)} of the {len(twins)} “{label}”, the tapped one is the " \
                   f"{rank}{_suffix(rank)}"
        return None
    if _LAST.search(_unquoted(words)):
        return None if rank == len(twins) else f"the target says the last “{label}”, the tapped one is {rank} of " \
                                                 f"{len(twins)}"
    if _POSITION.search(_unquoted(words)) or _names_neighbour(words, label):
        return None
    return f"“{label}” is shared by {len(twins)} visible elements and the target gives no ordinal or position"


def _unquoted(text: str) -> str:
    return re.sub(r"“[^”]*”|「[^」]*」|『[^』]*』|\"[^\"]*\"", "", text)


def _names_neighbour(words: str, label: str) -> bool:
    """The target quotes something besides its own label (the product or row it belongs to)."""
    return any(normalize(q) != normalize(label) and len(q) >= 2 for q in quotes_in(words))


def absent_names(item: Any, episode: Episode, index: int) -> list[str]:
    """Quoted names of the item (reasoning, observation, target) that no screen so far, the goal, or what the agent
    typed or opened shows; empty when the current screen's texts are unknown."""
    if not isinstance(item, dict) or index >= len(episode.steps):
        return []
    step = episode.steps[index]
    if not knows_screen(step) or not screen_texts(step):
        return []
    known = known_texts(episode, index)
    fn = item.get("function") if isinstance(item.get("function"), dict) else {}
    texts = [item.get("reasoning"), item.get("observation"), str((fn.get("parameters") or {}).get("target_element") or "")]
    out: list[str] = []
    for text in texts:
        for q in quotes_in(text) if isinstance(text, str) else []:
            n = normalize(q).rstrip("….").strip()
            if len(n) < 2 or n in out:
                continue
            flat = n.replace(" ", "")
            if any(flat in k.replace(" ", "") or (len(k) >= 4 and k.replace(" ", "") in flat) for k in known):
                continue
            out.append(q)
    return out
