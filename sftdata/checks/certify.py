"""Certify an item with positive evidence: ``certified``, ``rejected`` or ``unsure``.

:func:`certify` is the one entry point the CLI, the judge, review and export use. An item is

- ``rejected`` when a check fails (:func:`sftdata.checks.check.check_item`: the call is not the ground truth's,
  the reasoning contradicts it, ``hindsight``, ``future_screen_text``, ...), with those reasons;
- ``certified`` when the reasoning's decision names what the call does (:mod:`.evidence`: the target by its label,
  a word of its card, an ordinal, a place or a role; the typed value; the option; the direction; the app; going
  back or home; waiting; "done") and nothing else in it is doubtful;
- ``unsure`` otherwise, with what was missing or doubtful: ``no_decision``, ``decision_not_grounded``,
  ``another_action`` (another clause decides something the call does not do), ``outcome_after_action`` (a clause
  after the decision reports what happens next, or one anywhere tells the action's result as certain:
  :mod:`.foretold`), ``plan_names_later_screen`` (a plan names a word only a later
  screen shows: a guess, never hindsight), ``name_not_on_screen`` (a name no screen so far, the goal, the
  history or the call shows), ``conflicting_decision`` (a contradiction, but an action clause also names what the
  call does), ``later_screen_text`` (a word after the decision only a later screen shows), ``acted_element_state``
  (the acted-on element told as changed), ``run_position``, and (:mod:`.after_decision`) ``unaccounted_after_decision``
  (a clause after the decision that is neither the screen as it is, a plan, an expectation, a purpose nor
  another thing known before acting), ``other_card_named``, ``other_card_control`` and ``other_value_quoted``;
  ``hindsight_or_screen`` (on a back or home step, a told change that names only what the current screen shows:
  the screen as the step before left it, or what leaving it brings; :mod:`.excused`).

Unsure items go to a reader: the LLM judge when one is configured, else the review queue; export takes certified
items and the unsure ones a judge or reviewer passed (``--include-unsure`` takes them all).

>>> from sftdata.model import Action, Element, Episode, Screenshot, Step
>>> shot = Screenshot("0" * 64, "x.png", 1080, 2400)
>>> wifi = Element(0, (0, 300, 1080, 400), text="WLAN", flags=("visible",))
>>> bt = Element(1, (0, 400, 1080, 500), text="蓝牙", flags=("visible",))
>>> ep = Episode("e", "sample", "打开无线网络设置", [Step(0, shot, Action("click", point=(540, 350), element=wifi),
...                                                elements=[wifi, bt]), Step(1, shot, Action("done"))])
>>> def item(text):
...     return {"reasoning": text, "function": {"name": "click", "parameters": {"target_element": "“WLAN”选项"}}}
>>> certify(ep, 0, item("要打开无线网络设置，所以点击“WLAN”。")).outcome
'certified'
>>> c = certify(ep, 0, item("要打开无线网络设置，所以点击“蓝牙”。"))
>>> c.outcome, c.reasons[0].code
('rejected', 'reasoning_contradicts_action')
>>> c = certify(ep, 0, item("页面上有两个选项，先看一看。"))
>>> c.outcome, c.reasons[0].code
('unsure', 'no_decision')
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from ..model import Episode
from .acted_state import acted_state, held_value, typed_state_before
from .after_decision import change_told, doubts, screen_words, told_after_done, unaccounted_after_decision
from .call_notation import action_line, closing_action_line, notation_evidence
from .calls import ITEM_FIELDS, element_label, longest_first, target_element
from .check import CJK_THRESHOLD, Failure, check_item, check_items, future_failures, hindsight_detail, later_plans
from .conflict import call_evidence
from .decision import action_clauses, stated_decision
from .described import described_sentences, history_clauses, previous_result_sentences, without_spans
from .finger import finger_direction, sought_direction
from .foretold import foretold
from .evidence import decision_evidence, other_actions
from .excused import scrolled_against_swipe, shown_now_only, told_of_history
from .future_text import later_figures, later_screen_words
from .hedges import AFTER_ACTING
from .ruled_out import unruled
from .screen_text import label_pattern, screen_texts
from .spoken_calls import spoken_calls
from .outcome import outcome_clause, plan_clause, run_position, ungrounded_names
from .target_evidence import Evidence

OUTCOMES = ("certified", "unsure", "rejected")
UNSURE_REASONS = ("no_decision", "decision_not_grounded", "another_action", "outcome_after_action",
                  "plan_names_later_screen", "name_not_on_screen", "conflicting_decision", "run_position",
                  "later_screen_text", "acted_element_state", "unaccounted_after_decision",
                  "other_card_named", "other_card_control", "other_value_quoted", "hindsight_or_screen")


@dataclass(frozen=True)
class Reason:
    """Why an item is rejected or unsure: a machine-readable ``code`` and a sentence of ``detail``."""

    code: str
    detail: str

    def to_dict(self) -> dict[str, str]:
        return {"code": self.code, "detail": self.detail}


@dataclass(frozen=True)
class Certification:
    """The outcome of :func:`certify`: ``certified``, ``rejected`` or ``unsure``, the ``reasons`` (empty when
    certified) and the ``evidence`` the decision gave."""

    outcome: str
    reasons: tuple[Reason, ...] = ()
    evidence: tuple[Evidence, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"outcome": self.outcome, "reasons": [r.to_dict() for r in self.reasons],
                "evidence": [e.to_dict() for e in self.evidence]}

    @property
    def first(self) -> str:
        """The first reason's code, '' when certified."""
        return self.reasons[0].code if self.reasons else ""


_NUMBERED = re.compile(r"\s*#\d+\s*$")  # a result's number after its name (Travel show daily #13)


def _names_said(text: str, step) -> tuple[str, ...]:
    """The target's label and the screen's longer names (two words or more), with or without a result's number
    after them, as ``text`` writes them, in any case: a name (Quick show max #13, organic show pro #13) is not a
    verb, nor a statement."""
    target = target_element(step)
    labels = {element_label(target)} if target is not None else set()
    labels |= {element_label(e) for e in step.elements if len(element_label(e) or "") >= 8
               and " " in element_label(e).strip()}
    labels |= {_NUMBERED.sub("", x) for x in labels if x and _NUMBERED.search(x)}  # #13, Travel show daily
    out = []
    for label in sorted(filter(None, labels), key=longest_first):
        if len(label.strip()) < 4:
            continue
        m = label_pattern(label).search(text)
        if m:
            out.append(m.group())
    return tuple(out)


_TOLD_AFTER = re.compile(AFTER_ACTING, re.I)
_STAYS = ("click", "long_press", "input")  # decisions whose screen a statement after them may describe (not a swipe's)


def certify(episode: Episode, index: int, item: Any, *, cjk_threshold: float = CJK_THRESHOLD) -> Certification:
    """The certification of ``item`` as the reconstruction of step ``index`` of ``episode`` (the later steps, when
    the episode has them, are read for hindsight; one step is enough for the rest)."""
    step = episode.steps[index]
    failures = check_item(item, step, index, cjk_threshold=cjk_threshold, web=episode.web)
    failures += future_failures(item, episode, index, index)
    return _certify(episode, index, item, failures)


def certify_items(items: Sequence[Any], episode: Episode, *, cjk_threshold: float = CJK_THRESHOLD,
                  failures: Sequence[Failure] | None = None) -> list[Certification]:
    """:func:`certify` for every item of an annotation; a failure of the whole list (a wrong count, a misplaced
    ``done``) rejects every item. ``failures``: :func:`check_items`'s, when the caller has them already."""
    if failures is None:
        failures = check_items(items, episode, cjk_threshold=cjk_threshold)
    common = [f for f in failures if f.index is None]
    out = []
    for i, item in enumerate(items[:len(episode.steps)]):
        own = common + [f for f in failures if f.index == i]
        out.append(_certify(episode, i, item, own))
    return out


def _certify(episode: Episode, index: int, item: Any, failures: Sequence[Failure]) -> Certification:
    contradicted = bool(failures) and all(f.reason == "reasoning_contradicts_action" for f in failures)
    if contradicted and all(told_of_history(episode, index, item, f.detail) for f in failures):
        failures = ()  # Finished. Before that I long-pressed Project Team, hit 删除 and confirmed it.: the history
    elif contradicted:
        field = failures[0].detail.split(":", 1)[0]
        other = re.search(r"names “([^”]*)”", failures[0].detail)
        element = re.search(r"another (?:element|field)", failures[0].detail)
        named = call_evidence(spoken_calls(item.get(field)), item["function"], episode.steps[index],
                              (other.group(1) if other else "") if element else None,
                              "says the task is complete" in failures[0].detail)
        if named and scrolled_against_swipe(failures, item):
            failures = ()  # scroll the list up … Action: swipe up: the swipe is the finger's, a scroll may be the view's
        elif named:  # the text names what the call does too: a reader decides
            return Certification("unsure", tuple(Reason("conflicting_decision", f"{f.detail}; but the text "
                                                        f"names “{named[:40]}” too") for f in failures))
    if failures and all(f.reason == "hindsight" for f in failures) and _told_only_the_screen(episode, index, item):
        failures = ()  # 点 Checkout。The page shows #1 through #6.: read after an action, it is still the screen as it is
    elif failures and all(f.reason == "hindsight" and shown_now_only(episode, index, item, f.detail) for f in failures):
        return Certification("unsure", tuple(Reason("hindsight_or_screen", f"{f.detail}, which the current screen "
                                                    "shows too: the screen now or the action's result") for f in failures))
    if failures:
        return Certification("rejected", tuple(Reason(f.reason, f.detail) for f in failures))
    told_once = functools.cache(lambda: _foretold(item, episode, index))  # the same texts in every re-read
    read = _read(episode, index, item, told_once=told_once)
    spoken = spoken_calls(item["reasoning"]) if isinstance(item.get("reasoning"), str) else ""
    line = closing_action_line(spoken)
    if read.outcome == "certified" and line is not None and stated_decision(unruled(  # Thought: 向上滑，滑完顶部是 X
            spoken[:line[0]], episode.steps[index])) is not None:
        told = [r for r in _read(episode, index, item, restated=True, told_once=told_once).reasons
                if (r.code == "outcome_after_action" and _TOLD_AFTER.search(r.detail.partition("”")[0]))
                or r.code == "acted_element_state"]  # told as after the action (滑完, 之后, once it …), or the acted-on
        # element as changed (输入 mystery novels，框里已显示这几个词)
        if told:  # … Action: swipe up: what the thought's own decision brings, told before the line restating it
            return Certification("unsure", tuple(told), read.evidence)
    told = _told_before_restating(episode, index, item, spoken) if read.outcome == "certified" else ()
    if told:  # 点右边的发送短信，“OK”作为气泡出现在对话右侧。决定点发送短信。: the closing decision says it again
        return Certification("unsure", told, read.evidence)
    for restated, described in ((True, 0), (False, 1), (True, 1), (True, 2)) if read.outcome == "unsure" else ():
        again = _read(episode, index, item, restated, described, told_once)  # … so I'll press the back key. Action: press_back.
        if again.outcome == "certified":  # … The keyboard is up, with 空格 at the bottom.: the screen as it is
            return again
    return read


_CLOSING_SAID = re.compile(r"(?:^|[。.!！?？\n]\s*)(?:决定|→|=>|->|final answer|my final answer|decision)\s*[:：]?\s*$|^\s*(?:决定|→|=>|->)",
                          re.I)


def _told_before_restating(episode: Episode, index: int, item: Any, spoken: str) -> tuple[Reason, ...]:
    """What the text says after an earlier decision of the same kind, grounded on its own, that its closing decision
    says again (``… 点右边的发送短信，“OK”作为气泡出现在右侧。决定点发送短信。``): the first clause after it not accounted
    for (:mod:`.after_decision`), as a reason; none when there is none."""
    step = episode.steps[index]
    clauses = action_clauses(unruled(spoken, step))
    closing = clauses[-1] if clauses else None
    earlier = next((c for c in clauses[:-1] if c.verb == closing.verb), None) if closing else None
    if earlier is None or spoken[closing.span[1]:].strip(" .。!！\n") or not (
            _CLOSING_SAID.search(spoken[:closing.span[0]]) or _CLOSING_SAID.match(closing.clause)) \
            or _without_concluding_decision(spoken, item["function"], step) != spoken:
        return ()  # no closing decision (决定…, →, Final answer:), none of its kind before it, or a conclusion read already
    opening = unruled(spoken[:earlier.span[1]], step)
    decision = stated_decision(opening)
    if decision is None or decision.span != earlier.span or decision_evidence(opening, item["function"], step)[1]:
        return ()  # the earlier one is not a decision grounded on its own
    body = without_spans(spoken, [closing.span])
    body = without_spans(body, described_sentences(body, decision.span, episode, index))  # the screen as it is
    later = later_screen_words(body[decision.span[1]:], episode, index)  # 第一条是 Soft flight quick #1: the next screen
    told = told_after_done(body[decision.span[1]:]) or unaccounted_after_decision(body, episode, index, decision,
                                                                                  item["function"]) or (
        later[0].word if later else None)
    return (Reason("unaccounted_after_decision", f"“{told[:60]}”, said after “{decision.phrase[:30]}”, which the "
                   f"closing decision says again, is not known before acting"),) if told else ()


def _told_only_the_screen(episode: Episode, index: int, item: Any) -> bool:
    """Is every hindsight of the item's reasoning in sentences after its decision that describe the screen as it is
    (:mod:`.described`), so that without them it tells none?"""
    text = item.get("reasoning")
    decision = stated_decision(unruled(text, episode.steps[index])) if isinstance(text, str) else None
    if decision is None:
        return False
    spans = described_sentences(text, decision.span, episode, index) + history_clauses(text, decision.span, episode,
                                                                                       index)
    spans += previous_result_sentences(text[:decision.span[0]], episode, index)
    return bool(spans) and hindsight_detail({**item, "reasoning": without_spans(text, spans)}) is None


def _read(episode: Episode, index: int, item: Any, restated: bool = False, described: int = 0,
          told_once: Callable[[], str | None] | None = None) -> Certification:
    """The certification of an item no check failed; ``restated``: each text's closing ``Action:`` line is read
    as a restatement of the decision before it (:func:`_without_restatement`); ``described``: the sentences after
    the decision that describe the screen as it is are left out (:mod:`.described`), and at 2 the clauses that
    tell what earlier steps did too (``… so the toggle is done``); ``told_once``: the item's :func:`_foretold`,
    read once for all re-reads of one item."""
    step = episode.steps[index]
    function = item["function"]
    params = function.get("parameters") if isinstance(function.get("parameters"), dict) else {}
    # an agent's call or action object said in words, once for every reader below
    readable = {name: spoken_calls(item[name]) for name in ("reasoning",) + ITEM_FIELDS
                if isinstance(item.get(name), str)}
    texts = [t for t in (readable.get("reasoning"), readable.get("thought")) if t and t.strip()]
    evidence, missing, decided = [], "no decision: the item states no text", None
    for text in texts:  # the reasoning's decision, else the thought's
        text = _without_restatement(episode, index, text, function) if restated else text
        read = unruled(text, step)  # a ruled-out mention is no evidence (pass 10)
        decision = stated_decision(read)
        if described and decision is not None:
            text = without_spans(text, described_sentences(text, decision.span, episode, index)
                                 + (history_clauses(text, decision.span, episode, index) if described > 1 else []))
            read = unruled(text, step)
        evidence, missing = decision_evidence(read, function, step, decision)
        decided = (text, decision, read)
        if not missing:
            break
    if missing:  # a decision on an ``Action:`` line of its own, in words or as a call (``Action: open_app(商城)``)
        for text in texts:
            line = action_line(text)
            written = notation_evidence(text, function, step) or (
                decision_evidence(line, function, step)[0] if line and not decision_evidence(line, function, step)[1]
                else None)
            if written:
                evidence, missing = written, None
                break
    reasons: list[Reason] = []
    if decided is not None and decided[1] is None and not missing:  # grounded without a verb: ``05/14 into …``
        said = next((e.words for e in evidence if e.kind == "value"), "")
        at = decided[0].find(said) + len(said) if said and said in decided[0] else -1
        if at < 0 and any(e.kind == "direction" for e in evidence):  # 手指向左一划，切到了第 10 张: after the gesture
            at = next((m.end() for m in re.finditer(r"[^，,。；;.!?！？\n]+", decided[0]) if finger_direction(m.group())), -1)
        told = without_spans(decided[0], described_sentences(decided[0], (at, at), episode, index)) \
            if described and at >= 0 else decided[0]  # Cabin → Business. It shows Economy now: the screen as it is
        outcome = (outcome_clause(told, (at, at), None, (said,) if said else ()) or told_after_done(told[at:])
                   or change_told(told, said)) if at >= 0 else None
        if outcome:
            reasons.append(Reason("outcome_after_action", f"“{outcome[:60]}” reports what happens after the action"))
        held = held_value(decided[0], said, screen_texts(step)) if said else None
        if held:  # Destination filled — the box shows Lisbon: no decision, the typing told as done
            reasons.append(Reason("acted_element_state", f"“{held[:60]}” tells the acted-on element as changed"))
    if missing:
        reasons.append(Reason("no_decision" if missing.startswith("no decision") else "decision_not_grounded", missing))
    if decided is not None and decided[1] is not None:
        text, decision, read = decided
        others = other_actions(read, function, decision)  # 返回也太早: an option judged off (read unruled)
        if others:
            reasons.append(Reason("another_action", f"“{others[0][:60]}” is another action than the call's"))
        values = tuple(str(params[k]) for k in ("text", "value") if params.get(k))
        named = _names_said(text, step)
        outcome = outcome_clause(text, decision.span, decision.span[1] - len(decision.rest), values + named,
                                 screen_words(step, values) if decision.verb in _STAYS else None
                                 ) or told_after_done(text[decision.span[1]:])
        if outcome:
            reasons.append(Reason("outcome_after_action", f"“{outcome[:60]}” reports what happens after the action"))
        elif told := (told_once or (lambda: _foretold(item, episode, index)))():  # as written: Tapping
            # it flips the switch to On. → tap Dark theme. (a description of the screen as it is read the same)
            reasons.append(Reason("outcome_after_action", f"“{told[:60]}” tells what the action brings as certain"))
        state = acted_state(text, decision, function) or typed_state_before(text, decision, function,
                                                                             screen_texts(step))
        if state:
            reasons.append(Reason("acted_element_state", f"“{state[:60]}” tells the acted-on element as changed"))
        after = text[decision.span[1]:]
        later = [f.word for f in later_screen_words(after, episode, index) if not plan_clause(after, f.word)]
        if later:
            reasons.append(Reason("later_screen_text", f"“{later[0][:40]}”, said after the decision, is shown only "
                                  "on a later screen"))
        elif figures := later_figures(text, episode, index):  # 再往上滑，就能看到 Sony ¥129: before the decision too
            reasons.append(Reason("later_screen_text", f"“{figures[0].word}” is a figure only a later screen shows"))
    way = str(params.get("direction") or "").lower()
    sought = sought_direction(decided[0]) if decided is not None and function.get("name") == "swipe" else None
    if sought and way in ("up", "down") and sought != way:  # scroll up; the row is further down: which way?
        reasons.append(Reason("direction_against_place", f"the text looks for something the {way} swipe moves "
                              "away from"))
    if decided is not None and not missing:  # positive evidence for the rest of the text (pass 9)
        reasons += [Reason(code, detail) for code, detail in doubts(decided[0], decided[1], episode, index, function)]
    for name, value in readable.items():  # an action object's keys (action_type) are no names of the screen
        position = run_position(value, index)
        if position:
            reasons.append(Reason("run_position", f"{name}: “{position[:40]}” tells where the step stands in the run"))
        for word in later_plans(value, episode, index):
            reasons.append(Reason("plan_names_later_screen", f"{name}: the plan names “{word}”, which only a later "
                                  "screen shows"))
        site = episode.meta.get("website")  # a web task names its site (Mind2Web's website field)
        names = [n for n in ungrounded_names(value, episode, index, [str(v) for v in params.values()]
                                             + ([site] if isinstance(site, str) else []))
                 if plan_clause(value, n) != "action"]  # the target of a later action may be unseen yet
        if names and name in ("reasoning", "thought"):
            reasons.append(Reason("name_not_on_screen", f"{name}: “{names[0][:40]}” is on no screen so far, nor in "
                                  "the goal or the history"))
    return Certification("unsure" if reasons else "certified", tuple(reasons), tuple(evidence))


def _foretold(item: Any, episode: Episode, index: int) -> str | None:
    """The first result of step ``index`` that the item's reasoning (else its thought) tells as certain, as written
    (:mod:`.foretold`), else None."""
    texts = (spoken_calls(item[name]) for name in ("reasoning", "thought") if isinstance(item.get(name), str))
    return next(filter(None, (foretold(t, episode, index) for t in texts if t.strip())), None)


def _without_restatement(episode: Episode, index: int, text: str, function: dict[str, Any]) -> str:
    """``text`` with its closing ``Action:`` line blanked when a decision grounded on its own is stated before it and
    the line alone certifies (``… so I'll press the back key. Action: press_back.``): it restates the decision, it
    tells no state."""
    span, step = closing_action_line(text), episode.steps[index]
    if span is None:
        return _without_concluding_decision(text, function, step)
    if decision_evidence(unruled(text[:span[0]], step), function, step)[1] is not None:
        return text
    alone = _read(episode, index, {"reasoning": text[span[0]:span[1]], "function": function})
    return without_spans(text, [span]) if alone.outcome == "certified" else text


def _without_concluding_decision(text: str, function: dict[str, Any], step) -> str:
    """``text`` with its decision blanked when that is a conclusion (``所以点删除``, ``so its picture is what I
    tap``) that restates, in fewer words, a decision of the same kind that opens the text and is grounded on its own
    (``点右上角“删除”。… 任务要删除而不是归档，所以点删除。``): the opening one is the decision."""
    decision = stated_decision(unruled(text, step))
    if decision is None or not decision.marked:
        return text
    opening = re.match(r"[^。！？!?\n]+?(?:[。！？!?]|\.(?=\s)|$)", text)
    if opening is None or opening.end() > decision.span[0]:
        return text
    opened = unruled(opening.group(), step)
    first = stated_decision(opened)
    if first is None or first.verb != decision.verb or decision_evidence(opened, function, step)[1] is not None:
        return text
    return without_spans(text, [decision.span])


def outcome_counts(certifications: Sequence[Certification]) -> dict[str, int]:
    """How many of each outcome, in :data:`OUTCOMES` order.

    >>> outcome_counts([Certification("certified"), Certification("unsure", (Reason("no_decision", ""),))])
    {'certified': 1, 'unsure': 1, 'rejected': 0}
    """
    counts = {o: 0 for o in OUTCOMES}
    for c in certifications:
        counts[c.outcome] += 1
    return counts


__all__ = ["OUTCOMES", "UNSURE_REASONS", "Certification", "Reason", "certify", "certify_items", "outcome_counts"]
