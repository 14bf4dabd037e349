"""Headless Chromium driven over the DevTools protocol: load a page, collect console errors, screenshot.

Chromium (Debian package ``chromium``) is started with a private profile and
``--remote-debugging-port=0``; the port it picked is read from ``DevToolsActivePort`` in the
profile. Every wait is on a condition with a deadline, never a fixed sleep.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import websocket

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
         "--remote-allow-origins=*")


@dataclass
class PageLoad:
    """What loading one page produced."""

    errors: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    screenshot_png: bytes = b""
    evaluated: Any = None


class DevTools:
    """One websocket session on one page target."""

    def __init__(self, ws_url: str) -> None:
        self.ws = websocket.create_connection(ws_url, timeout=60)
        self.next_id = 0
        self.events: list[dict[str, Any]] = []

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.ws.recv())
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return dict(message.get("result", {}))
            self.events.append(message)

    def wait_event(self, method: str, timeout_s: float) -> None:
        deadline = time.monotonic() + timeout_s
        while not any(e.get("method") == method for e in self.events):
            if time.monotonic() > deadline:
                raise TimeoutError(f"no {method} within {timeout_s}s")
            self.ws.settimeout(max(deadline - time.monotonic(), 0.1))
            self.events.append(json.loads(self.ws.recv()))

    def close(self) -> None:
        self.ws.close()


def _port(profile: Path, proc: subprocess.Popen[bytes], timeout_s: float) -> int:
    marker = profile / "DevToolsActivePort"
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"chromium exited with {proc.returncode}")
        if marker.exists() and marker.read_text().strip():
            return int(marker.read_text().splitlines()[0])
        time.sleep(0.1)
    raise TimeoutError(f"chromium did not open its DevTools port within {timeout_s}s")


def _page_ws(port: int) -> str:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=30) as response:
        targets = json.loads(response.read())
    return str(next(t["webSocketDebuggerUrl"] for t in targets if t.get("type") == "page"))


def _errors(events: list[dict[str, Any]]) -> list[str]:
    out = []
    for e in events:
        method, params = e.get("method"), e.get("params", {})
        if method == "Runtime.exceptionThrown":
            out.append(json.dumps(params.get("exceptionDetails", {}))[:500])
        elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            out.append(json.dumps(params.get("args", []))[:500])
        elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
            out.append(str(params["entry"].get("text"))[:500])
    return out


def load_page(path: Path, *, width: int = 1400, height: int = 2400, settle_js: str = "true",
              timeout_s: float = 120) -> PageLoad:
    """Open ``path`` in headless Chromium; wait for load and ``settle_js`` to be true; screenshot it."""
    profile = Path(tempfile.mkdtemp(prefix="chromium-"))
    try:
        proc = subprocess.Popen([CHROMIUM, *FLAGS, f"--user-data-dir={profile}", "--remote-debugging-port=0",
                                 f"--window-size={width},{height}", "about:blank"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        try:
            return _drive(_page_ws(_port(profile, proc, timeout_s)), path, width, height, settle_js, timeout_s)
        finally:
            _stop(proc)
    finally:
        _remove(profile)


def _stop(proc: subprocess.Popen[bytes], timeout_s: float = 30.0) -> None:
    """Stop Chromium and every helper it started (its own session): a renderer or crash
    handler that outlives the browser still writes into the profile while it is removed
    ("Directory not empty"; :func:`_remove` retries until it is quiet)."""
    _signal_group(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    _signal_group(proc.pid, signal.SIGKILL)  # helpers that outlived the browser


def _remove(profile: Path, timeout_s: float = 30.0) -> None:
    """Remove the profile once nothing writes into it any more (a helper killed a moment ago
    may still be flushing): retried until it succeeds or ``timeout_s`` has passed."""
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            shutil.rmtree(profile)
            return
        except FileNotFoundError:
            return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def _signal_group(pgid: int, sig: int) -> bool:
    """Send ``sig`` to process group ``pgid``; whether any process of it was still there."""
    try:
        os.killpg(pgid, sig)
    except ProcessLookupError:
        return False
    return True


def _drive(ws_url: str, path: Path, width: int, height: int, settle_js: str, timeout_s: float) -> PageLoad:
    tools = DevTools(ws_url)
    try:
        for domain in ("Page", "Runtime", "Log", "Network"):
            tools.call(f"{domain}.enable")
        tools.call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=False)
        tools.call("Page.navigate", url=path.resolve().as_uri())
        tools.wait_event("Page.loadEventFired", timeout_s)
        evaluated = _wait_true(tools, settle_js, timeout_s)
        shot = tools.call("Page.captureScreenshot", format="png")
        requests = [str(e["params"]["request"]["url"]) for e in tools.events
                    if e.get("method") == "Network.requestWillBeSent"]
        return PageLoad(_errors(tools.events), requests, base64.b64decode(shot["data"]), evaluated)
    finally:
        tools.close()


def _wait_true(tools: DevTools, expression: str, timeout_s: float) -> Any:
    deadline = time.monotonic() + timeout_s
    while True:
        result = tools.call("Runtime.evaluate", expression=expression, returnByValue=True)
        value = result.get("result", {}).get("value")
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(f"{expression!r} still false after {timeout_s}s")
        time.sleep(0.2)
