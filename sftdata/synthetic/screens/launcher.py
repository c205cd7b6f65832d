"""The launcher (home screen) with the app icons of :data:`~.catalog.LAUNCHER`."""
from __future__ import annotations

from .art import gradient, icon, tint
from .canvas import Screen
from .catalog import LAUNCHER
from .style import BLUE, GREY, WHITE

LAUNCHER_PKG = "com.google.android.apps.nexuslauncher"


def home(st, size, status):
    """The home screen: wallpaper, date, app icons and search bar; the same for every ``st``.

    >>> from .state import State
    >>> home(State(), (270, 600), ("9:41", 85, "AM")).keys["app:相册"].text
    '相册'
    """
    s = Screen(size, LAUNCHER_PKG, status=status, light=True)
    s.paste(gradient((s.w, s.h), (32, 58, 96), (173, 120, 160)), (0, 0))
    ws = s.add(s.root, "android.widget.ScrollView", (0, s.top, s.w, s.bottom), flags={"scrollable"},
               rid=f"{LAUNCHER_PKG}:id/workspace")
    s.label(ws, s.p(80), s.top + s.p(140), "6月12日 星期三", 56, WHITE, rid=f"{LAUNCHER_PKG}:id/date")
    s.label(ws, s.p(80), s.top + s.p(230), "28°C  晴 Sunny", 40, tint(BLUE, .8))
    col = s.w // 4
    for i, (name, _, color, kind) in enumerate(LAUNCHER):
        y = s.bottom - s.p(1150) + (i // 4) * s.p(300) if i < 8 else s.bottom - s.p(560)
        x = (i % 4) * col
        d = s.p(150)
        s.ellipse((x + (col - d) // 2, y, x + (col + d) // 2, y + d), fill=color)
        icon(s, kind, (x + (col - d) // 2 + d // 4, y + d // 4, x + (col + d) // 2 - d // 4, y + d - d // 4), WHITE)
        if i < 8:
            s.text(x + col // 2, y + d + s.p(45), name, 36, WHITE, anchor="mm")
        s.add(ws, "TextView", (x + s.p(10), y - s.p(10), x + col - s.p(10), y + d + s.p(80 if i < 8 else 20)),
              f"app:{name}", flags={"clickable", "long_clickable", "focusable"}, text=name, desc=name)
    bar = (s.p(50), s.bottom - s.p(230), s.w - s.p(50), s.bottom - s.p(90))
    s.rect(bar, fill=(240, 240, 245), r=s.p(70))
    s.text(bar[0] + s.p(70), (bar[1] + bar[3]) // 2, "G", 56, BLUE, bold=True, anchor="mm")
    s.text(bar[0] + s.p(130), (bar[1] + bar[3]) // 2, "搜索 Search", 40, GREY)
    s.add(ws, "FrameLayout", bar, "launcher_search", flags={"clickable"}, desc="Google 搜索 Search")
    return s
