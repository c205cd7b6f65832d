"""The Settings app (English UI): a searchable list of rows with switches, and a few sub pages."""
from __future__ import annotations

from .art import icon
from .canvas import Screen
from .catalog import SETTINGS_ROWS, SUBPAGES
from .style import BLUE, GREY, PALETTE, WHITE

SETTINGS = "com.android.settings"


def _switch(s, box, on):
    l, t, r, b = box
    h = b - t
    s.rect(box, fill=BLUE if on else (218, 220, 224), r=h // 2)
    d, cx = h - s.p(14), (r - h // 2) if on else (l + h // 2)
    s.ellipse((cx - d // 2, t + h // 2 - d // 2, cx + d // 2, t + h // 2 + d // 2), fill=WHITE)


def _settings_row(s, parent, box, i, title, summary, on):
    l, t, r, b = box
    switch = summary is None
    checked = {"checkable"} | ({"checked"} if on else set()) if switch else set()
    row = s.add(parent, "LinearLayout", box, f"set:{title}", flags={"clickable", "focusable"} | checked)
    cy, d, x = (t + b) // 2, s.p(96), l + s.p(190)
    ib = (l + s.p(48), cy - d // 2, l + s.p(48) + d, cy + d // 2)
    s.ellipse(ib, fill=PALETTE[i % len(PALETTE)])
    s.text((ib[0] + ib[2]) // 2, cy, title[0], 44, WHITE, True, anchor="mm")
    s.add(row, "ImageView", ib, rid="android:id/icon")
    right = r - (s.p(200) if switch else s.p(48))
    s.label(row, x, cy - s.p(30), title, 44, max_w=right - x, rid="android:id/title")
    s.label(row, x, cy + s.p(34), ("On" if on else "Off") if switch else summary, 34, GREY, max_w=right - x,
            rid="android:id/summary")
    if switch:
        sw = (r - s.p(170), cy - s.p(36), r - s.p(50), cy + s.p(36))
        _switch(s, sw, on)
        s.add(row, "Switch", sw, flags=checked, rid="android:id/switch_widget")


def page(st, size, status):
    """The Settings list, or the sub page of row ``st.index`` when ``st.page == "sub"``; switches named in
    ``st.toggles`` are on.

    >>> from .state import State
    >>> page(State("settings", "home"), (270, 600), ("9:41", 85, "AM")).keys["set:Bluetooth"].children[1].text
    'Bluetooth'
    """
    s = Screen(size, SETTINGS, bg=(248, 249, 252), status=status)
    p, sub = s.p, st.page == "sub"
    title = SETTINGS_ROWS[st.index][0] if sub else "Settings"
    rows = SUBPAGES.get(title, [("Advanced", "More options"), ("Reset", "Restore defaults")]) if sub else SETTINGS_ROWS
    y = s.top
    if sub:
        s.button(s.root, (p(20), y + p(20), p(140), y + p(140)), "Navigate up", "back", key="back")
    s.label(s.root, p(60), y + p(250), title, 80, rid=f"{SETTINGS}:id/collapsing_toolbar")
    y += p(360)
    if not sub:
        box = (p(40), y, s.w - p(40), y + p(130))
        s.rect(box, fill=(232, 240, 254), r=p(65))
        icon(s, "search", (box[0] + p(45), box[1] + p(40), box[0] + p(95), box[1] + p(90)), GREY)
        s.text(box[0] + p(130), (box[1] + box[3]) // 2, "Search settings", 42, GREY)
        s.add(s.root, "TextView", box, "search", flags={"clickable"}, text="Search settings",
              rid=f"{SETTINGS}:id/search_action_bar")
        y += p(170)
    items = [(190, lambda par, b, i=i, row=row: _settings_row(s, par, b, i, row[0], row[1], row[0] in st.toggles))
             for i, row in enumerate(rows)]
    s.vlist(s.root, (0, y, s.w, s.bottom), items, st.scroll, rid="recycler_view")
    return s
