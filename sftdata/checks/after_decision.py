"""Positive evidence for what a reasoning says after its decision: each clause must be accounted for.

Certification asks that nothing in a reasoning tell the future. Spotting known future wordings cannot prove that:
a new writer always finds a new one. So after the decision every clause must be *accounted for* as something an
agent knows before it acts, or the item is not certified (``unaccounted_after_decision``: a reader decides; this
never rejects). A clause is accounted for when it is

- a plan of later steps (``then``, ``next``, ``afterwards``, ``之后``, ``再``, ``接着``), a hedged expectation
  (``should``, ``probably``, ``应该``, ``大概``, ``看看``), a purpose (``to …``, ``so …``, ``让…``, ``进详情页``),
  a condition, a recall of earlier steps, the goal restated, a ruling-out (``not 归档``, ``而不是…``), the manner
  of the action (``exactly``, ``按原样``, ``格式``), a judgement of the options (``cheaper``, ``更划算``), or an
  action of its own (``Action: tap it``: the agreement checks read those);
- or a description of the screen as it is: each of its words is on the current or an earlier screen, in the goal
  or the call, or a place, a control's kind or a function word (``top-left``, ``那一行右边的按钮``).

A clause that states a change, a success or the end of the run (``again``, ``now``, ``已经``, ``又``, ``成功``,
``结束``, ``切成``, ``opens``, a closing ``了``) is never accounted for by a description; only a hedge, a plan or a
condition can account for it. The decision's own clause is read past a joint that says "after it" (``上划之后
Display 就在中间``): what follows is what happens then.

>>> from sftdata.model import Action, Element, Episode, Screenshot, Step
>>> shot = Screenshot("0" * 64, "x.png", 1080, 2400)
>>> dark = Element(0, (0, 300, 1080, 400), text="Dark theme", flags=("visible",))
>>> ep = Episode("e", "sample", "打开深色主题", [Step(0, shot, Action("click", point=(540, 350), element=dark),
...                                            elements=[dark])])
>>> unaccounted_after_decision("点 Dark theme，已经切成 On 了。", ep, 0)
'已经切成 On 了'
>>> unaccounted_after_decision("点 Dark theme，应该会切成 On。", ep, 0) is None
True
>>> unaccounted_after_decision("Tap Dark theme, the row at the top, not the one below.", ep, 0) is None
True
"""
from __future__ import annotations

import re
from typing import Any, Callable

from ..model import Episode, Step
from .calls import CJK, CJK_CLASS, longest_first, normalize
from .decision import Decision, first_verb, mask_quotes, stated_decision
from .finger import FINGER, GLOSS
from .future_text import known_texts
from .hedges import (ALREADY_ZH, CONCLUSION, CONDITION_ZH, ENOUGH_ZH, HEDGE, JUDGEMENT, LATER_ZH, PURPOSE_ZH, TRYING_ZH,
                     now_sentences)
from .named_other import other_card_control, other_numbered_card, other_quoted_value
from .plan_lists import PLAN_POINTER, later_item
from .ruled_out import ACCOUNTING_EN, EXCUSING_EN, RULING_ZH, ruled_out_relatives
from .screen_text import screen_texts, with_squeezed_counters
from .target_evidence import said_rank

# where a clause ends: punctuation, an arrow, or before a joining word (kept with the clause it opens)
_CUT = re.compile(r"[，,；;。！？!?\n：—–()（）→]|(?<!\d):|:(?!\d)|->|=>|(?<=\w)\.(?=\s|$)|\s+-\s+"
                  r"|(?=\b(?:and|but|so|then|which|where)\b)|(?=然后|并且|接着|随后|同时|而且|但是?|不过)", re.I)
_CONTENT = re.compile(rf"[A-Za-z0-9{CJK_CLASS}]")

# a change, a success, the end of the run: never a description of the screen as it is
CHANGE = re.compile(
    ALREADY_ZH + r"|又|重新|成功|失败|生效|结束|完成(?!任务的|的)|为止|到这一步|这一步就|录制|记录到|切成|变成|变为|换成|变了"
    r"|出现|弹出(?!来)|弹了|跳转|跳到|跳出|刷新|加载(?:出|完|好)|显示(?:出|为|了)|现在(?:是|显示|变|已|就)|[^行好够对算罢]了\s*$"
    r"|\b(?:again|now(?!\s*$)|already|success(?:ful(?:ly)?)?|succeed(?:s|ed)?|worked|work(?:s|ed)? fine|finish(?:es|ed)|complete[sd]?"
    r"|end(?:s|ed)|over|recording|episode|trajectory|switch(?:es|ed)|turn(?:s|ed)|chang(?:es|ed)|became|becomes|appear(?:s|ed)?"
    r"|open(?:s|ed)|load(?:s|ed)|shows? up|pops? up|popped|refresh(?:es|ed)|updat(?:es|ed)|re-\w+|gone|disappear\w*"
    r"|takes (?:me|us)|brings? (?:me|us)|land(?:s|ed)|went|moved|(?<!\bone )(?<!\bones )inside(?!\s+(?:the|this|that)\s+(?:dialog|pop-?up|modal|prompt|sheet|box|menu|card|row|bar|banner)\b)|in there"
    r"|accept(?:s|ed)|reject(?:s|ed)|go(?:es)? through|went through|(?:without|no)\s+(?:\w+\s+){0,2}errors?"
    r"|confirmed|booked|submitted|returns? (?:me |us )?to|goes back to|leads? (?:me |us )?to)\b", re.I)
# what excuses a change: it is expected, planned or supposed, not reported
_EXCUSE = re.compile(HEDGE.pattern + "|" + TRYING_ZH + "|" + CONDITION_ZH + "|" + PURPOSE_ZH + "|" + LATER_ZH
                     + r"|万一|才能|就能|好让|让|等|接着|随后|最后|回头|待会|准备|打算|" + RULING_ZH + r"|之前|刚才|刚刚|此前|先前|上一步|上次"
                     r"|这样|可以|^\s*(?:把|让|使|好让)"
                     r"|\b(?:earlier|previously|before|last time|" + EXCUSING_EN + r"|expecting|then|next|after|afterwards|later|once|when|if|unless|until|whether"
                     r"|hope(?:fully)?|plan|want|need|to|so that|in order to|can|let me|let's|i'll|we'll)\b", re.I)
# the accounted-for kinds of clause other than a description: a plan, an expectation, a purpose, a condition,
# history, the goal, a ruling-out, the manner of the action, a judgement
_ACCOUNTED = re.compile(
    _EXCUSE.pattern + "|" + PLAN_POINTER.pattern
    + r"|^\s*(?:要(?![是不])|需要|拉回|推回|拖回|看|查看|浏览|回|进|打开|切换|把|使|找|寻找|调出|露出|去|来|以|好|并|开始|继续|选|点|输入|翻|滑|滚|展开|收起|关闭|开启"
      r"|确认|提交|保存|收藏|加入|添加|删除|发送|留在|停在|确保|保证|避免|方便|便于|用来|用于|直到|一直|顺便|先|也|凑|多看|多比较|切|因为|由于|既然)"
    + r"|刚才|刚刚|之前|此前|先前|上一步|上次|前面|一开始|任务|目标|要求|需要|" + ENOUGH_ZH
    + r"|也就是|即|对应|格式|原样|一字不差|逐字|照抄|一致|全角|半角|逗号|句号|空格|标点|大小写|合适|划算|便宜|贵|好挑|稳妥|比较稳|保险|靠谱|省事|省心|选择多|评价|都行|随便|哪个都|哪张都|够了|差不多|更好|一般|通常|想"
      r"|\b(?:earlier|previous(?:ly)?|before|so far|last|goal|task|asks?|wants?|" + ACCOUNTING_EN + r"|i\.e\.|namely"
      r"|that is|because|since|exactly|as given|as asked|as requested|verbatim|format|full-width|half-width|punctuation"
      r"|comma|spelling|spelled|capitali[sz]ed|lower-?case|upper-?case|enough|good|better|best|cheaper|cheapest"
      r"|detour|fine|any|either|usually|typically|for|keep|leave|make|get|bring|go|come|looking|look|check|compare|start"
      r"|begin|done with|doing|step|flip|browse|from (?:there|here|it))\b|开始|从这|从它|从那|正是|就是|启动|运行"
      r"|\b(?:different|another|other|separate|yet|no|by \w+ing)\b|^\s*(?:see|view)\b|\bfirst\s*$"
      r"|^\s*(?:往|向)[上下左右](?:多)?看|多看几", re.I)
_JOINT_ONLY = re.compile(r"\s*(?:and|so|but|then|or|并且|然后|所以|而且|和)?\s*[,.;:，。；：]*\s*", re.I)
# a line's heading (``Action:``, ``**Decision**:``, ``操作：``): what follows it is read on its own
_HEADING = re.compile(r"^\s*[-*•>\d.)#]*\s*\**\s*(?:action|reasoning|decision|decide|thought|plan|observation|observe|recall|next|note|screen"
                      r"|goal|step \d+|reason|why|操作|动作|决定|思考|计划|观察|当前|目标|注意|下一步|理由|原因)\s*\**\s*$", re.I)

# words a description may use besides the screen's own: places, kinds of control, function words
_FILLER_EN = frozenset((
    "the a an its it it's this that these those one ones of on in at to with and or is are which there here my our their "
    "her his him them they row rows line button buttons btn link links field fields box input tab tabs icon icons item "
    "items entry card cards list page screen bar menu option options section thumbnail thumbnails pic picture photo "
    "image result results label title nav navigation top bottom left right middle center centre upper lower side "
    "leftmost rightmost topmost first second third fourth fifth last next above below under beside near next to by "
    "from corner area column header footer shot just also same other only both all each edge end far up down "
    "whose labelled labeled called named marked says with its own blue red green grey gray big small little "
    "lower-left lower-right upper-left upper-right top-left top-right bottom-left bottom-right mid "
    "right-hand left-hand dialog popup pop-up sheet window avatar "
    "click tap tag badge price january february march april may june july august september october november december "
    # relation and place words of an apposition that singles the target out (the one between X and Y, the title
    # link in the upper part of the list, the one dated …)
    "between among amid beneath underneath within inside outside alongside part half portion grid tile cell slot spot "
    "dated priced titled labeled rated tagged captioned numbered sized stamped showing reading sold empty blank thread "
    "threads conversation chat form splash loading launch currently status subtitle caption belongs belonging plain").split())
_FILLER_ZH = ("那一行", "这一行", "那一条", "这一条", "那一项", "这一项", "那个", "这个", "那张", "这张", "那条", "这条", "那一栏",
              "按钮", "图标", "链接", "输入框", "搜索框", "选项", "条目", "卡片", "头像", "商品图", "图片", "照片", "标题", "标签",
              "左上角", "右上角", "左下角", "右下角", "上方", "下方", "左边", "右边", "左侧", "右侧", "中间", "中央", "顶部",
              "底部", "上面", "下面", "旁边", "附近", "最上面", "最下面", "最左边", "最右边", "左上", "右上", "左下", "右下",
              "第一", "第二", "第三", "第四", "第五", "一行", "一排", "那一排", "那排", "这排",
              "靠上", "靠下", "靠左", "靠右", "靠前", "靠后", "那行", "这行", "之间", "当中", "中部", "上部", "下部", "左边那",
              "右边那", "旁边的", "挨着", "紧挨", "隔壁", "正好", "恰好", "刚好", "属于", "对应的",
              "still says", "still shows", "still reads", "still set to")  # Sort by still says Relevance: as it is
_FILLER_CHARS = set("它的是在有个张条项行排栏那这就也还都和与及上下左右中边侧角里处第一二三四五六七八九十两")
_TOKEN = re.compile(rf"[a-z0-9][a-z0-9'&#.$¥/-]*|[{CJK_CLASS}]+")
_PLAN = re.compile(r"之后|以后|然后|接下来|接着|随后|下一步|再|\b(?:then|next|after that|afterwards|later)\b", re.I)
# a clause that ends on its plan: ``… come after``, ``… are next``
_PLAN_LAST = re.compile(r"\b(?:comes?|are|is|go|goes)\s+(?:after|afterwards|next|later)\s*[.。]?\s*$", re.I)
# what the writer will do, and a bare verb joined to it: ``I'll run the search now | and handle sorting``
_I_WILL = re.compile(r"\b(?:i'll|i will|we'll|we will|let me|let's|i'm going to|i need to|i want to)\b", re.I)
_AND_VERB = re.compile(r"^\s*and\s+(?:then\s+)?(?!(?:the|a|an|it|its|this|that|they|there|these|those|results?)\b)"
                       r"[a-z]+\b(?<![^s]s)(?<!ed)(?!\s+(?:is|are|was|were)\b)", re.I)
_SENTENCE_END = re.compile(r"[。！？!?\n]|\.(?=\s|$)")
_AFTER_JOINT = re.compile(r"(?:(?:之后|以后|(?<![前最])后)(?![的面边方头来台])|\b(?:after that|and then)\b)[，,\s]*", re.I)


# said after the decision: once this step's action is done, a state of the screen
_AFTER_STATE = re.compile(r"^\s*(?:right\s+|just\s+)?(?:(?:after|once)\s+(?:the|this|that|my|it)\b(?:\s+(?:swipe|scroll|tap|click|press"
                          r"|step|action|long[- ]press|input))?|afterwards,?|after that,?)\s+[^.;]{0,60}?\b(?:is|are|sits|sit|shows?|appears?|lands?|reads?"
                          r"|stays?|becomes?|comes? into view|moves? up|moves? down|shifts|scrolls|jumps|slides|peeks? in|pops? up"
                          r"|updates|refreshes|loads|opens|changes)\b", re.I)


# a clause that opens on this step's action as done: ``after pressing it``, ``after the swipe``, ``doing it again``,
# ``滑完之后``, ``勾上之后``, ``打开的是``
_AFTER_DONE = re.compile(r"^\s*(?:(?:right|just)\s+)?(?:after|once)\s+(?:(?:pressing|tapping|clicking|swiping|scrolling"
                         r"|typing|entering|selecting|hitting|long[- ]pressing)\b|the (?:swipe|scroll|tap|click|press"
                         r"|step|action|long[- ]press)\b|(?:it|that)(?:'s| is) (?:pressed|tapped|clicked|done)\b)"
                         r"|^\s*(?:doing|repeating) (?:it|this|that)(?: again| once more)?\b"
                         r"|^\s*(?:[点按滑输填选敲删划翻勾]完|[点按滑输填选划翻勾]了一?下|按下|点下|勾上|选上)(?:之后|以后|后)"
                         r"|^\s*(?:打开|点开|进去|进入|跳转)(?:的|后)(?:就)?是"
                         r"|^\s*(?:打开|点开|进入)(?:的|后)(?:的)?(?:页面|会话|对话|详情页|界面|聊天)(?:里|中|上)",
                         re.I)
# after it (the clause opening on it), a change told as done (``之后 X 又回到了屏幕中间``), unless expected or planned
_REPORTED_AFTER_ZH = re.compile(r"^\s*(?:[拉滑划翻滚推拖点按](?:回去|过去|回来|上去|下去|完|好)?)?(?:之后|以后)[^，,。；;]*?"
                                r"(?<![行好够对算罢就])了(?![吗吧呢])")
_MODAL_ZH = re.compile(r"会|应该|应当|可能|大概|也许|估计|预计|能|要|再|才|(?<!之后)(?<!以后)(?<!\w\s)就|如果|看看|可以")
# a subject, then what it is or does in the present: ``the list then has #4 in the middle``, ``the box then holds it``
_THEN_STATE = re.compile(r"^[\s—–-]*(?:and\s+)?(?:the|its|my|this)\s+(?:[\w-]+\s+){0,3}then\s+(?:has|have|holds?|shows?|reads?|says?"
                         r"|sits?|is|are|displays?|lists?|jumps?|scrolls?|moves?|opens?|loads?|lands?)\b", re.I)
_WILL_STATE = re.compile(  # what it will read or show then, as certain: ``it will read 3 afterwards``
                         r"^[\s—–-]*(?:and\s+)?(?:it|they|(?:the|its)(?:\s+[\w-]+){1,4}?)(?:\s+will|'ll)\s+(?:then\s+)?(?:read|show|say"
                         r"|display|hold|list|sit|have)\b[^.;]*?\b(?:afterwards|after that|then)\b"
                         # where the step lands, and what that screen shows: ``we'll land on the list showing …``
                         r"|^[\s—–-]*(?:and\s+)?(?:we|i)(?:'ll|\s+will)\s+(?:then\s+)?(?:land|end up)\s+(?:back\s+)?(?:on|in|at)\b"
                         r"[^.;]*?\b(?:showing|listing|with\s+\S+(?:\s+\S+)?\s+(?:at|on)\s+(?:the\s+)?(?:top|bottom))\b", re.I)
_TOLD_PIECE = re.compile(r"(?:[^。！？!?\n;；，,.]|\.(?!\s|$))+")  # a clause; a full stop ends it (not 4.5)


def told_after_done(after: str) -> str | None:
    """The first clause of ``after`` (the text after the decision) that opens on the action as done and tells what
    then is, with no hedge (``after pressing it the launcher comes up``, ``滑完之后小米跑步鞋重新出现在中间``)."""
    for m in _TOLD_PIECE.finditer(mask_quotes(after)):
        done = _AFTER_DONE.match(m.group())
        rest = m.group()[done.end():] if done else ""
        certain = re.sub(r"\bwill\b|'ll\b", " ", m.group(), flags=re.I)  # it will read 3: ``will`` is no hedge here
        if (done and rest.strip() and not HEDGE.search(rest) and not re.search(LATER_ZH + r"|会|要", rest)) or (
                (_AFTER_STATE.match(m.group()) or _THEN_STATE.match(m.group())) and not HEDGE.search(m.group())) or (
                _WILL_STATE.match(m.group()) and not HEDGE.search(certain)):
            # afterwards the list shifts; the list then has #4 in the middle; it will read 3 afterwards
            return after[m.start():m.end()].strip()
    return None


def change_told(text: str, value: str) -> str | None:
    """The clause of a decision said without a verb (``value``: what it types or chooses) that tells a change
    (``Job type switched to Full-time successfully``): with no verb, no clause is the decision's own to say it."""
    if not value or value not in text:
        return None
    at = text.find(value)
    blanked = text.replace(value, " " * len(value))
    sentence = next(m for m in re.finditer(r"[^。.!?！？\n]+|[。.!?！？\n]", blanked) if m.start() <= at < m.end())
    for m in re.finditer(r"[^，,；;]+", sentence.group()):  # the value's clause and those after it: not ``名字有了，…``
        if sentence.start() + m.end() <= at:
            continue
        said = normalize(m.group())
        if any(c.group().strip() not in ("now", "over") for c in CHANGE.finditer(said)):  # now, next field over: the order
            return text[sentence.start() + m.start():sentence.start() + m.end()].strip()
    return None


def _clauses(text: str, start: int):
    """(offset, clause) of ``text`` from ``start`` on, cut where :data:`_CUT` says (never inside a quotation)."""
    masked = mask_quotes(text)
    at = start
    for m in _CUT.finditer(masked, start):
        if m.start() > at:
            yield at, text[at:m.start()]
        at = max(at, m.end())
    if at < len(text):
        yield at, text[at:]


def _phrases(texts: list[str]) -> tuple[str, list[str]]:
    """The texts joined (for a word's lookup) and as phrases, longest first; a counter also without its spaces."""
    texts = with_squeezed_counters(texts)
    return "\x00".join(texts), sorted({t for t in texts if len(t) >= 2}, key=longest_first)


def _known(episode: Episode, index: int, extra: tuple[str, ...]) -> tuple[str, list[str]]:
    return _phrases(known_texts(episode, index) + [normalize(e) for e in extra if e])


def screen_words(step: Step, extra: tuple[str, ...] = ()) -> Callable[[str], bool]:
    """Is a clause made of the words of ``step``'s screen alone (and ``extra``), besides places, kinds of control
    and function words: the screen as the agent sees it now?"""
    blob, phrases = _phrases(screen_texts(step) + [normalize(e) for e in extra if e])
    return lambda clause: not _leftover(clause, blob, phrases)


def _leftover(clause: str, blob: str, phrases: list[str]) -> list[str]:
    """The words of ``clause`` that neither the known texts nor the filler account for."""
    said = normalize(clause)
    for phrase in phrases:  # the longest known texts first: 已售54万, Urban earbuds fresh #1
        if phrase in said:
            said = said.replace(phrase, " ")
    for word in _FILLER_ZH:
        said = said.replace(word, " ")
    out = []
    for token in _TOKEN.findall(said):
        token = token.strip("'.-/")
        if not token or token in _FILLER_EN:
            continue
        if not CJK.match(token):
            if token not in blob and not re.fullmatch(r"\d{1,2}|#?\d{1,2}(?:st|nd|rd|th)?", token):
                out.append(token)
            continue
        rest = "".join(c for c in token if c not in _FILLER_CHARS and c not in blob)
        if rest:
            out.append(rest)
    return out


_SUBJECT_BEFORE = re.compile(r"(?:^|\b(?:i|we|i'll|we'll|let me|let's|to|then|and|please|just|now|so|action|also|first)"
                             r"|[^A-Za-z\s]|\*)\s*$", re.I)
_ZH_SUBJECT_BEFORE = re.compile(r"(?:我|就|再|先|直接|要|去|来|并|然后|接着|需要|所以|于是|可以|得)\s*$")

_ZH_WHERE = re.compile(r"^\s*(?:于是|所以|因此|然后|接着|就|再|先|我|要|直接)*\s*在[^，,。]{0,16}$")  # 于是在屏幕中央向左滑动


def acts(masked: str) -> bool:
    """Does the clause take an action (``Action: tap it``, ``点它的商品图``)? An English verb with a subject of
    its own before it (``results open with …``) reports, not acts."""
    verb = first_verb(masked)
    if verb is None:
        return False
    before = masked[:verb[0]]
    if re.match(r"\s*着?的(?:是|就是)", masked[verb[2]:]) and re.search(r"(?:现在|当前|目前)\s*$", before):
        return False  # 现在打开的是 4/30 那张: what is open now, a noun
    if re.match(r"[A-Za-z]", masked[verb[0]:verb[0] + 1]):
        return bool(_SUBJECT_BEFORE.search(before))
    if re.fullmatch(r"\s*(?:整个)?(?:页面|列表|界面|屏幕|画面|内容)\s*(?:就|也|又|会)?\s*", before):
        return False  # 页面滚到结果区: what the page does, not an action taken
    return len(before.strip()) <= 4 or bool(_ZH_SUBJECT_BEFORE.search(before) or _ZH_WHERE.match(before))  # not 底部浮出三个时长按钮


def only_names(text: str, names: list[str]) -> bool:
    """Is every word of ``text`` one of ``names`` or a place, a kind of control or a function word?

    >>> only_names("Find homes, right of the address box", ["find homes", "address"])
    True
    >>> only_names("点了之后页面提示已加入购物车", ["加入购物车"])
    False
    """
    phrases = sorted({normalize(n) for n in names if n}, key=longest_first)
    return not _leftover(text, "\x00".join(phrases), phrases)


def clause_accounted(clause: str, blob: str, phrases: list[str]) -> bool:
    """Is ``clause`` (said after the decision) something an agent can know before acting? (see the module doc)"""
    plain = GLOSS.sub(" ", clause)  # finger moves down, content moves down: how the swipe goes
    masked = mask_quotes(plain)
    if (not _CONTENT.search(masked) and not _CONTENT.search(plain)) or _JOINT_ONLY.fullmatch(masked):
        return True  # nothing, or a joining word left of a clause set aside (``so`` before a history claim)
    said = normalize(plain)
    for phrase in phrases:  # a label on the screen may hold a change word (已售, Completed): it is the screen's
        if len(phrase) >= 3 and phrase in said:
            said = said.replace(phrase, " ")
    if _AFTER_STATE.match(masked) and not HEDGE.search(masked):
        return False  # after the swipe the Anker sits at the top: what the next screen shows
    if CONCLUSION.match(masked) or FINGER.search(masked):
        return True  # so I run the search / so the finger moves left again: the decision said again
    change = CHANGE.search(said)
    if change and _REPORTED_AFTER_ZH.search(masked) and not _MODAL_ZH.search(masked):
        return False  # 之后 Apple 那双又回到了屏幕中间: what came after, reported, not expected
    if change:
        return bool(_EXCUSE.search(said[:change.start()]) or HEDGE.search(said))
    if _HEADING.match(masked) or _ACCOUNTED.search(masked) or JUDGEMENT.search(masked) or acts(masked):
        return True
    return not _leftover(plain, blob, phrases)


_IDENTITY = re.compile(r"^\s*(?:(?:which|that|it|this)\s*(?:is|'s)\s+(?:the|our|my)\b|(?:这是|就是|也就是|即)?\s*第)", re.I)


def _ranked_as_named(clause: str, before: str) -> bool:
    """Does ``clause`` say which one the target is by an ordinal (``which is the 25th listing``, ``第十三场``) whose
    number a name said before it holds (``#25``)?"""
    rank = said_rank(clause) if _IDENTITY.match(clause) else None
    return bool(rank and rank > 0 and re.search(rf"#\s*{rank}(?!\d)", before))


def unaccounted_after_decision(text: str, episode: Episode, index: int, decision: Decision | None = None,
                               function: dict[str, Any] | None = None) -> str | None:
    """The first clause of ``text`` after its decision that is not accounted for (see the module doc), None when
    each is (or the text states no decision). ``function``: the call, whose values and target count as known."""
    decision = decision or stated_decision(text)
    if decision is None:
        return None
    params = (function or {}).get("parameters")
    extra = tuple(str(v) for v in params.values()) if isinstance(params, dict) else ()
    blob, phrases = _known(episode, index, extra)
    rest_at = decision.span[1] - len(decision.rest)
    joint = _AFTER_JOINT.search(text, rest_at, decision.span[1])
    if joint:  # 上划之后 Display 就在中间: what the decision's own clause says comes after it
        after = text[joint.end():decision.span[1]]
        if _CONTENT.search(after) and not (_EXCUSE.search(after) or acts(mask_quotes(after))):
            return after.strip()
    planned = False  # After that: three left swipes: a plan's clause carries to the rest of its sentence
    willed = False  # I'll run the search now and handle sorting on the results: the same doer's next verb
    nows = now_sentences(mask_quotes(text), decision.span[1]) + ruled_out_relatives(text)  # and what is set aside
    values = [normalize(str(params[k])) for k in ("text", "value") if isinstance(params, dict) and params.get(k)]
    colon = re.match(r"\s*[:：](?:[^，,；;。!?！？\n.]|\.(?!\s|$))*", text[decision.span[1]:]) if decision.continuation else None
    valued = colon is not None and any(v in normalize(colon.group()) for v in values)
    told = decision.span[1] + (colon.end() if valued else 0)  # Fill in the destination: Porto into the Where box
    for value in values:  # Type 收到，谢谢 into the box: the value's comma cuts no clause
        at = normalize(text).find(value, decision.span[0]) if len(value) >= 2 else -1
        if 0 <= at < told < at + len(value) and len(normalize(text)) == len(text):
            cut = _CUT.search(text, at + len(value))  # and the rest of its clause: into the focused message box
            told = cut.start() if cut else len(text)
    pieces = list(_clauses(text, told))
    for k, (at, clause) in enumerate(pieces):
        joined = pieces[k + 1][1] if k + 1 < len(pieces) and pieces[k + 1][0] == at + len(clause) else ""
        if re.match(r"and\b", joined) and not CHANGE.search(normalize(clause)) and _PLAN_LAST.search(joined):
            continue  # the Tickets select | and Find tickets come after: one subject of the plan the next clause ends on
        if later_item(text, at, decision.span[0]) and first_verb(mask_quotes(clause)) is not None:
            continue  # 2. State 选 Texas: a later step of a numbered plan
        if any(a <= at < b for a, b in nows):
            continue  # 当前是搜索页，光标在输入框里: the screen as it is
        if _ranked_as_named(clause, text[:at]):
            continue  # … the Urban house organic #25 row, which is the 25th listing: which one, by its own number
        if not clause_accounted(clause, blob, phrases) and not (planned and not CHANGE.search(normalize(clause))) \
                and not (willed and _AND_VERB.match(clause)):
            return clause.strip(" .。")
        willed = bool(_I_WILL.search(clause)) and not _SENTENCE_END.search(text, at + len(clause), at + len(clause) + 1)
        planned = (planned or bool(_PLAN.search(clause))) and not _SENTENCE_END.search(text, at + len(clause),
                                                                                       at + len(clause) + 1)
    return None


def doubts(text: str, decision: Decision | None, episode: Episode, index: int,
           function: dict[str, Any]) -> list[tuple[str, str]]:
    """(reason code, detail) of what keeps a grounded decision from certifying: a clause after it not accounted
    for, another numbered card or control of the card named, another value quoted (:mod:`.named_other`)."""
    out = []
    quoted = other_quoted_value(text, function, episode.goal or "")
    if quoted:
        out.append(("other_value_quoted", f"“{quoted[:40]}” is quoted as the value, the call types another"))
    if decision is None:
        return out
    step = episode.steps[index]
    card = other_numbered_card(decision, step)
    if card:
        out.append(("other_card_named", f"the decision names {card}, a card other than the call's"))
    control = other_card_control(decision, step, text)
    if control:
        out.append(("other_card_control", f"the decision names “{control[:40]}”, another control of the call's card"))
    unaccounted = unaccounted_after_decision(text, episode, index, decision, function)
    if unaccounted:
        out.append(("unaccounted_after_decision", f"“{unaccounted[:60]}”, said after the decision, is neither the "
                    "screen as it is, a plan, an expectation nor a purpose"))
    return out


__all__ = ["CHANGE", "acts", "change_told", "clause_accounted", "doubts", "only_names", "unaccounted_after_decision"]
