"""What is on screen: a frame is a pure function of a :class:`State`, and :func:`render` draws it.

>>> flags = render(FIRST_PAGE["settings"], (270, 600)).keys["set:Bluetooth"].flags
>>> "checkable" in flags, "checked" in flags
(True, False)
"""
from __future__ import annotations

from dataclasses import dataclass

from . import gallery, launcher, mall, messages, settings
from .canvas import Screen


@dataclass(frozen=True)
class State:
    """Everything a frame shows. ``scroll`` is the main list's offset (logical px); ``index`` the open item
    (product, photo, conversation, settings page); ``toggles`` the settings switches that are on.

    >>> State("mall", "home").scroll, State().app
    (0, 'launcher')
    """

    app: str = "launcher"
    page: str = "home"
    scroll: int = 0
    index: int = 0
    tab: int = 0
    query: str = ""
    draft: str = ""
    typing: bool = False
    dialog: bool = False
    selected: frozenset = frozenset()
    removed: frozenset = frozenset()
    toggles: frozenset = frozenset({"Wi-Fi", "Location"})
    sent: tuple = ()
    cart: int = 0
    toast: str = ""


# the page each app opens on (open_app)
FIRST_PAGE = {"mall": State("mall", "splash"), "settings": State("settings", "home"),
              "gallery": State("gallery", "grid"), "messages": State("messages", "list")}
# (app, page) -> draw(state, size, status) -> Screen
PAGES = {("launcher", "home"): launcher.home, ("mall", "splash"): mall.splash, ("mall", "home"): mall.listing,
         ("mall", "results"): mall.listing, ("mall", "detail"): mall.detail, ("settings", "home"): settings.page,
         ("settings", "sub"): settings.page, ("gallery", "grid"): gallery.grid, ("gallery", "viewer"): gallery.viewer,
         ("messages", "list"): messages.inbox, ("messages", "chat"): messages.chat}


def render(st: State, size: tuple[int, int], status=("9:41", 85, "AM")) -> Screen:
    """Draw the frame for ``st`` (with its accessibility forest); ``status`` is (clock, battery %, AM/PM).

    >>> render(State(toast="已保存"), (270, 600), ("10:05", 40, "PM")).keys["app:信息"].text
    '信息'
    """
    s = PAGES[(st.app, st.page)](st, size, status)
    if st.toast:
        s.toast(st.toast)
    return s.finish()
