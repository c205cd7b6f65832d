"""Small web episodes for the reconstruction tests, built here: 1280x720 browser pages whose elements carry tag,
attrs and text.

* :func:`human_web`: a human-annotated recording with a url per step, every web action (click, type, select,
  scroll down and up, go_to_url, back, new_tab) and ``done`` at the end; one step changed nothing.
* :func:`mind2web_like`: a recording without a final screen (``meta["no_final_screen"]``, no url, no done):
  clicks, a type into a field known only by its placeholder, a select, a click on a field known only by ``name``.
* :func:`web_run`: a run directory holding such episodes with real PNG screenshots, as ``sftdata ingest`` leaves
  one.
"""
from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path

from PIL import Image, ImageDraw

from sftdata.model import Action, Element, Episode, Screenshot, Step
from sftdata.rundir import RunDir

W, H = 1280, 720
_I = ("clickable", "visible")
SHOT = Screenshot("0" * 64, "images/web.png", W, H)


def page() -> list[Element]:
    return [
        Element(0, (0, 0, W, H), tag="body", flags=("visible",)),
        Element(1, (40, 20, 200, 60), text="SkyTrips", tag="a", attrs=(("href", "/"),), flags=_I),
        Element(2, (300, 100, 700, 140), hint="Leaving from", tag="input",
                attrs=(("placeholder", "Leaving from"), ("type", "text")), flags=_I + ("editable",)),
        Element(3, (300, 160, 700, 200), tag="input", attrs=(("name", "dest"), ("type", "text")),
                flags=_I + ("editable",)),
        Element(4, (300, 220, 700, 260), text="Economy Premium Business First", tag="select",
                attrs=(("aria_label", "Cabin class"), ("name", "cabin")), flags=_I),
        Element(5, (760, 100, 960, 140), text="Search flights", tag="button", attrs=(("type", "submit"),), flags=_I),
        Element(6, (40, 320, 1240, 360), text="Popular destinations", tag="h2", flags=("visible",)),
        Element(7, (40, 380, 400, 420), text="New York deals", tag="a", attrs=(("href", "/deals/nyc"),), flags=_I),
        Element(8, (1180, 20, 1240, 60), desc="Close banner", tag="button", attrs=(("aria_label", "Close banner"),),
                flags=_I),
    ]


def _episode(eid: str, source: str, goal: str, actions: list[Action], *, urls: bool, final_screen: bool,
             ineffective: int | None = None) -> Episode:
    elements = page()
    steps = [Step(i, SHOT, a, elements=list(elements), url="https://www.skytrips.example/flights" if urls else None)
             for i, a in enumerate(actions)]
    if ineffective is not None:
        steps[ineffective].meta["ineffective"] = True
    meta = {"website": "skytrips"} if final_screen else {"website": "skytrips", "no_final_screen": True}
    return Episode(eid, source, goal, steps, meta=meta, platform="web")


def human_web(eid: str = "web-human") -> Episode:
    e = page()
    actions = [
        Action("click", point=(500, 120), element=e[2]),
        Action("type", text="Seattle", point=(500, 120), element=e[2]),
        Action("select", text="Business", point=(500, 240), element=e[4]),
        Action("click", point=(860, 120), element=e[5]),
        Action("click", point=(860, 120), element=e[5]),
        Action("scroll", direction="down"),
        Action("scroll", direction="up"),
        Action("go_to_url", url="https://www.skytrips.example/deals"),
        Action("back"),
        Action("new_tab", url="https://maps.example/sea"),
        Action("done"),
    ]
    return _episode(eid, "annotated", "Find business class flights from Seattle to New York", actions,
                    urls=True, final_screen=True, ineffective=3)


def mind2web_like(eid: str = "m2w-1") -> Episode:
    e = page()
    actions = [
        Action("click", point=(500, 120), element=e[2]),
        Action("type", text="Seattle", point=(500, 120), element=e[2]),
        Action("type", text="New York", point=(500, 180), element=e[3]),
        Action("select", text="Business", point=(500, 240), element=e[4]),
        Action("click", point=(200, 400), element=e[7]),
        Action("click", point=(860, 120), element=e[5]),
    ]
    return _episode(eid, "mind2web", "Find flights from Seattle to New York on June 5th", actions, urls=False,
                    final_screen=False)


def _png(seed: int) -> bytes:
    image = Image.new("RGB", (W, H), "white")
    pen = ImageDraw.Draw(image)
    for element in page():
        pen.rectangle(element.bounds, outline=(seed * 37 % 256, 90, 160), width=2)
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def web_run(root: Path, episodes: list[Episode]) -> RunDir:
    """A run directory whose ``episodes.jsonl`` holds ``episodes``, each with its own stored screenshot."""
    run = RunDir(root)
    run.ensure_writable()
    lines = []
    for n, episode in enumerate(episodes):
        sha, rel = run.images.put(_png(n))
        shot = Screenshot(sha, rel, W, H)
        lines.append(replace(episode, steps=[replace(s, screenshot=shot) for s in episode.steps]).to_json())
    run.episodes_path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return run
