"""Drive headless Chromium over the DevTools protocol on a pipe (``--remote-debugging-pipe``: Chromium reads
commands on fd 3 and writes replies on fd 4, NUL-terminated JSON), with nothing but the standard library.

Example::

    with Browser() as browser:
        page = browser.open("file:///tmp/report.html")
        print(page.evaluate("document.title"), page.errors, page.requests)
        page.screenshot("/tmp/report.png", full_page=True)
"""
from __future__ import annotations

import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from typing import Any

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--no-default-browser-check",
         "--disable-extensions", "--hide-scrollbars", "--mute-audio", "--remote-debugging-pipe"]


def _high(fds: tuple[int, int]) -> tuple[int, int]:
    """The pipe's ends moved to fds >= 10, so that putting them at 3 and 4 in the child never clobbers one."""
    out = tuple(fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10) for fd in fds)
    for fd in fds:
        os.close(fd)
    return out  # type: ignore[return-value]


class Browser:
    def __init__(self, binary: str | None = None, timeout: float = 30.0) -> None:
        self.binary = binary or shutil.which("chromium") or "chromium"
        self.timeout = timeout
        self.events: list[dict] = []
        self._next_id = 0
        self._buf = b""

    def __enter__(self) -> "Browser":
        self.profile = tempfile.mkdtemp(prefix="sftdata-chromium-")
        self._log = open(os.path.join(self.profile, "stderr.log"), "wb")  # a file: a full pipe would block Chromium
        cmd_r, self._cmd_w = _high(os.pipe())   # we write commands, Chromium reads them as fd 3
        self._out_r, out_w = _high(os.pipe())   # Chromium writes replies as fd 4, we read them

        def wire() -> None:  # in the child, before exec: put the pipe ends at fds 3 and 4 (inheritable)
            os.dup2(cmd_r, 3)
            os.dup2(out_w, 4)

        # close_fds=False keeps 3 and 4 open across exec; Python's own descriptors are close-on-exec anyway

        self.proc = subprocess.Popen([self.binary, *FLAGS, f"--user-data-dir={self.profile}", "about:blank"],
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=self._log,
                                     preexec_fn=wire, close_fds=False)
        os.close(cmd_r)
        os.close(out_w)
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            self.send("Browser.close", wait=False)
        except OSError:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self._cmd_w, self._out_r):
            os.close(fd)
        self._log.close()
        shutil.rmtree(self.profile, ignore_errors=True)

    def _read_message(self, deadline: float) -> dict:
        while b"\0" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._out_r], [], [], left)[0]:
                raise TimeoutError(f"no reply from Chromium: {self.stderr_tail()}")
            chunk = os.read(self._out_r, 1 << 20)
            if not chunk:
                raise ConnectionError(f"Chromium closed the pipe (exit {self.proc.poll()}): {self.stderr_tail()}")
            self._buf += chunk
        raw, self._buf = self._buf.split(b"\0", 1)
        return json.loads(raw)

    def stderr_tail(self, n: int = 2000) -> str:
        self._log.flush()
        with open(self._log.name, "rb") as f:
            return f.read().decode("utf-8", "replace")[-n:]

    def send(self, method: str, params: dict | None = None, session: str | None = None,
             wait: bool = True) -> dict[str, Any]:
        self._next_id += 1
        msg: dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self._cmd_w, json.dumps(msg).encode() + b"\0")
        if not wait:
            return {}
        deadline = time.monotonic() + self.timeout
        while True:
            reply = self._read_message(deadline)
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def wait_for(self, method: str, session: str | None = None) -> dict:
        deadline = time.monotonic() + self.timeout
        for i, event in enumerate(self.events):
            if event.get("method") == method and event.get("sessionId") == session:
                return self.events.pop(i)
        while True:
            event = self._read_message(deadline)
            if event.get("method") == method and event.get("sessionId") == session:
                return event
            self.events.append(event)

    def open(self, url: str, width: int = 1280, height: int = 900) -> "Page":
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        page = Page(self, session)
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.send(f"{domain}.enable", session=session)
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}, session=session)
        self.send("Page.navigate", {"url": url}, session=session)
        self.wait_for("Page.loadEventFired", session)
        return page


class Page:
    def __init__(self, browser: Browser, session: str) -> None:
        self.browser, self.session = browser, session

    def evaluate(self, expression: str) -> Any:
        result = self.browser.send("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                        "awaitPromise": True}, session=self.session)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def _events(self) -> list[dict]:
        return [e for e in self.browser.events if e.get("sessionId") == self.session]

    @property
    def errors(self) -> list[str]:
        """Console errors, uncaught exceptions and error log entries (failed loads included)."""
        out = []
        for e in self._events():
            p, m = e.get("params", {}), e.get("method")
            if m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                out.append("console: " + " ".join(str(a.get("value", a.get("description"))) for a in p["args"]))
            elif m == "Runtime.exceptionThrown":
                out.append("exception: " + json.dumps(p.get("exceptionDetails", {}))[:500])
            elif m == "Log.entryAdded" and p["entry"].get("level") == "error":
                out.append(f"log: {p['entry'].get('text')} {p['entry'].get('url', '')}")
        return out

    @property
    def requests(self) -> list[str]:
        """Every URL the page asked the network stack for (data: URIs included)."""
        return [e["params"]["request"]["url"] for e in self._events() if e.get("method") == "Network.requestWillBeSent"]

    def screenshot(self, path: str, full_page: bool = False) -> None:
        params: dict[str, Any] = {"format": "png"}
        if full_page:
            size = self.browser.send("Page.getLayoutMetrics", session=self.session)["cssContentSize"]
            params.update(captureBeyondViewport=True,
                          clip={"x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": 1})
        data = self.browser.send("Page.captureScreenshot", params, session=self.session)["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))
