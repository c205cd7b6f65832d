"""Labels under which a reasoning lists what is not its decision, and the label of a closing decision.

A deliberating writer lays out the task, the steps so far or the options under a label of their own (``目标：…``,
``回顾一下：…``, ``Options: …``, ``比较一下：…``, ``There are two ways: …``): what follows names actions it does not take
now. Its closing choice often stands under a label too (``决定：往上滑一屏``, ``Final answer: …``, ``→ 左滑``): that one
is the decision. :mod:`.decision` reads these.

>>> bool(OPTIONS_LABEL.match("比较一下：等待稳但慢，点击快")), bool(TASK_LABEL.match("回顾一下：打开商城、搜运动鞋"))
(True, True)
>>> bool(CLOSING_LABEL.search("决定：")), bool(CLOSING_LABEL.search("name → email → "))
(True, False)
"""
from __future__ import annotations

import re

# the steps listed as all done (``打开相册、翻几张、回主屏幕，三件事都做完了``): history, not a decision
LIST_DONE = re.compile(r"[，,]\s*(?:这|那)?[一二两三四五几\d]*\s*(?:件事|步|项|个)?(?:都|全都?|全部)(?:已经?)?(?:做完|完成|搞定|办完|做了|做过了|弄完|齐了)")
# the task restated or the steps so far recounted under a label of their own (目标：…, 回顾：…, Done so far: …)
TASK_LABEL = re.compile(r"[\s\-–—*•\d.)）、]*(?:目标|任务|(?:回顾|总结|复盘)(?:一下)?|已做|已完成|进展|历史|\b(?:goal|task|recap|progress|history"
                        r"|(?:done )?so far))\s*[：:]", re.I)
# the options weighed, under a label of their own (Options: …, 选项：…, 两个办法：…): what could be done, not the decision
OPTIONS_LABEL = re.compile(r"[\s\-–—*•]*(?:(?:my|the|possible|available|some)\s+)?\b(?:options?|alternatives|choices|possible actions"
                           r"|candidates)\s*(?:here|now|are|on screen)?\s*[:：]|[\s\-–—*•]*(?:可选(?:项|的操作|操作)?|选项|候选"
                           r"|(?:[两二三几]|\d)\s*(?:个|种)(?:办法|方案|做法|选择|选项|思路)|(?:比较|对比|权衡)一下)\s*[:：]"
                           r"|[^:：。\n]{0,8}?(?:可选|可走|能走|能选|可用|可行)的?(?:路子?|路线|办法|方案|做法|选择|选项|思路|途径|方式|方法|操作|动作)"
                           r"(?:有|是)?[^:：。\n]{0,6}?[:：]"  # 可选的路子有：…
                           r"|[^:：。\n]{0,12}?有\s*(?:[两二三几]|\d)\s*(?:条|种|个)(?:路|办法|方案|做法|选择|选项|思路|途径|方式|方法)?\s*[:：]"
                           r"|[^:：.\n]{0,20}?\b(?:there are|i have|i see|i've got)\s+(?:two|three|four|a few|several|\d)\s+"
                           r"(?:ways|options|routes|paths|choices|approaches)\b[^:：.\n]{0,20}[:：]", re.I)
# the decision under a label of its own, in the clause before it (``决定：往上滑一屏``, ``Final answer: tap …``, ``→ 点相册``)
CLOSING_LABEL = re.compile(r"(?:决定|结论|最终|最后|\b(?:decision|final answer|answer|conclusion|verdict))\s*[:：]\s*$|(?:^|[\n。.!?！？])\s*(?:→|=>|->)\s*$",
                           re.I)
# a closing line that says the decision again (``Action: …``, ``决定：点输入框``, ``→ tap 耳机``): it decides nothing new
CLOSING_LINE = re.compile(r"(?:^|(?<=[.。!?！？\n]))[ \t]*(?:\**(?:action|decision|final answer)\**[ \t]*[:：]|(?:决定|动作|操作)[ \t]*[:：]"
                          r"|→|=>)[^\n]*$", re.I)
# options asked as a question (``是直接点第一个，还是先往下翻看看？``): what could be done, not the answer
ALTERNATIVES = re.compile(r"还是|或者|\bor\b")

__all__ = ["ALTERNATIVES", "CLOSING_LABEL", "CLOSING_LINE", "LIST_DONE", "OPTIONS_LABEL", "TASK_LABEL"]
