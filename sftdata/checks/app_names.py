"""An app is called by its name in either language: ``设置`` is ``Settings``, ``相册`` is ``Gallery`` or ``Photos``.

A launcher shows an app by the name of the phone's language, and a reasoning written in the other language names it
by its translation (``打开“设置”应用，也就是桌面上的 Settings``). The checks read an app named by a translation of the
call's app as the call's app, and one of another app as another app.

>>> same_app("设置", "Settings"), same_app("Photos", "相册"), same_app("相机", "Settings"), same_app("商城", "商城")
(True, True, False, True)
>>> app_names("Settings")
('settings', '设置', '系统设置')
"""
from __future__ import annotations

from .calls import normalize

# Each group names one app: the common stock apps of Android phones, in English and Chinese.
_GROUPS = (
    ("settings", "设置", "系统设置"),
    ("camera", "相机", "照相机"),
    ("gallery", "photos", "相册", "图库", "照片"),
    ("messages", "messaging", "sms", "信息", "短信", "消息"),
    ("phone", "dialer", "电话", "拨号"),
    ("contacts", "联系人", "通讯录"),
    ("calendar", "日历"),
    ("clock", "时钟", "闹钟"),
    ("maps", "地图"),
    ("music", "音乐"),
    ("email", "mail", "邮件", "邮箱", "电子邮件"),
    ("browser", "浏览器"),
    ("calculator", "计算器"),
    ("files", "file manager", "文件", "文件管理"),
    ("weather", "天气"),
    ("notes", "备忘录", "笔记"),
    ("play store", "应用商店", "应用市场"),
    ("recorder", "录音机"),
)
_BY_NAME = {name: group for group in _GROUPS for name in group}


def app_names(app: str) -> tuple[str, ...]:
    """The names of ``app`` in either language (normalised), the app's own first."""
    own = normalize(app).strip()
    group = _BY_NAME.get(own, ())
    return (own,) + tuple(n for n in group if n != own)


def same_app(a: str, b: str) -> bool:
    """Do ``a`` and ``b`` name one app (the same name, or a name and its translation)?"""
    na, nb = normalize(a).strip(), normalize(b).strip()
    return bool(na) and (na == nb or nb in app_names(na))


__all__ = ["app_names", "same_app"]
