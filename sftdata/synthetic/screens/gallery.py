"""The gallery app: a photo grid with selection, and a horizontally paged photo viewer."""
from __future__ import annotations

from .art import icon, photo
from .canvas import Screen
from .catalog import N_PHOTOS
from .style import BLACK, BLUE, GREY, LINE, WHITE

GALLERY = "com.sample.gallery"


def photo_date(i: int) -> str:
    """When photo ``i`` was taken (newest first).

    >>> photo_date(0)
    '6月12日 8:00'
    """
    return f"6月{12 - i // 4}日 {8 + (i * 7) % 12}:{(i * 17) % 60:02d}"


def grid(st, size, status):
    """The photo grid (selection mode when ``st.selected`` is not empty).

    >>> from .state import State
    >>> grid(State("gallery", "grid"), (270, 600), ("9:41", 85, "AM")).keys["photo:0"].desc
    '照片，6月12日 8:00'
    """
    s = Screen(size, GALLERY, status=status)
    p, y, sel = s.p, s.top, st.selected
    if sel:
        s.rect((0, y, s.w, y + p(160)), fill=(232, 240, 254))
        s.button(s.root, (p(20), y + p(20), p(140), y + p(140)), "取消选择", "close", key="close")
        s.label(s.root, p(170), y + p(80), f"已选择 {len(sel)} 项", 46)
        s.button(s.root, (s.w - p(270), y + p(20), s.w - p(150), y + p(140)), "分享", "share", key="share")
        s.button(s.root, (s.w - p(140), y + p(20), s.w - p(20), y + p(140)), "删除", "delete", key="delete")
    else:
        s.label(s.root, s.w // 2, y + p(80), "相册 Photos", 52, anchor="mm")
        s.button(s.root, (p(20), y + p(20), p(140), y + p(140)), "搜索照片", "search", GREY, key="search")
        s.button(s.root, (s.w - p(140), y + p(20), s.w - p(20), y + p(140)), "账号 Account", "user", GREY)
    y += p(160)
    nav = s.bottom - p(180)
    gap = p(6)
    tw = (s.w - 2 * gap) // 3

    def row(par, box, r):
        for c in range(3):
            i = r * 3 + c
            tb = (c * (tw + gap), box[1], c * (tw + gap) + tw, box[1] + tw)
            inset = p(30) if i in sel else 0
            s.paste(photo(i, tw - 2 * inset, tw - 2 * inset), (tb[0] + inset, tb[1] + inset))
            if sel:
                cb = (tb[0] + p(20), tb[1] + p(20), tb[0] + p(80), tb[1] + p(80))
                s.ellipse(cb, fill=BLUE if i in sel else None, outline=WHITE, width=max(2, p(5)))
                if i in sel:
                    icon(s, "check", (cb[0] + p(10), cb[1] + p(10), cb[2] - p(10), cb[3] - p(10)), WHITE)
            s.add(par, "ImageView", tb, f"photo:{i}", desc=f"照片，{photo_date(i)}",
                  flags={"clickable", "long_clickable"} | ({"checkable"} if sel else set())
                  | ({"checked"} if i in sel else set()))

    items = [(110, lambda par, b: s.label(par, p(40), b[1] + p(55), "最近 Recent · 6月", 40, bold=True))]
    items += [(round((tw + gap) / s.k), lambda par, b, r=r: row(par, b, r)) for r in range(N_PHOTOS // 3)]
    s.vlist(s.root, (0, y, s.w, nav), items, st.scroll, rid="photo_grid")
    s.line((0, nav, s.w, nav), LINE, 1)
    for i, (name, kind) in enumerate([("照片 Photos", "photo"), ("搜索 Search", "search"), ("影集 Library", "grid")]):
        cx, c = s.w * (2 * i + 1) // 6, BLUE if i == 0 else GREY
        icon(s, kind, (cx - p(35), nav + p(25), cx + p(35), nav + p(95)), c)
        s.text(cx, nav + p(135), name, 30, c, anchor="mm")
        s.add(s.root, "FrameLayout", (cx - p(160), nav, cx + p(160), s.bottom),
              flags={"clickable"} | ({"selected"} if i == 0 else set()), desc=name)
    return s


def viewer(st, size, status):
    """The full-screen viewer of photo ``st.index`` (a horizontal pager).

    >>> from .state import State
    >>> viewer(State("gallery", "viewer", index=4), (270, 600), ("9:41", 85, "AM")).keys["pager"].cls
    'androidx.viewpager.widget.ViewPager'
    """
    s = Screen(size, GALLERY, bg=BLACK, status=status, light=True)
    p, y = s.p, s.top
    s.button(s.root, (p(20), y + p(20), p(140), y + p(140)), "返回", "back", WHITE, key="back")
    s.label(s.root, p(170), y + p(80), photo_date(st.index), 40, WHITE)
    s.label(s.root, s.w - p(170), y + p(80), f"{st.index + 1} / {N_PHOTOS}", 34, (189, 193, 198), anchor="rm")
    s.button(s.root, (s.w - p(140), y + p(20), s.w - p(20), y + p(140)), "更多选项", "more", WHITE)
    bar = s.bottom - p(200)
    pager = s.add(s.root, "androidx.viewpager.widget.ViewPager", (0, y + p(160), s.w, bar), "pager",
                  flags={"scrollable"}, rid=f"{GALLERY}:id/photo_pager")
    ph = min(s.w * 4 // 3, bar - y - p(160))
    pt = (y + p(160) + bar) // 2 - ph // 2
    s.paste(photo(st.index, s.w, ph), (0, pt))
    s.add(pager, "ImageView", (0, pt, s.w, pt + ph), "photo", flags={"clickable", "long_clickable"},
          desc=f"照片 {st.index + 1}/{N_PHOTOS}，{photo_date(st.index)}")
    for i, (name, kind) in enumerate([("分享", "share"), ("编辑", "grid"), ("收藏", "star"), ("删除", "delete")]):
        cx = s.w * (2 * i + 1) // 8
        icon(s, kind, (cx - p(35), bar + p(30), cx + p(35), bar + p(100)), WHITE)
        s.text(cx, bar + p(145), name, 30, WHITE, anchor="mm")
        s.add(s.root, "ImageButton", (cx - p(100), bar, cx + p(100), s.bottom), f"viewer:{name}",
              flags={"clickable"}, desc=name)
    return s
