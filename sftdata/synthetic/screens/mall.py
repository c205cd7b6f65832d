"""The shopping app (Chinese UI, red sale tags): splash, home with tabs, search, results, product page."""
from __future__ import annotations

from .art import gradient, icon, keyboard, product_art, tint
from .canvas import Screen
from .catalog import N_PRODUCTS, TABS, list_key, product
from .style import BLUE, GREY, INK, LINE, ORANGE, RED, WHITE, font

MALL = "com.sample.mall"


def splash(st, size, status):
    """The shop's splash screen (shown while the app loads).

    >>> from .state import State
    >>> splash(State("mall", "splash"), (270, 600), ("9:41", 85, "AM")).root.children[0].desc
    '商城 logo'
    """
    s = Screen(size, MALL, bg=RED, status=status, light=True)
    c, m = s.w // 2, s.h // 2
    s.rect((c - s.p(170), m - s.p(300), c + s.p(170), m + s.p(40)), fill=WHITE, r=s.p(60))
    s.text(c, m - s.p(130), "商城", 110, RED, bold=True, anchor="mm")
    s.add(s.root, "ImageView", (c - s.p(170), m - s.p(300), c + s.p(170), m + s.p(40)), desc="商城 logo")
    s.label(s.root, c, m + s.p(140), "好物低价 · 正品保障", 46, WHITE, anchor="mm")
    s.label(s.root, c, s.bottom - s.p(120), "Mall · 618 年中大促", 36, tint(RED, .6), anchor="mm")
    return s


def _product_row(s, parent, box, prod, key):
    l, t, r, b = box
    row = s.add(parent, "LinearLayout", box, key, flags={"clickable", "focusable"}, rid=f"{MALL}:id/item_root")
    th = (l + s.p(36), t + s.p(24), l + s.p(276), b - s.p(24))
    product_art(s, th, prod["kind"], prod["color"])
    s.add(row, "ImageView", th, desc="商品图片 " + prod["name"])
    x = th[2] + s.p(32)
    s.label(row, x, t + s.p(62), prod["name"], 40, max_w=r - x - s.p(36), rid=f"{MALL}:id/title")
    if prod["tag"]:
        tb = s.text(x + s.p(14), t + s.p(130), prod["tag"], 30, WHITE if prod["tag"][0] == "-" else RED)
        tag = (tb[0] - s.p(14), t + s.p(106), tb[2] + s.p(14), t + s.p(154))
        s.rect(tag, fill=RED if prod["tag"][0] == "-" else None, outline=RED, r=s.p(8), width=max(1, s.p(3)))
        s.text(x + s.p(14), t + s.p(130), prod["tag"], 30, WHITE if prod["tag"][0] == "-" else RED)
        s.add(row, "TextView", tag, text=prod["tag"])
    pb = s.label(row, x, t + s.p(210), f"¥{prod['price']}", 52, RED, bold=True, rid=f"{MALL}:id/price")
    if prod["old"] and pb:
        ob = s.text(pb.bounds[2] + s.p(16), t + s.p(214), f"¥{prod['old']}", 32, GREY)
        s.line((ob[0], (ob[1] + ob[3]) // 2, ob[2], (ob[1] + ob[3]) // 2), GREY, max(1, s.p(3)))
    s.label(row, r - s.p(36), t + s.p(214), f"已售 {prod['sold']}万", 30, GREY, anchor="rm")
    s.line((x, b - 1, r, b - 1), LINE, 1)


def _banner(s, parent, box):
    l, t, r, b = box
    inner = (l + s.p(36), t + s.p(20), r - s.p(36), b - s.p(20))
    s.paste(gradient((inner[2] - inner[0], inner[3] - inner[1]), (255, 92, 60), (200, 0, 30)), inner[:2])
    s.text(inner[0] + s.p(50), inner[1] + s.p(85), "618 年中大促", 68, WHITE, bold=True)
    s.text(inner[0] + s.p(50), inner[1] + s.p(170), "满300减50 · 全场包邮 SALE", 38, (255, 230, 200))
    s.rect((inner[2] - s.p(280), inner[3] - s.p(110), inner[2] - s.p(40), inner[3] - s.p(40)), fill=WHITE, r=s.p(35))
    s.text(inner[2] - s.p(160), inner[3] - s.p(75), "立即抢购", 34, RED, bold=True, anchor="mm")
    s.add(parent, "ImageView", inner, "banner", flags={"clickable"}, desc="618 年中大促 活动横幅")


def listing(st, size, status):
    """The home (tabs, banner, products), typing (keyboard with history or suggestions) and results pages.

    >>> from .state import State
    >>> "search" in listing(State("mall", "home"), (270, 600), ("9:41", 85, "AM")).keys
    True
    """
    s = Screen(size, MALL, status=status, light=True)
    p = s.p
    bottom = keyboard(s, "search") if st.typing else s.bottom
    head = s.top + p(160)
    s.rect((0, 0, s.w, head), fill=RED)
    x0 = p(36)
    if st.page == "results" or st.typing:
        s.button(s.root, (p(10), s.top + p(20), p(130), s.top + p(140)), "返回", "back", WHITE, key="back")
        x0 = p(140)
    field_box = (x0, s.top + p(25), s.w - (p(200) if st.typing else p(36)), s.top + p(135))
    s.rect(field_box, fill=WHITE, r=p(55))
    icon(s, "search", (field_box[0] + p(30), field_box[1] + p(30), field_box[0] + p(80), field_box[1] + p(80)), GREY)
    shown = st.query if (st.page == "results" or st.typing) else ""
    tx = field_box[0] + p(100)
    tb = s.text(tx, (field_box[1] + field_box[3]) // 2, shown or "搜索商品 Search products", 40, INK if shown else GREY,
                max_w=field_box[2] - tx - p(100))
    if st.typing:
        cx = tb[2] + p(6) if shown else tx
        s.line((cx, field_box[1] + p(28), cx, field_box[3] - p(28)), BLUE, max(2, p(4)))
        s.label(s.root, s.w - p(100), (field_box[1] + field_box[3]) // 2, "搜索", 42, WHITE, bold=True, anchor="mm",
                key="search_go", flags={"clickable"})
    else:
        s.button(s.root, (field_box[2] - p(100), field_box[1] + p(10), field_box[2] - p(10), field_box[3] - p(10)),
                 "拍照搜索", "camera", GREY)
    s.add(s.root, "EditText", field_box, "search",
          flags={"clickable", "editable", "focusable"} | ({"focused"} if st.typing else set()), text=shown,
          hint="" if shown else "搜索商品 Search products", desc="搜索框", rid=f"{MALL}:id/search_box")
    y = head
    if st.typing:
        if st.query:
            sugg = [st.query] + [f"{st.query} {w}" for w in ("2024新款", "热卖", "学生", "旗舰店", "男女同款")]
            items = [(130, lambda par, b, t=t, i=i: _suggestion(s, par, b, t, f"suggest:{i}"))
                     for i, t in enumerate(sugg)]
            s.vlist(s.root, (0, y, s.w, bottom), items, 0, rid="suggestions")
        else:
            s.label(s.root, p(40), y + p(70), "历史搜索", 40, bold=True)
            x = p(40)
            for i, word in enumerate(["蓝牙耳机", "保温杯", "机械键盘", "运动鞋"]):
                w = int(font(p(36)).getlength(word)) + p(60)
                s.rect((x, y + p(130), x + w, y + p(210)), fill=(241, 243, 244), r=p(40))
                s.label(s.root, x + w // 2, y + p(170), word, 36, anchor="mm", key=f"history:{i}", flags={"clickable"})
                x += w + p(24)
        return s
    if st.page == "home":
        s.rect((0, y, s.w, y + p(110)), fill=WHITE)
        tabs = s.add(s.root, "HorizontalScrollView", (0, y, s.w, y + p(110)), flags={"scrollable"},
                     rid=f"{MALL}:id/tabs")
        x = p(36)
        for i, name in enumerate(TABS):
            w = int(font(p(40), i == st.tab).getlength(name)) + p(48)
            if x + w <= s.w:
                s.label(tabs, x + w // 2, y + p(52), name, 40, RED if i == st.tab else INK, i == st.tab, anchor="mm",
                        key=f"tab:{i}", flags={"clickable", "selected"} if i == st.tab else {"clickable"})
                if i == st.tab:
                    s.rect((x + p(40), y + p(88), x + w - p(40), y + p(98)), fill=RED, r=p(4))
            x += w
        y += p(110)
        nav = s.bottom - p(170)
    else:
        for i, name in enumerate(["综合", "销量", "价格", "筛选"]):
            s.label(s.root, s.w * (2 * i + 1) // 8, y + p(55), name, 38, RED if i == 0 else INK, i == 0, anchor="mm",
                    key=f"sort:{i}", flags={"clickable"})
        y += p(110)
        nav = s.bottom
    items = [(330, lambda par, b: _banner(s, par, b))] if st.page == "home" else []
    items += [(300, lambda par, b, i=i: _product_row(s, par, b, product(list_key(st), i), f"item:{i}"))
              for i in range(N_PRODUCTS)]
    s.vlist(s.root, (0, y, s.w, nav), items, st.scroll, rid="products")
    if st.page == "home":
        s.rect((0, nav, s.w, s.bottom), fill=WHITE)
        s.line((0, nav, s.w, nav), LINE, 1)
        bar = s.add(s.root, "LinearLayout", (0, nav, s.w, s.bottom), rid=f"{MALL}:id/bottom_nav")
        for i, (name, kind) in enumerate([("首页", "home"), ("分类", "grid"), ("购物车", "cart"), ("我的", "user")]):
            cx, c = s.w * (2 * i + 1) // 8, RED if i == 0 else GREY
            icon(s, kind, (cx - p(35), nav + p(25), cx + p(35), nav + p(95)), c)
            s.text(cx, nav + p(130), name, 30, c, anchor="mm")
            s.add(bar, "FrameLayout", (cx - p(100), nav, cx + p(100), s.bottom), f"nav:{i}", flags={"clickable"},
                  desc=name + (f"，{st.cart} 件商品" if kind == "cart" else ""))
            if kind == "cart" and st.cart:
                s.ellipse((cx + p(15), nav + p(10), cx + p(61), nav + p(56)), fill=RED)
                s.text(cx + p(38), nav + p(33), str(st.cart), 28, WHITE, True, anchor="mm")
    return s


def _suggestion(s, parent, box, text, key):
    l, t, r, b = box
    row = s.add(parent, "LinearLayout", box, key, flags={"clickable"}, rid=f"{MALL}:id/suggestion")
    icon(s, "search", (l + s.p(36), t + s.p(40), l + s.p(86), t + s.p(90)), GREY)
    s.label(row, l + s.p(120), (t + b) // 2, text, 40)
    s.line((l + s.p(120), b - 1, r, b - 1), LINE, 1)


def detail(st, size, status):
    """The product page (``st.index`` of the list), with add-to-cart and buy buttons.

    >>> from .state import State
    >>> detail(State("mall", "detail", index=2), (270, 600), ("9:41", 85, "AM")).keys["buy_now"].text
    '立即购买'
    """
    s = Screen(size, MALL, status=status)
    p, prod = s.p, product(list_key(st), st.index)
    bar_t = s.bottom - p(170)
    s.button(s.root, (p(10), s.top + p(15), p(130), s.top + p(135)), "返回", "back", key="back")
    s.label(s.root, s.w // 2, s.top + p(75), "商品详情", 46, bold=True, anchor="mm")
    s.button(s.root, (s.w - p(260), s.top + p(15), s.w - p(140), s.top + p(135)), "分享", "share", key="share")
    s.button(s.root, (s.w - p(130), s.top + p(15), s.w - p(10), s.top + p(135)), f"购物车 {st.cart} 件", "cart", key="cart")
    with s.clip((0, s.top + p(150), s.w, bar_t)):
        sv = s.add(s.root, "ScrollView", (0, s.top, s.w, bar_t), flags={"scrollable"}, rid=f"{MALL}:id/detail_scroll")
        art = (0, s.top + p(150), s.w, s.top + p(150) + p(900))
        product_art(s, art, prod["kind"], prod["color"])
        s.add(sv, "ImageView", art, desc="商品大图 " + prod["name"])
        y = art[3] + p(90)
        pb = s.label(sv, p(40), y, f"¥{prod['price']}", 76, RED, True, rid=f"{MALL}:id/price")
        if prod["old"] and pb:
            ob = s.text(pb.bounds[2] + p(20), y + p(8), f"¥{prod['old']}", 38, GREY)
            s.line((ob[0], (ob[1] + ob[3]) // 2, ob[2], (ob[1] + ob[3]) // 2), GREY, max(1, p(3)))
            s.rect((s.w - p(260), y - p(40), s.w - p(40), y + p(40)), fill=RED, r=p(10))
            s.label(sv, s.w - p(150), y, prod["tag"] or "特价", 36, WHITE, True, anchor="mm")
        s.label(sv, p(40), y + p(120), prod["name"], 48, bold=True, max_w=s.w - p(80), rid=f"{MALL}:id/title")
        for i, (k, v) in enumerate([("发货", "上海 · 免运费 Free shipping"), ("服务", "7天无理由退货 · 正品保障"),
                                    ("参数", "品牌、型号、颜色 Specs"), ("评价", f"好评率 98% · {prod['sold']}万人已购")]):
            ry = y + p(250) + i * p(120)
            s.text(p(40), ry, k, 36, GREY)
            s.label(sv, p(180), ry, v, 38, max_w=s.w - p(220), flags={"clickable"})
            s.line((p(40), ry + p(60), s.w - p(40), ry + p(60)), LINE, 1)
    s.rect((0, bar_t, s.w, s.bottom), fill=WHITE)
    s.line((0, bar_t, s.w, bar_t), LINE, 1)
    for i, (name, kind) in enumerate([("店铺", "home"), ("客服", "chat"), ("收藏", "star")]):
        cx = p(80) + i * p(130)
        icon(s, kind, (cx - p(30), bar_t + p(30), cx + p(30), bar_t + p(90)), GREY)
        s.text(cx, bar_t + p(125), name, 28, GREY, anchor="mm")
        s.add(s.root, "FrameLayout", (cx - p(60), bar_t, cx + p(60), s.bottom), flags={"clickable"}, desc=name)
    for key, text, color, x0, x1 in (("add_to_cart", "加入购物车", ORANGE, 440, 750), ("buy_now", "立即购买", RED, 760, 1050)):
        box = (p(x0), bar_t + p(30), p(x1), bar_t + p(140))
        s.rect(box, fill=color, r=p(55))
        s.text((box[0] + box[2]) // 2, (box[1] + box[3]) // 2, text, 40, WHITE, True, anchor="mm")
        s.add(s.root, "Button", box, key, flags={"clickable", "focusable"}, text=text, desc=text)
    return s
