"""The episode's length in reasoning text: a step count with a total or a remainder, which only the recording knows.

``共 8 步``, ``第 3/8 步``, ``剩余 3 步``, ``最后一步（第 8 步）``, ``倒数第二步``, ``step 2 of 8``, ``3 steps left``,
``the episode ends``. The unit must be steps with a number below 100; the agent's own index or count of done steps
(``这是第 3 步``, ``已完成 2 步``) is known and allowed. ``hindsight.find_hindsight`` reads these in any sentence.

>>> [m.group() for m in COUNTS.finditer("这是第 2 步，共 8 步；step 3 of 8, 2 steps left. 还剩 2 张照片。")]
['共 8 步', 'step 3 of 8', '2 steps left']
"""
from __future__ import annotations

import re

ZH_NUM = r"(?<![\d,.])(?:\d{1,2}|[一二两三四五六七八九十]{1,3})(?![\d,]|\.\d)"  # a small number
ZH_STEP = r"\s*个?(?:步(?![数行伐])(?:骤|操作)?|操作)"
EN_NUM = r"(?<![\d,.])(?:\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)(?!\d|[,.]\d)\b"
# the recording as a thing (not a chat, search or order history)
_RECORDING_ZH = r"(?<!聊天|历史|通话|搜索|运动|浏览|消费|订单|交易|观看|播放)(?:记录|录制|录屏|演示|日志)"
COUNTS = re.compile("|".join((
    rf"(?:共|总共|一共|合计|总计)(?:有|需要?|是)?\s*{ZH_NUM}{ZH_STEP}",
    rf"(?:剩余|剩下|还剩|只剩|仅剩|还有|尚有|还差|余下|还余)(?:最后)?\s*{ZH_NUM}{ZH_STEP}",
    rf"{ZH_NUM}{ZH_STEP}中的?第",
    rf"第\s*{ZH_NUM}\s*[/／]\s*{ZH_NUM}\s*步",
    rf"最后一步\s*[（(]\s*第\s*{ZH_NUM}\s*步",
    rf"第\s*{ZH_NUM}\s*步[，,]?\s*(?:也就是|也是|即)最后一步",
    r"倒数第[一二两三四五六七八九十\d]{1,2}步",
    rf"\bsteps?\s+{EN_NUM}\s*(?:of|out of|/)\s*(?:the\s+)?{EN_NUM}\b",
    rf"\b{EN_NUM}\s+(?:of|out of)\s+(?:the\s+)?{EN_NUM}\s+steps\b",
    rf"\bout of\s+{EN_NUM}\s+steps\b",
    rf"\b(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|\d{{1,2}}(?:st|nd|rd|th))\s+of\s+"
    rf"(?:the\s+)?{EN_NUM}\s+steps\b",
    rf"\b{EN_NUM}\s+(?:more\s+)?steps?\s+(?:left|remaining|remain|to go)\b",
    rf"\b{EN_NUM}\s+steps?\s+in total\b|\btotal of\s+{EN_NUM}\s+steps\b",
    rf"\b(?:last|final)\s+of\s+(?:the\s+)?{EN_NUM}\s+steps\b",
    rf"\b(?:last|final)\s+step\s*\(\s*{EN_NUM}\s*/\s*{EN_NUM}\s*\)",
    rf"\bsteps?\b[^.;]{{0,20}}?\b{EN_NUM}\s+(?:more\s+)?to go\b",
    rf"\b{EN_NUM}\s+(?:more\s+)?steps?\s+(?:away|short)\b",
    r"\b(?:only|just)\s+(?:the\s+|one\s+)?(?:final|last)\s+step\s+(?:remains|is left|left)\b",
    rf"\b{EN_NUM}\s+steps?\s+(?:are|is)\s+(?:needed|required|enough)\b",
    rf"(?:轨迹|整个任务|全程|整个过程|整个流程)[^，,。]{{0,6}}?(?:包含|包括|共有|共|分为)\s*{ZH_NUM}{ZH_STEP}",
    rf"\b(?:episode|trajectory)\s+(?:has|takes|contains|consists of)\s+{EN_NUM}\s+steps\b",
    rf"\b{EN_NUM}[- ]steps?\s+(?:long|episode|trajectory)\b|\b{EN_NUM}\s+steps\s+in all\b",
    r"\b(?:last|final)\s+(?:step|action|move|tap)\s+(?:of|in)\s+(?:the|this)\s+(?:trajectory|episode|recording)\b",
    r"(?:记录|轨迹|录制|episode)[^，,。]{0,4}?(?:的)?(?:最后一步|最后一个动作|最后一个操作)",
    # this very step is the last: how many are left (none) is the recording's to know; "the task's last part is
    # going home" (任务最后一步是回到主屏幕) is the goal's structure and passes
    r"(?:这|这一步|此步|本步|当前这一?步)(?:就|也|便)?是(?:[^，,。是]{0,10}的)?最后一步(?:\s*[（(]第\s*\d+\s*步[）)]?)?"
    r"|\b(?:this|that)(?:'s| is| was)(?: also)? the (?:final|last),?(?:\s+(?:second|third|fourth|fifth|sixth|seventh"
    r"|eighth|ninth|tenth|eleventh|twelfth|\d{1,2}(?:st|nd|rd|th)),?)? (?:step|action|move)\b",  # the final, eighth step
    # nothing after this step: the recording's end (Done. This is step 8 and nothing comes after it.)
    r"\b(?:nothing|no (?:more |other |further )?(?:steps?|actions?))\s+(?:comes?|follows?)"
    r"(?=\s+after\s+(?:it|this|that)\b|\s*(?:[.。;；]|$))(?:\s+after\s+(?:it|this|that))?"
    r"|(?:后面|之后|此后)(?:就)?(?:没有|再没有|不再有)(?:别的|其他|更多)?(?:步骤|步(?!行))",
    # the step by its number, said to close the task: how many there are (the sixth step closes out the task)
    r"\b(?:the|this|my)\s+(?:second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|\d{1,2}(?:st|nd|rd|th))"
    r"\s+(?:step|action|move)\s+(?:closes(?: out)?|finishes|ends|completes|wraps up|concludes|rounds off)\s+(?:the|this)\s+(?:task|job|episode|goal)\b",
    rf"(?:总步数|步数总计|总步骤数)(?:为|是|共)?\s*{ZH_NUM}{ZH_STEP}",
    r"\b(?:episode|trajectory)\s+(?:ends|is over|finishes)\b|(?:轨迹|episode)(?:就|即将)?结束",
    # the recording itself: its last recorded step, where it ends (the agent acts; only the recording knows these)
    r"\b(?:last|final|closing)\s+(?:recorded|logged|captured|demonstrated)\s+(?:step|action|move|screen|tap|click|input|frame)\b",
    r"\b(?:the|this)\s+(?:recording|demonstration|demo|log|episode|trajectory|run|session)\s+(?:(?:just|then|also|right)\s+)?"
    r"(?:ends|stops|finishes|concludes|closes|wraps up|is over|is done|is complete|ends? here)\b",
    r"\b(?:the\s+)?end\s+of\s+(?:the|this)\s+(?:recording|demonstration|demo|log|episode|trajectory)\b",
    r"\b(?:recording|demonstration|demo|log|episode|trajectory)\s+(?:ends|stops|finishes)\s+(?:here|now|right (?:here|after|there))\b",
    _RECORDING_ZH + r"(?:里|中)?的?(?:最后|最末)(?:一)?(?:步|个动作|个操作|次操作|屏|帧)",
    _RECORDING_ZH + r"(?:就|也)?(?:到此|到这里|到这儿|到这一步|就此|在这里|在此)(?:就)?(?:结束|终止|完结|为止|停止)",
)), re.I)
