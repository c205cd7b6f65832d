"""Reconstruction backends behind one small interface: ``body(messages) -> dict`` and
``async complete(body) -> Reply``.

- ``template``: offline and deterministic (:mod:`sftdata.annotate.template`); needs no messages.
- ``openai``: any OpenAI-compatible chat endpoint through the official SDK. The SDK retries 408/409/429/5xx and
  timeouts with exponential backoff and jitter, honouring ``Retry-After``; we count its retries.

Hostile endpoints: ``timeout`` is a total deadline for each HTTP try (headers and the whole body: a server that
drips a byte at a time is cut off), a body larger than :data:`MAX_REPLY_BYTES` (decoded) is refused, and a 200
whose body is not a chat completion (a proxy's HTML login page, plain text, JSON without ``choices``, a ``null``
content) is a bad answer, retried like a transient failure. Every failure of the endpoint is an :class:`LLMError`
whose reason is in :data:`ENDPOINT_FAILURES`: it says nothing about the episode, which is left for a rerun.
Token counts are checked (non-negative integers of sane size) before anyone sums them; the API key and any secret
in ``base_url`` (userinfo, ``?api_key=``) are masked in everything that comes back.
"""
from __future__ import annotations

import asyncio
import json
import math
import os
import random
import re
import sys
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, quote, unquote, urlsplit, urlunsplit

from ..errors import FatalError


def _raw_response_header() -> str:
    """The SDK's raw-response header name, read where the SDK is in use (importing it costs about a second: a
    command that talks to no endpoint never does)."""
    try:
        from openai._constants import RAW_RESPONSE_HEADER
    except ImportError:  # pragma: no cover - the name the SDK has used since 1.0
        return "X-Stainless-Raw-Response"
    return RAW_RESPONSE_HEADER


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


# the endpoint failed, not the episode: no answer (timeout, refused connection), an overloaded or broken server
# (429, 5xx, 408/409/425), or a 200 that is not a chat completion. The episode is left for a rerun.
ENDPOINT_FAILURES = frozenset({"llm_timeout", "llm_connection", "llm_rate_limited", "llm_server_error",
                               "llm_bad_answer"})
# a decoded reply body beyond this is not read (memory stays bounded; gzip bombs are not inflated): an endpoint
# failure. A chat answer is kilobytes; up to this size, an over-long answer is still an answer (reply_too_large)
MAX_REPLY_BYTES = 128 * 1024 * 1024
MAX_TOKENS_PER_REPLY = 10 ** 8  # no model reads or writes this many tokens in one request


# --- secrets in URLs --------------------------------------------------------------------------------------
_SECRET_NAME = re.compile(r"key|token|secret|passw|pwd|auth|sig|credential|session|cookie", re.I)


def _url_parts(url: str):
    try:
        return urlsplit(url)
    except ValueError:
        return None


def redact_url(url: str | None) -> str | None:
    """``url`` with its userinfo and the values of secret-looking query parameters replaced by ``***``.

    >>> redact_url("http://user:sk-123@host:8000/v1?api_key=sk-123&api-version=2024")
    'http://***@host:8000/v1?api_key=***&api-version=2024'
    """
    if not url:
        return url
    parts = _url_parts(url)
    if parts is None:
        return "***"  # not even a URL: show nothing of it
    netloc = parts.netloc
    if "@" in netloc:
        netloc = "***@" + netloc.rsplit("@", 1)[1]
    query = "&".join(_redact_pair(pair) for pair in parts.query.split("&")) if parts.query else ""
    fragment = "***" if parts.fragment else ""
    return urlunsplit((parts.scheme, netloc, parts.path, query, fragment))


def _redact_pair(pair: str) -> str:
    name, sep, value = pair.partition("=")
    return f"{name}=***" if sep and value and _SECRET_NAME.search(unquote(name)) else pair


def url_secrets(url: str | None) -> list[str]:
    """The secret parts of ``url`` (userinfo, secret-looking query values, fragment), raw and percent-decoded."""
    parts = _url_parts(url) if url else None
    if parts is None:
        return [url] if url else []
    found: list[str] = []
    if "@" in parts.netloc:
        userinfo = parts.netloc.rsplit("@", 1)[0]
        user, colon, password = userinfo.partition(":")
        # user:password hides the password; a lone user part (http://KEY@host) may be the key itself
        found += [userinfo, password] if colon else [user]
    for pair in parts.query.split("&") if parts.query else []:
        name, sep, value = pair.partition("=")
        if sep and value and _SECRET_NAME.search(unquote(name)):
            found.append(value)
    if parts.fragment:
        found.append(parts.fragment)
    out: list[str] = []
    for secret in found:
        for form in (secret, unquote(secret), quote(unquote(secret), safe="")):
            if len(form) >= 8 and form not in out:  # masking a short "secret" would garble replies (and it is
                out.append(form)                        # no secret worth the name)
    return sorted(out, key=len, reverse=True)


# --- what a 200 must hold -----------------------------------------------------------------------------------
def token_count(value: Any) -> int | None:
    """A usage number as an int, or None when it is not one (NaN, infinite, negative, a string, absurdly large).

    >>> [token_count(v) for v in (12, 12.0, float("nan"), -1, "12", True, 10 ** 12, None)]
    [12, 12, None, None, None, None, None, None]
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if isinstance(value, float):
        if not math.isfinite(value) or not value.is_integer():
            return None
        value = int(value)
    return value if 0 <= value <= MAX_TOKENS_PER_REPLY else None


def clean_usage(usage: Any) -> dict[str, int]:
    """The valid ``prompt_tokens`` and ``completion_tokens`` of a reply's usage (a missing or bad one is left out:
    the caller counts it as unknown)."""
    if not isinstance(usage, dict):
        return {}
    out = {}
    for name in ("prompt_tokens", "completion_tokens"):
        count = token_count(usage.get(name))
        if count is not None:
            out[name] = count
    return out


class BadAnswer(Exception):
    """A 200 whose body is not a chat completion."""


def _preview(data: bytes, content_type: str) -> str:
    text = " ".join(data[:200].decode("utf-8", "replace").split())[:80]
    return f"{content_type or 'no content type'}, {len(data)} bytes: {text!r}"


def parse_completion(data: bytes, content_type: str = "") -> tuple[str, str, str | None, Any]:
    """``(text, finish_reason, model, usage)`` of a chat completion body; :class:`BadAnswer` when it is none."""
    try:
        obj = json.loads(data)
    except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
        raise BadAnswer(f"the 200 answer is not JSON ({_preview(data, content_type)})") from None
    if not isinstance(obj, dict):
        raise BadAnswer(f"the 200 answer is JSON but not an object ({_preview(data, content_type)})")
    choices = obj.get("choices")
    if not isinstance(choices, list) or not choices:
        error = obj.get("error")
        if isinstance(error, dict):
            error = error.get("message", error)
        if error:
            raise BadAnswer(f"the 200 answer is an error: {str(error)[:200]}")
        raise BadAnswer("the 200 answer has no choices" if choices is None or choices == []
                        else f"the 200 answer's choices are not a list ({_preview(data, content_type)})")
    choice = choices[0]
    message = choice.get("message") if isinstance(choice, dict) else None
    if not isinstance(message, dict):
        raise BadAnswer("the 200 answer's first choice has no message")
    finish = choice.get("finish_reason")
    finish = finish if isinstance(finish, str) and finish else "stop"
    content = message.get("content")
    if isinstance(content, list):  # content parts, as some servers answer
        content = "".join(p.get("text") or "" for p in content if isinstance(p, dict) and isinstance(p.get("text"), str))
    if content is None or (isinstance(content, str) and not content.strip() and finish != "length"):
        raise BadAnswer(f"the 200 answer's message has no content (finish_reason {finish})")
    if not isinstance(content, str):
        raise BadAnswer(f"the 200 answer's content is a {type(content).__name__}, not text")
    model = obj.get("model")
    return content, finish, model if isinstance(model, str) else None, obj.get("usage")


def _deadline_client(timeout: float, **kwargs: Any):
    """An ``AsyncOpenAI`` whose every HTTP try (headers and whole body) ends within ``timeout`` seconds and reads
    at most :data:`MAX_REPLY_BYTES` of decoded body. The SDK's own timeout bounds each read only, so a server
    dripping a byte at a time would hold a request for ever; this one raises the HTTP library's ``ReadTimeout``,
    which the SDK retries like any timeout."""
    from openai import AsyncOpenAI

    class DeadlineOpenAI(AsyncOpenAI):
        async def _send_request(self, request: Any, *, stream: bool, **kw: Any) -> Any:
            hx = sys.modules[type(request).__module__.split(".")[0]]  # httpx or httpx2, whichever the SDK uses
            send = super()._send_request

            async def whole() -> Any:
                response = await send(request, stream=True, **kw)
                if stream:  # a streamed call (not ours): the deadline covers the headers
                    return response
                data = bytearray()
                try:
                    async for chunk in response.aiter_bytes():
                        data += chunk
                        if len(data) > MAX_REPLY_BYTES:
                            raise hx.ReadError(f"the reply is larger than {MAX_REPLY_BYTES} bytes", request=request)
                finally:
                    await response.aclose()
                headers = response.headers.copy()
                for name in ("content-encoding", "transfer-encoding", "content-length"):
                    headers.pop(name, None)  # the body is decoded now
                return hx.Response(response.status_code, headers=headers, content=bytes(data), request=request,
                                   extensions=response.extensions, history=response.history)

            try:
                return await asyncio.wait_for(whole(), timeout)
            except asyncio.TimeoutError:
                raise hx.ReadTimeout(f"no complete answer within {timeout:g} s", request=request) from None

    return DeadlineOpenAI(timeout=timeout, **kwargs)


def chat_body(model: str, messages: list[dict], max_tokens: int, temperature: float | None,
              response_format: dict[str, Any] | None = None) -> dict[str, Any]:
    """A ``/v1/chat/completions`` request body (``response_format``: the stage's structured-output schema)."""
    body: dict[str, Any] = {"model": model, "messages": messages, "max_tokens": max_tokens}
    if temperature is not None:
        body["temperature"] = temperature
    if response_format is not None:
        body["response_format"] = response_format
    return body


class OpenAIBackend:
    name = "openai"

    def __init__(self, *, model: str, base_url: str | None = None, api_key_env: str = "OPENAI_API_KEY",
                 timeout: float = 120.0, max_retries: int = 4, max_tokens: int = 8192,
                 temperature: float | None = None, response_format: dict[str, Any] | None = None) -> None:
        key = os.environ.get(api_key_env)
        if not key:
            raise FatalError(f"the openai backend needs an API key in the environment variable {api_key_env}")
        if not model:
            raise FatalError("the openai backend needs --model")
        if not (isinstance(timeout, (int, float)) and math.isfinite(timeout) and timeout > 0):
            raise FatalError(f"--timeout must be a positive number of seconds, not {timeout!r}")
        self.model, self.max_tokens, self.temperature = model, max_tokens, temperature
        self.response_format = response_format
        self.max_retries = max(0, int(max_retries))
        base_url = base_url or os.environ.get("OPENAI_BASE_URL") or None  # the SDK's own fallback, checked alike
        self._secrets = sorted({key, *([key[-20:]] if len(key) > 24 else []), *url_secrets(base_url)},
                               key=len, reverse=True)
        # what is written or printed about the endpoint: never its userinfo or a key in its query
        self.endpoint = redact_url(base_url) or "https://api.openai.com/v1"
        default_query = None
        parts = _url_parts(base_url) if base_url else None
        if base_url and (parts is None or parts.scheme.lower() not in ("http", "https") or not parts.hostname):
            raise FatalError(f"--base-url {self.endpoint!r} is not an http(s) URL (e.g. http://localhost:8000/v1)")
        if parts is not None and parts.query:
            # a query in base_url (``?api_key=...``, ``?api-version=...``) goes on every request, after the path
            default_query = dict(parse_qsl(parts.query, keep_blank_values=True))
            base_url = urlunsplit((parts.scheme, parts.netloc, parts.path, "", ""))
        try:
            self.client = _deadline_client(timeout, api_key=key, base_url=base_url, max_retries=self.max_retries,
                                           default_query=default_query)
        except Exception as exc:  # e.g. the HTTP library's InvalidURL for a bad port
            raise FatalError(self.scrub(f"--base-url {self.endpoint!r} is not usable: {exc}")) from None

    def body(self, messages: list[dict]) -> dict[str, Any]:
        return chat_body(self.model, messages, self.max_tokens, self.temperature, self.response_format)

    def scrub(self, text: str) -> str:
        """``text`` from the endpoint with the API key (or its tail) masked: errors may echo it."""
        for secret in self._secrets:
            text = text.replace(secret, "***")
        return text

    async def complete(self, body: dict[str, Any] | bytes) -> Reply:
        """One chat completion; ``body`` is a request dict or its serialized JSON bytes. A 200 that is not a
        chat completion is asked again like a transient failure (the SDK retries only errors), up to
        ``max_retries`` times with backoff; if it persists, it is an ``llm_bad_answer``."""
        retries = 0
        while True:
            try:
                reply = await self._complete(body)
                reply.retries += retries
                return reply
            except BadAnswer as exc:
                if retries >= self.max_retries:
                    raise LLMError("llm_bad_answer", self.scrub(str(exc))) from None
                await asyncio.sleep(min(8.0, 0.25 * 2 ** retries) * (0.75 + 0.5 * random.random()))
                retries += 1
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
            headers = {_raw_response_header(): "true"}
            if isinstance(body, bytes):
                raw = await self.client.post("/chat/completions", content=body, cast_to=ChatCompletion,
                                             options={"headers": {**headers, "Content-Type": "application/json"}})
            else:
                raw = await self.client.post("/chat/completions", body=body, cast_to=ChatCompletion,
                                             options={"headers": headers})
            # the body is read here, not through the SDK's model: a 200 may be anything (see parse_completion)
        except (openai.AuthenticationError, openai.PermissionDeniedError) as exc:
            raise FatalError(f"the endpoint refused the API key ({exc.status_code}); check the key variable") from None
        except openai.NotFoundError as exc:
            raise FatalError(f"the endpoint answered 404 for model {self.model!r}: {_message(exc)}") from None
        except openai.APITimeoutError:
            raise LLMError("llm_timeout", "no complete reply within the timeout, after the SDK's retries") from None
        except openai.APIConnectionError as exc:
            cause = f" ({exc.__cause__})" if exc.__cause__ is not None and str(exc.__cause__) else ""
            raise LLMError("llm_connection", f"cannot reach the endpoint: {exc.message}{cause}"[:300]) from None
        except openai.RateLimitError as exc:
            raise LLMError("llm_rate_limited", f"429 after the SDK's retries: {_message(exc)}") from None
        except openai.APIStatusError as exc:
            code = exc.status_code
            if code == 408:
                raise LLMError("llm_timeout", f"HTTP 408 after the SDK's retries: {_message(exc)}") from None
            if code >= 500 or code in (409, 425):
                raise LLMError("llm_server_error", f"HTTP {code} after the SDK's retries: {_message(exc)}") from None
            raise LLMError("llm_bad_request", f"HTTP {code}: {_message(exc)}") from None
        except openai.OpenAIError as exc:  # anything else the SDK raises about the exchange
            raise LLMError("llm_connection", f"{type(exc).__name__}: {exc}"[:300]) from None
        response = raw.http_response
        text, finish, model, usage = parse_completion(response.content, response.headers.get("content-type", ""))
        return Reply(text=self.scrub(text), finish_reason=finish, model=model or self.model,
                     retries=raw.retries_taken, usage=clean_usage(usage))

    async def close(self) -> None:
        await self.client.close()


def _message(exc: Any) -> str:
    """An error's message, short: a proxy's HTML error page is not a message."""
    return " ".join(str(getattr(exc, "message", exc)).split())[:300]
