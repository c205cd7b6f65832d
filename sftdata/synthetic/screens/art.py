"""Pictures drawn on a :class:`~.canvas.Screen`: line icons, product illustrations, gallery photos, Gboard.

>>> from .canvas import Screen
>>> s = Screen((270, 600), "com.example")
>>> keyboard(s) < s.bottom, photo(3, 40, 30).size
(True, (40, 30))
"""
from __future__ import annotations

import functools
import math
import random
from typing import TYPE_CHECKING

from PIL import Image, ImageDraw

from .style import BLUE, GREY, INK, WHITE

if TYPE_CHECKING:
    from .canvas import Screen

IME_PKG = "com.google.android.inputmethod.latin"


def icon(s: Screen, kind: str, box, color) -> None:
    """Draw pictogram ``kind`` (search, back, close, more, cart, share, delete, send, check, plus, star, home,
    user, camera, photo, archive, grid, chat, phone, gear, play, chevron) into ``box``.

    >>> from .canvas import Screen
    >>> icon(Screen((270, 600), "com.example"), "search", (10, 10, 40, 40), GREY)
    """
    l, t, r, b = box
    w, cx, cy, lw = r - l, (l + r) / 2, (t + b) / 2, max(2, s.p(7))
    if kind == "search":
        s.ellipse((l + w * .1, t + w * .1, l + w * .66, t + w * .66), outline=color, width=lw)
        s.line((l + w * .6, t + w * .6, r - w * .08, b - w * .08), color, lw)
    elif kind in ("back", "close"):
        if kind == "back":
            s.line((l + w * .15, cy, r - w * .1, cy), color, lw)
            s.line((l + w * .45, t + w * .2, l + w * .15, cy, l + w * .45, b - w * .2), color, lw)
        else:
            s.line((l + w * .2, t + w * .2, r - w * .2, b - w * .2), color, lw)
            s.line((l + w * .2, b - w * .2, r - w * .2, t + w * .2), color, lw)
    elif kind == "more":
        for dy in (-.3, 0, .3):
            s.ellipse((cx - w * .07, cy + dy * w - w * .07, cx + w * .07, cy + dy * w + w * .07), fill=color)
    elif kind == "cart":
        s.line((l, t + w * .15, l + w * .2, t + w * .15, l + w * .32, t + w * .68, r - w * .1, t + w * .68,
                r, t + w * .3, l + w * .24, t + w * .3), color, lw)
        for x in (.38, .8):
            s.ellipse((l + w * x - w * .08, b - w * .2, l + w * x + w * .08, b - w * .04), fill=color)
    elif kind == "share":
        pts = [(r - w * .2, t + w * .18), (l + w * .2, cy), (r - w * .2, b - w * .18)]
        s.line((*pts[0], *pts[1], *pts[2]), color, lw)
        for x, y in pts:
            s.ellipse((x - w * .13, y - w * .13, x + w * .13, y + w * .13), fill=color)
    elif kind == "delete":
        s.line((l + w * .1, t + w * .2, r - w * .1, t + w * .2), color, lw)
        s.rect((l + w * .38, t + w * .05, r - w * .38, t + w * .2), outline=color, width=lw)
        s.rect((l + w * .2, t + w * .25, r - w * .2, b), outline=color, width=lw)
    elif kind == "send":
        s.poly([(l + w * .1, t + w * .1), (r - w * .05, cy), (l + w * .1, b - w * .1), (l + w * .25, cy)], fill=color)
    elif kind == "check":
        s.line((l + w * .15, cy, l + w * .42, b - w * .22, r - w * .12, t + w * .25), color, lw)
    elif kind == "plus":
        s.line((cx, t + w * .1, cx, b - w * .1), color, lw)
        s.line((l + w * .1, cy, r - w * .1, cy), color, lw)
    elif kind == "star":
        pts = [(cx + w * (.48 if i % 2 == 0 else .2) * math.sin(i * math.pi / 5),
                cy - w * (.48 if i % 2 == 0 else .2) * math.cos(i * math.pi / 5)) for i in range(10)]
        s.poly(pts, fill=color)
    elif kind == "home":
        s.line((l + w * .1, cy, cx, t + w * .12, r - w * .1, cy), color, lw)
        s.rect((l + w * .22, cy, r - w * .22, b - w * .08), outline=color, width=lw)
    elif kind == "user":
        s.ellipse((cx - w * .2, t + w * .05, cx + w * .2, t + w * .45), outline=color, width=lw)
        s.arc((l + w * .1, t + w * .55, r - w * .1, b + w * .4), 180, 360, color, lw)
    elif kind in ("camera", "photo", "archive", "grid", "chat", "phone"):
        s.rect((l + w * .08, t + w * .2, r - w * .08, b - w * .15), outline=color, width=lw, r=s.p(6))
        if kind == "camera":
            s.ellipse((cx - w * .17, cy - w * .12, cx + w * .17, cy + w * .22), outline=color, width=lw)
        elif kind == "photo":
            s.poly([(l + w * .15, b - w * .2), (l + w * .4, cy), (l + w * .6, b - w * .3), (r - w * .15, b - w * .2)],
                   fill=color)
        elif kind == "archive":
            s.line((l + w * .08, t + w * .4, r - w * .08, t + w * .4), color, lw)
        elif kind == "grid":
            s.line((cx, t + w * .2, cx, b - w * .15), color, lw)
            s.line((l + w * .08, cy, r - w * .08, cy), color, lw)
        elif kind == "chat":
            s.poly([(l + w * .2, b - w * .16), (l + w * .2, b), (l + w * .4, b - w * .16)], fill=color)
    elif kind == "gear":
        s.ellipse((l + w * .1, t + w * .1, r - w * .1, b - w * .1), outline=color, width=lw * 2)
        s.ellipse((cx - w * .12, cy - w * .12, cx + w * .12, cy + w * .12), fill=color)
    elif kind == "play":
        s.poly([(l + w * .3, t + w * .2), (r - w * .2, cy), (l + w * .3, b - w * .2)], fill=color)
    elif kind == "chevron":
        s.line((l + w * .35, t + w * .2, r - w * .35, cy, l + w * .35, b - w * .2), color, lw)


def tint(color, amount: float):
    """``color`` moved ``amount`` (0..1) of the way to white.

    >>> tint((0, 100, 255), .5)
    (127, 177, 255)
    """
    return tuple(int(c + (255 - c) * amount) for c in color)


def gradient(size: tuple[int, int], top, bottom) -> Image.Image:
    """A vertical gradient image from ``top`` to ``bottom`` colour.

    >>> im = gradient((4, 8), (0, 0, 0), (255, 255, 255))
    >>> im.getpixel((0, 0))[0] < 128 < im.getpixel((0, 7))[0]
    True
    """
    mask = Image.linear_gradient("L").resize(size)
    return Image.composite(Image.new("RGB", size, bottom), Image.new("RGB", size, top), mask)


@functools.lru_cache(maxsize=128)
def photo(seed: int, w: int, h: int) -> Image.Image:
    """A landscape picture (sky, sun, hills, maybe water) for the gallery; the same for the same seed.

    >>> photo(1, 60, 40).size
    (60, 40)
    """
    rng = random.Random(seed)
    skies = [((255, 183, 77), (255, 236, 179)), ((79, 195, 247), (225, 245, 254)), ((63, 81, 181), (244, 143, 177)),
             ((0, 150, 136), (200, 230, 201)), ((38, 50, 56), (120, 144, 156))]
    top, bottom = rng.choice(skies)
    im = gradient((w, h), top, bottom)
    d = ImageDraw.Draw(im)
    sx, sy, sr = rng.uniform(.2, .8) * w, rng.uniform(.15, .4) * h, rng.uniform(.06, .12) * w
    d.ellipse((sx - sr, sy - sr, sx + sr, sy + sr), fill=rng.choice([(255, 241, 118), (255, 255, 255), (255, 112, 67)]))
    for layer in range(3):
        base = h * (.55 + .12 * layer)
        pts = [(0, h)] + [(x * w / 6, base - rng.uniform(0, .25) * h) for x in range(7)] + [(w, h)]
        shade = 40 + 35 * layer
        d.polygon(pts, fill=(shade // 2, shade + 40 - 20 * (layer == 2), shade // 2 + 20))
    if rng.random() < .4:
        d.rectangle((0, h * .85, w, h), fill=tint(top, .3))
    return im


def product_art(s: Screen, box, kind: str, color) -> None:
    """A flat product illustration (earbuds, phone, cup, shoe, keyboard, else a bag) on a tinted square.

    >>> from .canvas import Screen
    >>> product_art(Screen((270, 600), "com.example"), (0, 200, 100, 300), "cup", (228, 30, 38))
    """
    s.rect(box, fill=tint(color, .82), r=s.p(18))
    l, t, r, b = box
    w, cx, cy = r - l, (l + r) / 2, (t + b) / 2
    if kind == "earbuds":
        for dx in (-.18, .18):
            s.ellipse((cx + dx * w - w * .12, cy - w * .22, cx + dx * w + w * .12, cy + w * .02), fill=color)
            s.rect((cx + dx * w - w * .04, cy, cx + dx * w + w * .04, cy + w * .28), fill=color, r=s.p(6))
    elif kind == "phone":
        s.rect((cx - w * .2, t + w * .1, cx + w * .2, b - w * .1), fill=(40, 40, 45), r=s.p(14))
        s.rect((cx - w * .16, t + w * .15, cx + w * .16, b - w * .15), fill=color, r=s.p(8))
    elif kind == "cup":
        s.rect((cx - w * .15, t + w * .25, cx + w * .15, b - w * .1), fill=color, r=s.p(10))
        s.rect((cx - w * .17, t + w * .15, cx + w * .17, t + w * .25), fill=(60, 60, 60), r=s.p(6))
    elif kind == "shoe":
        s.poly([(l + w * .12, cy), (l + w * .4, cy - w * .05), (l + w * .55, cy - w * .22), (l + w * .68, cy - w * .2),
                (r - w * .1, cy + w * .1), (r - w * .1, cy + w * .2), (l + w * .12, cy + w * .2)], fill=color)
    elif kind == "keyboard":
        s.rect((l + w * .1, cy - w * .18, r - w * .1, cy + w * .18), fill=(50, 50, 55), r=s.p(8))
        for row in range(3):
            for col in range(6):
                x, y = l + w * (.15 + col * .12), cy - w * .13 + row * w * .09
                s.rect((x, y, x + w * .08, y + w * .06), fill=color)
    else:  # bag
        s.arc((cx - w * .14, t + w * .12, cx + w * .14, t + w * .4), 180, 360, color, max(2, s.p(8)))
        s.rect((cx - w * .25, t + w * .26, cx + w * .25, b - w * .12), fill=color, r=s.p(16))


def keyboard(s: Screen, action: str = "search") -> int:
    """Draw Gboard in its own window above the gesture bar; returns its top (the app's new bottom).
    ``action`` is the enter key: ``"search"`` or ``"enter"``. See the module example."""
    top = s.bottom - s.p(720)
    s.rect((0, top, s.w, s.bottom), fill=(232, 234, 237))
    kb = s.window(2, IME_PKG, (0, top, s.w, s.bottom), rid=f"{IME_PKG}:id/keyboard_holder")
    kw, kh, gap = s.p(98), s.p(130), s.p(10)
    rows = ["qwertyuiop", "asdfghjkl", "zxcvbnm"]
    for r, keys in enumerate(rows):
        y = top + s.p(40) + r * (kh + s.p(28))
        x0 = (s.w - len(keys) * (kw + gap) + gap) // 2
        for i, ch in enumerate(keys):
            box = (x0 + i * (kw + gap), y, x0 + i * (kw + gap) + kw, y + kh)
            s.rect(box, fill=WHITE, r=s.p(14))
            s.text((box[0] + box[2]) // 2, (box[1] + box[3]) // 2, ch, 46, anchor="mm")
            s.add(kb, "android.view.View", box, desc=ch, flags={"clickable"})
    y = top + s.p(40) + 3 * (kh + s.p(28))
    specials = [("?123", s.p(160), "符号", None), (",", kw, ",", None), ("中文 / EN", s.p(440), "空格", None),
                (".", kw, ".", None), ("", s.p(160), "搜索" if action == "search" else "换行", action)]
    x = (s.w - sum(w for _, w, _, _ in specials) - gap * 4) // 2
    for text, w, desc, kind in specials:
        box = (x, y, x + w, y + kh)
        key_bg = WHITE if text in (",", ".") or "EN" in text else (208, 212, 217)
        s.rect(box, fill=BLUE if kind else key_bg, r=s.p(14))
        if kind:
            pad = s.p(38)
            icon(s, "search" if kind == "search" else "check", (box[0] + (w - kh) // 2 + pad, y + pad,
                 box[0] + (w + kh) // 2 - pad, y + kh - pad), WHITE)
        else:
            s.text(x + w // 2, y + kh // 2, text, 36, GREY if "EN" in text else INK, anchor="mm")
        s.add(kb, "android.view.View", box, "ime_action" if kind else None, desc=desc, flags={"clickable"})
        x += w + gap
    return top
