"""A control named by its translation: ``保存`` for a ``Save`` button, ``the SMS input field`` for ``短信输入框``.

A screen shows its labels in the phone's or the site's language, and a reasoning written in the other language
names a control by the translation of its label. :data:`TERMS` is a small bilingual lexicon of common GUI terms
(each group one meaning, in Chinese and English); :func:`translated` adds to a text the translations of its terms
that name **exactly one** element of the screen, so a translation singles out a control only where nothing else on
the screen is so named (six ``Add to cart`` twins gain nothing from ``加入购物车``), and names another field as
surely as its label would (``入住日期`` is ``Check-in``, not ``Check-out``).

>>> translated("点右上角的保存", ["save", "cancel"], ["save"], [])
'点右上角的保存 save'
>>> translated("入住日期那一栏填 06/06", ["check-in", "check-out"], ["check-out"], [["check-in"]])
'入住日期那一栏填 06/06 check-in'
>>> translated("点保存", ["保存", "save"], ["save"], [])  # the screen shows 保存 itself: no translation
'点保存'
"""
from __future__ import annotations

import re
from functools import lru_cache

from .calls import longest_first, said_as_word, word_pattern

# the kinds of text box a reasoning names a box by (``搜索框``, ``the text field``): one meaning each
TEXT_BOX = ("输入框", "文本框", "input field", "text field", "text box", "input box")
SEARCH_BOX = ("搜索框", "搜索栏", "search box", "search bar", "search field")

# Each group is one meaning: Chinese terms, then English ones (normalised: lower case).
TERMS: tuple[tuple[str, ...], ...] = (
    ("加入购物车", "加购物车", "加购", "add to cart", "add to bag", "add to basket"),
    ("购物车", "cart", "shopping cart", "basket"),
    ("立即购买", "马上买", "buy now"),
    ("保存", "save"),
    ("搜索", "search"),
    ("设置", "settings"),
    ("自适应亮度", "adaptive brightness"),
    ("返回", "back"),
    ("提交", "submit"),
    ("下一步", "next"),
    ("下一页", "next page"),
    ("上一页", "previous page"),
    ("确认", "确定", "confirm", "ok"),
    ("取消", "cancel"),
    ("删除", "delete", "remove"),
    ("添加", "新增", "add"),
    ("筛选", "过滤", "filter", "filters"),
    ("排序", "sort", "sort by"),
    ("登录", "登陆", "log in", "login", "sign in"),
    ("注册", "sign up", "register"),
    ("退出登录", "log out", "logout", "sign out"),
    ("发送", "send"),
    ("分享", "share"),
    ("编辑", "edit"),
    ("关闭", "close"),
    ("完成", "done", "finish"),
    ("跳过", "skip"),
    ("继续", "continue"),
    ("同意", "agree", "accept"),
    ("条款", "服务条款", "terms", "terms and conditions"),
    ("允许", "allow"),
    ("菜单", "menu"),
    ("更多", "more"),
    ("帮助", "help"),
    ("通知", "notifications"),
    ("显示", "display"),
    ("声音", "sound"),
    ("电池", "battery"),
    ("存储", "存储空间", "storage"),
    ("蓝牙", "bluetooth"),
    ("飞行模式", "airplane mode", "aeroplane mode"),
    ("无障碍", "accessibility"),
    ("勿扰", "免打扰", "勿扰模式", "do not disturb"),
    ("深色主题", "深色模式", "dark theme", "dark mode"),
    ("壁纸", "wallpaper"),
    ("网络", "network"),
    ("短信", "sms", "text message"),
    TEXT_BOX,
    ("头像", "avatar", "profile picture"),
    ("照片", "相片", "photos", "photo"),
    ("最近", "recent"),
    ("对话", "会话", "conversation"),
    ("首页", "主页", "home"),
    ("分类", "categories", "category"),
    ("出发地", "出发", "from", "departure"),
    ("目的地", "destination"),
    ("入住", "入住日期", "check-in", "check in"),
    ("退房", "离店", "退房日期", "check-out", "check out"),
    ("日期", "date"),
    ("客人", "住客", "guests"),
    ("乘客", "passengers"),
    ("城市", "city"),
    ("关键词", "关键字", "keywords", "keyword"),
    ("价格", "price"),
    ("数量", "quantity"),
    ("颜色", "color", "colour"),
    ("尺码", "尺寸", "size"),
    ("结算", "去结算", "checkout"),
    ("预订", "book", "reserve"),
    ("邮箱", "电子邮件", "email", "e-mail"),
    ("电话", "手机号", "phone"),
    ("姓名", "名字", "full name"),
    ("地址", "address"),
    ("起点", "出发地", "starting point"),
    ("终点", "目的地", "destination"),
    ("密码", "password"),
    ("用户名", "username"),
)
_LATIN = re.compile(r"[a-z]")
# terms that are verbs as often as names (现在显示 On: shows, not the Display row): never read as a row's name
VERB_TERMS = frozenset(("显示", "完成", "返回", "关闭", "发送", "搜索", "继续", "同意", "允许", "分享", "编辑", "添加", "新增",
                        "删除", "确认", "确定", "取消", "跳过", "保存", "提交", "注册", "登录", "登陆", "结算", "预订", "排序", "筛选",
                        "过滤", "更多", "加购"))


@lru_cache(maxsize=1)
def _groups() -> tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]:
    """Each group split into its Chinese and its English terms, longest first."""
    out = []
    for group in TERMS:
        zh = tuple(sorted((t for t in group if not _LATIN.search(t)), key=longest_first))
        en = tuple(sorted((t for t in group if _LATIN.search(t)), key=longest_first))
        out.append((zh, en))
    return tuple(out)


def translations(text: str) -> list[tuple[str, str]]:
    """``(term said, another term of its group)`` for every term ``text`` (normalised) says, longest terms first:
    its translations and its synonyms (``加购`` -> ``加入购物车``); a term inside a longer one said (``购物车`` of
    ``加入购物车``) is not read again.

    >>> translations("点保存")
    [('保存', 'save')]
    """
    out: list[tuple[str, str]] = []
    taken: list[tuple[int, int]] = []
    terms = sorted(((t, zh, en) for zh, en in _groups() for t in zh + en), key=lambda x: -len(x[0]))
    for term, zh, en in terms:
        for m in word_pattern(term, "-").finditer(text):
            if any(a <= m.start() and m.end() <= b for a, b in taken):
                continue
            taken.append((m.start(), m.end()))
            out += [(term, t) for t in zh + en if t != term and (term, t) not in out]  # its translations and synonyms
    return out


def translated(said: str, shown: list[str], target: list[str], fields: list[list[str]]) -> str:
    """``said`` with the translations of its terms appended (``保存`` -> ``save``) that name exactly one thing:
    the target (its texts, ``target``, hold the term) or one form field (``fields``: the texts of each other
    editable or select element, one of them the term whole; ``入住日期`` names ``Check-in`` beside the
    ``Check-out`` the call types into, while ``搜索`` does not name a box hinted ``Search books``).
    A term the screen shows itself (``shown``: every text of the screen) is the screen's word, not a
    translation; one said already is not added again; a term that fits buttons, tabs and prose elsewhere
    (``home``, ``search``) gives no evidence against the target."""
    extra = []
    for source, term in translations(said):
        if term in extra or said_as_word(term, said, joiners="-") or any(
                said_as_word(source, t, joiners="-") for t in shown):
            continue
        named = int(any(said_as_word(term, t, joiners="-") for t in target)) + sum(term in f for f in fields)
        if named == 1:
            extra.append(term)
    return " ".join([said] + extra)


__all__ = ["TERMS", "VERB_TERMS", "translated", "translations"]
