"""Synthetic but realistic phone trajectories, written as an AndroidControl-format GZIP TFRecord.

Each episode is scripted on a small simulated phone (:mod:`.screens`: launcher, a shopping app, Settings,
a gallery, messages): every action is applied to a :class:`~.screens.State` and the next frame is drawn
from it, so the screenshots follow the actions (a click opens a page or flips a switch, typed text appears in
the field, a scroll shifts the list the right way, back returns, home shows the launcher). Screenshots come with
matching accessibility forests; click points always hit a node with text or a content description. The
default 12 episodes use every release action type (click, long_press, scroll in all four directions,
input_text with Chinese text, open_app, navigate_back, navigate_home, wait). Output is deterministic for a seed.

>>> import os, tempfile
>>> from sftdata.loaders.androidcontrol import iter_episodes
>>> path = os.path.join(tempfile.mkdtemp(), "sample.tfrecord.gz")
>>> write_sample(path, n_episodes=2, size=(270, 600))
2
>>> first = next(iter_episodes([path]))
>>> [step.action.type for step in first.steps][:5], first.steps[-1].action.type
(['open_app', 'wait', 'click', 'input', 'click'], 'done')

CLI: ``python -m sftdata.synthetic.sample OUT.tfrecord.gz --episodes 12 --seed 0``.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable, Iterator

from ..loaders.a11y import decode_forest, smallest_containing
from ..plural import counted
from ..loaders.protos import make_example
from .screens import (CONVOS, FIRST_PAGE, LAUNCHER, N_PHOTOS, SETTINGS_ROWS, SUBPAGES, TABS, Node, State,
                      product, render)
from ..loaders.tfrecord import write_tfrecords
from ..values import size_of

__all__ = ["SampleSpec", "generate_records", "write_sample", "main"]
QUERIES = ["蓝牙耳机", "保温杯", "机械键盘", "运动鞋", "双肩包"]
REPLIES = ["好的，马上到", "明天见！See you tomorrow", "收到，谢谢", "我晚上七点到家", "OK, 没问题"]
APP_OF = {name: app for name, app, _, _ in LAUNCHER if app}


@dataclass(frozen=True)
class SampleSpec:
    """What to generate: ``n_episodes`` episodes of ``size`` (width, height) screenshots, ids from ``first_id``.

    >>> len(list(SampleSpec(n_episodes=2, size=(270, 600)).records()))
    2
    """

    n_episodes: int = 12
    seed: int = 0
    size: tuple[int, int] = (1080, 2400)
    first_id: int = 100000

    def records(self) -> Iterator[bytes]:
        return generate_records(self.n_episodes, self.seed, self.size, self.first_id)


def _walk(node: Node) -> Iterator[Node]:
    yield node
    for child in node.children:
        yield from _walk(child)


def _inside(inner, outer) -> bool:
    return outer[0] <= inner[0] and outer[1] <= inner[1] and inner[2] <= outer[2] and inner[3] <= outer[3]


class Trajectory:
    """Records frames and actions while a script drives the simulated phone; ``zh`` picks the language of
    goal and step instructions (every ``say`` argument is a ``(chinese, english)`` pair)."""

    def __init__(self, rng: random.Random, size: tuple[int, int], zh: bool, state: State = State()):
        self.rng, self.size, self.zh, self.state = rng, size, zh, state
        self.minute, self.battery = rng.randrange(8 * 60, 22 * 60), rng.randint(20, 100)
        self.frames: list[tuple[bytes, bytes]] = []
        self.actions: list[str] = []
        self.instructions: list[str] = []
        self.stack: list[State] = []
        self._screen = None

    def say(self, pair: tuple[str, str]) -> str:
        return pair[0] if self.zh else pair[1]

    @property
    def screen(self):
        if self._screen is None:
            m = self.minute + len(self.frames) // 3
            status = (f"{(m // 60 - 1) % 12 + 1}:{m % 60:02d}", self.battery, "AM" if m < 12 * 60 else "PM")
            scr = render(self.state, self.size, status)
            self._screen = (scr, scr.encode())
        return self._screen[0]

    def visible(self, prefix: str) -> list[str]:
        """Keys of fully visible nodes starting with ``prefix``, in screen order."""
        return sorted((k for k in self.screen.keys if k.startswith(prefix)),
                      key=lambda k: self.screen.keys[k].bounds[1::-1])

    def _act(self, action: dict, instruction: tuple[str, str], state: State) -> None:
        self.screen  # noqa: B018  (render the frame the action is taken on)
        self.frames.append(self._screen[1])
        self.actions.append(json.dumps(action, ensure_ascii=False, separators=(",", ":")))
        self.instructions.append(self.say(instruction))
        self.state, self._screen = state, None

    def _next(self, push: bool = False, **changes) -> State:
        if push:
            self.stack.append(self.state)
        return replace(self.state, **{"toast": "", **changes})

    def _point(self, key: str) -> tuple[int, int]:
        """A point inside node ``key`` whose smallest containing node (the loader's rule) has a label."""
        target = self.screen.keys[key]
        elements = decode_forest(self._screen[1][1])
        for node in [n for n in _walk(target) if n.text or n.desc] * 3:
            l, t, r, b = node.bounds
            x = self.rng.randint(l + (r - l) // 4, max(l + (r - l) // 4, r - 1 - (r - l) // 4))
            y = self.rng.randint(t + (b - t) // 4, max(t + (b - t) // 4, b - 1 - (b - t) // 4))
            hit = smallest_containing(elements, (x, y))
            if hit is not None and (hit.text or hit.desc) and _inside(hit.bounds, target.bounds):
                return x, y
        raise ValueError(f"no labelled point inside {key!r} on {self.state.app}/{self.state.page}")

    def click(self, key: str, instruction, *, long: bool = False, push: bool = False, **changes) -> None:
        x, y = self._point(key)
        self._act({"action_type": "long_press" if long else "click", "x": x, "y": y}, instruction,
                  self._next(push, **changes))

    def type(self, text: str, instruction, **changes) -> None:
        self._act({"action_type": "input_text", "text": text}, instruction, self._next(**changes))

    def scroll(self, direction: str, instruction) -> None:
        """Scroll the *content* toward ``direction`` (release semantics: ``down`` reveals what is below)."""
        st, scr = self.state, self.screen
        if direction in ("up", "down"):
            step = round(scr.list_h * .6) * (1 if direction == "down" else -1)
            changes = {"scroll": max(0, min(scr.list_max, st.scroll + step))}
            moved = changes["scroll"] != st.scroll
        else:
            changes = {"index": st.index + (1 if direction == "right" else -1)}
            moved = 0 <= changes["index"] < N_PHOTOS
        if not moved:
            raise ValueError(f"scroll {direction} would not move anything on {st.app}/{st.page}")
        self._act({"action_type": "scroll", "direction": direction}, instruction, self._next(**changes))

    def open_app(self, name: str, instruction) -> None:
        first = FIRST_PAGE[APP_OF[name]]
        self._act({"action_type": "open_app", "app_name": name}, instruction, self._carry(first, push=True))

    def wait(self, instruction, **changes) -> None:
        self._act({"action_type": "wait"}, instruction, self._next(**changes))

    def back(self, instruction) -> None:
        st = self.state
        if st.typing or st.dialog or st.selected:
            nxt = self._next(typing=False, dialog=False, selected=frozenset())
        else:
            nxt = self._carry(self.stack.pop() if self.stack else State())
        self._act({"action_type": "navigate_back"}, instruction, nxt)

    def home(self, instruction) -> None:
        nxt = self._carry(State())
        self.stack.clear()
        self._act({"action_type": "navigate_home"}, instruction, nxt)

    def _carry(self, nxt: State, push: bool = False) -> State:
        """``nxt`` with the phone-wide facts (cart, switches, deleted chats) of the current state."""
        if push:
            self.stack.append(self.state)
        st = self.state
        return replace(nxt, cart=st.cart, toggles=st.toggles, removed=st.removed, toast="")

    def record(self, episode_id: int, goal: str) -> bytes:
        if not 2 <= len(self.actions) <= 8:
            raise ValueError(f"episode {episode_id} has {len(self.actions)} actions; the sample keeps 2..8")
        self.screen  # noqa: B018  (the final frame, after the last action)
        frames = self.frames + [self._screen[1]]
        w, h = self.size
        return make_example({
            "episode_id": [episode_id], "goal": [goal], "screenshots": [png for png, _ in frames],
            "screenshot_widths": [w] * len(frames), "screenshot_heights": [h] * len(frames),
            "accessibility_trees": [tree for _, tree in frames], "actions": self.actions,
            "step_instructions": self.instructions,
        })


# ---------------------------------------------------------------- episode scripts: (trajectory, rng) -> goal pair
def _mall_search(t: Trajectory, rng: random.Random) -> tuple[str, str]:
    q, scrolls = rng.choice(QUERIES), rng.randint(1, 2)
    t.open_app("商城", ("打开商城", "Open the 商城 shopping app"))
    t.wait(("等待商城加载完成", "Wait for the app to finish loading"), page="home")
    t.click("search", ("点击顶部的搜索框", "Tap the search box at the top"), typing=True)
    t.type(q, (f"输入“{q}”", f"Type {q} into the search box"), query=q)
    k = rng.randrange(3)
    sug = t.screen.keys[f"suggest:{k}"].children[0].text
    t.click(f"suggest:{k}", (f"选择搜索建议“{sug}”", f"Pick the suggestion \"{sug}\""), push=True,
            page="results", typing=False, query=sug)
    for _ in range(scrolls):
        t.scroll("down", ("向上滑动，查看更多商品", "Scroll down to see more results"))
    key = rng.choice(t.visible("item:")[:4])
    name = product(sug, int(key[5:]))["name"]
    t.click(key, (f"打开商品“{name}”", f"Open the product {name}"), push=True, page="detail", index=int(key[5:]))
    if scrolls == 1:
        t.click("add_to_cart", ("点击“加入购物车”", "Tap 加入购物车 (add to cart)"), cart=t.state.cart + 1,
                toast="已加入购物车")
        return f"在商城搜索{q}，把一件搜到的商品加入购物车", f"Search 商城 for {q} and add one of the results to the cart"
    return f"打开商城，搜索“{q}”并查看一件商品的详情", f"Open 商城, search for \"{q}\" and look at one product's details"


def _gallery(t: Trajectory, rng: random.Random) -> tuple[str, str]:
    t.click("app:相册", ("在主屏幕上点击“相册”", "Tap the 相册 (Gallery) icon on the home screen"), push=True,
            app="gallery", page="grid")
    key = rng.choice(t.visible("photo:")[:9])
    t.click(key, ("打开一张照片", "Open a photo"), push=True, page="viewer", index=int(key[6:]))
    for _ in range(rng.randint(1, 3)):
        t.scroll("right", ("向左滑动，查看下一张照片", "Swipe left to the next photo"))
    t.scroll("left", ("向右滑动，回到上一张照片", "Swipe right to go back to the previous photo"))
    t.back(("返回照片列表", "Go back to the photo grid"))
    t.home(("回到主屏幕", "Go to the home screen"))
    return "打开相册，左右翻看几张最近的照片，然后回到主屏幕", "Open the gallery, flip through a few recent photos, then go home"


def _gallery_count(t: Trajectory, rng: random.Random) -> tuple[str, str]:
    """A looping goal with a count ("swipe left 3 times"): task memory counts the swipes done and remaining."""
    n = 3
    t.click("app:相册", ("在主屏幕上点击“相册”", "Tap the 相册 (Gallery) icon on the home screen"), push=True,
            app="gallery", page="grid")
    key = rng.choice([k for k in t.visible("photo:")[:9] if int(k[6:]) + n < N_PHOTOS])
    t.click(key, ("打开一张照片", "Open a photo"), push=True, page="viewer", index=int(key[6:]))
    for _ in range(n):
        t.scroll("right", ("向左滑动，查看下一张照片", "Swipe left to the next photo"))
    return (f"在相册中打开一张照片，然后向左滑动 {n} 次，逐一查看后面的照片",
            f"Open a photo in the gallery, then swipe left {n} times to look at the next photos")


def _messages(t: Trajectory, rng: random.Random) -> tuple[str, str]:
    t.state = State("messages", "list")
    gone, keep = rng.randrange(3, 7), rng.randrange(0, 3)
    name, other, reply = CONVOS[gone][0], CONVOS[keep][0], rng.choice(REPLIES)
    t.click(f"conv:{gone}", (f"长按与{name}的对话", f"Long press the conversation with {name}"), long=True,
            selected=frozenset({gone}))
    t.click("delete", ("点击删除图标", "Tap the delete icon"), dialog=True)
    t.click("dialog_ok", ("确认删除", "Confirm the deletion"), dialog=False, selected=frozenset(),
            removed=t.state.removed | {gone}, toast="已删除 1 个对话")
    t.click(f"conv:{keep}", (f"打开与{other}的对话", f"Open the chat with {other}"), push=True, page="chat", index=keep)
    t.click("compose", ("点击输入框", "Tap the message box"), typing=True)
    t.type(reply, (f"输入“{reply}”", f"Type \"{reply}\""), draft=reply)
    t.click("send", ("点击发送", "Tap send"), draft="", sent=(reply,))
    return (f"删除与{name}的对话，然后给{other}回复“{reply}”",
            f"Delete the conversation with {name}, then reply \"{reply}\" to {other}")


def _settings_toggle(t: Trajectory, rng: random.Random) -> tuple[str, str]:
    name = rng.choice(["Bluetooth", "Airplane mode"])
    on = name not in t.state.toggles
    t.open_app("Settings", ("打开设置", "Open Settings"))
    t.scroll("down", (f"向上滑动，寻找{name}", f"Scroll down to look for {name}"))
    t.scroll("up", (f"{name}在顶部，向下滑动回到顶部", f"{name} is near the top; scroll back up"))
    t.click(f"set:{name}", (f"点击{name}开关", f"Tap the {name} switch"), toggles=t.state.toggles ^ {name})
    t.home(("回到主屏幕", "Go back to the home screen"))
    verb = ("打开", "Turn on") if on else ("关闭", "Turn off")
    return f"在设置中{verb[0]}{name}，然后回到主屏幕", f"{verb[1]} {name} in Settings, then go back home"


def _mall_browse(t: Trajectory, rng: random.Random) -> tuple[str, str]:
    t.state = State("mall", "home", cart=rng.randint(0, 2))
    tab = rng.randrange(1, 5)
    t.click(f"tab:{tab}", (f"切换到“{TABS[tab]}”分类", f"Switch to the {TABS[tab]} tab"), tab=tab, scroll=0)
    t.scroll("down", ("向上滑动浏览商品", "Scroll down through the products"))
    t.scroll("down", ("继续向上滑动", "Keep scrolling down"))
    t.scroll("up", ("向下滑动，回到刚才看到的商品", "Scroll back up a little"))
    key = rng.choice(t.visible("item:")[:4])
    t.click(key, ("打开这件商品", "Open this product"), push=True, page="detail", index=int(key[5:]))
    t.click("add_to_cart", ("点击“加入购物车”", "Tap 加入购物车 to add it to the cart"), cart=t.state.cart + 1,
            toast="已加入购物车")
    t.back(("返回商品列表", "Go back to the product list"))
    return (f"在商城的“{TABS[tab]}”分类里挑一件商品加入购物车",
            f"Browse the {TABS[tab]} category in 商城 and add one product to the cart")


def _settings_page(t: Trajectory, rng: random.Random) -> tuple[str, str]:
    t.state = State("settings", "home")
    page = rng.choice(sorted(SUBPAGES))
    switch = rng.choice([n for n, summary in SUBPAGES[page] if summary is None])
    row = [n for n, _ in SETTINGS_ROWS].index(page)
    while f"set:{page}" not in t.screen.keys:
        t.scroll("down", (f"向上滑动找到{page}", f"Scroll down to find {page}"))
    t.click(f"set:{page}", (f"打开{page}", f"Open {page}"), push=True, page="sub", index=row, scroll=0)
    t.click(f"set:{switch}", (f"切换{switch}开关", f"Toggle {switch}"), toggles=t.state.toggles ^ {switch})
    if rng.random() < .5:
        t.back(("返回设置首页", "Go back to the main Settings list"))
    return f"在设置的{page}页面切换{switch}", f"Toggle {switch} on the {page} settings page"


def _mall_retry(t: Trajectory, rng: random.Random) -> tuple[str, str]:
    """An ineffective step: the first tap on 加入购物车 does not register (the screen stays as it was, only the
    clock may move), so the same button is tapped again and the cart count goes up."""
    t.state = State("mall", "home", cart=rng.randint(0, 2))
    key = rng.choice(t.visible("item:")[:4])
    t.click(key, ("打开这件商品", "Open this product"), push=True, page="detail", index=int(key[5:]))
    t.click("add_to_cart", ("点击“加入购物车”", "Tap 加入购物车 (add to cart)"))  # nothing happens
    t.click("add_to_cart", ("刚才没有反应，再点一次“加入购物车”", "Nothing happened; tap 加入购物车 again"),
            cart=t.state.cart + 1, toast="已加入购物车")
    t.back(("返回商城首页", "Go back to the 商城 home page"))
    return "在商城首页打开一件商品，把它加入购物车后返回", "Open a product on the 商城 home page, add it to the cart, then go back"


SCRIPTS: list[Callable[[Trajectory, random.Random], tuple[str, str]]] = [
    _mall_search, _gallery, _messages, _settings_toggle, _mall_browse, _settings_page, _gallery_count, _mall_retry]


def generate_records(n_episodes: int = 12, seed: int = 0, size: tuple[int, int] = (1080, 2400),
                     first_id: int = 100000) -> Iterator[bytes]:
    """Serialized ``tf.train.Example`` records, one per episode (the same bytes for the same arguments).
    Scripts rotate in a fixed order, so any 4 consecutive-from-zero episodes already use every action type.

    >>> len(next(generate_records(1, size=(270, 600)))) > 1000
    True
    """
    for i in range(n_episodes):
        rng = random.Random(f"sftdata-sample:{seed}:{i}")
        t = Trajectory(rng, tuple(size), zh=(i + seed) % 2 == 0)
        goal = SCRIPTS[i % len(SCRIPTS)](t, rng)
        yield t.record(first_id + i, t.say(goal))


def write_sample(path: str | Path, n_episodes: int = 12, seed: int = 0,
                 size: tuple[int, int] = (1080, 2400), progress: bool = False) -> int:
    """Write the sample as a GZIP TFRecord at ``path`` (atomically); returns the number of episodes.
    ``progress`` shows a bar on stderr (drawing a 1080x2400 episode takes about a second)."""
    records = generate_records(n_episodes, seed, size)
    if progress:
        from tqdm import tqdm
        records = tqdm(records, total=n_episodes, unit="ep", desc="sample", dynamic_ncols=True)
    return write_tfrecords(path, records)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m sftdata.synthetic.sample", description=__doc__.split("\n\n")[0])
    ap.add_argument("out", help="output file, e.g. raw/sample.tfrecord.gz")
    ap.add_argument("--episodes", type=int, default=12, help="number of episodes (default 12)")
    ap.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    ap.add_argument("--size", default="1080x2400", help="screenshot WIDTHxHEIGHT (default 1080x2400)")
    args = ap.parse_args(argv)
    try:
        w, h = size_of(args.size)
    except ValueError as exc:
        ap.error(str(exc))
    start = time.perf_counter()
    n = write_sample(args.out, args.episodes, args.seed, (w, h))
    print(f"wrote {counted(n, 'episode')} to {args.out} in {time.perf_counter() - start:.1f}s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
