"""What every agent format shares: the step context it renders from, the format interface, the registry.

A format turns one step of an annotated episode into a single-step SFT sample: a system prompt (in its own
words, to its family's contract), a user message (task, history of earlier steps, ``<image>`` tags) and the
assistant's answer (``render``). ``parse`` is render's inverse: the answer text back to a canonical
:class:`~sftdata.model.Action`, equal to ``quantize(action)``, the action as precisely as the format can say it.
A step the format cannot express raises :class:`CannotExpress` with a reason code; the exporter drops that
sample and counts the reason (never inventing data).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, ClassVar

from ..errors import RecordError
from ..registry import add_unique
from ..values import known_name
from ..model import Action, Episode, Step
from ..checks.calls import ITEM_FIELDS  # noqa: F401 (the reconstruction item's optional fields, re-exported)


class CannotExpress(RecordError):
    """This format has no way to say this step's action (reason code + detail)."""


@dataclass(frozen=True)
class StepContext:
    """One step of an episode, with its reconstruction and the export options that shape the sample."""

    episode: Episode
    index: int
    items: list[dict] | None = None  # the episode's annotation items (reasoning + function), if annotated
    history: int = 4  # earlier steps given as text
    history_images: int = 0  # earlier screenshots given as extra images
    memory: bool = False  # add a memory/progress section to the reasoning
    min_pixels: int | None = None  # image limits the model trains with (coordinates of resized-image formats)
    max_pixels: int | None = None
    agent_tools: bool = False  # the sample carries a ``tools`` field: prompts need not list the tools again
    som: bool = False  # the screenshot carries the numbered boxes of the listed elements (export --som)

    @property
    def step(self) -> Step:
        return self.episode.steps[self.index]

    @property
    def action(self) -> Action:
        return self.step.action

    @property
    def item(self) -> dict[str, Any] | None:
        return self.items[self.index] if self.items is not None else None

    @property
    def reasoning(self) -> str:
        return str(self.item.get("reasoning", "")) if self.item else ""

    def field(self, name: str) -> str | None:
        """An optional text field of the reconstruction item (``thought``, ``action_summary``, ``observation``,
        ``memory``; see :data:`ITEM_FIELDS`), None when absent or blank."""
        value = self.item.get(name) if self.item else None
        return value.strip() if isinstance(value, str) and value.strip() else None

    @property
    def target(self) -> str | None:
        if not self.item:
            return None
        value = (self.item.get("function") or {}).get("parameters", {}).get("target_element")
        return value if isinstance(value, str) and value.strip() else None

    @property
    def size(self) -> tuple[int, int]:
        return self.step.screenshot.width, self.step.screenshot.height

    def earlier(self) -> list["StepContext"]:
        """Contexts of the last ``history`` steps before this one, oldest first."""
        return [replace(self, index=i) for i in range(max(0, self.index - self.history), self.index)]

    def image_steps(self) -> list[Step]:
        """The screenshots of the sample: ``history_images`` earlier ones, then the current one."""
        first = max(0, self.index - self.history_images)
        return self.episode.steps[first:self.index + 1]


class AgentFormat:
    """Base of the formats. Subclasses set the class attributes and override the four methods."""

    name: ClassVar[str]
    language: ClassVar[str]  # "zh" or "en": the language of generated text such as memory
    coordinates: ClassVar[str]  # how points are written, for the README table
    needs_reasoning: ClassVar[bool] = True  # the answer carries the reconstructed reasoning
    tool_call: ClassVar[bool] = False  # answers are tool calls (``--agent-tools`` applies)
    family: ClassVar[str]  # the model family the format is written for: image tokens, train.sh's model
    families: ClassVar[tuple[str, ...] | None] = None  # families whose coordinates it can be right for (None: any)
    platforms: ClassVar[tuple[str, ...]] = ("mobile", "web")  # the episodes it can say (others: platform_not_*)

    def system_prompt(self, ctx: StepContext) -> str:
        raise NotImplementedError

    def user_message(self, ctx: StepContext) -> str:
        raise NotImplementedError

    def render(self, ctx: StepContext) -> str:
        raise NotImplementedError

    def parse(self, text: str, ctx: StepContext) -> Action:
        raise NotImplementedError

    def quantize(self, ctx: StepContext) -> Action:
        """``ctx.action`` as this format can express it (what ``parse(render(ctx))`` must return)."""
        raise NotImplementedError

    def thought(self, ctx: StepContext) -> str:
        """The answer's text before its tool call (the assistant turn of the tool-call variant)."""
        return ctx.reasoning

    def tools(self, ctx: StepContext) -> list[dict] | None:
        """The tool schema for the ``tools`` + ``tool_call`` sample variant (tool-call formats only)."""
        return None

    def tool_call_message(self, ctx: StepContext) -> dict | None:
        return None


FORMATS: dict[str, AgentFormat] = {}


def register(fmt: AgentFormat) -> AgentFormat:
    """Add ``fmt`` to the registry under its name; a second format with the same name is an error."""
    return add_unique(FORMATS, fmt, "format")


def get_format(name: str) -> AgentFormat:
    from . import load_all

    load_all()
    try:
        return FORMATS[known_name(name, sorted(FORMATS), "format")]  # any case; a typo is told the close names
    except ValueError as exc:
        raise KeyError(str(exc)) from None


def resolve_family(fmt: AgentFormat, requested: str | None) -> str:
    """The model family an export of ``fmt`` is sized and trained for: the format's own unless ``requested``
    overrides it; a family whose image grid the format's coordinates are not written in is an error.

    >>> from . import get_format
    >>> resolve_family(get_format("qwen3-vl"), None), resolve_family(get_format("react-zh"), "qwen3-vl")
    ('qwen3-vl', 'qwen3-vl')
    >>> resolve_family(get_format("qwen3-vl"), "qwen2.5-vl")
    Traceback (most recent call last):
    ValueError: format qwen3-vl writes points for qwen3-vl; --family qwen2.5-vl would train wrong coordinates
    """
    if requested is None:
        return fmt.family
    if fmt.families is not None and requested not in fmt.families:
        raise ValueError(f"format {fmt.name} writes points for {' or '.join(fmt.families)}; --family {requested} "
                         "would train wrong coordinates")
    return requested


def phone_only(ctx: StepContext, name: str) -> None:
    """A format whose contract is a phone's takes no web episode: ``CannotExpress("platform_not_mobile")``, so a
    run that mixes phones and pages exports each episode in the formats that can say it."""
    if ctx.episode.web:
        raise CannotExpress("platform_not_mobile", f"step {ctx.index + 1}: episode {ctx.episode.id} is a web "
                            f"episode; {name} speaks of a phone")


def image_tags(ctx: StepContext) -> str:
    """``<image>`` tags for the sample's screenshots (earlier ones first), one per line."""
    return "\n".join("<image>" for _ in ctx.image_steps())


def clicked_before(ctx: StepContext):
    """The previous step's click point, if the previous step was a click (what has the keyboard focus)."""
    prev = ctx.episode.steps[ctx.index - 1].action if ctx.index > 0 else None
    return prev.point if prev is not None and prev.type == "click" else None


def typing_focus(ctx: StepContext, client: str):
    """Where the previous step clicked the field a web ``type`` step writes into. A client whose typing writes
    where the focus is, and whose answer holds one action, cannot both click the field and type:
    ``CannotExpress("field_not_focused")`` when the previous step did not click that field."""
    a = ctx.action
    point = clicked_before(ctx)
    if point is not None:
        same = a.element.contains(point) if a.element is not None else a.point == point
        if same:
            return point
    raise CannotExpress("field_not_focused", f"step {ctx.index + 1}: typing needs a click on the field first, and "
                        f"{client} says one action per answer")
