"""The action verbs a decision is read by, in Chinese and English: each a verb class and its pattern.

The order matters: the first match in a clause wins at an equal position, and a longer match wins over a shorter
one (``按 Home`` is the home key, not a tap). :mod:`.decision` reads clauses with :data:`VERB_RE`.

>>> [kind for kind, rx in VERB_RE if rx.search("向上滑动")][:1]
['swipe']
"""
from __future__ import annotations

import re

from .calls import CJK_CLASS

# what a screen holds open, said as a state (``Messages list open.``), not a decision to open (a fixed-width
# lookbehind each, which Python's ``re`` asks for)
_OPEN_STATES = ("list", "page", "menu", "screen", "dialog", "sheet", "panel", "drawer", "keyboard", "app", "tab", "view")

# A control's action label said as the imperative itself, opening its clause (``加入购物车。``, ``add #4 to cart —
# the button on the lower right``, ``reserve #27 (middle right)``): a tap of that control. The match is empty, so
# the label's words stay in the object the evidence reads.
LABEL_IMPERATIVE_ZH = (r"^[\s\-–—→>*•]*(?:so\s+|所以|那就)?(?=(?:加入购物车|加购物车|加购|立即购买|马上购买|立即预订|立即预定|立即申请|确认删除)(?![了过成]|提示|弹窗|后|之后|的|数|完)"
                       r"(?![^，,。；;]*(?:\b(?:would|will|should|could|only|just|(?<!\bit )is|are|was|starts?|opens?|goes|takes|leads"
                       r"|means|does|adds|jumps|skips|brings|sends|sits|belongs)\b|只|会)))")  # 1. 立即购买 starts checkout: a subject
LABEL_IMPERATIVE_EN = (r"^[\s\-–—→>*•]*(?=(?:add\b[^,.;:]{0,24}?\bto (?:the )?(?:cart|basket|bag|wishlist)\b|buy (?:it )?now\b|(?:buy|book|get) tickets?\b"
                       r"|reserve\b|book (?:it|now|this|that)\b|save (?:the|this|that|it|#)|apply (?:now|for)\b|subscribe\b|check ?out\b)(?!ed\b)"
                       r"(?![^,.;:]*\b(?:should|will|would|can|could|is|are|was|were|goes|went|works|worked)\b))")

# verb class -> pattern; order matters (first match in a clause wins at equal position)
_VERBS_ZH = (
    ("long_press", r"长按"),
    # a dropdown set to a value: 下拉改成 Business, 改选 Texas (the value is said right after)
    ("click", r"(?<![已经])(?:改成|改为|改选|换成|选成)(?=\s*[“「『\"A-Za-z0-9])"),
    ("click", r"把(?=[^，,。把]{1,30}?(?:改成|改为|换成|选成|设成|设为|调成)(?!了))"),  # 先把 Sort by 改成按价格排序
    # focusing a field is a tap on it (把光标放到搜索框里, 点进输入框)
    ("click", r"把(?:输入)?光标(?:放|移|定位|挪)(?:到|在|进)|点进(?=[^，,。]{0,10}(?:输入框|搜索框|搜索栏|文本框|输入栏|框里|框中))"),
    ("input", r"(?:输入|键入|填写|填入|填上|录入|打字|填(?=\s*[“「『\"'‘]|\s*[A-Za-z0-9@])|把(?=[^，,。把]{0,12}?[“「『\"A-Za-z0-9@][^，,。把]{0,60}?(?:输入|填写|键入|录入|填|打|敲|输)(?:进|到|在|入))|(?:打|敲)(?:上|入|进)?(?=\s*[“「『\"])|(?:打|敲)(?:上|入|进)(?=\s*[A-Za-z0-9@])|(?:(?<=[里中内])|(?<=[里中内]\s))(?:打|敲)(?=\s*[A-Za-z0-9@]))(?![框法栏区域])"),
    ("swipe", r"(?:[上下左右]滑(?!块|条|杆)|滑动(?!条|块|开关)|滑到|滑至|划动|[上下左右]划(?!线|痕)|划一下|(?:往|向|朝)[上下左右]一?(?:拖|拉)(?![动拽])|(?:往|向|朝)[上下左右]一[滑划]|滚动(?!条)|滚到|往[上下左右]翻|向[上下左右]翻|翻页|翻到"
              r"|(?<![数量型类别项期份号])下拉(?!\s*(?:→|->|=>))(?![框菜单列表选项联提建里中改默])(?!\s*[A-Za-z])|上拉(?![框菜单])|拖动|拖拽|滑一下|滚一下|(?:往|向)回(?:滑|划|拖|拉|翻)|(?:往|向|朝)[上下左右]推(?!荐|送|广)|手指(?:往|向|朝)[上下左右](?![面边方侧的滑划拖拉推移翻滚]))"),  # 那就手指向下
    ("home", r"(?:主页键|home\s*键|回到桌面|返回桌面|回桌面|回到主屏|返回主屏|回到主页面?|按主页|按\s*home\b)"),
    ("back_key", r"(?:按(?:下|一下)?(?:系统的?|手机的?)?返回键|系统返回|返回键)"),
    ("back", r"(?:返回(?![键按钮箭头图标]|首页|主页)|后退|退回)"),
    ("wait", r"(?:等待|稍等|等一下|等一等|等页面|等它|等(?:几|[一二三两\d])秒)"),
    ("open_app", r"(?:启动|打开|运行|切换到|切到|(?:(?<=^)|(?<=^[\s先再就去]))开(?![启关始])|(?<=[\s>→])开(?![启关始]))(?=[^，,。]{0,14}(?:应用|App|APP|app|软件|程序))"
                 r"|把(?=[^，,。]{0,12}?(?:应用|App|APP|app|软件|程序)[^，,。]{0,3}?(?:打开|启动|运行|点开))"),
    ("open", r"(?:打开(?!成功|失败)|开启(?!成功|失败)|进入(?![^，,。]{0,6}(?:状态|模式))|访问|前往|(?:(?<=^)|(?<=^[先再就去]))进(?=\s*[“「『\"A-Za-z]))"),
    ("click", r"(?:(?:^|(?<=^[\s就再先我去要来请→])|(?<=^\s[就再先我去要来请→])|(?<=^→\s)|(?<=直接|然后|那就|于是|所以|只要|就是|现在|这里|这次|我就|我先|我再|我要|我去|我来|决定)|(?<=现在要|这步要|此时要|这里要))点(?![击开按选进一两了赞评钟半儿数心名哪]|过(?!去))|点击|单击|双击|点按|轻点|轻触|轻按|戳(?:一下|一戳)?|点一下|点一次|点两下|点开|点选|点进|触摸|按下|(?<![重要地一两特优缺观焦亮起终节标站网差景])点(?=[“「『\"'‘]|它|这|那|第|最|底部|顶部|下方|上方|右上|左上|右下|左下|右侧|左侧|右边|左边|中部|中间|正中|中央|标题|\s*[A-Za-z0-9#]|[^\s，,。]{1,8}?(?:图标|按钮|按键|链接|入口|标签|选项|开关|卡片|头像|照片|图片|商品|条目)|取消|确定|确认|删除|保存|发送|返回|搜索|完成|同意|下一步|登录|提交|关闭|允许|跳过|好的)|勾选|勾上|勾一下|打勾|打钩|选中|选择(?!模式|状态)|选取|选定|挑选|激活(?=[^，,。]{0,10}(?:输入框|搜索框|文本框|输入栏|搜索栏))|(?<![可多单自挑])选(?=[“「『\"'‘]|\s*[A-Za-z]|[左右][上下]角?|顶部|底部|\s*\d+(?!\s*[\d:：.点时号月日])|第[一二三四五六七八九十\d]|最[上下前后新]|这[个款一]|那[个款一]|它)|挑(?=[“「『\"'‘]|一[张个款条])|从(?=[^，,。从]{0,8}?(?:第|左上|右上|左下|右下|最上|最左|顶部|这|那)[^，,。从]{0,16}?开始(?:看|翻|浏览|查看)))"),
    ("done", r"(?:结束任务|终止任务|宣布完成|标记为完成|调用\s*done|执行\s*done|^\s*(?:那就|可以|所以|就|直接)?(?:结束|收工)吧?\s*$)"),
    ("click", LABEL_IMPERATIVE_ZH),
    # a label pressed, said alone (按 Find homes。, 按“搜索”按钮), not what a search goes by (按 Electronics 搜过)
    ("click", r"(?<![重要地一两特优缺观焦亮起终节标站网差景不别])按(?=\s*(?:[“「『\"'‘][^”」』\"'’]{1,30}[”」』\"'’]"
              r"|(?!(?:home|back|enter|return)(?![a-z]))[A-Za-z][A-Za-z0-9 &'-]{0,30}?)\s*(?:按钮|键|[，,。.!！；;]|$))"),
    ("click", r"(?:要|该|应该|应当|需要|得)(?:点击?|按|选)的(?:是|就是|应该是)"),  # 现在要点的是对话框里那个删除: the one to tap
)
# after a determiner these words are nouns (``that's the toggle the task asked for``), not this step's tap
_NOT_A_NOUN = (r"(?<!\bthe )(?<!\ba )(?<!\ban )(?<!\bits )(?<!\bthis )(?<!\bthat )(?<!\bmy )(?<!\bonly )(?<!\blast )"
               r"(?<!\bprevious )(?<!\bearlier )")
_VERBS_EN = (
    # focusing a field is a tap on it (put the cursor in the search bar)
    ("click", r"\b(?:put|putting|place|placing|set|setting|move|moving|drop|dropping)\s+(?:the\s+|my\s+|a\s+)?(?:text\s+)?"
              r"(?:cursor|caret|focus)\s+(?:in|into|on|inside|onto)\b"),
    ("long_press", _NOT_A_NOUN + r"\blong[-_ ]?press(?:es|ing)?\b|\bpress and hold\b|\bhold down\b"),
    ("input", r"\b(?:(?<!\bthe )(?<!\bjob )(?<!\bits )(?<!\bthat )type(?!\s*(?:下拉|菜单|选项|里|中|框|栏|那|\b(?:dropdown|drop-down|menu|selector|picker|filter)\b))|types|typing|(?<![\"'”’」] )(?<!\bthe )(?<!\bthis )(?<!\bits )input|inputting"
              r"|put(?:ting)?(?= [\"'“‘][^\"'”’]{1,60}[\"'”’] (?:in|into|inside)\b)"
              r"|put(?:ting)?(?= (?!(?:it|them|this|that)\b)\S[^,.;]{0,40}? (?:in|into|inside) (?:(?:the|that|this|its) (?!(?:shopping )?(?:cart|basket|bag|wishlist)\b)\w|(?-i:[A-Z])))|enter(?:ing)?(?= [\"'“‘]| the (?:text|query|word|name|keyword))"
              r"|enter(?:ing)?(?= (?!(?:the|a|an|it|this|that|my|your|our|in|into)\b)\S[^,.;]{0,40}? (?:in|into|inside) (?:the|that|this|its)\b)"
              r"|enter(?:ing)?(?= \S*[\d@])|enter(?:ing)?(?= (?:the |a |my )?\w+(?: \w+)? as )|fill(?:ing)? in|fill(?:ing)?(?= (?!(?:them|the fields|the form|everything)\b)[^,.;]{1,40}?(?<!\bstarting)(?<!\bbeginning) with\b)|key(?:ing)? in|write|writing)\b"),
    ("swipe", r"\b(?:swipe|swiping|scroll|scrolling|flick|drag|dragging|page (?:down|up)|pull(?:ing)? (?:down|up))\b"
              r"|^\s*(?:one|once) more(?= (?:time )?(?:to(?:wards?)? the )?(?:left|right|up|down)\b)"),  # One more to the left.
    ("home", r"\b(?:go(?:ing)? (?:back )?(?:to the )?home(?: screen)?|(?:press|hit|tap|push)(?:ing)? (?:the )?home(?: button| key)?"
             r"|return(?:ing)? to the home screen|(?:head|get)(?:ing)? (?:back )?home"
             r"|us(?:e|ing) (?:the )?(?:system |device |phone'?s? )?home (?:key|button|gesture))\b"),
    ("back_key", r"\b(?:(?:press|hit|push)(?:ing)? (?:the )?(?:system |device |android )?back(?: key| button)?|(?:system|device) back"
                 r"|us(?:e|ing) (?:the )?(?:system |device |android |phone'?s? )?back (?:key|gesture)"
                 r"|back key)\b"),
    ("back", r"\b(?:go(?:ing)? back(?!\s+(?:one|a|to the (?:previous|last|prior))\s+(?:photo|picture|image|pic|slide|shot)s?\b"
             r"|\s+one\b(?!\s+(?:page|screen|level|step)))"
             r"|navigate back|return(?:ing)? (?:back )?to the (?:previous|last|prior) (?:page|screen|level|menu|view|list)"
             r"|(?<![:：,，、] )(?<![:：,，、])back (?:button|arrow))\b"),  # Search page: back arrow, …: a noun  # go back one photo: a swipe
    ("wait", r"\b(?:wait|waiting|let (?:it|the [\w ]{1,24}?) (?:load|finish)|hold on|give it a (?:second|moment|sec))\b"),
    ("open_app", r"\b(?:launch|launching|start|starting|open|opening)\b(?=[^,.;]{0,30}\bapp\b)"
                 r"|\bopen_app\b(?=\s+[\"'“‘「]?\w)"),  # open_app Settings: the call's own name, the app after it
    ("open", r"(?<!\bis )(?<!\bare )(?<!\bwas )(?<!\bis now )(?<!\bare now )(?<!\bs now )(?<!\bstill )(?<!already )\b(?:open|opening|re-?open|re-?opening|launch|launching|visit|visiting|navigate to|go to|head to)\b(?!\s+at\s+\d)"
             + "".join(rf"(?<!\b{what} open)" for what in _OPEN_STATES)),  # Messages list open.: a state
    ("click", r"(?<!\blong )(?<!\blong-)\b(?:" + _NOT_A_NOUN + r"(?:tap|tapp|taps|click|clicks|press|hit|touch|pick|check|toggle)\b(?!\s+(?:done|finished|complete|completed|worked)\b)"
              r"|tapping|clicking|pressing|" + _NOT_A_NOUN + r"select|selecting|choose|choosing|use(?= (?:the|its|that|this) )|set(?= (?:(?:the|its|this|that) )?[^,.;]{1,30} to \S)"
              r"|picking|tick|untick|uncheck|go(?:ing)? with|opt(?:ing)? for|settl(?:e|ing) on|decid(?:e|ing) on"
              r"|try(?= (?:the|its|that|this) )|(?:take|grab)(?= (?:the|that|this) (?!(?:time|chance|opportunity|step|risk|(?:\w+\s+)?(?:route|approach|path|way|option|shortcut|detour))\b)| [\x27\x22“‘「])|focus(?: on)?(?= (?:the|its|that|this) )"  # try the Laptops link
              r"|(?:switch|change|flip|turn)(?= (?:it|this|that|them|(?:the|its|this|that) [^,.;]{1,30}?) to )"  # switch it to Blue
              r"|switch(?:ing)? (?:over )?to(?= (?:the|its) [^,.;]{1,30}?\b(?:tab|section|category|filter|view)\b)"  # to the 家居 tab
              r"|(?<!-)(?!(?:is|are|was|were|be|been|being|do|does|did|done|it|this|that|one|comes?|came|goes|went|works?|worked)\b)"
              r"[a-z]{3,}(?=(?: (?:it|this|that|them|(?:it|this|that|them) \w+ \w+))? (?:with|via|using|through) (?:the|its|that|this) "
              r"(?!(?:system |phone'?s? |device )?(?:back|home)\b)[^,.;]{0,30}?(?:button|key|icon|link|tab|control|按钮|按键|图标)\b))\b(?!-\w)"),  # confirm with the 删除 button
    ("click", r"\b(?:confirm|submit|send|save|dismiss|close|accept|proceed|finish|apply|search|delete|cancel|run|start|trigger)"
              r"(?= (?:it |this |that |the (?:search|query|form|filter|filters) )?"
              r"(?:(?:with|via|using) (?:(?:the|its|that) )?(?:[a-z-]+'s )?[\"'“‘「]?(?:[" + CJK_CLASS + r"]|(?-i:[A-Z]))"
              r"|in (?:the|this) (?:dialog|popup|pop-up|prompt|modal)\b))"),  # confirm with the 删除 inside the dialog
    ("click", r"^\s*(?:send|submit|save|confirm|delete) (?:it|this|the (?:message|reply|text|sms|form))\s*[.!]?\s*$"),  # Send it.
    ("done", r"\b(?:call(?:ing)? done|mark(?:ing)? the task (?:as )?(?:done|complete)|finish(?:ing)? the task"
             r"|end(?:ing)? the task|declare (?:it )?(?:done|complete)"
             r"|call(?:ing)? (?:the task|it|this|the job|the goal) (?:finished|done|complete|completed|over))\b"),
    ("click", LABEL_IMPERATIVE_EN),
    ("click", r"\b(?:the (?:right|correct) (?:button|option|choice|control|link|tab|entry|one)|the one to (?:tap|press|click|hit|pick"
              r"|choose|use)|my (?:pick|choice)) (?:is|here is)\b"),  # so the right button is 加入购物车
    ("click", r"(?:(?<=^)|(?<=^\s)|(?<=\bso )|(?<=I'll )|(?<=let me )|(?<=let's )|(?<=we'll )|(?<=I will ))"
              r"(?:start|begin) (?:with|from)\b(?!\s+(?:a |an |one |the )?(?:\w+ing|swipe|scroll|scratch|beginning|top)\b)"),  # start with Lisbon
    ("home", r"^[\s\-–—→>*•]*home (?:key|button)\b"),
)
VERB_RE = [(kind, re.compile(p, re.I)) for kind, p in _VERBS_ZH + _VERBS_EN]

__all__ = ["LABEL_IMPERATIVE_EN", "LABEL_IMPERATIVE_ZH", "VERB_RE"]
