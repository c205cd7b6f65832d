"""A scripted OpenAI-compatible ``/v1/chat/completions`` server for tests and benchmarks.

::

    with FakeOpenAI(lambda request, n: "[...]") as srv:
        ... sftdata annotate RUN --backend openai --base-url {srv.base_url} ...
        srv.requests        # every request: parsed JSON body, headers, path, time

``responder(request_json, call_number) -> FakeReply`` (``call_number`` counts from 1 over the server's life).
It may return a plain string (a 200 chat.completion with that content), :func:`reply` (content plus
``finish_reason``), :func:`status` (an HTTP error with headers, e.g. 429 with ``Retry-After: 1``) or :func:`hang`
(no answer: sleep past the client's timeout, then close the connection). Hostile answers: :func:`raw_body` (any
body and content type, e.g. a proxy's HTML login page with a 200), ``FakeReply(drip=0.5)`` (the body one byte every
0.5 s), ``FakeReply(truncate=100)`` (the connection closed after 100 body bytes), ``FakeReply(usage=...)`` (any
usage object, NaN included); ``FakeOpenAI(..., query_ok=True)`` routes ``/v1/chat/completions?...`` too.

The server listens on 127.0.0.1 only, serves from a background thread, and stops on context exit: sleeping
handlers (``hang``, latency) wake up, open connections are closed, nothing outlives the ``with`` block.

:class:`EpisodeIndex` answers "which episode and window is this request for?" (system prompt = the filled template
for the episode's goal and screenshot count, the user turn's ``截图 N`` numbers, and the annotator images when
goals repeat), so responders can answer with correct items (:meth:`EpisodeIndex.correct_reply`).
"""
from __future__ import annotations

import hashlib
import json
import re
import socket
import threading
import time
import traceback
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Callable, Union

__all__ = ["FakeOpenAI", "FakeReply", "reply", "status", "hang", "raw_body", "EpisodeIndex", "Window", "screenshot_numbers",
           "system_text", "first_user_text", "image_urls", "attempt_of", "fenced", "count_by"]


@dataclass
class FakeReply:
    content: str | None = None
    finish_reason: str = "stop"
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    body: Any = None  # a JSON value (or bytes) sent instead of the chat.completion / error object
    hang: float | None = None  # seconds to sleep before closing the connection without an answer
    latency: float | None = None  # extra delay before this answer (on top of the server's fixed latency)
    content_type: str | None = None  # instead of application/json (e.g. text/html for a proxy's login page)
    drip: float | None = None  # seconds between body bytes: the body is written one byte at a time
    truncate: int | None = None  # write only this many body bytes (Content-Length says all), then close
    usage: Any = None  # a usage object sent instead of the computed one (e.g. NaN or negative counts)


Responder = Callable[[dict, int], Union[str, FakeReply]]


def reply(content: str, finish_reason: str = "stop", **kw: Any) -> FakeReply:
    return FakeReply(content=content, finish_reason=finish_reason, **kw)


def status(code: int, headers: dict[str, str] | None = None, body: Any = None) -> FakeReply:
    return FakeReply(status=code, headers=dict(headers or {}), body=body)


def hang(seconds: float = 5.0) -> FakeReply:
    return FakeReply(hang=seconds)


def raw_body(data: bytes | str, content_type: str = "text/html; charset=utf-8", code: int = 200,
             **kw: Any) -> FakeReply:
    """An answer with exactly this body and content type (a proxy's login page, plain text, broken JSON)."""
    return FakeReply(status=code, body=data.encode() if isinstance(data, str) else data, content_type=content_type,
                     **kw)


def first_time_each(first: Callable[[], str | FakeReply], then: Callable[[dict], str | FakeReply]) -> Responder:
    """A responder that answers ``first()`` the first time each distinct question arrives and ``then(body)`` when
    it is asked again: every question gets the same treatment, whatever order concurrent requests arrive in
    (a rule on the arrival number, ``n <= N``, is not: one client's retry can overtake another's first ask)."""
    seen: set[str] = set()
    lock = threading.Lock()

    def responder(body: dict, n: int) -> str | FakeReply:
        key = json.dumps(body, sort_keys=True, ensure_ascii=False)
        with lock:
            again = key in seen
            seen.add(key)
        return then(body) if again else first()

    return responder


@dataclass
class Request:
    number: int
    path: str
    headers: dict[str, str]  # lower-case names
    json: Any
    raw: bytes
    time: float  # when it arrived
    answered: float | None = None  # when the answer was written (None: no answer, e.g. hang, or the client left)

    def __repr__(self) -> str:
        return f"Request(#{self.number} {self.path}, {len(self.raw)} bytes)"

    @property
    def is_question(self) -> bool:
        """A whole JSON request body: not one cut off by a killed client (which reaches the server as no JSON)."""
        return isinstance(self.json, dict)

    @property
    def digest(self) -> str:
        """sha256 of the canonical body (key order and whitespace do not matter); of the raw bytes for a body that
        is no JSON, so two different cut-off bodies never count as one request asked twice."""
        if self.json is None:
            return hashlib.sha256(b"raw:" + self.raw).hexdigest()
        return hashlib.sha256(json.dumps(self.json, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 256  # the default backlog of 5 drops SYNs when 32 clients connect at once (1 s retransmit)

    def handle_error(self, request: Any, client_address: Any) -> None:
        import sys

        if isinstance(sys.exc_info()[1], OSError):  # a client hung up (timeout, kill, closed pool): normal here
            return
        super().handle_error(request, client_address)


class FakeOpenAI:
    def __init__(self, responder: Responder, *, latency: float = 0.0, max_requests: int = 100_000,
                 keep_alive: bool = True, query_ok: bool = False) -> None:
        # query_ok: a query string after the path (``/v1/chat/completions?api_key=...``) is still the chat route
        self.responder, self.latency, self.max_requests = responder, latency, max_requests
        self.query_ok = query_ok
        self.requests: list[Request] = []
        self.errors: list[str] = []  # responder exceptions (answered 500 with the traceback)
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._conns: set[socket.socket] = set()
        self._calls = 0
        self._in_flight = 0
        self.max_in_flight = 0
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1" if keep_alive else "HTTP/1.0"
            timeout = 30  # idle keep-alive connections end by themselves
            # TCP_NODELAY, as real servers set it: headers and body go out in two writes, and with Nagle the
            # body waits for the client's delayed ACK (about 40 ms on Linux) on every answer
            disable_nagle_algorithm = True

            def setup(self) -> None:
                super().setup()
                with outer._lock:
                    outer._conns.add(self.connection)

            def finish(self) -> None:
                with outer._lock:
                    outer._conns.discard(self.connection)
                try:
                    super().finish()
                except OSError:
                    pass

            def log_message(self, *args: Any) -> None:  # quiet
                pass

            def _read_body(self) -> bytes:
                if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
                    out = b""
                    while True:
                        size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                        if size == 0:
                            self.rfile.readline()
                            return out
                        out += self.rfile.read(size)
                        self.rfile.readline()
                return self.rfile.read(int(self.headers.get("Content-Length") or 0))

            def _send(self, code: int, payload: Any, headers: dict[str, str] | None = None,
                      got: FakeReply | None = None) -> None:
                data = payload if isinstance(payload, bytes) else json.dumps(payload, ensure_ascii=False).encode()
                self.send_response(code)
                self.send_header("Content-Type", (got.content_type if got else None) or "application/json")
                self.send_header("Content-Length", str(len(data)))
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.end_headers()
                if got is not None and got.truncate is not None:
                    self.wfile.write(data[:got.truncate])
                    self.wfile.flush()
                    self.close_connection = True
                    return
                if got is not None and got.drip is not None:
                    for i in range(len(data)):
                        self.wfile.write(data[i:i + 1])
                        self.wfile.flush()
                        if outer._stop.wait(got.drip):
                            self.close_connection = True
                            return
                else:
                    self.wfile.write(data)
                self.wfile.flush()
                if self._current is not None:
                    self._current.answered = time.time()

            def do_GET(self) -> None:
                self._send(404, {"error": {"message": "only POST /v1/chat/completions", "type": "not_found"}})

            _current: Request | None = None

            def do_POST(self) -> None:
                self._current = None
                arrived = time.monotonic()  # latency counts from here, not after this server's own parsing
                raw = self._read_body()
                with outer._lock:
                    outer._calls += 1
                    number = outer._calls
                    outer._in_flight += 1
                    outer.max_in_flight = max(outer.max_in_flight, outer._in_flight)
                try:
                    self._answer(raw, number, arrived)
                except (BrokenPipeError, ConnectionResetError):  # the client gave up (timeout) or was killed
                    self.close_connection = True
                finally:
                    with outer._lock:
                        outer._in_flight -= 1

            def _answer(self, raw: bytes, number: int, arrived: float) -> None:
                try:
                    body = json.loads(raw)
                except ValueError:
                    body = None
                req = Request(number, self.path, {k.lower(): v for k, v in self.headers.items()}, body, raw,
                              time.time())
                with outer._lock:
                    outer.requests.append(req)
                self._current = req
                if number > outer.max_requests:
                    self._send(400, {"error": {"message": "fake server: too many requests", "type": "fake"}},
                               {"x-should-retry": "false"})
                    return
                route = self.path.split("?", 1)[0] if outer.query_ok else self.path
                if not route.rstrip("/").endswith("/chat/completions") or not isinstance(body, dict):
                    self._send(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})
                    return
                try:
                    got = outer.responder(body, number)
                except Exception:  # the test's bug: answer 500 (not retried) and keep the traceback
                    outer.errors.append(traceback.format_exc())
                    self._send(500, {"error": {"message": "responder failed", "type": "fake"}},
                               {"x-should-retry": "false"})
                    return
                if isinstance(got, str):
                    got = FakeReply(content=got)
                delay = outer.latency + (got.latency or 0.0)
                if delay and outer._stop.wait(max(0.0, arrived + delay - time.monotonic())):
                    self.close_connection = True
                    return
                if got.hang is not None:
                    outer._stop.wait(got.hang)
                    self.close_connection = True
                    return
                if got.status != 200:
                    payload = got.body if got.body is not None else {
                        "error": {"message": f"fake error {got.status}", "type": "fake", "code": None}}
                    self._send(got.status, payload, got.headers, got)
                    return
                if got.body is not None:
                    self._send(200, got.body, got.headers, got)
                    return
                content = got.content or ""
                prompt_tokens = max(1, len(raw) // 4)
                completion_tokens = max(1, len(content) // 2)
                self._send(200, {
                    "id": f"chatcmpl-fake{number}", "object": "chat.completion", "created": int(time.time()),
                    "model": body.get("model", "fake"),
                    "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                                 "finish_reason": got.finish_reason, "logprobs": None}],
                    "usage": got.usage if got.usage is not None else {
                        "prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                        "total_tokens": prompt_tokens + completion_tokens},
                }, got.headers, got)

        self._httpd = _Server(("127.0.0.1", 0), Handler)
        self.port = self._httpd.server_address[1]
        self.base_url = f"http://127.0.0.1:{self.port}/v1"
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                        name=f"fake-openai-{self.port}", daemon=True)

    def start(self) -> "FakeOpenAI":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():  # shutdown() waits for serve_forever(): never call it on an unstarted server
            self._httpd.shutdown()
        with self._lock:
            conns = list(self._conns)
        for conn in conns:  # wake handlers blocked reading idle keep-alive connections
            try:
                conn.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        self._httpd.server_close()
        if self._thread.ident is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> "FakeOpenAI":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def wait_idle(self, quiet: float = 0.3, timeout: float = 60.0) -> None:
        """Wait until no connection is open and nothing is in flight for ``quiet`` seconds: after a client was
        killed, every request it sent has been received and answered (or dropped), however loaded the machine.
        Only meaningful while no other client is connected."""
        deadline = time.monotonic() + timeout
        idle_since = None
        while time.monotonic() < deadline:
            with self._lock:
                idle = not self._conns and self._in_flight == 0
                seen = len(self.requests)
            if not idle:
                idle_since = None
            elif idle_since is None or seen != idle_since[1]:
                idle_since = (time.monotonic(), seen)
            elif time.monotonic() - idle_since[0] >= quiet:
                return
            time.sleep(0.02)
        raise AssertionError(f"the fake server was still busy after {timeout:.0f} s")

    # --- what the server saw ------------------------------------------------------------------------------
    def snapshot(self) -> list[Request]:
        with self._lock:
            return list(self.requests)

    @property
    def in_flight(self) -> int:
        with self._lock:
            return self._in_flight

    @property
    def chat_requests(self) -> list[Request]:
        """The whole questions the server received (see :attr:`Request.is_question`)."""
        return [r for r in self.snapshot() if r.is_question]


# --- reading a request ------------------------------------------------------------------------------------
_SHOT = re.compile(r"^截图 (\d+)$")


def system_text(body: dict) -> str:
    return next((m["content"] for m in body["messages"] if m.get("role") == "system"), "")


def _first_user(body: dict) -> list[dict]:
    content = next((m["content"] for m in body["messages"] if m.get("role") == "user"), [])
    return content if isinstance(content, list) else [{"type": "text", "text": content}]


def screenshot_numbers(body: dict) -> list[int]:
    """The 1-based screenshot numbers (``截图 N``) of the first user turn."""
    return [int(m.group(1)) for part in _first_user(body) if part.get("type") == "text"
            for m in [_SHOT.match(part.get("text", ""))] if m]


def first_user_text(body: dict) -> str:
    return "\n".join(p.get("text", "") for p in _first_user(body) if p.get("type") == "text")


def image_urls(body: dict) -> list[str]:
    return [p["image_url"]["url"] for p in _first_user(body) if p.get("type") == "image_url"]


def attempt_of(body: dict) -> int:
    """1 for a first ask; each repair adds an assistant reply and a user message listing the failures."""
    return 1 + sum(1 for m in body["messages"] if m.get("role") == "assistant")


def fenced(text: str) -> str:
    """``text`` in a ```json fence with prose around it, as chat models like to answer."""
    return f"好的，下面是每张截图对应的推理和操作：\n\n```json\n{text}\n```\n\n以上共 {text.count('function')} 项，请查收。"


def count_by(requests: list[Request], key: Callable[[Request], Any]) -> dict[Any, int]:
    out: dict[Any, int] = {}
    for r in requests:
        k = key(r)
        out[k] = out.get(k, 0) + 1
    return out


# --- which episode is this request for? -------------------------------------------------------------------
@dataclass(frozen=True)
class Window:
    episode: Any  # sftdata.model.Episode
    start: int
    end: int

    @property
    def steps(self) -> list:
        return self.episode.steps[self.start:self.end]

    @property
    def is_last(self) -> bool:
        return self.end == len(self.episode.steps)

    @property
    def key(self) -> tuple[str, int, int]:
        return (self.episode.id, self.start, self.end)


def _digest(url: str) -> str:
    return hashlib.sha256(url.encode()).hexdigest()


class EpisodeIndex:
    """Maps chat requests back to ``(episode, window)`` for a run directory.

    Candidates are the windows whose filled system prompt equals the request's and whose screenshot numbers
    match; when several episodes share a goal and a length, the annotator images decide (drawn with the same
    options as the stage, through ``Annotator._image_urls``, which also warms the run's image cache).
    ``options`` are :class:`sftdata.annotate.stage.AnnotateOptions` keyword arguments (window, image_max_side,
    image_format, prompt_file) and must match the run being served.
    """

    def __init__(self, run_path: str | Path, **options: Any) -> None:
        from sftdata.annotate.prompt import fill_template
        from sftdata.annotate.stage import AnnotateOptions, Annotator, split_windows
        from sftdata.rundir import RunDir

        self.run = RunDir(run_path)
        self.opts = AnnotateOptions(backend="template", **options)
        self._annotator = None
        self._Annotator = Annotator
        self._digests: dict[tuple[str, int, int], tuple[str, ...]] = {}
        self._lock = threading.Lock()
        self.episodes = {e.id: e for e in self.run.episodes()}
        annotator = self._annotator_obj()
        self.by_system: dict[tuple[str, int], list[Window]] = {}
        for ep in self.episodes.values():
            prompt = annotator.prompt_for(ep).text  # web episodes have their own template
            for start, end in split_windows(len(ep.steps), self.opts.window):
                system = fill_template(prompt, goal=ep.goal, screenshot_count=end - start)
                self.by_system.setdefault((system, start), []).append(Window(ep, start, end))

    def _annotator_obj(self):
        if self._annotator is None:
            self._annotator = self._Annotator(self.run, self.opts, backend=None)
        return self._annotator

    def close(self) -> None:
        if self._annotator is not None:
            self._annotator.pool.shutdown(wait=True)

    def image_digests(self, w: Window) -> tuple[str, ...]:
        with self._lock:
            got = self._digests.get(w.key)
        if got is None:
            got = tuple(_digest(u) for u in self._annotator_obj()._image_urls(w.steps))
            with self._lock:
                self._digests[w.key] = got
        return got

    def warm(self) -> int:
        """Draw and encode every annotator image (through the stage's image cache); returns the image count."""
        n = 0
        for group in self.by_system.values():
            for w in group:
                n += len(self.image_digests(w))
        return n

    def lookup(self, body: dict) -> Window:
        numbers = screenshot_numbers(body)
        if not numbers:
            raise LookupError("no 截图 N numbers in the request")
        start = numbers[0] - 1
        cands = [w for w in self.by_system.get((system_text(body), start), []) if w.end - w.start == len(numbers)]
        if len(cands) > 1:
            sent = tuple(_digest(u) for u in image_urls(body))
            cands = [w for w in cands if self.image_digests(w) == sent] or cands
        if not cands:
            raise LookupError(f"no episode window matches (start {start}, {len(numbers)} screenshots)")
        return cands[0]

    def correct_items(self, body_or_window: dict | Window) -> list[dict]:
        from sftdata.annotate.template import template_items

        w = body_or_window if isinstance(body_or_window, Window) else self.lookup(body_or_window)
        return template_items(w.episode, w.steps, w.start)

    def correct_reply(self, body: dict) -> str:
        return json.dumps(self.correct_items(body), ensure_ascii=False)


def flip_swipes(items: list[dict]) -> list[dict]:
    """A deep copy of ``items`` with every swipe pointing the other way (a scripted wrong reply)."""
    flip = {"UP": "DOWN", "DOWN": "UP", "LEFT": "RIGHT", "RIGHT": "LEFT"}
    out = json.loads(json.dumps(items))
    for it in out:
        if it["function"]["name"] == "swipe":
            it["function"]["parameters"]["direction"] = flip[it["function"]["parameters"]["direction"]]
    return out
