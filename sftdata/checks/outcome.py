"""What a reasoning says besides its decision that certify cannot vouch for: outcomes and names from nowhere.

- :func:`outcome_clause`: a clause after the decision that reports what the screen does next (``the search page
  opens``, ``列表刷新出了新的商品``, ``it's now On``), as fact: not a plan, an expectation, a purpose, a condition
  or history. Whether or not its words are on a screen, the agent cannot know it yet; the hindsight checks reject
  the ones they recognise, the rest leave the item unsure.
- :func:`plan_clause`: the clause that holds a word, when it is a plan or an expectation (``then I'll look for
  Bluetooth``, ``应该能进入“已配对的设备”``): a later screen's word there is a guess, not hindsight.
- :func:`ungrounded_names`: quoted names, prices and model numbers that no screen so far, the goal, the agent's
  typing nor the call shows.

>>> outcome_clause("Tap Search, and the results page opens with 12 items.", (0, 10))
'and the results page opens with 12 items'
>>> outcome_clause("Tap Search so that I can read the results.", (0, 10)) is None
True
>>> plan_clause("点击“设置”，应该能看到“蓝牙”。", "蓝牙"), plan_clause("点击“设置”，“蓝牙”出现了。", "蓝牙")
(True, False)
>>> plan_clause("打开设置，进去以后再点“蓝牙”。", "蓝牙")
'action'

"""
from __future__ import annotations

import re
from typing import Callable

from ..model import Episode
from .calls import CJK_CLASS, count_of, normalize
from .decision import action_clauses, first_verb, mask_quotes, quotes_in
from .episode_length import EN_NUM, ZH_NUM, ZH_STEP
from .finger import FINGER, mask_gloss
from .future_text import known_texts
from .gui_terms import translations
from .hedges import CONCLUSION, ENOUGH_ZH, EXPECT_EN, EXPECT_ZH, HABITUAL, HEDGE, JUDGEMENT, WILL_ZH, now_sentences
from .plan_lists import PLAN_POINTER
from .ruled_out import ruled_out_relatives
from .screen_text import PRICE
from .target_evidence import said_rank

_CLAUSE = re.compile(r"(?:[^，,；;。！？!?\n：:—–()（）→.]|(?<=\d)[:：](?=\d)|\.(?!\s|$))+|(?<=\w)\.(?=\s|$)")
_EXPECTED = re.compile(HEDGE.pattern + "|" + HABITUAL + "|" + WILL_ZH + r"|一般"
                       r"|\b(?:hope|hopefully|supposed|presumably|maybe|perhaps|has to|have to|needs? to|must)\b|'d\b",
                       re.I)  # an expectation: what hindsight's wording reads as one, and a few more
_PLANNED = re.compile(r"以便|以免|为了|方便|好让|便于|才能|就能|就可以|可以|能够|(?<![智功性技体])能(?![量力源])|看看|看是否|看一下|试试|如果|假如|要是"
                      r"|万一|一旦|等(?:到|它|页面|加载|一下|会儿|键盘|首页|结果|搜)|再|然后|接下来|之后|下一步|稍后|打算|准备|想|需要|(?<!只)要(?!求)|得(?=去|先|再)|找|寻找|查找|是否|吗|呢|\?|？"
                      r"|\bnext\b(?!\s+(?:one|page|screen|view|photo|picture|image|item|row|card|results?|entry|listing|tab|slide|thumbnail"
                      r"|(?:i|we|you)\s+(?:see|get|find|have)|(?:comes?|shows?|appears?|is|are))\b)"  # next I see …: a report
                      r"|\b(?:can|plan|want|need|needs|if|unless|let me|let's|in order to|so that|to be sure|to make sure|make sure|once|until|then|after|from there"
                      r"|afterwards|later|whether|in case)\b", re.I)
_HEDGED = re.compile(_EXPECTED.pattern + "|" + _PLANNED.pattern, re.I)
_HISTORY = re.compile(r"上一步|上一次|上次|前一步|刚才|刚刚|之前|此前|先前|早先|一开始"
                      r"|\b(?:previous(?:ly)?|a moment ago|just now|so far|last (?:step|time|tap)|before this)\b", re.I)
_ASIDE = re.compile(r"任务|目标|要求|题目|而不是|而非|不是|不要|不用|别|不必|无需|没必要|不需要|" + ENOUGH_ZH + r"|也就是|即|对应|这是|这就是"
                    r"|不同|别的|其他|另一个|因为|由于"
                    r"|\b(?:task|goal|asks?|wants?|(?-i:not)|instead|rather|never|no need|i\.e\.|namely|that is"  # not Do Not Disturb
                    r"|because|since|this is|that's|different|another|other)\b", re.I)
_PURPOSE_ZH = re.compile(r"^\s*(?:看|查看|浏览|回到|返回|退出|进入|进去|打开|切换|把|让|使|将|找|寻找|调出|拉|露出|从|去|来|以|好|再|并|开始"
                         r"|继续|选|点|输入|翻|滑|滚|展开|收起|关闭|开启|确认|提交|保存|收藏|加入|添加|删除|发送|完成|结束|回|进|留在|停在"
                         r"|等|确保|保证|避免|方便|便于|以便|用来|用于|直到|一直|顺便|先|也)")
_PURPOSE_EN = re.compile(r"^\s*(?:to|then|for|leave|keep|make|let|bring|go|come|get)\b", re.I)
_CURRENT = re.compile(r"屏幕上|页面上|界面上|这里|此处|\b(?:right here|on (?:the|this) (?:screen|page))\b",
                      re.I)  # where on the screen the decision's target is: the screen as it is now
_BELOW = re.compile(r"下面(?:还)?(?:有|是)|下方(?:还)?(?:有|是)|更下面|再往下|\bbelow (?:it |that )?(?:are|is|there)\b"
                    r"|\bfurther down\b")  # what a swipe will reveal
_STATEMENT = re.compile(PRICE.pattern + r"|\d\s*%|\d+\s*/\s*\d+|\b\d+ of \d+\b|是|有|在|售价|价格|只要|显示为|写着|标着|剩|\b(?:is|are|am|was|were|has|have|had)\b|'s\b|'m\b|'re\b"
                        r"|\bthere\b", re.I)
_RESULT_ZH = re.compile(
    r"出现|显示|弹出|弹了出来|跳转|跳到|跳出|变成|变为|变了|变[红绿蓝亮灰黄]|亮起|亮了|消失|不见了|加载(?:出|完|好)|刷新|展开了|收起了"
    r"|出来了?|打开了|进入了|进到了|回到了|返回到了|到了|关闭了|开启了|关上了|切换(?:到|成)|切到了|列出|定位到了|选中了|勾上了"
    r"|(?<=后)(?:就|便)?(?:回到|进入|来到)"
    r"|有了|多了|少了|没了|成功|顺利|生效|更新(?:为|成|了)|填好了|换成|换到|随之|随即|(?<![能可要想去来再会])看到(?!了?[吗没])")
_RESULT_EN = re.compile(
    r"(?<=[a-z]{3}s )open\b|(?<=\bresults )(?:list|show|display)(?=\s+(?:the\s+)?(?-i:[A-Z#\d\x22“'□])|\s+[\u4e00-\u9fff])"
    r"|\b(?:appears?|appeared|opens|opened|shows?(?! me)|showed|shown|displays|displayed|loads|loaded|lists|listed"
    r"|reads|turns|turned|still (?:starts|begins) (?:at|with|from)|(?:stays|stayed|remains|remained)(?:\s+\w+ly)?\s+(?:the same|unchanged|as (?:it|they|is|are|before)"
    r"|put|empty)|becomes|became|switch(?:es|ed)|chang(?:es|ed)|pops? up|popped up|comes? up|came up"
    r"|shows? up|goes|went|jumps?|jumped|lands|landed|takes (?:me|us|you)|took (?:me|us|you)|brings? up|brought up"
    r"|reveals|revealed|expands|expanded|collapses|collapsed|closes|closed|disappears?|disappeared|vanish(?:es|ed)"
    r"|refresh(?:es|ed)|updates|updated|navigates|navigated|redirects|redirected|worked|succeeded|took effect"
    r"|registered|fills|filled|clears|cleared|slides|slid|scrolls|scrolled|moves|moved|flips|flipped|toggles"
    r"|(?!(?:lets|helps|allows|wants|needs|asks|tells|gives|makes)\b)[a-z]+s (?:me|us) (?:on|onto|at|in|into|to|back|straight|right)"
    r"|returns (?:me|us|you) to|brings [^,.;]{1,40}? (?:back|into view|to|up|down)\b|starts? (?:at|with)|labels it|sits|is now|are now|now \w+s|(?:is|are|was|were|has been|have been|gets|got)"
    r" (?:added|saved|sent|submitted|deleted|removed|selected|checked|unchecked|enabled|disabled|toggled|applied"
    r"|updated|opened|closed|shown|displayed|highlighted|filled|entered|typed|cleared|confirmed|booked|placed|posted"
    r"|on(?!\s+(?:the|a|an|its|my|this|that)\b)|off|open|visible|gone|done|complete))\b", re.I)  # is on the left: a place
_AFTER_IN_CLAUSE = re.compile(r"(?:后|之后|以后|完)(?:就|便|即|先)?[^，,。]{0,12}?(?:" + _RESULT_ZH.pattern + ")"
                              r"|(?:打开了|进入了|进到了|回到了|返回到了|到了|关闭了|开启了|选中了|勾上了|填好了|变了|亮了)"
                              r"|(?:出现|显示|弹出|跳转|跳到|跳出|变成|变为|消失|刷新|列出|切换到|加载)[^，,。]{0,4}了")
_NEXT_SCREEN = re.compile(r"(?:下一页|下一屏|下个页面|下一个页面|新页面|进去以?后|\b(?:the )?next (?:page|screen|view)\b|\bthe following (?:page|screen)\b)"
                          r"[^，,。()（）]{0,6}?(?:是|有|显示|列出|出现|\b(?:is|has|lists|shows|reads|says|opens)\b)", re.I)  # the next screen, as fact
_ARROW = re.compile(r"->|→|=>|⇒")  # swipe right -> back on 1/30: what the arrow points to is the result
_SUBJECT_THEN = re.compile(r"\b(?:the|this|that|its|it)\b[^,.;]{0,24}?\bthen\b", re.I)  # the list then starts: no plan
_MOVED = re.compile(r"(?:页面|列表|屏幕|界面|内容|它)[^，,。]{0,4}?(?:[滚滑翻移跳弹]|往[上下左右]|向[上下左右])[^，,。]{0,3}?了")  # 页面往下滚了一点
_AFTER = re.compile(r"^\s*(?:[^，,。]{0,6}?(?:后|之后|以后)|[^，,。]{0,4}?[点输填选按打滑划删敲翻]完(?!再|了再|以后再|之后再)|里面|里头)")
# 进去后开关在最上面, 滑完顶部是 X, 里面 X 是 Off: what comes after
_CONTENT = re.compile(rf"[A-Za-z{CJK_CLASS}0-9]{{2}}")
_GERUND = re.compile(r"\s*[A-Za-z]+ing\b")
_CAUSES = re.compile(r"\b(?:brings|puts|takes|sends|gets|makes|leaves|pushes|pulls|moves|lands|reveals|shows|opens"
                     r"|completes|finishes|submits|places|confirms)\b", re.I)  # Clicking Buy tickets completes the order
_PLACES_TARGET = re.compile(r"\s*(?:(?:which|that) (?:is|are) (?:still |currently |now )?(?:empty|blank|unchecked|unselected|checked|selected"
                            r"|off|on|disabled|enabled|highlighted|focused)\b|its\s+(?:picture|image|photo|icon|button|thumbnail|card|row"
                            r"|link)\s+is\b|(?:and|but)\s+its\s+(?:picture|image|photo|icon|button|thumbnail|card|row|link)\s+is\b"
                            r"|它(?:只要|只卖|才|售价|价格|卖)|[^，,。]{0,30}?在(?:上面|下面|上边|下边)\s*$"  # which is empty / Airplane mode 在上面: as it is now
                            r"|(?:it's|it is|which is|that's)\s+(?:the|a|an|at|on|in|right|just|under|below|above"
                            r"|next)\b|its\s+(?:subtitle|caption|description|label|title)\b|就在|它在|它的(?:说明|副标题|标题|描述|文字)|也就是|(?:标题|按钮|链接|图标|入口|选项|卡片|头像|图片|那个|这个|那条|这条)?(?:在|位于)[^，,。]{0,6}?(?:中间|中央|上方|下方|左|右|顶|底|角|排|行|侧|边|之间|旁)"
                            r"[^，,。了]{0,4}$|(?:就是|即)?[^，,。了]{0,10}?(?:旁边|隔壁|之间|中间|左边|右边|上面|下面|左侧|右侧)"
                            r"的?那一?[个条张项行栏]\s*$)", re.I)  # what the target is, where it is: not what happens
# where a swipe or a tap got, told done at the clause's end (``翻到第 10 张了``; not ``就好了``): an outcome, no purpose
_ARRIVED_END = re.compile(r"(?:到|成|出|开)[^，,。]{0,12}?(?<![就行好吧该])了\s*$")
_UNTIL = re.compile(r"\b(?:until|till)\b|直到|等到")
_JOINED = re.compile(r"\s(?:and|but|so)\s|并且|而且|同时|也")
_WAITED_FOR = re.compile(r"\s*(?:for|until|till)\b", re.I)  # wait for the home feed to come up: what it waits for
_STATE_RESULT = re.compile(r"(?:stays?|remains?|looks?|keeps?|still (?:starts|begins))\b", re.I)  # the page stays the same afterwards: a state
_LATER_END = re.compile(r"(?:\b(?:afterwards|later|after that|next)|之后|以后|稍后|再说)\W*$", re.I)


_SO = re.compile(r"\bso\s+(?:that\s+)?(?:the|its|my|a|an|it|they|i|we)\b|(?<![不没])(?:好|能|以)?让|使(?!用)", re.I)  # tap X so the keyboard shows up: why
_ENGLISH_WORDS = re.compile(r"[A-Za-z]{2,}")
_CJK_RUN = re.compile(rf"[{CJK_CLASS}]+")


def _grammar(clause: str) -> str:
    """``clause`` as its grammar reads it: in an English clause (three English words or more) the Chinese words are
    names cited from the screen (``my earlier 在吗``), never its hedges; blanked, the length kept."""
    if len(_ENGLISH_WORDS.findall(clause)) < 3:
        return clause
    return _CJK_RUN.sub(lambda m: " " * len(m.group()), clause)


def _clauses(text: str, start: int = 0):
    for m in _CLAUSE.finditer(text, start):
        if m.group().strip(" .。"):
            yield m


_DETERMINER = re.compile(r"(?:the|both|all|its|their|it|they|this|these|those|everything|nothing|each|every|some)$", re.I)
_RELATION_WORD = re.compile(r"(?:at|on|in|of|for|from|with|by|near|next|beside|under|over|above|below|behind|to|into"
                            r"|onto|and|or|but|right|left|just|between|inside|within|without|via)$", re.I)
_SCREEN_SUBJECT = re.compile(r"^\s*(?:搜索结果|结果|页面|网页|列表|屏幕|界面|内容|输入框|下拉框|弹窗|对话框|键盘|数字|计数)"
                             r"[" + CJK_CLASS + r"]{2}")


def _subject_predicate(clause: str) -> bool:
    """Is ``clause`` a sentence of its own, a subject and what it does (``the page stays the same``, ``results
    come back with …``, ``结果直接定位到 …``), rather than a phrase that describes the decision's object (``the one
    from 8:00``, ``the blue button at the top``)? A subject: a determiner or a plural noun first, or a part of the
    screen (``结果``, ``页面``); a predicate: words after it that no relation word starts."""
    if _SCREEN_SUBJECT.match(clause):
        return True
    words = re.findall(r"[A-Za-z']+|\S", clause.strip())
    if len(words) < 4 or not re.fullmatch(r"[A-Za-z']+", words[0]):
        return False
    if _DETERMINER.match(words[0]):
        span = words[1:4]
    elif len(words[0]) >= 4 and words[0].lower().endswith("s") and not words[0].lower().endswith("ss"):
        span = words[1:3]
    else:
        return False
    return all(re.fullmatch(r"[A-Za-z']+", w) and not _RELATION_WORD.match(w) for w in span)


def outcome_clause(text: str, span: tuple[int, int], rest_at: int | None = None, values: tuple[str, ...] = (),
                   seen: Callable[[str], bool] | None = None) -> str | None:
    """The first clause after the decision (``span``: where it stands in ``text``) that says what the screen
    shows or does then: a result (``the results page opens``, ``会弹出键盘``) unless planned or conditional, or an
    unhedged statement (``下面是 Display 和 Wallpaper``, ``I'm back on the 9:59 photo``); purposes (``回到网格``,
    ``to return to Airplane mode``), plans, history, contrasts, the target's description and talk of the task are
    not. ``rest_at``: where the decision's own clause continues after its verb (``打开商城后先跳出一个启动页``,
    ``右滑回到了第 7 张``); None to leave that clause unread. ``values``: what the call types or chooses (text
    to pass over: ``Type the reply: OK, 没问题``). ``seen``: is a clause made of the current screen's words alone
    (``#12 is above it``, ``Sort by still says Relevance``)? Then a statement without a result verb, or an arrow to
    it, describes the screen as it is."""
    if not isinstance(text, str):
        return None
    masked = mask_gloss(mask_quotes(text))  # (finger moves up) says how, not what then
    masked = masked.replace("->", " →").replace("=>", " →")  # tap it -> the list shows up: two clauses
    for value in values:
        if value and len(value) >= 2:
            masked = masked.replace(value, "□" * len(value))
    if rest_at is not None and not _WAITED_FOR.match(masked[rest_at:span[1]]):  # 打开商城后先跳出一个启动页 / Tapping 删除 pops up …
        rest = masked[rest_at:span[1]]
        result = _RESULT_EN.search(rest)
        caused = _GERUND.match(masked[span[0]:span[1]]) and _CAUSES.search(rest)  # Swiping down brings X …
        arrow = _ARROW.search(rest)
        verb = first_verb(rest[arrow.end():]) if arrow else None
        if verb is not None and not rest[arrow.end():arrow.end() + verb[0]].strip():
            arrow = None  # Return to the home screen → press Home: the arrow says how (not: → X and Y scroll into view)
        elif arrow and verb is None and (not rest[arrow.end():].strip(" .。") or (seen and seen(rest[arrow.end():]))):
            arrow = None  # 点搜索框 →, type('jazz') → the 'Artist' box: nothing, or where on the screen as it is
        told = _NEXT_SCREEN.search(rest)
        if told and _EXPECTED.search(rest[told.start():]):
            told = None  # （下一页应该是设置）: an expectation
        if caused or _AFTER_IN_CLAUSE.search(rest) or arrow or told or (
                result and not _PLANNED.search(_SUBJECT_THEN.sub(" ", rest[:result.start()]))
                and not _SO.search(rest[:result.start()])):
            return text[span[0]:span[1]].strip(" .。")
    start = span[1]
    if values and re.match(r"\s*[:：]", masked[start:]):  # Type the reply: … is the decision's own
        line_end = masked.find("\n", start)
        said = re.match(r"\s*[:：]\s*□+[!！.。]?", masked[start:])  # the value itself, when it follows the colon
        start = start + said.end() if said else line_end if line_end >= 0 else len(masked)
    acting = {(c.span[0], c.span[1], c.span[1] - len(c.rest)) for c in action_clauses(text)}
    nows = now_sentences(masked, span[1])  # Current view: … / The query is already in the box: the screen as it is
    nows += ruled_out_relatives(masked)  # not 相机, which sits just below it: of what is set aside
    for m in _clauses(masked, start):  # a clause before an action's verb (the list stays … until I press Go) is not it
        clause = m.group()
        if any(a <= m.start() < b for a, b in nows):
            continue
        waits = _UNTIL.search(clause)
        if waits and any(a <= m.start() < b and m.start() + waits.start() < verb for a, b, verb in acting):
            clause = clause[:waits.start()]  # the list stays … until I press Go: what comes before the wait is not it
        arrived = _ARRIVED_END.search(clause)  # 翻到第 10 张了: where it got, told done (no purpose)
        purpose = (_PURPOSE_ZH.match(clause) or _PURPOSE_EN.match(clause)) and not _AFTER.match(clause) and not arrived
        acts = any(a <= m.start() < b and m.start() + len(clause) >= verb and not (m.start() >= verb and re.search(
            r"[(（→]\s*$", masked[a:m.start()])) for a, b, verb in acting) and not (_MOVED.search(clause) and not _HEDGED.search(clause))
        result = _RESULT_ZH.search(clause) or _RESULT_EN.search(clause) or arrived
        aside = _ASIDE.search(clause)
        if aside and result and aside.start() >= result.end() and _JOINED.search(clause, result.end(), aside.start()):
            aside = None  # X shows up and that's the task: a second sentence joined to the outcome, not its frame
        if (acts or _HISTORY.search(clause) or aside or purpose or PLAN_POINTER.search(clause) or CONCLUSION.match(clause)
                or FINGER.search(clause)):
            continue  # another action (a plan), a reflection, a contrast, a purpose, the task's definition, a conclusion, the finger
        rank = said_rank(clause) if not result else None
        if rank and rank > 0 and any(re.search(rf"#{rank}(?!\d)", v) for v in values):
            continue  # It's the thirteenth show / 就是第 25 套房子: which one the target is, by the goal's count
        if not result and JUDGEMENT.search(clause):
            continue  # which is fine for one product / Home is the reliable choice / 没有关键词排序没意义: a judgement
        if not result and not _AFTER.match(clause) and (_PLACES_TARGET.match(clause)
                                                         or not _CONTENT.search(PRICE.sub(" ", clause))):
            continue  # it's the leftmost nav link / 就在 2024新款 下面 / ($394.99): the target described as it is now
        if re.fullmatch(r"\s*(?:there|here|in it|into it|on it)\s*", clause, re.I):
            continue  # enter Maple Street there: the field named before, not a statement
        if result and _LATER_END.search(clause) and not _STATE_RESULT.match(result.group()):
            continue  # Denver goes into To afterwards: a plan told as the order of things (not: the page stays …)
        grammar = _grammar(clause)
        if ((result and not _PLANNED.search(_SUBJECT_THEN.sub(" ", grammar[:result.start()])))
                or (_BELOW.search(clause) and not HEDGE.search(clause) and not (seen and seen(clause)))  # a guess
                or (not _HEDGED.search(grammar) and not _CURRENT.search(clause) and not (seen and seen(clause))
                    and (_STATEMENT.search(clause) or _subject_predicate(clause)))):
            return text[m.start():m.end()].strip(" .。")
    return None


_ACT_ON = re.compile(r"(?:点击|点开|点选|点|按|选择|选|找到?|寻找|查找|搜索?|输入|填|打开|进入"
                     r"|\b(?:tap|click|press|hit|select|choose|pick|find|look for|search for|type|enter|open|go to|use)\b)"
                     r"[^，,。；;.]{0,14}$", re.I)
_EXPECT = re.compile(EXPECT_ZH + "|" + WILL_ZH + r"|就能|才能|能看到|能进入|可以看到"
                     r"|\b(?:" + EXPECT_EN + r"|hopefully|land|lands)\b|'ll\s+(?:see|land|get|be)",
                     re.I)


# what a clause says the screen shows once an action is done: ``进入大图后顶部显示``, ``after that it shows``
_SHOWN_AFTER = re.compile(r"(?:后|以后|之后)[^，,。；;]{0,8}(?:显示|出现|写着|标着|变成)(?:了|的是|着)?\s*$"
                          r"|\bafter\b[^,.;]{0,30}\b(?:shows?|reads?|displays?|says)\s*$", re.I)


def plan_clause(text: str, word: str) -> bool | str:
    """How the first clause of ``text`` that names ``word`` says it: ``False`` as a report, ``"action"`` as the
    target of a later action (``进去以后再点搜索框``, ``then look for Bluetooth``), ``True`` as an expectation
    (``应该能看到“蓝牙”``, ``Next we'll land on Bluetooth``)."""
    flat = normalize(word).replace(" ", "")
    masked = mask_quotes(text)
    acting = [c.span for c in action_clauses(text)]
    for m in re.finditer(r"[^。！？!?\n]+|(?<=\w)\.(?=\s|$)", text):
        modal = False  # a clause of this sentence said "should": what follows in it is the expectation's
        for c in _clauses(text[:m.end()], m.start()):
            clause = masked[c.start():c.end()]
            hedged = bool(_HEDGED.search(clause))
            acts = any(a <= c.start() < b for a, b in acting)
            said = normalize(text[c.start():c.end()]).replace(" ", "")
            if flat and flat in said:
                if not (hedged or acts or modal):
                    return False
                at = text[c.start():c.end()].find(word)
                lead = clause[:at] if at >= 0 else clause
                if not (hedged or modal) and _SHOWN_AFTER.search(lead) and not _EXPECT.search(lead):
                    return False  # 进入大图后顶部显示 5 / 30: what the action's screen shows, told
                if _ACT_ON.search(lead) and not _EXPECT.search(lead):
                    return "action"
                return True
            modal = modal or bool(_EXPECT.search(clause))
    return False


_MODEL_NAME = re.compile(r"(?<![A-Za-z0-9])(?=[A-Za-z#-]*\d)(?=[\w#-]*[A-Za-z])[A-Za-z0-9#][\w#-]*[A-Za-z0-9]")  # WH-1000XM4


def _names(text: str) -> list[str]:
    """What a text names that can be looked up: quoted spans, prices and model numbers (``WH-1000XM4``)."""
    masked = mask_quotes(text)
    return quotes_in(text) + PRICE.findall(masked) + [w for w in _MODEL_NAME.findall(masked) if len(w) >= 3
                                                      and not re.fullmatch(r"\d+(?:st|nd|rd|th|s)", w, re.I)]


def ungrounded_names(text: str, episode: Episode, index: int, extra: list[str] = ()) -> list[str]:
    """The names of ``text`` that the goal, no screen up to ``index``, the agent's typing and ``extra`` (the call's
    values) show; empty when no screen so far has any text (nothing can be told)."""
    if not isinstance(text, str) or not any(s.elements for s in episode.steps[:index + 1]):
        return []
    known = [k.replace(" ", "") for k in known_texts(episode, index) + [normalize(e) for e in extra if e]]
    joined = "\x00".join(known)
    out = []
    for name in _names(text):
        flat = normalize(name).replace(" ", "").strip(".'")
        if len(flat) < 2 or flat in joined or any(len(k) >= 2 and k in flat for k in known) or name in out:
            continue
        if any(normalize(name).strip() == said and term.replace(" ", "") in joined
               for said, term in translations(normalize(name).strip())):
            continue  # “显示” for a Display row: the screen's word, translated
        out.append(name)
    return out


_ORDINAL_EN = r"(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|\d{1,2}(?:st|nd|rd|th))"
_RUN_POSITION = re.compile("|".join((
    rf"(?<![上下这那前后每同进再退])(?<!第\s){ZH_NUM}{ZH_STEP}[^，,。]{{0,4}}?(?:全部|全都|都|已经?)?(?:走完|做完|完成|结束|搞定)",
    rf"(?:全部|全都|一共|总共)\s*{ZH_NUM}{ZH_STEP}", rf"(?<![第上下这那前后每同进再退])(?<!第\s)(?<![\d.])(?:\d{{1,2}}|[三四五六七八九十]{{1,3}}){ZH_STEP}(?![\d])", rf"第\s*{ZH_NUM}\s*(?:步|个操作|个动作)(?:[^，,。]{{0,4}}?(?:结束|走完|做完|完成|搞定))?", r"最后一(?:步|个操作|个动作|次操作)(?!\s*(?:是|就是|要))",
    rf"\b{_ORDINAL_EN}(?:\s+(?:and|&)\s+(?:last|final))?\s+(?:step|action|move)\b",
    r"\b(?:last|final)\s+(?:step|action|move)\b(?!\s+(?:is|was)\s+to\b)", rf"\b{EN_NUM}\s+(?:more\s+)?(?:steps|actions|moves)\b",
    r"\b(?:of|in)\s+this\s+(?:run|episode|trajectory|recording|session)\b",
    r"\b(?:this|the)\s+(?:recorded\s+)?(?:episode|trajectory|recording)\b|(?:这|本)(?:次|段|条|个)?(?:录制|轨迹|录屏|演示)")), re.I)


_ON_THE = re.compile(r"\b(?:on|in|at|during|from|since|by)\s+(?:the\s+|my\s+)?$", re.I)
_DID = re.compile(r"\b(?:[a-z]+ed|did|set|hit|put|chose|made|typed|picked)\b(?![^.;,]*\b(?:is|will|would)\b)", re.I)


def run_position(text: str, index: int) -> str | None:
    """Where this step stands in the recorded run, said in words (``8 步全部走完``, ``the eighth and last action
    of this run``, ``最后一步``): an agent counts its own earlier actions, but the writers who know the recording
    tell its length, so certify leaves such a text to a reader. An ordinal that is this step's own (``第一步`` on the
    first step) passes, and so does the goal's structure (``任务最后一步是回到主屏幕``, ``the last step is to``)."""
    if not isinstance(text, str):
        return None
    for m in _RUN_POSITION.finditer(mask_quotes(text)):
        said = m.group()
        number = re.search(r"\d+|[一二两三四五六七八九十]+", said)
        if number and not re.search(r"最后|last|final|全|都|走完|做完|完成|结束|搞定|一共|总共|this|more", said, re.I):
            value = count_of(number.group())
            ordinal = re.match(r"第|\d+(?:st|nd|rd|th)\b", said, re.I)  # 第 4 步, the 4th step: this step's own
            if value == (index + 1 if ordinal else index):  # a count: the actions done before this one
                continue
        clause = re.split(r"[.;,，。；\n]", text[:m.start()])[-1]
        if re.search(r"\b(?:last|previous|past|prior)\s+$", clause, re.I) and _counted(said) <= index:
            continue  # in place from the last two steps: the steps just before this one, not the run's length
        if re.match(r"last\s+(?:step|action|move)", said, re.I) and (_ON_THE.search(clause) or _DID.search(clause)):
            continue  # set on the last step, clicked Save on #25 last step: the step before this one
        if not number and re.fullmatch(rf"{_ORDINAL_EN}\s+(?:step|action|move)", said, re.I) and \
                said.split()[0].lower() in _ORDINALS[index:index + 1]:
            continue
        return text[m.start():m.end()]
    return None


def _counted(said: str) -> int:
    """The number of steps ``said`` counts (``two steps``, ``3 steps``, ``两步``); a large one when it names none."""
    word = re.search(r"\d+|[一二两三四五六七八九十]+|\b[a-z]+\b", said, re.I)
    return (count_of(word.group()) if word else None) or 99


_ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"]


__all__ = ["outcome_clause", "plan_clause", "run_position", "ungrounded_names"]
