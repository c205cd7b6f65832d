"""ms-swift's chat and agent templates as records, the way its ``TemplateMeta`` registry holds them: the markup
Swift wraps a training row in, so that a row's tokens can be counted before training (:mod:`sftdata.export.chat`).

A family names its template by Swift's name (``Family.swift_template``); a template names the agent template
Swift writes a ``tools`` row with (its default for the template: ``hermes`` for the Qwen templates, ``glm4`` for
``glm4v``). ``{{SYSTEM}}`` and ``{{QUERY}}`` are filled in as in Swift's ``prefix`` / ``system_prefix`` /
``prompt`` / ``chat_sep`` / ``suffix``. The records themselves live beside their families (:mod:`.qwen`,
:mod:`.glm`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from ..registry import add_unique


@dataclass(frozen=True)
class AgentTemplate:
    """How one of Swift's agent templates writes a row's ``tools`` and its ``tool_call`` messages."""

    name: str
    tool_system: Callable[[list[Any], str | None], str]  # the system text of (tools, the row's system or None)
    call: Callable[[str], str]  # the text of one tool_call message's content (a JSON object)
    call_separator: str  # between consecutive calls of one assistant turn
    call_ends_turn: bool  # a call closes the assistant turn itself: no suffix after a final call
    caveat: str | None = None  # what an export with --agent-tools should tell its user (export warnings)


@dataclass(frozen=True)
class ChatTemplate:
    """One of Swift's chat templates (its ``TemplateMeta``), as strings."""

    name: str  # Swift's template type
    prefix: str  # opens a row without a system turn
    system_prefix: str  # opens a row with one: {{SYSTEM}}
    prompt: str  # a user turn: {{QUERY}}, then the assistant's opener
    chat_sep: str  # after an assistant turn that is not the last
    suffix: str  # after the last assistant turn
    image: str  # what an <image> tag becomes, its pad tokens aside (those are counted from the image header)
    agent: AgentTemplate
    default_system: str | None = None  # the system of a row that has none
    stop_words: tuple[str, ...] = ()  # the tokens that end a reply (generation's eos ids)
    exact: bool = True  # our text is Swift's byte for byte (False: close enough for an upper bound only)
    spare_tokens: int = 0  # added to a --tokenizer count of an inexact text (newlines the template may add)
    jinja: str = ""  # the simplified chat template the tiny stand-in models ship (``default_system`` filled in)
    markers: tuple[str, ...] = ()  # the turn and image markers of the template: no trained answer holds one

    @property
    def assistant_opener(self) -> str:
        """The marker an assistant turn opens with: the last line of ``prompt`` after the query.

        >>> TEMPLATES["qwen2_5_vl"].assistant_opener, TEMPLATES["glm4v"].assistant_opener
        ('<|im_start|>assistant', '<|assistant|>')
        """
        return self.prompt.split("{{QUERY}}")[1].strip().rsplit("\n", 1)[-1]

    @property
    def turn_ends(self) -> tuple[str, ...]:
        """What may close an assistant turn: a newline, the separator and suffix markers, the stop words.

        >>> TEMPLATES["qwen2_5_vl"].turn_ends, TEMPLATES["glm4v"].turn_ends
        (('\\n', '<|im_end|>', '<|endoftext|>'), ('\\n', '<|user|>', '<|endoftext|>', '<|observation|>'))
        """
        ends = ("\n", self.chat_sep.strip(), self.suffix.strip(), *self.stop_words)
        return tuple(dict.fromkeys(e for e in ends if e))

    def system_turn(self, system: str | None) -> str:
        """The row's opening: ``system_prefix`` with the system, or ``prefix`` when there is none."""
        return self.prefix if system is None else self.system_prefix.replace("{{SYSTEM}}", system)

    def user_turn(self, query: str) -> str:
        return self.prompt.replace("{{QUERY}}", query)


TEMPLATES: dict[str, ChatTemplate] = {}


def register_template(template: ChatTemplate) -> ChatTemplate:
    """Add ``template`` under its name; a second one with the same name is an error (as Swift's registry)."""
    return add_unique(TEMPLATES, template, "template")
