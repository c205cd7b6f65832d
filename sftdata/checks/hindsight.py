"""Hindsight in reasoning text: what a live agent cannot know before it acts.

Text is read sentence by sentence, in Chinese and English; text in quotation marks (screen text, the goal) is
never read. Two classes of hindsight are found:

1. **The episode's length**: a step count with a total or a remainder (``共 8 步``, ``step 2 of 8``, ``3 steps
   left``, ``the episode ends``; see ``episode_length``), in any sentence.
2. **What appears after the action, reported as fact**. Three shapes, each in one sentence:

   - an explicit marker: the next screenshot (``下一张截图``, ``下一屏``, ``the next screenshot``, ``the following
     screen``), an action then ``后`` (``点击后进入了``, ``滑动后露出了``, ``after tapping, the page showed``), a
     sequel word (``随后``, ``随即``, ``结果``; ``then showed``, ``which opened``, ``as a result``), the action as
     a cause (``本次点击让…``, ``Tapping X brought up``), or a claim that it worked (``说明操作生效``, ``the tap
     took effect``);
   - after a clause that states this step's own action (``点击“设置”``, ``I tap Settings``), a later clause
     that reports a completed change: Chinese perfective or passive (``了``, ``被``, ``显示出``, ``变成``) with no
     further plan verb, English past tense (``the star turned yellow``, ``was delivered``).

   None of these count when the clause is a plan or an expectation (a modal or purpose marker up to the
   result: ``应该``, ``会``, ``将``, ``预计``, ``以便``, ``如果``, ``这样…就``; ``should``, ``will``, ``expect``,
   ``so that``), nor in a sentence that reflects on an earlier step, which the current screen shows (``上一步``,
   ``刚才``, ``之前``; ``previous``, ``last``, ``earlier``). A description of the current screen
   (``当前页面显示了…``, ``界面上出现了弹窗，需要先关闭它``) comes before the action and passes.

The labelled set ``tests/annotate/hindsight_set.jsonl`` measures it (``python benchmarks/hindsight.py``).

>>> find_hindsight("这是第 2 步，共 8 步。点击“删除”。执行后界面上新出现了“删除此对话？”，说明操作生效。")
['共 8 步', '执行后界面上新出现了“删除此对话？”', '说明操作生效']
>>> find_hindsight("点击后应该会进入详情页。上一步点击后页面没有变化，再试一次。已处理 3/5 张照片，还剩 2 张。")
[]
>>> find_hindsight("Step 2 of 8. I tap Settings, which opened the settings page.")
['Step 2 of 8', 'which opened the settings page']
>>> find_hindsight("This should open the details page. The screen shows a list; the last tap did nothing.")
[]
"""
from __future__ import annotations

import re

from .decision import first_verb, stated_decision
from .english_past import EN_RESULT as _EN_RESULT, en_past
from .episode_length import COUNTS
from .finger import mask_gloss
from .hedges import CONDITION_ZH, EARLIER_ZH, HABITUAL, HEDGE, PURPOSE_ZH, WILL_ZH, now_sentences
from .later_action import acts_later, same_action_later
from .option_labels import CLOSING_LINE

# Quoted text (UI labels, the goal) is masked, keeping offsets; ASCII single quotes only around a phrase.
_QUOTED = re.compile(r"“[^”]*”|「[^」]*」|『[^』]*』|\"[^\"]*\"|‘[^’]*’|《[^》]*》|(?<![A-Za-z])'[^'\n]{1,80}'(?![A-Za-z])")
SENTENCE = re.compile(r"[^。！？!?\n]+?(?:[。！？!?\n]|\.(?=\s|$)|$)")  # one sentence, its end mark kept

# --- 2. what appears after the action -------------------------------------------------------------------------
_NEXT_SCREEN = re.compile(r"(?:下一|后一|后续的?)(?:张|个|帧)?(?:截图|屏|帧|画面)|下张截图"
                          r"|\b(?:next|following|subsequent)\s+(?:screenshot|screen|frame|image)s?\b"
                          r"|\bthe\s+next\s+(?:batch|screenful|set of (?:results|items|rows))\s+(?:has|have|shows?|brings?|contains?|is|are)\b"
                          r"|\bresulting\s+(?:screenshot|screen|page|view)\b", re.I)
_ZH_ACT = (r"(?:(?:点击|单击|点开|点按|点选|点一下|点一次|(?<![一有重地优特缺观焦要标节起终景亮站网差])点(?![了赞数心名击开按选一进过评钟半儿])"
           r"|轻点|轻触|触摸|长按|滑动|上滑|下滑|左滑|右滑|滚动|拖动|拉动|下拉|上拉|输入|键入"
           r"|填写|回车|执行|操作|等待|加载|打开|启动|返回|提交|保存|删除|按下|选中|选择|选(?=完)|确认|发送|切到|加入|往回滑|回滑"
           r"|(?:改|选|设|调)(?:成|为)(?=\s*[A-Za-z0-9“\"'「])"  # Color 改成 Blue: a value set
           r"|[往向][上下左右前后]一?[滑划翻]|[上下左右]?一[滑划])(?![框法栏键块])|按(?=[^，,。]{0,4}键))")
# after an action, a clause with one of these continues the plan instead of reporting an outcome
_ZH_PLAN = re.compile(rf"(?:{_ZH_ACT}|找到|查找|寻找|查看|浏览(?!器)|勾选|开启|关闭|切换|进入|回到|继续|完成|结束|把|再|接下来|下一步)(?!(?:成|到|为|至|出)?了)")
_ZH_CHANGE = (r"(?:新)?出现|显示|弹出|进入|跳转|露出|打开|展开|收起|切换|变成|变为|更新为|消失|回到|返回到|载入|加载出|刷新出"
              r"|播放|启动|关闭|开启|呈现|展示|展现|定格|提示|获得焦点|发出|下载|没有(?:任何)?(?:变化|反应)")
_ZH_DONE = re.compile(r"(?<![为除])(?<!看完)(?<!看过)(?<!看好)了(?![解吗])|被|(?:显示|加载|刷新|呈现|展示|展现)出|弹了出来|露出|变为|变成|更新为|随之|随即")
# (这张看完了: what the agent has looked at, a recount, no change of the screen)
_ZH_EVENTS = re.compile(
    rf"(?:随后|随即|随之|紧跟着|(?<!搜索)(?<!查询)(?<!检索)(?<!筛选)(?<!的)结果(?![页里中列显出数])|果然|立即|立刻|马上|(?:紧接着|接着)(?!{_ZH_ACT}|打开|进入|切换))[^。，,：:]{{0,24}}?"
    rf"(?:{_ZH_CHANGE})(?:了|出来|出)?(?!的)"
    # a clause opened by an after-the-fact marker that states the screen: 之后显示 2 / 然后出现… (再 makes it a plan:
    # 之后再点; 往下翻之后出现 is what the last step brought)
    rf"|(?:^|(?<=[，,；;：:—\s]))(?:之后|以后|过后|然后|完了)[^。，,再要去]{{0,8}}?(?:显示|出现|弹出|变成|变为|列出|跳到|跳转到|停在"
    rf"|没有?(?:任何)?(?:变化|反应|变)|毫无变化|不变|一样)(?:了|出来|出)?(?![的框])"
    rf"|(?:本次|这次|此次|这一|该|此|本)(?:{_ZH_ACT}|步)(?:之后|以后|后|使|让|导致)"
    r"|(?<!已)(?<!已经)成功(?:发出|发送|进入|打开|跳转|删除|保存|登录|添加)")
# claims that an action worked: this step's outcome only once the text has stated this step's action (before
# that they are read off the current screen about the previous step: 现在显示 On，说明切换成功 / The swipe worked:)
_WILL_FAIL = re.compile(r"\b(?:won't|will not|isn't going to|is not going to|doesn't|does not)\s+(?:register|work|respond|take|do anything"
                        r"|go through)\b|\bnothing\s+(?:visibly\s+|really\s+|much\s+)?(?:changes|happens)\s+(?:afterwards|after"
                        r" (?:that|it|this)|then)\b"  # Plan trip — nothing visibly changes afterwards
                        r"|\b(?:appears?|shows? up|comes? up|loads?|opens?|pops? up)\s+(?:right|just|immediately)\s+after"
                        r"\s+(?:this|that|the|it)\b"  # the home feed … appears right after this wait
                        r"|不会(?:有)?(?:反应|生效|响应)|(?:第一次|这次|这一下)(?:点击)?(?:会)?(?:点不中|没反应|无效)", re.I)
_SUCCESS = re.compile(rf"(?:{_ZH_ACT}|操作)(?:是)?有效的|说明[^，,。]{{0,6}}?(?:生效|成功|有效)|操作成功|点击生效"
                      r"|(?:切换|打开|开启|关闭|设置|选择|提交|发送|删除|保存|添加|加入|修改|勾选|输入|填写|预订|下单)(?:已经?)?"
                      r"(?:成功|生效)(?!率)"  # 蓝牙打开成功, 选择生效: the action's result, told as done
                      r"|\b(?:field|box|form|page|site|app|system)\s+(?:accepts|accepted|takes|took)\s+(?:it|the\s+\w+)"
                      r"(?:\s+(?:fine|ok|okay|without complaint))?\b"  # the field accepts it fine
                      r"|\b(?:tap|press|action|swipe|click|long press|navigation|input)\s+"
                      r"(?:worked|took effect|succeeded|was successful)\b", re.I)
# a present-tense result told after the step's action: the row now reads On / the bubble has now appeared
# … Apple 无线蓝牙耳机 comes into view at ¥89: what a swipe brings, unless hoped for or aimed at
_INTO_VIEW = re.compile(r"^(?![^.;]*\b(?:to|so|should|will|would|might|may|can|could|until|hopefully)\b)[^.;]*\b(?:comes?"
                        r"|scrolls?|slides?|moves?|pops?)\s+(?:up\s+)?into\s+view\b", re.I)
# an imperative and its purpose: ``Swipe up so the list scrolls and it comes into view`` (what it aims at, on)
_ORDERED_SO = re.compile(r"^\W*(?:swipe|scroll|tap|click|press|type|enter|open|long-press|select|pick|choose|hit)\b"
                         r"[^.;]*?\bso\s+(?!I\b|I'll\b|we\b|let\b)", re.I)
# … and a 膳魔师 pair move to the top: where a swipe puts what it names, unless hoped for or aimed at
_TO_PLACE = re.compile(r"^(?![^.;]*\b(?:so|should|will|would|might|may|can|could|until|hopefully|want|need|if|once)\b)[^.;]*\b(?:comes?"
                       r"|moves?|slides?|jumps?|rises?|scrolls?|shifts?)\s+(?:up\s+|down\s+)?(?:to|into)\s+(?:the\s+)?(?:very\s+)?"
                       r"(?:top|bottom|middle|centre|center)\b", re.I)
_EN_NOW_RESULT = re.compile(r"\bnow\s+(?:reads|shows|says|displays|lists|contains|sits|appears|showing|displaying"
                            r"|reading|listing|sitting)\b|\b(?:it's|it is|they're|they are)\s+now\b"
                            r"|\b(?:is|are|has been|have been)\s+(?:now\s+)?(?:confirmed|saved|sent|submitted|deleted"
                            r"|added|completed|cleared|booked|placed|posted)\b"
                            r"|\b(?:has|have)\s+(?:now\s+|just\s+)?(?:appeared|opened|loaded|changed|switched|turned|gone"
                            r"|disappeared|popped up|shown up|come up|vanished|closed)\b"
                            r"|\b(?:is|are)\s+now\s+(?:on|off|open|shown|visible|checked|selected|enabled|disabled|gone|there)\b"
                            r"|\b(?:is|are)\s+(?:showing|shown|visible|displayed|listed|up|open)\s+again\b"  # a return
                            r"|\b(?:is|are)\s+(?:now\s+)?(?:empty|back|gone)(?:\s+again)?\b(?!\s+(?:so far|yet|for now|as (?:it stands|of now))\b)"
                            r"|" + _INTO_VIEW.pattern + r"|" + _TO_PLACE.pattern, re.I)
_EN_UI_RESULT = re.compile(r"\b(?:page|list|bar|field|screen|dialog|menu|button|row|toolbar|sheet|tab|view|viewer|badge"
                           r"|title|header|keyboard|link|banner|toast|popup|pop-up|counter|cart|icon|grid|feed)\s+"
                           r"(?:now\s+|then\s+|also\s+)?(?:switches|changes|shows|lists|reads|displays|opens|appears|updates"
                           r"|turns|becomes|scrolls|slides|pops up|closes|expands|collapses|jumps|fills|clears|refreshes"
                           r"|loads|disappears|goes away|comes up|shows up)\b", re.I)
_ZH_NOW_STATE = re.compile(r"(?:已经|已)(?:回到|返回到|切换到|跳转到|滚到|翻到|停在)"
                           rf"|(?:已经|已)(?:成功)?(?:{_ZH_CHANGE}|提交|保存|发送|删除|添加|加入|填成|填好|设为|选好|到了)"
                           r"[^，,。]{0,12}?了|(?:已经|已)(?:成功)?(?:出现|显示|弹出)在")
_ZH_AFTER = re.compile(rf"(?<!已)(?<!已经)(?:{_ZH_ACT}|(?<![已又])(?:回到|返回到?|进入)(?=[^，,。]{{1,8}}?后))[^，,。]{{0,14}}?(?:(?:之后|以后|过后|(?<![往向靠最前然背])后)(?![的面边头])|完毕|完成后|完成(?=[，,]))")
# (手机之后的第三个标签: a place in a row, not a time; 往后看: a way, not a time)
_EN_ACT = r"(?:tap|press|long-press|hit|type|swipe|scroll|pull|enter|click|select|choose|pick|open|touch|search|check|toggle|switch)"
_EN_EVENTS = re.compile(
    rf"\b(?:after|once)\b[^.,]{{0,40}}?\b{_EN_RESULT}\b"
    rf"|\b(?:which|this|that|it)\s+(?:then\s+)?{_EN_RESULT}\b"
    r"|\bwhich\s+then\s+(?:shows|displays|reads|lists|becomes|turns|says)\b"
    rf"|\bthen\s+{_EN_RESULT}\b"
    r"|\b(?:this|the)\s+(?:action|tap|step|click|press|swipe)\s+(?:lands|leads|results in|triggers|causes)\b"
    rf"|(?<!\bcomes )(?<!\bcome )(?<!\bhappens )(?<!\bis )(?<!\bdo )(?<!\bgoes in )(?<!\bgo in )(?<!\bfollows )"
    rf"\b(?:right |immediately |just )?after (?:this|that)(?:\s(?:step|action|tap|click|swipe))?\b(?!,?\s*(?:I\b|we\b|{_EN_ACT}))(?!\s*:)"
    r"|\bas a result\b"
    # a state said with an after-the-fact marker: it shows 2 afterwards / after that it displays / then it reads
    r"|\b(?:it|this|that|they|the\s+(?:\w+\s+){0,2}?(?:select|dropdown|field|box|list|page|screen|menu|value|counter|badge|row|label))"
    r"\s+(?:then\s+)?(?:shows|displays|reads|says|lists|contains|becomes|turns|changes to|updates to|switches to)\b"
    r"[^.;,]{0,40}?\b(?:afterwards?|after that|after this|later on|from then on)\b"
    r"|\b(?:afterwards?|after that|after this|after it|from then on)\s*,?\s+[^.;]{0,60}?\b(?:comes?|came) into view\b"
    r"|\b(?:afterwards?|after that|after this|after it|from then on)\s*,?\s+(?:it|this|that|they|nothing|everything"
    r"|the\s+(?:\w+\s+){0,2}?\w+)\s+(?:shows|displays|reads|says|lists|contains|becomes|turns|appears|changes to"
    r"|updates to|switches to|looks|stays|remains|is still|is unchanged|changes|happens)\b"
    r"|\bthen\s+(?:it|this|that|they|the\s+(?:\w+\s+){0,2}?\w+)\s+(?:shows|displays|reads|lists|appears|becomes)\b",
    re.I)
# an unhedged consequence of this step's action told as fact: 点一下输入框，键盘就弹出来 / Tapping X opens Y
_ZH_THEN = re.compile(rf"(?:(?<![那我])就|(?<=[点选输填按滑划翻]完))(?:{_ZH_CHANGE}|切成|换成|变回|到了|(?:露|冒|跳|弹)?出来了?)(?!在)"
                      r"(?:了|来|出来|出)?")  # 点一下就切换了 / 点完变成 On: what the action brings
_EN_PRESENT_RESULT = re.compile(
    r"^\s*(?:(?:tapp|click|press|long-press|swip|scroll|open|select|choos|typ|enter)ing|this|doing so)\b[^.;:]{0,50}?"
    r"\b(?:opens|brings up|lands (?:on|in)|takes (?:me|us) to|pops up|slides in|appears|disappears|jumps to|switches to"
    r"|leads to|loads|returns (?:me |us )?to|flips (?:it )?to|puts (?:the|it)|turns (?:it )?(?:on|off))\b", re.I)
_EN_DID_THEN_NOW = re.compile(
    r"^\s*(?:tapped|clicked|pressed|swiped|scrolled|typed|entered|selected|checked|toggled|opened|long-pressed)\b"
    r"[^.;]{0,60}?(?:[,;—–-]|\band\b)[^.;]{0,60}?\b(?:now|again|is visible|are visible|appears|shows|reads)\b", re.I)
# the same told in the present: ``After clicking the page scrolls back to the top``
_EN_AFTER_PRESENT = re.compile(r"\b(?:after|once)\s+(?:click|tapp|press|swip|scroll|typ|select|choos|hitt|sav|add)ing"
                               r"(?:\s+(?:it|this|that|the\s+\w+))?,?\s+(?:the|its|this|that)\s+[^.;,]{0,40}?\b(?:scrolls|opens|shows"
                               r"|appears|jumps|loads|returns|goes|moves|switches|changes|updates|displays|lists|pops up|slides"
                               r"|turns|becomes)\b[^.;]{0,60}", re.I)
_EN_AFTER = re.compile(r"\b(?:after|once)\b[^.,;]{1,40},(?P<then>[^.,;]{1,60})", re.I)
_EN_GERUND = re.compile(r"^\s*(?:(?:tapp|click|press|long-press|hitt|swip|scroll|pull|typ|enter|select|choos|pick|touch"
                        r"|open)ing"
                        r"|doing so|this tap|that tap|the tap|this action)\b[^.,;]{0,40}", re.I)
# statements of this step's own action (present tense), which open the zone where completed changes are outcomes
_ZH_ACTION = re.compile(rf"(?<!已)(?<!已经){_ZH_ACT}(?![了过])")  # 已打开 is a state, not this step's action
_EN_ACTION = re.compile(rf"\bI\s+(?:now\s+|then\s+|first\s+|also\s+)?{_EN_ACT}\b|^\s*{_EN_ACT}(?:ed|ped)\b"
                        r"|^\s*(?:tapp|press|long-press|hitt|typ|swip|scroll|pull|enter|click|select|choos|pick|open"
                        r"|touch|search|check|toggl|sav|delet|send|submitt)ing\b"
                        r"|^\s*(?:[\w'-]+\s+){0,3}(?:goes|go)\s+in(?:to\b[^,;.—–]*)?\s*$"  # Email goes in — …: a typing, said by its value
                        r"|^\s*(?:[\w'-]+\s+){0,2}(?<!\bbe )(?<!\bbeen )(?:entered|typed|tapped|clicked|selected|opened|pressed"
                        r"|saved|sent|deleted|submitted)[.!]?\s*$"
                        rf"|^\s*(?:so\s+|now\s+|then\s+)?{_EN_ACT}\b(?!\s+(?:is|are|was|were|has)\b)"
                        r"|^\s*(?:so\s+|now\s+|then\s+)?set\s+[^,.;]{1,30}?\s+to\b"  # Set Job type to Full-time
                        r"|^\s*(?:one more|another|a single|a quick)\s+(?:(?:up|down|left|right)\w*\s+)?(?:swipe|scroll|flick|tap|click)\b",
                        re.I)  # One more swipe up — …
_ZH_NARRATED = re.compile(rf"{_ZH_ACT}了|(?<![重要地一有差])点了")
_ZH_LEAD = re.compile(r"^(?:所以|于是|那就|现在|我|就|先|要|去|来)+")  # 先打开左上角第一张: a decision's opening words
_ZH_BARE = re.compile(rf"^[^，,]{{0,12}}?(?:{_ZH_CHANGE})(?!的)")  # a short subject, then a change verb
_PRESENT = re.compile(r"当前|(?<!出)现在|目前|此时|已")  # (not 出现在: appears at)
_NOW_CHANGED = re.compile(rf"(?:现在|已经|已)[^，,。]{{0,6}}?(?:{_ZH_CHANGE})[^，,。]{{0,12}}?了")
_RULED_OUT = re.compile(r"^\s*[—–-]?\s*(?:(?:not|rather than|instead of|but not)\b|而不是|不是|不要|别)", re.I)
# an item of a list of labels (``Bottom bar: 店铺, 客服, 收藏, 加入购物车``): a few words and their separator alone
_LIST_ITEM = re.compile(r"\s*[^\s，,、；;：:。.!?！？]{1,8}(?:\s[^\s，,、；;：:。.!?！？]{1,8})?\s*[，,、；;。.]?\s*$")
_REASON = re.compile(r"因为|由于|\b(?:because|since)\b", re.I)  # a cause, from before the action

# not a report: a habit, an expectation, a purpose, a condition, a try, an instruction
_MODAL = re.compile(HABITUAL + "|" + HEDGE.pattern + "|" + WILL_ZH + "|" + PURPOSE_ZH + "|" + CONDITION_ZH
                    + r"|是否|能否|看看|试试|就(?!是)|才能|可以|能够|需要|即可|便可|这样|再|(?<![刚方])才"
                    r"|别(?![的处人])|不要|切勿|记得|注意|确保|\b(?:don't|do not|make sure|remember)\b"  # 也别漏了: an instruction
                    r"|\b(?:can|hope|hopefully|plan|want|if|let me|in order to|so that|to be|won't|until|unless)\b"
                    r"|\bto (?:get|reach|see|view|bring|open|show|go|move|land|look|check)\b", re.I)  # to get to the next image
_PAST = re.compile(EARLIER_ZH + r"|上一次|上次|前一步|前一次|刚才(?![那这的])|刚刚(?![那这的])|此前|(?<![最在的])前面|前[一二两三四五六七八九十几\d]+步"
                   r"|\b(?:previous|previously|last|earlier|prior|before|a moment ago|just now)\b"
                   r"|\b(?:the|my) first (?:swipe|scroll)\b", re.I)  # the first swipe moved the results
_SEEN = re.compile(r"可以看到|可以看出|能看到|\bwe can see\b|\bcan be seen\b", re.I)
_CLAUSE = re.compile(r"(?:(?!\band\b)[^，,；;：:—–])+", re.I)


def _mask(text: str) -> str:
    """``text`` with the inside of every quotation replaced by ``□`` (same length, so offsets hold)."""
    return _QUOTED.sub(lambda m: m.group()[0] + "□" * (len(m.group()) - 2) + m.group()[-1], text)


_NOT_YET_SHOWN = re.compile(r"(?:没|没有|还没|还没有|未|尚未)(?:有)?(?:露出|显示|出现|弹出|加载)"  # 下面还有商品没露出来
                            r"|\b(?:nothing|none|no \w+|hasn't|haven't|has not|have not|isn't|aren't|is not|are not)\b[^.;,]*\byet\b"
                            r"|\bnot\s+yet\b", re.I)  # Nothing has been filled in yet: the form as it is


def _clause_at(sentence: str, start: int, end: int) -> str:
    """The text of ``sentence`` from the clause that holds ``start`` to the end of the clause that holds ``end``."""
    left = max(sentence.rfind(c, 0, start) for c in "，,；;") + 1
    rights = [i for i in (sentence.find(c, end) for c in "，,；;") if i >= 0]
    return sentence[left:min(rights, default=len(sentence))]


def _triggered(sentence: str) -> list[tuple[int, int]]:
    """Spans of explicit after-action reports in one sentence (which holds no reflection on an earlier step)."""
    spans = []
    for m in _NEXT_SCREEN.finditer(sentence):  # "one can see" (可以看到) is an observation, not a modal
        if not _MODAL.search(_SEEN.sub("", _clause_at(sentence, m.start(), m.end()))):
            spans.append(m.span())
    for pattern in (_ZH_EVENTS, _EN_EVENTS):
        for m in pattern.finditer(sentence):
            left = max(sentence.rfind(c, 0, m.start()) for c in "，,；;") + 1
            # English: a modal anywhere after it too ("after that, Reserve now should go through" is a plan)
            if _PLANNED_NEXT.match(m.group()) and (_acts_next(sentence[m.end():]) or (
                    (_THEN_BEFORE.search(sentence[left:m.start()]) or _NAMED_ONLY.fullmatch(sentence[left:m.start()]))
                    and re.match(r"\s*(?:[.;,!]|$)", sentence[m.end():]))):
                continue  # after that head home / then deal with the State dropdown after that / Guests after that: a
                # plan, not what happens
            if not _MODAL.search(sentence[left:m.end()] if pattern is _ZH_EVENTS else sentence[left:]):
                spans.append(m.span())
    return spans + _more_triggers(sentence)


_THEN_BEFORE = re.compile(r"\b(?:then|next|later)\s+(?:[\w'-]+\s+){0,2}?(?:deal|do|handle|take care|fill|set|pick|choose"
                          r"|select|go|move|tap|click|type|enter|open|press|hit|check|look)\b", re.I)
# a thing named alone, with no verb: ``Guests after that.`` (what comes next, as a plan)
_NAMED_ONLY = re.compile(r"\s*(?:and\s+)?(?:the\s+)?(?![\w'-]*(?:ed|ing)\b)[\w'/-]+(?:\s+(?!(?:is|are|was|were|shows?|reads?"
                         r"|says?|lists?|appears?|loads?|opens?|comes?|goes|has|have)\b)[\w'/-]+){0,2}\s*")
_PLANNED_NEXT = re.compile(r"\s*(?:right |immediately |just )?after (?:this|that)\b", re.I)


def _acts_next(rest: str) -> bool:
    """Does ``rest`` open with an action verb (``after that head home``: what the agent will do next)?"""
    verb = first_verb(_mask(rest))
    return verb is not None and not rest[:verb[0]].strip(" ,")


def _after_reports(sentence: str) -> list[tuple[int, int]]:
    """Spans of "after the action, this happened" reports in one sentence (点击后进入了…, After I scrolled, X came)."""
    spans = []
    for m in _ZH_AFTER.finditer(sentence):  # 点击后…: what follows, up to the end of the next clause
        rest = sentence[m.end():]
        cut = [i for i in (rest.find(c, 1) for c in "，,；;") if i >= 0]
        then = rest[:min(cut, default=len(rest))]
        left = max(sentence.rfind(c, 0, m.start()) for c in "，,；;") + 1
        change, plan = re.search(_ZH_CHANGE, then), _ZH_PLAN.search(then)
        if (then.strip("，, 。.") and not _MODAL.search(sentence[left:m.end()] + then)
                and (_ZH_DONE.search(then) or not plan or (change and change.start() < plan.start()))):
            spans.append((m.start(), m.end() + len(then.rstrip("，,；;。 "))))
    for m in _EN_AFTER.finditer(sentence):  # After I scrolled up, X came into view
        left = max(sentence.rfind(c, 0, m.start()) for c in ",;") + 1
        if not _MODAL.search(sentence[left:]) and en_past(m.group("then")) and not _EN_ACTION.search(m.group("then")):
            spans.append(m.span())
    return spans


def _did_then_now(sentence: str) -> list[tuple[int, int]]:
    """Tapped Dark theme and it now reads On / Pressed back — the grid is visible again (unless an action is decided
    after it: then it told the last step, ``Scrolled once; now I see … Swipe up again``)."""
    m = _EN_DID_THEN_NOW.match(sentence)
    return [m.span()] if m and not _MODAL.search(sentence) and not _PAST.search(sentence) else []


def _more_triggers(sentence: str) -> list[tuple[int, int]]:
    spans = []
    m = _EN_PRESENT_RESULT.match(sentence)
    if m and not _MODAL.search(sentence):
        spans.append(m.span())
    told = _gerund_told(sentence)
    if told and told[1]:
        spans.append(told[0])  # Clicking it leaves the list unchanged: this step's result, wherever it stands
    return spans


_GERUND_NOW = re.compile(r"\b(?:leaves|brings|shows|opens|takes|puts|keeps|makes|gives|turns|moves|returns|lands|gets)\b", re.I)


def _gerund_told(sentence: str) -> tuple[tuple[int, int], bool] | None:
    """The span of an action's result told after its gerund (``Tapping Search opened the results``), and whether
    it is told in the present (``Clicking it leaves …``); None when the sentence tells none."""
    g = _EN_GERUND.match(sentence)
    if not g or _MODAL.search(g.group()) or not en_past(g.group()[len(g.group().split()[0]):]):
        return None
    return g.span(), bool(_GERUND_NOW.search(g.group()))


def _gerund_past(sentence: str) -> list[tuple[int, int]]:
    """``Tapping Search opened the results``: an action's result in the past (the last step's, when this step's
    action is decided after it: ``Scrolling turned up nothing useful … so swipe down``)."""
    told = _gerund_told(sentence)
    return [told[0]] if told and not told[1] else []


_SUPPOSE = re.compile(r"如果|假如|要是|万一|倘若|否则|\b(?:if|unless|in case|otherwise)\b", re.I)


def find_hindsight(text: str, acting: bool = True) -> list[str]:
    """The hindsight phrases of ``text`` in order (empty: clean); see the module docstring for the rule.
    ``acting`` False: the text is a ``done`` item's, which has no action whose outcome it could tell (a result it
    reports is the last step's), so only the episode's length counts.

    >>> find_hindsight("记忆：已完成 2 步，剩余 1 步。")
    ['剩余 1 步']
    >>> find_hindsight("注册向导显示“第 2 步，共 4 步”，还剩 2 张照片，健康应用显示今天共走了 8526 步。")
    []
    >>> find_hindsight("需要收藏这篇笔记，点按星标。星标变成黄色，收藏数加一。")
    ['星标变成黄色']
    """
    if not isinstance(text, str) or not text.strip():
        return []
    masked = mask_gloss(_mask(text))  # (finger moves up, list scrolls on): how
    counts: list[tuple[int, int]] = []  # the episode's length: hindsight wherever it stands
    spans: list[tuple[int, int]] = []  # what appears after the action, said with a marker
    told: list[tuple[int, int]] = []  # ... said as a change after a clause that acts
    acted = False  # an earlier clause stated this step's own action: a completed change after it is its outcome
    narrated = False  # ... in the perfective (我们点击了…): then a bare change verb after it is its outcome too
    ahead: list[tuple[int, int]] = []  # ... said in the present after an action of its own sentence: kept anywhere
    last_line = CLOSING_LINE.search(masked)
    ending = last_line.start() if last_line and masked[:last_line.start()].strip() else len(masked)
    for s in SENTENCE.finditer(masked):
        sentence, offset = s.group(), s.start()
        acting_here = False  # this sentence has stated an action (not narrated it as done) before the clause
        counts += [(offset + m.start(), offset + m.end()) for m in COUNTS.finditer(sentence)]
        if _PAST.search(sentence) or not acting:
            continue  # a reflection on an earlier step, which the current screen shows
        spans += [(offset + a, offset + b) for a, b in _triggered(sentence)]
        spans += [(offset + m.start(), offset + m.end()) for m in _WILL_FAIL.finditer(sentence)]
        spans += [(offset + a, offset + b) for a, b in _after_reports(sentence) + _did_then_now(sentence) + _gerund_past(sentence)  # 右滑之后回到了 5/30。按返回键…:
                  if not acts_later(masked[offset + b:ending])]  # an action decided after it (a closing Action: line
        # restates the decision, it decides nothing new): that report was the last step
        spans += [(offset + m.start(), offset + m.end()) for m in _EN_AFTER_PRESENT.finditer(sentence)
                  if not _MODAL.search(sentence[m.start():]) and same_action_later(m.group(), masked[offset + m.end():])]
        hedged = False  # a clause of this sentence said "should": what follows in it is the expectation's
        colon = re.search(r"(?<!\d)[:：]\s*\S", sentence)  # labels listed after a colon, three commas or more
        listing = colon is not None and len(re.findall(r"[,，、]", sentence[colon.end():])) >= 3 and sum(
            bool(_LIST_ITEM.match(c.group())) for c in _CLAUSE.finditer(sentence)) >= 3
        for c in _CLAUSE.finditer(sentence):
            clause = c.group()
            if _REASON.search(clause) or hedged or _RULED_OUT.match(clause):
                pass  # … — not the 'Bluetooth, pairing' line under Connected devices: which one, not what then
            elif acted and (m := _SUCCESS.search(clause)) and not _MODAL.search(clause):
                told.append((offset + c.start() + m.start(), offset + c.start() + m.end()))
            elif (acted or narrated) and not _MODAL.search(clause) and (
                    _EN_NOW_RESULT.search(clause) or _EN_UI_RESULT.search(clause) or (
                    _ZH_NOW_STATE.search(clause) and not _ZH_ACTION.search(clause))):
                told.append((offset + c.start(), offset + c.end()))
                if acting_here and _INTO_VIEW.search(clause):  # One more swipe up — X comes into view: this step's
                    ahead.append(told[-1])
            elif acted and not _MODAL.search(clause) and not _NOT_YET_SHOWN.search(clause) and (
                    (_ZH_DONE.search(clause) and not _ZH_PLAN.search(clause) and not _PRESENT.search(clause))
                    or (not _EN_ACTION.search(clause) and en_past(clause))):
                told.append((offset + c.start(), offset + c.end()))
            elif (then := _ZH_THEN.search(clause)) and (acted or narrated or _ZH_ACTION.search(clause[:then.start()])) \
                    and not _MODAL.search(clause[:then.start()] + clause[then.end():]) and not _PRESENT.search(clause):
                told.append((offset + c.start(), offset + c.end()))
            elif acted and not _MODAL.search(clause) and _NOW_CHANGED.search(clause) and not _ZH_PLAN.search(clause):
                told.append((offset + c.start(), offset + c.end()))  # 点击 X，现在状态变成了 On / 详情页已经打开了
            elif narrated and not _MODAL.search(clause) and not _PRESENT.search(clause) and _ZH_BARE.search(clause) \
                    and not _ZH_PLAN.match(_ZH_LEAD.sub("", clause.strip())):  # 点她的头像打开对话: this step's own action and purpose
                told.append((offset + c.start(), offset + c.end()))
            hedged = hedged or bool(HEDGE.search(clause) or _ORDERED_SO.match(clause))  # Swipe up so the list …: aimed at
            acted = acted or (bool(_ZH_ACTION.search(clause) or _EN_ACTION.search(clause))
                              and not _SUPPOSE.search(clause)  # 如果找不到就向下滑动: not this step's action
                              and not (listing and _LIST_ITEM.match(clause)))  # 店铺, 收藏, 加入购物车: a label
            narrated = narrated or bool(_ZH_NARRATED.search(clause))
            acting_here = (acting_here or bool(_EN_ACTION.search(clause))) and not en_past(clause)
    closing = CLOSING_LINE.search(text) if told else None  # … 决定：点输入框 / → tap 耳机: a closing line says the
    decision = (stated_decision(text[:closing.start()]) if closing and text[:closing.start()].strip() else None) \
        or (stated_decision(text) if told else None)  # decision again; the one before it is the step's
    if decision is not None:  # a change told before the step's own decision is the last step's, read off the screen
        nows = now_sentences(masked, decision.span[1])  # … or one in a sentence that says the screen as it is
        told = [(a, b) for a, b in told if (b > decision.span[0] or (a, b) in ahead)
                and not any(x <= a < y for x, y in nows)]
    merged: list[list[int]] = []
    for a, b in sorted(counts + spans + told):  # overlapping findings become one phrase
        if merged and a < merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], b)
        else:
            merged.append([a, b])
    found: list[str] = []
    for a, b in merged:
        phrase = text[a:b].strip(" ，,；;。.")
        if phrase and phrase not in found:
            found.append(phrase)
    return found
