"""Small hand-built web episodes for the format tests: 1280x720 pages whose elements carry tag, attrs and text.

* :func:`web_episode`: every web action (type, select, click, scroll down and up, go_to_url, back, new_tab with
  an address, done with an answer) with urls and hand-written items.
* :func:`mind2web_like`: a recording with no address and no final screen (``meta["no_final_screen"]``), as
  Mind2Web gives: clicks, a type and a select, and no done step.
"""
from __future__ import annotations

from sftdata.model import Action, Element, Episode, Screenshot, Step

W, H = 1280, 720
_I = ("clickable", "visible")


def page_elements() -> list[Element]:
    return [
        Element(0, (0, 0, 1280, 720), tag="body", flags=("visible",)),
        Element(1, (40, 20, 200, 60), text="FlyHome", tag="a", attrs=(("href", "/"),), flags=_I),
        Element(2, (300, 100, 800, 140), hint="From", tag="input", attrs=(("name", "from"), ("type", "text")),
                flags=_I + ("editable",)),
        Element(3, (300, 160, 800, 200), tag="select", text="Economy", attrs=(("name", "cabin"),), flags=_I),
        Element(4, (850, 100, 1000, 140), text="Search", tag="button", attrs=(("type", "submit"),), flags=_I),
        Element(5, (40, 300, 1240, 340), text="Cheap flights from Seattle", tag="h2", flags=("visible",)),
        Element(6, (1180, 20, 1240, 60), desc="Close banner", tag="button", attrs=(("aria_label", "Close banner"),),
                flags=_I),
        Element(7, (1000, 800, 1200, 840), text="Below the fold", tag="a", flags=_I),  # off screen: not listed
    ]


STEPS = [  # (action, reasoning, thought)
    (lambda e: Action("type", text="Seattle", point=(550, 120), element=e[2]), "Type the departure city first.", None),
    (lambda e: Action("select", text="Business", point=(550, 180), element=e[3]), "Pick the cabin class.", None),
    (lambda e: Action("click", point=(925, 120), element=e[4]), "Run the search.", "The form is filled, search now."),
    (lambda e: Action("scroll", direction="down"), "Look at the results further down.", None),
    (lambda e: Action("scroll", direction="up"), "Go back to the top of the results.", None),
    (lambda e: Action("go_to_url", url="https://fly.example/deals"), "Open the deals page directly.", None),
    (lambda e: Action("back"), "Return to the results.", None),
    (lambda e: Action("new_tab", url="https://maps.example"), "Check the airport on a map in a new tab.", None),
    (lambda e: Action("done", text="The cheapest flight is $120."), "The answer is on the page.", None),
]


def web_episode() -> tuple[Episode, list[dict]]:
    shot = Screenshot("1" * 64, "images/web.png", W, H)
    elements = page_elements()
    steps, items = [], []
    for i, (make, reasoning, thought) in enumerate(STEPS):
        action = make(elements)
        steps.append(Step(i, shot, action, elements=list(elements), url="https://fly.example/search"))
        item = {"reasoning": reasoning, "function": {"name": action.type, "parameters": {}}}
        if thought:
            item["thought"] = thought
        items.append(item)
    steps[1].meta["ineffective"] = True
    return Episode("web", "sample", "Find flights from Seattle in business class", steps,
                   meta={"website": "fly.example"}, platform="web"), items


def mind2web_like() -> tuple[Episode, list[dict]]:
    shot = Screenshot("2" * 64, "images/m2w.png", W, H)
    e = page_elements()
    actions = [Action("click", point=(550, 120), element=e[2]), Action("type", text="Seattle", point=(550, 120),
                                                                        element=e[2]),
               Action("select", text="Business", point=(550, 180), element=e[3]),
               Action("click", point=(925, 120), element=e[4])]
    steps = [Step(i, shot, a, elements=list(e)) for i, a in enumerate(actions)]
    items = [{"reasoning": f"Step {i + 1} of the search form.", "function": {"name": a.type, "parameters": {}}}
             for i, a in enumerate(actions)]
    return Episode("m2w", "mind2web", "Search business flights from Seattle", steps,
                   meta={"website": "united", "no_final_screen": True}, platform="web"), items


def _png(seed: int) -> bytes:
    import io

    from PIL import Image, ImageDraw

    image = Image.new("RGB", (W, H), (255, 255, 255))
    pen = ImageDraw.Draw(image)
    for element in page_elements():
        pen.rectangle(element.bounds, outline=(seed * 37 % 256, 90, 160), width=2)
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def add_web(run, copies: int = 3) -> list[str]:
    """Append ``copies`` of each web episode (distinct ids and images) to ``run``'s episodes, annotated as the
    annotate stage would (the template backend's items: the hand-written ones are too bare for the checks that
    export applies); returns the ids."""
    import json
    from dataclasses import replace

    from sftdata.annotate.template import template_items

    lines, notes = [], []
    for n in range(copies):
        for make in (web_episode, mind2web_like):
            episode, items = make()
            sha, rel = run.images.put(_png(n * 10 + len(lines)))
            shot = Screenshot(sha, rel, W, H)
            steps = [replace(s, screenshot=shot) for s in episode.steps]
            episode = replace(episode, id=f"{episode.id}-{n}", steps=steps)
            items = template_items(episode)
            lines.append(episode.to_json())
            notes.append(json.dumps({"id": episode.id, "items": items, "backend": "hand", "prompt_version": "test"},
                                    ensure_ascii=False))
    for path, new in ((run.episodes_path, lines), (run.path / "annotations.jsonl", notes)):
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "a", encoding="utf-8") as f:
            f.write("\n".join(new) + "\n")
    return [json.loads(line)["id"] for line in lines]


def web_run(root, copies: int = 3):
    """A run directory holding only :func:`add_web`'s episodes: what ``sftdata export`` reads."""
    from sftdata.rundir import RunDir

    run = RunDir(root)
    add_web(run, copies)
    return run
