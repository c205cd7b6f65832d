"""Reconstruction backends behind one small interface: ``body(messages) -> dict`` and
``async complete(body) -> Reply``.

- ``template``: offline and deterministic (:mod:`sftdata.react.template`); needs no messages.
- ``openai``: any OpenAI-compatible chat endpoint through the official SDK. The SDK retries 408/409/429/5xx and
  timeouts with exponential backoff and jitter, honouring ``Retry-After``; we count its retries.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from ..errors import FatalError
from ..schemas import load as load_schema

try:
    from openai._constants import RAW_RESPONSE_HEADER as _RAW_RESPONSE_HEADER
except ImportError:  # pragma: no cover - the name the SDK has used since 1.0
    _RAW_RESPONSE_HEADER = "X-Stainless-Raw-Response"


@dataclass
class Reply:
    text: str
    finish_reason: str = "stop"
    model: str = ""
    usage: dict[str, int] = field(default_factory=dict)
    retries: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"text": self.text, "finish_reason": self.finish_reason, "model": self.model, "usage": self.usage}


class LLMError(Exception):
    """A request that failed after the SDK's retries: one failed attempt, with a reason code."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason, self.detail = reason, detail


def structured_format() -> dict[str, Any]:
    """``response_format`` asking for ``{"items": [...]}`` (structured outputs need an object at the root)."""
    schema = load_schema("reconstruction")
    return {"type": "json_schema", "json_schema": {"name": "reconstruction", "strict": False, "schema": {
        "type": "object", "required": ["items"], "properties": {"items": {k: v for k, v in schema.items()
                                                                          if k not in ("$schema", "$id", "$defs")}},
        "$defs": schema["$defs"]}}}


def chat_body(model: str, messages: list[dict], max_tokens: int, temperature: float | None,
              structured: bool) -> dict[str, Any]:
    """A ``/v1/chat/completions`` request body."""
    body: dict[str, Any] = {"model": model, "messages": messages, "max_tokens": max_tokens}
    if temperature is not None:
        body["temperature"] = temperature
    if structured:
        body["response_format"] = structured_format()
    return body


class OpenAIBackend:
    name = "openai"

    def __init__(self, *, model: str, base_url: str | None = None, api_key_env: str = "OPENAI_API_KEY",
                 timeout: float = 120.0, max_retries: int = 4, max_tokens: int = 8192,
                 temperature: float | None = None, structured: bool = False) -> None:
        from openai import AsyncOpenAI

        key = os.environ.get(api_key_env)
        if not key:
            raise FatalError(f"the openai backend needs an API key in the environment variable {api_key_env}")
        if not model:
            raise FatalError("the openai backend needs --model")
        self.model, self.max_tokens, self.temperature, self.structured = model, max_tokens, temperature, structured
        self._secrets = [key] + ([key[-20:]] if len(key) > 24 else [])
        self.endpoint = base_url or "https://api.openai.com/v1"
        self.client = AsyncOpenAI(api_key=key, base_url=base_url, timeout=timeout, max_retries=max_retries)

    def body(self, messages: list[dict]) -> dict[str, Any]:
        return chat_body(self.model, messages, self.max_tokens, self.temperature, self.structured)

    def scrub(self, text: str) -> str:
        """``text`` from the endpoint with the API key (or its tail) masked: errors may echo it."""
        for secret in self._secrets:
            text = text.replace(secret, "***")
        return text

    async def complete(self, body: dict[str, Any] | bytes) -> Reply:
        """One chat completion; ``body`` is a request dict or its serialized JSON bytes."""
        try:
            return await self._complete(body)
        except LLMError as exc:
            raise LLMError(exc.reason, self.scrub(exc.detail)) from None
        except FatalError as exc:
            raise FatalError(self.scrub(str(exc))) from None

    async def _complete(self, body: dict[str, Any] | bytes) -> Reply:
        import openai

        from openai.types.chat import ChatCompletion

        try:
            # our body is already a valid request: post it as is. chat.completions.create(**body) would walk every
            # node of it (about 9 ms a request) only to send the same JSON. The raw-response header makes the SDK
            # return the response with its retry count, as with_raw_response does.
            headers = {_RAW_RESPONSE_HEADER: "true"}
            if isinstance(body, bytes):
                raw = await self.client.post("/chat/completions", content=body, cast_to=ChatCompletion,
                                             options={"headers": {**headers, "Content-Type": "application/json"}})
            else:
                raw = await self.client.post("/chat/completions", body=body, cast_to=ChatCompletion,
                                             options={"headers": headers})
            completion = raw.parse()
        except (openai.AuthenticationError, openai.PermissionDeniedError) as exc:
            raise FatalError(f"the endpoint refused the API key ({exc.status_code}); check the key variable") from None
        except openai.NotFoundError as exc:
            raise FatalError(f"the endpoint answered 404 for model {self.model!r}: {exc.message}") from None
        except openai.APITimeoutError:
            raise LLMError("llm_timeout", "no reply within the timeout, after the SDK's retries") from None
        except openai.APIConnectionError as exc:
            raise LLMError("llm_connection", f"cannot reach the endpoint: {exc.message}") from None
        except openai.RateLimitError as exc:
            raise LLMError("llm_rate_limited", f"429 after the SDK's retries: {exc.message}") from None
        except openai.APIStatusError as exc:
            raise LLMError("llm_server_error" if exc.status_code >= 500 else "llm_bad_request",
                           f"HTTP {exc.status_code}: {exc.message}") from None
        if not completion.choices:
            raise LLMError("empty_reply", "the reply has no choices")
        choice = completion.choices[0]
        usage = completion.usage
        return Reply(text=self.scrub(choice.message.content or ""), finish_reason=choice.finish_reason or "stop",
                     model=completion.model or self.model, retries=raw.retries_taken,
                     usage={"prompt_tokens": usage.prompt_tokens if usage else 0,
                            "completion_tokens": usage.completion_tokens if usage else 0})

    async def close(self) -> None:
        await self.client.close()
