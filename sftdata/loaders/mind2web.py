"""Multimodal-Mind2Web steps -> canonical web steps: the target, the crop, the elements, the action.

One release row is one step of a task (``annotation_id``): the page before the action as a whole-page screenshot
(1280 wide, often thousands of pixels tall), the operation (``CLICK``/``TYPE``/``SELECT`` with its ``value``), the
positive candidates (the element acted on) and negative ones (other elements of the page), each a JSON object
whose ``attributes`` JSON text holds ``backend_node_id`` and ``bounding_box_rect`` ("x,y,width,height" in page
pixels, "-1,-1,-1,-1" when not rendered).

- **target**: the positive candidate marked ``is_original_target``, else the first positive. None is
  ``no_positive_candidate``; a box not rendered, of zero area or off the page is ``box_outside_page``.
- **crop**: the step's image is a viewport-sized window of the page (default 1280x720) that holds the target. The
  target's place in the window is drawn from a hash of ``action_uid`` (its centre at 15-85 % of the height), so
  it is not always in the middle; a target taller than the window is cut at the window's edge and the point is
  the centre of its visible part. The page is kept byte for byte in the image store; the crop is a PNG of the
  page's pixels (:mod:`.png_writer`); ``step.meta["crop"]`` records both (:func:`sftdata.model.crop_of`).
  Coordinates are the crop's.
- **elements**: the candidates whose box meets the crop, cut to it, top to bottom (at most
  :data:`MAX_ELEMENTS`, the target always among them), with their tag, identifying attributes and the visible
  text found in ``cleaned_html`` (:mod:`.dom_text`). A negative candidate's box is read from its JSON text first
  (:func:`quick_box`); only the few that meet the crop are parsed whole (a release row holds about 2,000).
- **action**: ``CLICK`` (and the release's ``HOVER``/``ENTER``) -> ``click``, ``TYPE`` -> ``type``, ``SELECT`` ->
  ``select``, at the centre of the target's visible part; ``target`` names it in words (``combobox "From"``).
"""
from __future__ import annotations

import hashlib
import io
import json
import math
import re
from dataclasses import dataclass
from typing import Any, Iterable

from PIL import Image

from ..errors import RecordError
from ..io import ImageStore, sha256_hex
from ..model import Action, Element, Screenshot, Step
from .dom import web_desc, web_flags
from .dom_text import texts_by_node_id
from .images import FORMATS, MAX_PIXELS, check_size
from .mind2web_boxes import MIN_VISIBLE, shown_boxes
from .png_writer import encode_png

SOURCE = "mind2web"
MAX_ELEMENTS = 80
PLACE = (0.15, 0.85)  # where the target's centre may sit in the window, as a share of its height
OPS = {"CLICK": "click", "HOVER": "click", "ENTER": "click", "TYPE": "type", "SELECT": "select"}
KEPT_ATTRS = ("id", "name", "type", "role", "aria_role", "aria_label", "placeholder", "title", "alt", "value", "href")
ROLE_OF_TAG = {"a": "link", "button": "button", "select": "combobox", "textarea": "textbox", "img": "image",
               "option": "option", "li": "listitem", "label": "label"}


@dataclass(frozen=True)
class Candidate:
    """One candidate element: tag, node id, box (left, top, right, bottom page pixels, or None) and attributes."""

    tag: str
    node_id: str
    box: tuple[float, float, float, float] | None
    attrs: dict[str, str]
    original: bool = False


@dataclass
class StepInput:
    """What one step needs, from a Parquet row or a text-only JSON action with its screenshot."""

    annotation_id: str
    action_uid: str
    index: int
    operation: Any  # a JSON text (Parquet) or an object (JSON)
    pos: list[Any]  # JSON texts or objects
    neg: list[Any]
    cleaned_html: str
    image: bytes | None
    action_repr: str | None = None
    where: dict[str, Any] | None = None  # the row's place in its file, for the ledger


def parse_box(rect: Any) -> tuple[float, float, float, float] | None:
    """``"x,y,width,height"`` -> (left, top, right, bottom), or None when not rendered or unreadable.

    >>> parse_box("10,20.5,100,30"), parse_box("-1,-1,-1,-1")
    ((10.0, 20.5, 110.0, 50.5), None)
    """
    try:
        x, y, w, h = (float(v) for v in str(rect).split(","))
    except ValueError:
        return None
    if not all(math.isfinite(v) for v in (x, y, w, h)) or w <= 0 or h <= 0 or (x, y, w, h) == (-1, -1, -1, -1):
        return None
    return (x, y, x + w, y + h)


_BOX_KEY = "bounding_box_rect"
_BOX = re.compile(r'bounding_box_rect\\?"\s*:\s*\\?"([^"\\]*)\\?"')
_ASCII_ESCAPE = re.compile(r"\\u00[2-7]", re.IGNORECASE)  # how a JSON text could spell the key another way
UNKNOWN = object()  # quick_box could not read the box: parse the candidate


def quick_box(value: Any) -> tuple[float, float, float, float] | None | object:
    """A candidate's box from its JSON text without parsing it (:func:`parse_box` of it), or :data:`UNKNOWN`.

    The text must name ``bounding_box_rect`` once and plainly (no ``\\u00XX`` escape that could spell the key
    another way), followed by its string value. A box read so only ever keeps a candidate out: where it was
    another field's text, the real key is absent and the parsed candidate has no box either; a candidate
    whose quick box meets the crop is parsed whole and placed by its parsed box.

    >>> quick_box(json.dumps({"tag": "a", "attributes": json.dumps({"bounding_box_rect": "10,20,30,40"})}))
    (10.0, 20.0, 40.0, 60.0)
    >>> quick_box('{"attributes": "{}"}') is UNKNOWN
    True
    """
    if not isinstance(value, str) or value.count(_BOX_KEY) != 1 or _ASCII_ESCAPE.search(value):
        return UNKNOWN
    match = _BOX.search(value)
    return parse_box(match.group(1)) if match else UNKNOWN


def parse_candidate(value: Any) -> Candidate:
    """A release candidate (a JSON text, or the object of the text-only JSON) -> Candidate."""
    try:
        obj = json.loads(value) if isinstance(value, str) else value
        attrs = obj.get("attributes") or {}
        attrs = json.loads(attrs) if isinstance(attrs, str) else attrs
        if not isinstance(attrs, dict):
            raise TypeError("attributes is not an object")
    except (ValueError, TypeError, AttributeError) as exc:
        raise RecordError("bad_candidate", f"a candidate is not the release's JSON object: {exc}"[:200]) from None
    attrs = {str(k): "" if v is None else str(v) for k, v in attrs.items()}
    node_id = str(obj.get("backend_node_id") or attrs.get("backend_node_id") or "")
    original = any(v in (True, "true", "True") for v in (obj.get("is_original_target"), attrs.get("is_original_target")))
    return Candidate(str(obj.get("tag") or ""), node_id, parse_box(attrs.get("bounding_box_rect")), attrs, original)


def operation_of(value: Any) -> tuple[str, str]:
    """The canonical action type and value of a release operation (JSON text or object).

    >>> operation_of('{"original_op": "ENTER", "value": "", "op": "CLICK"}')
    ('click', '')
    """
    try:
        op = json.loads(value) if isinstance(value, str) else value
        name = str(op.get("op") or op.get("original_op") or "").upper()
        text = op.get("value")
    except (ValueError, TypeError, AttributeError):
        raise RecordError("bad_operation", f"operation is not a JSON object: {str(value)[:80]!r}") from None
    if name not in OPS:
        raise RecordError("unknown_operation", f"operation {name or '(none)'!r} is not CLICK, TYPE or SELECT")
    return OPS[name], "" if text is None else str(text)


def _place(action_uid: str, axis: str) -> float:
    digest = hashlib.sha256(f"{action_uid}:{axis}".encode("utf-8")).digest()
    share = int.from_bytes(digest[:8], "big") / 2 ** 64
    return PLACE[0] + share * (PLACE[1] - PLACE[0])


def _window(start: int, end: int, size: int, page: int, place: float) -> int:
    """Where a window of ``size`` on an axis of ``page`` pixels starts so that it holds [start, end)."""
    if end - start >= size:
        return max(0, min(start, page - size))  # taller than the window: keep its start, cut its end
    lo, hi = max(0, end - size), min(page - size, start)
    wanted = round((start + end) / 2 - place * size)
    return max(lo, min(hi, wanted))


def crop_box(target: tuple[int, int, int, int], page: tuple[int, int], viewport: tuple[int, int],
             action_uid: str) -> tuple[int, int, int, int]:
    """The viewport-sized window of the page that shows ``target`` (all in page pixels), placed by ``action_uid``.

    >>> crop_box((100, 3000, 300, 3040), (1280, 5000), (1280, 720), "uid-1")  # the target's centre at 66 %
    (0, 2546, 1280, 3266)
    """
    (w, h), (vw, vh) = page, viewport
    cw, ch = min(vw, w), min(vh, h)
    left = _window(target[0], target[2], cw, w, _place(action_uid, "x"))
    top = _window(target[1], target[3], ch, h, _place(action_uid, "y"))
    return (left, top, left + cw, top + ch)


def _pixels(box: tuple[float, float, float, float], w: int, h: int) -> tuple[int, int, int, int] | None:
    left, top = max(0, math.floor(box[0])), max(0, math.floor(box[1]))
    right, bottom = min(w, math.ceil(box[2])), min(h, math.ceil(box[3]))
    return (left, top, right, bottom) if right > left and bottom > top else None


def _clip(box: tuple[int, int, int, int], crop: tuple[int, int, int, int]) -> tuple[int, int, int, int] | None:
    left, top = max(box[0], crop[0]) - crop[0], max(box[1], crop[1]) - crop[1]
    right, bottom = min(box[2], crop[2]) - crop[0], min(box[3], crop[3]) - crop[1]
    return (left, top, right, bottom) if right > left and bottom > top else None


def _shown(box: tuple[float, float, float, float] | None, w: int, h: int,
           crop: tuple[int, int, int, int]) -> tuple[int, int, int, int] | None:
    """A candidate's bounds in the crop, or None when it has no box or shows less than MIN_VISIBLE of a side."""
    if box is None:
        return None
    px = _pixels(box, w, h)
    bounds = _clip(px, crop) if px is not None else None
    if bounds is None or min(bounds[2] - bounds[0], bounds[3] - bounds[1]) < MIN_VISIBLE:
        return None
    return bounds


def _element(c: Candidate, index: int, bounds: tuple[int, int, int, int], text: str) -> Element:
    attrs = tuple((k, c.attrs[k][:200]) for k in KEPT_ATTRS if c.attrs.get(k))
    desc = web_desc(c.attrs)
    if c.tag == "select" and c.attrs.get("value"):
        text = c.attrs["value"]  # a closed dropdown shows its chosen option, not every option's text
    return Element(index=index, bounds=bounds, text=text, desc=desc[:200], hint=c.attrs.get("placeholder", "")[:200],
                   class_name=c.tag, flags=web_flags(c.tag, c.attrs), tag=c.tag, attrs=attrs)


def describe(element: Element) -> str:
    """A short English name of the target: its role (or tag) and its label.

    >>> describe(Element(0, (0, 0, 9, 9), hint="From", tag="input", attrs=(("role", "combobox"),)))
    'combobox "From"'
    >>> describe(Element(1, (0, 0, 9, 9), text="Economy", desc="Cabin", tag="select"))
    'combobox "Cabin"'
    """
    role = element.attr("role") or element.attr("aria_role") or ROLE_OF_TAG.get(element.tag, "")
    if not role and element.tag == "input":
        role = {"checkbox": "checkbox", "radio": "radio", "submit": "button", "button": "button"}.get(
            element.attr("type").lower(), "textbox")
    named_by_label = element.tag in ("select", "input", "textarea")  # their text is a value, not their name
    label = ((element.desc or element.hint or element.text) if named_by_label else element.label) \
        or element.attr("value") or element.attr("name")
    label = label.strip()
    label = label if len(label) <= 60 else label[:57].rstrip() + "..."
    role = role or element.tag or "element"
    return f'{role} "{label}"' if label else role


def decode_page(data: bytes | None) -> tuple[Image.Image, str]:
    """The page screenshot decoded, and the extension of its real format (RecordError otherwise)."""
    if not data:
        raise RecordError("missing_screenshot", "the step has no screenshot")
    try:
        probe = Image.open(io.BytesIO(data))  # no context: closing it would free the pixels kept below
        if probe.format not in FORMATS:
            raise RecordError("bad_image", f"the screenshot is {probe.format or 'an unknown format'}, "
                              "not PNG, JPEG or WebP")
        if probe.size[0] * probe.size[1] > MAX_PIXELS:
            raise RecordError("image_too_large", f"the page is {probe.size[0]}x{probe.size[1]}")
        ext = FORMATS[probe.format]
        probe.load()
        page = probe if probe.mode == "RGB" else probe.convert("RGB")  # a JPEG page decodes to RGB: no copy
    except RecordError:
        raise
    except Exception as exc:  # PIL raises many kinds for broken bytes
        raise RecordError("bad_image", f"the screenshot cannot be decoded: {exc}"[:200]) from None
    return page, ext


def _target(cands: list[Candidate]) -> Candidate:
    if not cands:
        raise RecordError("no_positive_candidate", "the step names no element it acts on")
    return next((c for c in cands if c.original), cands[0])


def shown_candidates(negatives: Iterable[Any], pos: list[Candidate], target: Candidate, page: tuple[int, int],
                     crop: tuple[int, int, int, int], max_elements: int = MAX_ELEMENTS
                     ) -> list[tuple[tuple[int, int, int, int], Candidate]]:
    """(bounds in the crop, candidate) of the candidates the crop shows, the target among them, top to bottom (at
    most ``max_elements``: the target and the others first by (top, left), positives before negatives on a tie).

    Boxes first: every negative's box is read at once from its text (:func:`.mind2web_boxes.shown_boxes`, else
    :func:`quick_box` one by one), and only the negatives that make the cut are parsed, in order, a broken one
    giving its place to the next. The result is the one parsing every candidate gives."""
    w, h = page
    negatives = list(negatives)
    ranked = []  # ((top, left, positives first, index), bounds, candidate, or None when not parsed yet)
    for i, c in enumerate(pos):
        bounds = _shown(c.box, w, h, crop) if c is not target else None
        if bounds is not None:
            ranked.append(((bounds[1], bounds[0], 0, i), bounds, c))
    known, unknown = shown_boxes(negatives, page, crop)
    for i in unknown:  # texts Arrow did not read: one by one, parsed when even that cannot place them
        box = quick_box(negatives[i])
        if box is not UNKNOWN:
            bounds = _shown(box, w, h, crop)  # type: ignore[arg-type]
            if bounds is not None:
                ranked.append(((bounds[1], bounds[0], 1, i), bounds, None))
            continue
        try:
            c = parse_candidate(negatives[i])
        except RecordError:
            continue
        bounds = _shown(c.box, w, h, crop)
        if bounds is not None:
            ranked.append(((bounds[1], bounds[0], 1, i), bounds, c))
    ranked += [((bounds[1], bounds[0], 1, i), bounds, None) for i, bounds in known.items()]
    ranked.sort(key=lambda entry: entry[0])
    chosen: list[tuple[tuple[int, int, int, int], Candidate]] = []
    for (_, _, _, i), bounds, c in ranked:
        if len(chosen) >= max_elements - 1:
            break
        if c is None:
            try:
                c = parse_candidate(negatives[i])  # a broken negative candidate only loses that element
            except RecordError:
                continue
            if _shown(c.box, w, h, crop) is None:  # the box read was another field's text: it has none
                continue
        chosen.append((bounds, c))
    target_bounds = _clip(_pixels(target.box, w, h), crop)  # type: ignore[arg-type]
    assert target_bounds is not None
    return sorted([(target_bounds, target)] + chosen, key=lambda bc: (bc[0][1], bc[0][0]))


def build_step(row: StepInput, index: int, store: ImageStore | None, viewport: tuple[int, int] = (1280, 720),
               max_elements: int = MAX_ELEMENTS) -> Step:
    """One release step -> Step (the crop stored, the page kept); RecordError with the reason it cannot be used."""
    kind, value = operation_of(row.operation)
    pos = [parse_candidate(c) for c in row.pos or ()]
    target = _target(pos)
    page, ext = decode_page(row.image)
    w, h = page.size
    target_px = _pixels(target.box, w, h) if target.box is not None else None
    if target_px is None:
        raise RecordError("box_outside_page", f"the target's box {target.attrs.get('bounding_box_rect', '')!r} is "
                          f"not on the {w}x{h} page")
    crop = crop_box(target_px, (w, h), viewport, row.action_uid)
    check_size(crop[2] - crop[0], crop[3] - crop[1], "the crop")
    # lossless, and PNG as every consumer reads it (see png_writer for the measured alternatives)
    crop_bytes = encode_png(page.crop(crop))
    del page

    chosen = shown_candidates(row.neg or (), pos, target, (w, h), crop, max_elements)
    texts = texts_by_node_id(row.cleaned_html or "", {c.node_id for _, c in chosen if c.node_id})
    elements, target_element = [], None
    for i, (bounds, c) in enumerate(chosen):
        element = _element(c, i, bounds, texts.get(c.node_id, ""))
        elements.append(element)
        if c is target:
            target_element = element
    assert target_element is not None
    point = target_element.center
    try:
        action = Action(kind, point=point, text=value if kind != "click" else None, element=target_element,
                        target=describe(target_element))
    except ValueError as exc:
        raise RecordError("bad_action", str(exc)) from None

    if store is not None:
        page_sha, page_path = store.put(row.image, ext)  # type: ignore[arg-type]
        crop_sha, crop_path = store.put(crop_bytes, "png")
    else:
        page_sha, crop_sha = sha256_hex(row.image), sha256_hex(crop_bytes)  # type: ignore[arg-type]
        page_path, crop_path = ImageStore.relpath(page_sha, ext), ImageStore.relpath(crop_sha)
    shot = Screenshot(crop_sha, crop_path, crop[2] - crop[0], crop[3] - crop[1])
    meta: dict[str, Any] = {"crop": {"page": Screenshot(page_sha, page_path, w, h).to_dict(), "box": list(crop)},
                            "action_uid": row.action_uid}
    if row.action_repr:
        meta["action_repr"] = row.action_repr
    return Step(index=index, screenshot=shot, action=action, elements=elements, meta=meta)
