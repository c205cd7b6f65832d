"""The messages app: conversation list (long press selects, delete dialog) and a chat with a compose field."""
from __future__ import annotations

from PIL import Image

from .art import icon, keyboard
from .canvas import Screen
from .catalog import CONVOS
from .style import BLACK, BLUE, GREY, INK, PALETTE, WHITE, font

MESSAGES = "com.sample.messages"


def _avatar(s, box, name, checked=False):
    s.ellipse(box, fill=BLUE if checked else PALETTE[sum(map(ord, name)) % len(PALETTE)])
    if checked:
        pad = (box[2] - box[0]) // 4
        icon(s, "check", (box[0] + pad, box[1] + pad, box[2] - pad, box[3] - pad), WHITE)
    else:
        s.text((box[0] + box[2]) // 2, (box[1] + box[3]) // 2, name[0], 44, WHITE, anchor="mm")


def _conv_row(s, parent, box, i, selected):
    l, t, r, b = box
    name, snippet, when = CONVOS[i]
    if selected:
        s.rect(box, fill=(232, 240, 254))
    row = s.add(parent, "LinearLayout", box, f"conv:{i}", flags={"clickable", "long_clickable", "focusable"} |
                ({"selected"} if selected else set()), rid=f"{MESSAGES}:id/conversation")
    cy, d = (t + b) // 2, s.p(110)
    ab = (l + s.p(40), cy - d // 2, l + s.p(40) + d, cy + d // 2)
    _avatar(s, ab, name, selected)
    s.add(row, "ImageView", ab, desc=f"{name} 的头像")
    x, unread = l + s.p(190), i < 3
    s.label(row, x, cy - s.p(32), name, 44, bold=unread, max_w=r - x - s.p(200))
    s.label(row, x, cy + s.p(34), snippet, 36, INK if unread else GREY, max_w=r - x - s.p(120))
    s.label(row, r - s.p(40), cy - s.p(32), when, 32, BLUE if unread else GREY, anchor="rm")
    if unread:
        s.ellipse((r - s.p(70), cy + s.p(22), r - s.p(46), cy + s.p(46)), fill=BLUE)


def inbox(st, size, status):
    """The conversation list (``st.selected`` rows selected, ``st.removed`` gone, ``st.dialog``: delete?).

    >>> from .state import State
    >>> inbox(State("messages", "list"), (270, 600), ("9:41", 85, "AM")).keys["conv:0"].cls
    'android.widget.LinearLayout'
    """
    s = Screen(size, MESSAGES, status=status)
    p, y = s.p, s.top
    if st.selected:
        s.rect((0, y, s.w, y + p(160)), fill=(232, 240, 254))
        s.button(s.root, (p(20), y + p(20), p(140), y + p(140)), "取消", "close", key="close")
        s.label(s.root, p(170), y + p(80), str(len(st.selected)), 48)
        s.button(s.root, (s.w - p(270), y + p(20), s.w - p(150), y + p(140)), "归档", "archive", key="archive")
        s.button(s.root, (s.w - p(140), y + p(20), s.w - p(20), y + p(140)), "删除", "delete", key="delete")
    else:
        s.label(s.root, s.w // 2, y + p(80), "信息", 52, anchor="mm")
        s.button(s.root, (s.w - p(270), y + p(20), s.w - p(150), y + p(140)), "搜索对话", "search", GREY, key="search")
        s.ellipse((s.w - p(125), y + p(35), s.w - p(35), y + p(125)), fill=(123, 31, 162))
        s.text(s.w - p(80), y + p(80), "L", 44, WHITE, anchor="mm")
        s.add(s.root, "ImageView", (s.w - p(125), y + p(35), s.w - p(35), y + p(125)), flags={"clickable"},
              desc="账号 Account")
    y += p(160)
    items = [(200, lambda par, b, i=i: _conv_row(s, par, b, i, i in st.selected))
             for i in range(len(CONVOS)) if i not in st.removed]
    s.vlist(s.root, (0, y, s.w, s.bottom), items, st.scroll, rid="conversation_list")
    fab = (s.w - p(420), s.bottom - p(210), s.w - p(50), s.bottom - p(60))
    s.rect(fab, fill=(211, 227, 253), r=p(45))
    icon(s, "chat", (fab[0] + p(40), fab[1] + p(45), fab[0] + p(100), fab[1] + p(105)), INK)
    s.label(s.root, fab[0] + p(130), (fab[1] + fab[3]) // 2, "开始聊天", 40, key="fab", flags={"clickable"})
    if st.dialog:
        s.img.paste(Image.blend(s.img, Image.new("RGB", s.img.size, BLACK), .45))
        box = (p(80), s.h // 2 - p(260), s.w - p(80), s.h // 2 + p(220))
        s.rect(box, fill=(242, 244, 250), r=p(50))
        dlg = s.window(5, MESSAGES, box)
        s.label(dlg, box[0] + p(70), box[1] + p(110), "删除此对话？", 52)
        s.label(dlg, box[0] + p(70), box[1] + p(220), "Delete this conversation? 无法撤消", 38, GREY)
        for key, text, x in (("dialog_cancel", "取消", box[2] - p(420)), ("dialog_ok", "删除", box[2] - p(200))):
            s.label(dlg, x, box[3] - p(100), text, 42, BLUE, True, key=key, cls="Button", flags={"clickable"})
    return s


def _wrap(text: str, f, width: int) -> list[str]:
    lines, cur = [], ""
    for ch in text:
        if f.getlength(cur + ch) > width and cur:
            cut = cur.rfind(" ") if ch != " " and " " in cur and cur.isascii() else -1
            lines.append(cur[:cut] if cut > 0 else cur)
            cur = (cur[cut + 1:] if cut > 0 else "") + ch
        else:
            cur += ch
    return lines + [cur] if cur else lines


def chat(st, size, status):
    """The chat with ``CONVOS[st.index]``: bubbles, compose field (``st.draft``), keyboard while ``st.typing``.

    >>> from .state import State
    >>> chat(State("messages", "chat", typing=True), (270, 600), ("9:41", 85, "AM")).keys["compose"].hint
    '短信 Text message'
    """
    s = Screen(size, MESSAGES, status=status)
    p, (name, snippet, when) = s.p, CONVOS[st.index]
    bottom = keyboard(s, "enter") if st.typing else s.bottom
    y = s.top
    s.button(s.root, (p(20), y + p(20), p(140), y + p(140)), "返回", "back", key="back")
    _avatar(s, (p(160), y + p(35), p(250), y + p(125)), name)
    s.label(s.root, p(280), y + p(80), name, 46, max_w=s.w - p(600))
    s.button(s.root, (s.w - p(270), y + p(20), s.w - p(150), y + p(140)), "语音通话", "phone", key="call")
    s.button(s.root, (s.w - p(140), y + p(20), s.w - p(20), y + p(140)), "更多选项", "more")
    comp = bottom - p(170)
    field_box = (p(130), comp + p(25), s.w - p(160), comp + p(145))
    s.button(s.root, (p(15), comp + p(30), p(125), comp + p(140)), "添加附件", "plus", BLUE)
    s.rect(field_box, fill=(241, 243, 244), r=p(60))
    tb = s.text(field_box[0] + p(50), (field_box[1] + field_box[3]) // 2, st.draft or "短信 Text message", 40,
                INK if st.draft else GREY, max_w=field_box[2] - field_box[0] - p(100))
    if st.typing:
        x = tb[2] + p(6) if st.draft else field_box[0] + p(50)
        s.line((x, field_box[1] + p(30), x, field_box[3] - p(30)), BLUE, max(2, p(4)))
    s.add(s.root, "EditText", field_box, "compose",
          flags={"clickable", "editable", "focusable"} | ({"focused"} if st.typing else set()), text=st.draft,
          hint="" if st.draft else "短信 Text message", desc="短信输入框",
          rid=f"{MESSAGES}:id/compose_message_text")
    sb = (s.w - p(140), comp + p(30), s.w - p(30), comp + p(140))
    s.ellipse(sb, fill=BLUE if st.draft else (218, 220, 224))
    icon(s, "send", (sb[0] + p(30), sb[1] + p(28), sb[2] - p(26), sb[3] - p(28)), WHITE)
    s.add(s.root, "ImageButton", sb, "send", flags={"clickable"}, desc="发送短信 Send SMS")
    area = s.add(s.root, "androidx.recyclerview.widget.RecyclerView", (0, y + p(160), s.w, comp), flags={"scrollable"},
                 rid=f"{MESSAGES}:id/messages_list")
    f = font(p(40))
    by = comp - p(30)
    for side, text in reversed([("out", "在吗？"), ("in", snippet)] + [("out", m) for m in st.sent]):
        lines = _wrap(text, f, s.p(700))
        h = len(lines) * p(56) + p(50)
        w = max(int(f.getlength(line)) for line in lines) + p(70)
        x0 = s.w - p(40) - w if side == "out" else p(40)
        box = (x0, by - h, x0 + w, by)
        s.rect(box, fill=BLUE if side == "out" else (241, 243, 244), r=p(40))
        for k, line in enumerate(lines):
            s.text(x0 + p(35), by - h + p(25) + k * p(56) + p(28), line, 40, WHITE if side == "out" else INK)
        s.add(area, "TextView", box, text=text)
        by -= h + p(24)
    s.label(area, s.w // 2, by - p(30), f"今天 {when}" if ":" in when else when, 32, GREY, anchor="mm")
    return s
