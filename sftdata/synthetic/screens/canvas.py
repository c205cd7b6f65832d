"""The canvas: a :class:`Screen` draws widgets with Pillow *and* records the matching accessibility
:class:`Node` with the same pixel bounds, so a screenshot and its forest always agree.

Layout is in logical pixels of a 1080-wide phone, scaled to the requested width (:meth:`Screen.p`).

>>> s = Screen((540, 1200), "com.example")
>>> s.label(s.root, s.p(60), s.p(400), "你好", 40, key="hello").text
'你好'
>>> png, forest = s.finish().encode()
>>> png[:4], len(s.windows)
(b'\\x89PNG', 3)
"""
from __future__ import annotations

import io
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Callable, Sequence

from PIL import Image, ImageDraw

from ...loaders.protos import AccessibilityForest
from .art import icon
from .style import INK, WHITE, fit, font

Box = tuple[int, int, int, int]
SYSUI_PKG = "com.android.systemui"


@dataclass
class Node:
    """One accessibility node; ``flags`` are proto field names without ``is_`` (``"visible"`` means
    ``is_visible_to_user``).

    >>> Node("android.widget.TextView", (0, 0, 10, 10), "com.example", text="Hi").text
    'Hi'
    """

    cls: str
    bounds: Box
    package: str
    text: str = ""
    desc: str = ""
    hint: str = ""
    rid: str = ""
    flags: frozenset = frozenset()
    children: list["Node"] = field(default_factory=list)


def forest_bytes(windows: Sequence[tuple[int, Node]]) -> bytes:
    """Serialize ``(window id, root)`` pairs as an AndroidAccessibilityForest (pre-order, ids unique).

    >>> root = Node("android.widget.FrameLayout", (0, 0, 10, 10), "com.example", children=[
    ...     Node("android.widget.TextView", (0, 0, 5, 5), "com.example", text="Hi")])
    >>> [n.text for n in AccessibilityForest.FromString(forest_bytes([(1, root)])).windows[0].tree.nodes]
    ['', 'Hi']
    """
    forest, uid = AccessibilityForest(), 0
    for wid, root in windows:
        win = forest.windows.add()
        win.id = wid
        order, stack = [], [(root, 0)]
        while stack:
            node, depth = stack.pop()
            order.append((node, depth))
            stack.extend((c, depth + 1) for c in reversed(node.children))
        ids = {id(n): uid + i for i, (n, _) in enumerate(order)}
        for node, depth in order:
            p = win.tree.nodes.add()
            p.unique_id, p.depth, p.class_name, p.package_name = ids[id(node)], depth, node.cls, node.package
            r = p.bounds_in_screen
            r.left, r.top, r.right, r.bottom = node.bounds
            p.text, p.content_description, p.hint_text = node.text, node.desc, node.hint
            p.view_id_resource_name = node.rid
            p.child_ids.extend(ids[id(c)] for c in node.children)
            for flag in node.flags:
                setattr(p, "is_visible_to_user" if flag == "visible" else "is_" + flag, True)
        uid += len(order)
    return forest.SerializeToString(deterministic=True)


class Screen:
    """One phone frame: Pillow drawing primitives plus :meth:`add` for nodes; ``keys`` names fully visible
    nodes for the trajectory script (``"search"``, ``"item:3"``, ...). See the module example."""

    def __init__(self, size: tuple[int, int], package: str, *, bg=WHITE, status=("9:41", 85, "AM"), light=False):
        self.w, self.h = size
        self.k = self.w / 1080
        self.img = Image.new("RGB", size, bg)
        self._target, self.ox, self.oy, self._clip = self.img, 0, 0, (0, 0, self.w, self.h)
        self._d = ImageDraw.Draw(self.img)
        self.root = Node("android.widget.FrameLayout", (0, 0, self.w, self.h), package,
                         flags=frozenset({"enabled", "visible"}))
        self.windows: list[tuple[int, Node]] = [(1, self.root)]
        self.keys: dict[str, Node] = {}
        self.status, self.light = status, light
        self.top, self.bottom = self.p(126), self.h - self.p(66)
        self.list_h, self.list_max = 0, 0  # main list viewport and scroll range, logical px

    def p(self, v: float) -> int:
        """Logical px (1080-wide phone) to screen px."""
        return int(round(v * self.k))

    # primitives, in screen coordinates (translated while drawing into a clipped layer)
    def _t(self, pts):
        flat = [v for pt in pts for v in pt] if pts and isinstance(pts[0], tuple) else pts
        return [v - (self.ox if i % 2 == 0 else self.oy) for i, v in enumerate(flat)]

    def rect(self, box, fill=None, r=0, outline=None, width=1):
        b = self._t(box)
        if b[2] > b[0] and b[3] > b[1]:
            (self._d.rounded_rectangle(b, r, fill=fill, outline=outline, width=width) if r else
             self._d.rectangle(b, fill=fill, outline=outline, width=width))

    def ellipse(self, box, fill=None, outline=None, width=1):
        self._d.ellipse(self._t(box), fill=fill, outline=outline, width=width)

    def arc(self, box, start, end, fill, width):
        self._d.arc(self._t(box), start, end, fill=fill, width=width)

    def line(self, pts, fill, width):
        self._d.line(self._t(pts), fill=fill, width=width, joint="curve")

    def poly(self, pts, fill=None, outline=None):
        self._d.polygon(self._t(pts), fill=fill, outline=outline)

    def paste(self, im: Image.Image, xy):
        self._target.paste(im, tuple(self._t(xy)))

    def text(self, x, y, s, size, fill=INK, bold=False, anchor="lm", max_w=None) -> Box:
        """Draw ``s`` (``size`` in logical px); returns its ink box in screen coordinates."""
        f = font(self.p(size), bold)
        s = fit(s, f, max_w) if max_w else s
        xy = tuple(self._t((x, y)))
        self._d.text(xy, s, font=f, fill=fill, anchor=anchor)
        l, t, r, b = self._d.textbbox(xy, s, font=f, anchor=anchor)
        return (l + self.ox, t + self.oy, r + self.ox, b + self.oy)

    @contextmanager
    def clip(self, box: Box):
        """Draw into ``box`` only (a scrolled list); nodes added meanwhile are clipped to it."""
        box = tuple(int(v) for v in box)
        saved = (self._target, self._d, self.ox, self.oy, self._clip)
        self._target = self.img.crop(box)
        self._d, self.ox, self.oy, self._clip = ImageDraw.Draw(self._target), box[0], box[1], box
        try:
            yield
        finally:
            self.img.paste(self._target, box[:2])
            self._target, self._d, self.ox, self.oy, self._clip = saved

    def add(self, parent: Node | None, cls: str, box, key: str | None = None, flags=(), **kw) -> Node | None:
        """Record a node under ``parent`` (clipped to the current clip box; None when scrolled out of view)."""
        if parent is None:
            return None
        cl, ct, cr, cb = self._clip
        box = tuple(int(v) for v in box)
        vis = (max(box[0], cl), max(box[1], ct), min(box[2], cr), min(box[3], cb))
        if vis[2] <= vis[0] or vis[3] <= vis[1]:
            return None
        node = Node(cls if "." in cls else "android.widget." + cls, vis, kw.pop("package", parent.package),
                    flags=frozenset(flags) | {"enabled", "visible"}, **kw)
        parent.children.append(node)
        if key and vis == box:
            self.keys[key] = node
        return node

    def label(self, parent, x, y, s, size, fill=INK, bold=False, anchor="lm", max_w=None, key=None, **kw):
        """A TextView: draw ``s`` and add its node (bounds = the line box of the drawn text)."""
        l, _, r, _ = self.text(x, y, s, size, fill, bold, anchor, max_w)
        shown = fit(s, font(self.p(size), bold), max_w) if max_w else s
        half = self.p(size * 0.68)
        cy = y if anchor[1] == "m" else y + half
        return self.add(parent, kw.pop("cls", "TextView"), (l - self.p(6), cy - half, r + self.p(6), cy + half),
                        key, text=shown, **kw)

    def button(self, parent, box, desc, icon_kind=None, color=INK, key=None, **kw):
        """An icon button (ImageButton with a content description)."""
        n = self.add(parent, kw.pop("cls", "ImageButton"), box, key, flags={"clickable", "focusable"}, desc=desc, **kw)
        if icon_kind:
            pad = (box[2] - box[0]) // 4
            icon(self, icon_kind, (box[0] + pad, box[1] + pad, box[2] - pad, box[3] - pad), color)
        return n

    def window(self, wid: int, package: str, box: Box, cls="android.widget.FrameLayout", **kw) -> Node:
        """Start another window (keyboard, dialog, system bars); returns its root node."""
        root = Node(cls, tuple(int(v) for v in box), package, flags=frozenset({"enabled", "visible"}), **kw)
        self.windows.append((wid, root))
        return root

    def vlist(self, parent, box, items: Sequence[tuple[int, Callable]], offset: int, rid="list") -> Node | None:
        """A RecyclerView over ``box``: ``items`` are (height, draw(parent, box)) in logical px, scrolled by
        ``offset``; items outside the viewport are neither drawn nor in the tree."""
        rv = self.add(parent, "androidx.recyclerview.widget.RecyclerView", box, "list",
                      flags={"scrollable", "focusable"}, rid=f"{parent.package}:id/{rid}")
        self.list_h = round((box[3] - box[1]) / self.k)
        self.list_max = max(0, sum(h for h, _ in items) - self.list_h)
        with self.clip(box):
            y = box[1] - self.p(min(offset, self.list_max))
            for h, draw in items:
                if y + self.p(h) > box[1] and y < box[3]:
                    draw(rv, (box[0], y, box[2], y + self.p(h)))
                y += self.p(h)
        return rv

    def toast(self, message: str) -> None:
        f = font(self.p(38))
        w = int(f.getlength(message)) + self.p(100)
        box = (self.w // 2 - w // 2, self.bottom - self.p(330), self.w // 2 + w - w // 2, self.bottom - self.p(220))
        self.rect(box, fill=(60, 64, 67), r=self.p(55))
        self.label(self.root, self.w // 2, (box[1] + box[3]) // 2, message, 38, WHITE, anchor="mm")

    def finish(self) -> "Screen":
        """Draw the status bar and gesture bar (System UI windows)."""
        fg = WHITE if self.light else INK
        clock, battery, period = self.status
        bar = self.window(3, SYSUI_PKG, (0, 0, self.w, self.top), rid=f"{SYSUI_PKG}:id/status_bar_container")
        self.label(bar, self.p(70), self.top // 2, clock, 40, fg, bold=True, rid=f"{SYSUI_PKG}:id/clock",
                   desc=f"{clock} {period}")
        bx = self.w - self.p(170)
        wifi = (bx - self.p(70), self.top // 2 - self.p(24), bx - self.p(22), self.top // 2 + self.p(24))
        self._d.pieslice(self._t((wifi[0], wifi[1], wifi[2], wifi[3] + self.p(40))), 225, 315, fill=fg)
        self.add(bar, "FrameLayout", wifi, desc="Wifi three bars.", rid=f"{SYSUI_PKG}:id/wifi_combo")
        cell = (bx, self.top // 2 - self.p(17), bx + self.p(58), self.top // 2 + self.p(17))
        self.rect(cell, outline=fg, r=self.p(6), width=max(1, self.p(4)))
        self.rect((cell[0] + self.p(6), cell[1] + self.p(6), cell[0] + self.p(6) + self.p(46 * battery / 100),
                   cell[3] - self.p(6)), fill=fg)
        pct = self.text(bx + self.p(70), self.top // 2, f"{battery}%", 34, fg)
        self.add(bar, "LinearLayout", (cell[0], 0, pct[2], self.top), desc=f"Battery {battery} percent.",
                 rid=f"{SYSUI_PKG}:id/battery")
        self.window(4, SYSUI_PKG, (0, self.bottom, self.w, self.h), cls="android.view.View",
                    rid="android:id/navigationBarBackground")
        c = self.w // 2
        self.rect((c - self.p(120), self.h - self.p(40), c + self.p(120), self.h - self.p(28)), fill=fg, r=self.p(6))
        return self

    def encode(self, level: int = 2) -> tuple[bytes, bytes]:
        """(PNG bytes, serialized accessibility forest)."""
        buf = io.BytesIO()
        self.img.save(buf, "PNG", compress_level=level)
        return buf.getvalue(), forest_bytes(self.windows)
