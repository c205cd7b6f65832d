"""Clauses with an action verb that tell, not decide: history, an outcome, the goal's wording, a control's state.

The decision reader (``decision``) finds every clause with an action verb; this module says which of them are
told — what was done (``上一步已经点了搜索``, ``I've hit Save``), what an action brought (``Tapping the search
field opened a search page``), what the goal asked (``The goal only asked to toggle it``), what a control now
holds (``Job type is Any``), what is open (``现在打开的是详情页``) — so that none of them is read as the action
taken now. Each test reads the clause's words before the verb (``before``) and after it (``after``), quotes masked.

>>> told_not_decided("click", "I've ", "hit", " Save on the form")
True
>>> told_not_decided("click", "so I'll ", "tap", " Save")
False
>>> told_not_decided("input", "The Job ", "type", " is Any")
True
"""
from __future__ import annotations

import re

from .ruled_out import NEGATED_BEFORE

HISTORY = re.compile(r"上一步|上一次|上次|前一步|刚才|刚刚|之前|此前|先前|前面|已经|早先|方才|起初|一开始"
                      r"|\b(?:previous(?:ly)?|earlier|already|last step|before this|a moment ago|just now)\b"
                      r"|(?:\b(?:have|has|had)|'ve|'d)\s+(?:just\s+|already\s+)?(?:\w+(?:ed|en|wn|ne)|hit|set|put|made|got|found|chose)\b"
                      r"|\b(?:tapped|clicked|typed|entered|swiped|scrolled|opened|pressed|selected|launched|went back"
                      r"|returned|waited)\b", re.I)
_PERFECT_BEFORE = re.compile(r"(?:\b(?:have|has|had)|'ve|'d|'s\s+been|\b(?:has|have|had)\s+been|\b(?:was|were))\s+(?:just\s+|already\s+)?$",
                             re.I)  # I've hit Save; the toggle's been switched
_ABILITY = re.compile(r"(?:页面|列表|屏幕|内容|界面|网页|它|这里|此处)[^，,。]{0,4}(?:还|也|仍)?(?:可以|可|能够?)[^，,。]{0,6}$"
                      r"|\b(?:page|list|screen|view|content|it)\s+(?:can|could|may)\s+(?:still\s+|also\s+)?(?:be\s+)?$",
                      re.I)
_DONE_AFTER = re.compile(r"(?:都|全都?|全部|也)(?:做|干|弄|办|搞)(?:了|完|好|过)|^[^，,。]{0,3}得(?:太|有点|过)?(?:多|远|快|头|差不多)了|^[^，,。]{0,12}?(?:后|之后|以后)(?:就|便|即|才)?(?:能|可以|会)(?:看到|看见)|(?:已经|已)(?:成功|完成|做完|结束|执行|生效)|没(?:有)?(?:打开|反应|变化|生效|成功|用|点中|点上)|做完了|完成了|没问题|没毛病|这一步已|的操作已|之后[，,]?\s*现在"
                         r"|\b(?:is|are|was|were|has been|have been)\s+(?:all\s+)?(?:done|complete|completed|finished)\b"
                         r"|\b(?:didn't|did not|failed to|never)\b[^,.;]{0,20}\b(?:open|work|register|respond|do anything)"
                         r"|^\s*(?:worked|went through|registered|succeeded|took effect)\b", re.I)
_NARRATED = re.compile(r"^[^，,。]{0,16}?(?:后|之后|以后)[^，,。]*?(?:了|过|出来|完毕)"  # 点击后页面显示出了…: an outcome told
                       r"|^(?:后|之后|以后)(?![^，,。]*?(?:会|将|能|可以|应该|应当|就))[^，,。]{0,12}?(?:显示|出现|弹出|变成|变为)")
# an action as the subject of what it did: ``Tapping the search field opened a search page`` (told, not decided)
_GERUND_TOLD = re.compile(r"^[^,.;:]{0,40}?\b(?:opened|brought|took|showed|revealed|moved|led|switched|turned|landed|"
                          r"pulled|popped|shifted|loaded|scrolled|put|was|were)\b", re.I)
_STATE_AFTER = re.compile(r"^\s*(?:框|菜单|选项|栏)?\s*(?:现在|当前|目前|此时|这时|仍然|依然|还)\s*(?:是|为|显示|写着|选的是|选着)"
                          r"|^\s+(?:is|was)\s|^\s+(?:currently|still|now)\s+(?:set to|shows|reads|says|is|\w+ed\b)"
                          r"|^\s+(?:shows|reads|says|displays)\s", re.I)
_I_DID = re.compile(r"\s*(?:[A-Za-z]+\s+){0,3}?(?:i|we)\s+(?:already\s+|just\s+|also\s+)?(?!need)[\w-]{2,}ed\b", re.I)
_AFTER_THE = re.compile(r"\bafter\s+(?:the|my|that|this|those|one|a)\s+$", re.I)  # now mid-screen after the scroll
# verbs listed and then told done together: 左滑右滑都翻过, 搜索、筛选也都做完了
_LISTED_DONE = re.compile(r"^[^，,。；;]{0,6}?[滑划翻滚点按搜填选看输][^，,。；;]{0,3}?[都也全]\s*(?:已经|已)?\s*"
                          r"[\u4e00-\u9fff]{0,2}?(?:过|完|好)了?")
_GOAL_ASKED = re.compile(r"\b(?:goal|task)\b[^,.;]{0,20}?\b(?:asked|asks|wanted|wants|said|says|is|was)\s+(?:me\s+|us\s+)?"
                         r"(?:just\s+|only\s+|simply\s+)?to\s+$", re.I)  # the goal was just to toggle it
_SUBJECT_OF_PAST = re.compile(r"\s+(?:brought|took|opened|led|landed|returned|sent)\b", re.I)  # the Home press brought me
_DUE_OPEN = re.compile(r"要|想|得|该|需|会|准备|打算|应")  # 要打开的是设置: what is to be opened is a decision
_TYPE_NOUN = re.compile(r"^\s*(?:,|\band\b|\bor\b|\bfield\b|\bbox\b|\bdropdown\b|\bfilter\b|\bmenu\b|\bselect(?:or)?\b|\)"
                        r"|\bshows\b|\breads\b|\bis\b|\bwas\b|\bstill\b|\bcurrently\b)", re.I)  # job type, city: a noun
_WHEN_DONE = re.compile(r"^[^，,。]{0,3}(?:之后|以后|后)\s*(?:的?(?:当前|现在|目前|此时|这)?(?:屏幕?|页面?|画面|界面|列表))?\s*$")  # 往上滑之后，…点…: the clause that says when, not what
_ENDS_DONE = re.compile(r"^[^，,。了]{2,24}(?<![就好行该要吧])了\s*$")  # 进入 Alice 的聊天页了。: a state reached, said at its end
_DUE = re.compile(r"该|要|得|可以|就|去|来|再")  # 该点提交了: it is time to, a decision
_PERFECTIVE = re.compile(r"^(?:了|过(?!去)|完|好了|完毕|完成)|^(?:底|头|顶|尽头|最[上下前后底顶]\S{0,2})了\s*$")  # 列表滚到底了: where it is
_PAST_MARK = re.compile(r"[按点滑划翻输填选敲打]了\s*$")  # 然后按了返回: the verb's object after the past mark
_WOULD_ONLY = re.compile(r"^\s*(?:一下)?(?:的话)?(?:只会|只能|反而会|反倒会|就?会(?![话议员计场儿]))")  # 直接点只会打开聊天: what it would do, weighed
# an action said as a gerund, then judged: ``Opening anything else would just be extra``, ``Re-entering to double-check
# would be redundant`` (an option weighed, not taken)
_GERUND_JUDGED = re.compile(r"^\s*(?:[\w-]+ing)\b[^.;,!?]{0,50}?\b(?:would|'d)\s+(?:just\s+|only\s+|simply\s+|really\s+|also\s+)?"
                            r"(?:be\s+(?:(?:an?|just|only|pure|really|totally)\s+)?(?:extra|redundant|unnecessary|pointless|overkill|waste|wasteful"
                            r"|superfluous|useless|excessive|needless|noise|detour)|add nothing|gain nothing|waste|cost)\b"
                            r"|^\s*(?:[\w-]+ing)\b[^.;,!?]{0,50}?\b(?:isn't|is not|'s not)\s+(?:really\s+)?(?:worth|needed|necessary"
                            r"|useful|helpful|required)\b|^\s*(?:[\w-]+ing)\b[^.;,!?]{0,50}?\b(?:rarely|seldom|never|won't|doesn't"
                            r"|does not|can't|cannot)\s+(?:do|does|help|change|achieve|work)\b", re.I)
# Scrolling further isn't worth it; Tapping a splash rarely does anything
# what a gesture brings, said as a definition among options: ``往左滑是下一张，往右滑是上一张``, ``swiping right means the
# previous one`` (how the viewer works, not the decision)
_MAPPED = re.compile(r"^\s*(?:的话)?\s*(?:(?:就|则|会)?是|即|=|对应|(?:would\s+)?(?:means?|gives?|goes\s+to|brings?\s+up|is))\s*"
                     r"(?:the\s+)?(?:下一|上一|前一|后一|\b(?:next|previous|prior|earlier|later|older|newer)\b)", re.I)
# an action said as a gerund and what it would do: ``tapping 返回 would just leave the viewer`` (an option weighed)
_GERUND_WOULD = re.compile(r"^\s*(?:[\w-]+ing)\b[^.;,!?]{0,50}?\b(?:would|might)\s+(?:just\s+|only\s+|simply\s+|also\s+)?(?!be\b)[a-z]+", re.I)
_AMOUNTS_TO = re.compile(r"^[^，,。；;]{0,16}?(?:则是|等于|相当于|意味着|只会是)")  # 点搜索则是泛搜: what the option amounts to
_CHOSEN_IS = re.compile(r"(?:中|好)?的(?:正|就|也)?是")  # 选中的正是李娜这一条: what is selected, a state;
_CHOOSER = re.compile(r"(?:我|要|该|应该|应当|需要|得|想)\s*$")  # not 我要选的是 …: a choice said as a noun
_COULD = re.compile(r"\b(?:i|we)\s+could(?:\s+(?:also|just|simply|instead))?\s*$"  # I could tap it, but …
                    # an option named as one of several: ``一个办法是直接点…``, ``还有就是点…``, ``One option is to tap …``
                    r"|(?:^|[，,；;]\s*)(?:(?:第)?一个|一种|另一个|另一种|还有一个|再一个)(?:办法|选择|选项|做法|思路|方案|可能)?(?:是|就是)\s*(?:直接|先)?\s*$"
                    r"|^\s*还有就是\s*(?:直接|先)?\s*$"
                    r"|\b(?:one|another|a second|a third|the other)\s+(?:option|way|choice|route|path|possibility)\s+(?:is|would be)"
                    r"\s+(?:to\s+)?(?:just\s+)?$", re.I)
# an option listed on after one weighed (``I could get there through 相机, or search with the Google bar``)
_OR_ON = re.compile(r"^\s*or\s+(?:just\s+|also\s+|maybe\s+|simply\s+|even\s+)?$", re.I)
_WEIGHED = re.compile(r"\b(?:i|we)\s+could\b", re.I)
_RECOUNT = re.compile(r"\s*(?:and\s+)?(?!(?:need|speed|feed|seed|breed)\b)[A-Za-z]{2,}ed\b")
_OPEN_IS = re.compile(r"\s*着?的(?:是|就是|页面|界面)")


def recounts(masked: str) -> bool:
    """Whether a clause opens a first-person or bare past recount (``Before that I long-pressed Project Team``,
    ``Searched X``): the clauses listed after it share its doer and its time."""
    return bool(_RECOUNT.match(masked) or _I_DID.match(masked))


def option_listed_on(before: str, earlier: str) -> bool:
    """Whether a clause whose verb follows ``before`` lists one more option after ``earlier`` (its sentence so far)
    weighed one: ``I could get to photos through 相机's thumbnail, or search with the Google bar``, ``I could tap the
    logo, press back, or give it a moment``."""
    listed = _OR_ON.match(before) or (not before.strip() and re.search(r",\s*$", earlier))  # I could X, Y or Z
    return bool(listed and _WEIGHED.search(earlier))


def told_not_decided(kind: str, before: str, verb: str, after: str) -> bool:
    """Whether a clause whose action verb (of class ``kind``) is ``verb``, between ``before`` and ``after``,
    tells what was done, what it brought or what holds now rather than deciding the action taken now."""
    if (HISTORY.search(before) or _PERFECT_BEFORE.search(before) or _PERFECTIVE.match(after) or re.search(r"已$|已经$|刚$", before)
            or _AFTER_THE.search(before) or _LISTED_DONE.match(after) or _PAST_MARK.search(before)
            or (re.fullmatch(r"\s*(?:[A-Za-z]+ing\b[^,.;]*\band\s*)?", before) and verb.lower().endswith("ing")
                and _GERUND_TOLD.match(after))
            or _DONE_AFTER.search(after) or _NARRATED.search(after) or _WHEN_DONE.match(after)
            or (_ENDS_DONE.match(after) and not _DUE.search(before))):
        return True
    if re.match(r"['’]s\s", after):
        return True  # toggle's been switched: a noun, its verb after it
    if _GOAL_ASKED.search(before) or (kind == "click" and _SUBJECT_OF_PAST.match(after)):
        return True  # The goal only asked to toggle it / where the Home press brought me: told, not decided
    if kind == "open" and _OPEN_IS.match(after) and not _DUE_OPEN.search(before):
        return True  # 现在打开的是罗技运动鞋的详情页: what is open, not what to open
    if _WOULD_ONLY.match(after) or _MAPPED.match(after) or _AMOUNTS_TO.match(after) or _COULD.search(before) or _GERUND_JUDGED.match(before + verb + after) or _GERUND_WOULD.match(before + verb + after) or (
            _CHOSEN_IS.match(after) and re.fullmatch(r"选中|勾选|选好|选", verb) and not _CHOOSER.search(before)):
        return True  # 直接点只会打开聊天, I could tap the logo: an alternative weighed, not the decision
    return bool(NEGATED_BEFORE.search(before) or _ABILITY.search(before) or _STATE_AFTER.match(after)
                or (kind == "input" and _TYPE_NOUN.match(after)))  # Guests 下拉现在是 1 / Job type is Any: a state
