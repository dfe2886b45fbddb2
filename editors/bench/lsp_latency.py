"""Latency of `cannctl server` beside `ruff server`, in one run, on the same file and edits.

    python editors/bench/lsp_latency.py --cannctl target/release/cannctl [--ruff ruff]
        [--edits 200] [--hovers 200] [--lines 3000]

The file: the training scripts of crates/cann-lint/tests/fixtures (TF1 session, Estimator,
TF2), each copy's functions renamed, repeated to `--lines` lines, with a `# noqa` comment in
each copy (ruff's hover answers on noqa codes). Each server gets the same didOpen, then the
same `--edits` incremental didChange notifications (one character of a parameter_map key in
the middle of the file, typed and changed back); the time from sending each didChange to the
publishDiagnostics for that version is one sample. Hover: `--hovers` requests on a
parameter_map key (cannctl) and on a noqa code (ruff, the only hover it has). Both clients
are the same small JSON-RPC client below, so its overhead is in both columns. Prints p50 and p99 of each,
and the ratio cannctl / ruff.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import pathlib
import re
import shutil
import statistics
import sys
import tempfile
import time

REPO = pathlib.Path(__file__).resolve().parents[2]
FIXTURES = REPO / "crates" / "cann-lint" / "tests" / "fixtures"
SOURCES = ["session_bert.py", "estimator_resnet50.py", "tf2_keras_gpt.py"]
KEY = 'parameter_map["precision_mode"]'
WAIT_S = 60.0


def training_script(lines: int) -> str:
    """Copies of the fixture scripts, functions and classes renamed per copy, to `lines`."""
    parts: list[str] = []
    count = 0
    k = 0
    while count < lines:
        for name in SOURCES:
            text = (FIXTURES / name).read_text(encoding="utf-8")
            text = re.sub(r"^(def|class) (\w+)", rf"\1 \2_{k}", text, flags=re.MULTILINE)
            text = text.replace(
                "from npu_bridge.npu_init import *",
                "from npu_bridge.npu_init import *  # noqa: F403",
            )
            parts.append(f"# ---- copy {k} of {name}\n{text}")
            count += text.count("\n") + 1
            k += 1
            if count >= lines:
                break
    body = "\n".join(parts).split("\n")[:lines]
    return "\n".join(body) + "\n"


def pos_of(text: str, needle: str, nth: int, inside: int) -> tuple[int, int]:
    """(line, column) of the `nth` `needle`, `inside` characters in (the text is ASCII)."""
    at = -1
    for _ in range(nth + 1):
        at = text.index(needle, at + 1)
    at += inside
    line = text.count("\n", 0, at)
    return line, at - (text.rfind("\n", 0, at) + 1)


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    # Nearest rank: the smallest sample at or above p percent of them.
    return xs[min(len(xs), max(1, math.ceil(p / 100 * len(xs)))) - 1]


class Rpc:
    """JSON-RPC over a server's stdio, as small as the measurement needs: both servers are
    driven by this same code, so its cost is in both columns."""

    def __init__(self, proc: asyncio.subprocess.Process):
        self.proc = proc
        self.next_id = 0
        self.waiting: dict[int, asyncio.Future] = {}
        self.published: dict[int | None, float] = {}
        self.arrived = asyncio.Event()
        self.reader = asyncio.create_task(self._read())

    def send(self, msg: dict) -> None:
        body = json.dumps(msg).encode()
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def notify(self, method: str, params: object) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    async def request(self, method: str, params: object) -> object:
        self.next_id += 1
        fut = asyncio.get_running_loop().create_future()
        self.waiting[self.next_id] = fut
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        return await asyncio.wait_for(fut, WAIT_S)

    async def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            length = 0
            while True:
                line = await out.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode().partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            msg = json.loads(await out.readexactly(length))
            if "id" in msg and "method" in msg:
                # A request of the server (registration, configuration): accept it.
                self.send({"jsonrpc": "2.0", "id": msg["id"], "result": None})
            elif "id" in msg:
                fut = self.waiting.pop(msg["id"], None)
                if fut is not None and not fut.done():
                    if "error" in msg:
                        fut.set_exception(RuntimeError(str(msg["error"])))
                    else:
                        fut.set_result(msg.get("result"))
            elif msg.get("method") == "textDocument/publishDiagnostics":
                self.published[msg["params"].get("version")] = time.perf_counter()
                self.arrived.set()

    async def diagnostics_for(self, name: str, version: int, sent: float) -> float:
        """Seconds from `sent` to the publication for `version`."""
        deadline = time.monotonic() + WAIT_S
        while True:
            hit = self.published.get(version)
            # A server that does not say the version: the first publication after sending.
            if hit is None and self.published.get(None, 0.0) >= sent:
                hit = self.published.pop(None)
            if hit is not None:
                return hit - sent
            if time.monotonic() > deadline:
                raise TimeoutError(f"{name}: no publishDiagnostics for version {version}")
            self.arrived.clear()
            try:
                await asyncio.wait_for(self.arrived.wait(), 0.5)
            except TimeoutError:
                pass


def position(p: tuple[int, int]) -> dict:
    return {"line": p[0], "character": p[1]}


async def run_server(
    name: str,
    cmd: list[str],
    root: pathlib.Path,
    text: str,
    hover_at: tuple[int, int],
    edit_at: tuple[int, int],
    edits: int,
    hovers: int,
) -> dict[str, list[float]]:
    proc = await asyncio.create_subprocess_exec(
        *cmd,
        cwd=root,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
    )
    rpc = Rpc(proc)
    caps = {
        "textDocument": {
            "publishDiagnostics": {"versionSupport": True},
            "hover": {"contentFormat": ["markdown", "plaintext"]},
            "synchronization": {"didSave": True},
        }
    }
    await rpc.request(
        "initialize",
        {
            "processId": os.getpid(),
            "rootUri": root.as_uri(),
            "workspaceFolders": [{"uri": root.as_uri(), "name": "bench"}],
            "capabilities": caps,
        },
    )
    rpc.notify("initialized", {})
    uri = (root / "train.py").as_uri()
    doc = {"uri": uri, "languageId": "python", "version": 1, "text": text}
    sent = time.perf_counter()
    rpc.notify("textDocument/didOpen", {"textDocument": doc})
    await rpc.diagnostics_for(name, 1, sent)

    changes: list[float] = []
    rng = {"start": position(edit_at), "end": position((edit_at[0], edit_at[1] + 1))}
    for i in range(edits):
        v = i + 2
        # Change the last letter of the key and back: a finding appears and goes.
        new = "x" if i % 2 == 0 else "e"
        change = {
            "textDocument": {"uri": uri, "version": v},
            "contentChanges": [{"range": rng, "text": new}],
        }
        sent = time.perf_counter()
        rpc.notify("textDocument/didChange", change)
        changes.append(await rpc.diagnostics_for(name, v, sent))

    hover: list[float] = []
    params = {"textDocument": {"uri": uri}, "position": position(hover_at)}
    for _ in range(hovers):
        sent = time.perf_counter()
        r = await rpc.request("textDocument/hover", params)
        hover.append(time.perf_counter() - sent)
        if not r:
            raise RuntimeError(f"{name}: no hover at {hover_at}")
    await rpc.request("shutdown", None)
    rpc.notify("exit", None)
    await asyncio.wait_for(proc.wait(), WAIT_S)
    rpc.reader.cancel()
    return {"change": changes, "hover": hover}


def ms(x: float) -> str:
    return f"{x * 1000:8.2f}"


async def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cannctl", default=str(REPO / "target" / "release" / "cannctl"))
    ap.add_argument("--ruff", default=shutil.which("ruff") or "ruff")
    ap.add_argument("--edits", type=int, default=200)
    ap.add_argument("--hovers", type=int, default=200)
    ap.add_argument("--lines", type=int, default=3000)
    a = ap.parse_args()
    text = training_script(a.lines)
    # Middle copy of the key: the edit replaces the `e` of precision_mode.
    n = text.count(KEY)
    edit_at = pos_of(text, KEY, n // 2, len(KEY) - 3)
    cann_hover = pos_of(text, KEY, n // 2, len('parameter_map["') + 2)
    ruff_hover = pos_of(text, "# noqa: F403", n // 2, len("# noqa: ") + 1)
    with tempfile.TemporaryDirectory() as d:
        root = pathlib.Path(d)
        (root / "train.py").write_text(text, encoding="utf-8")
        print(f"{a.lines} lines, {len(text)} bytes, {a.edits} edits, {a.hovers} hovers")
        results = {
            "cannctl": await run_server(
                "cannctl", [a.cannctl, "server"], root, text, cann_hover, edit_at, a.edits, a.hovers
            ),
            "ruff": await run_server(
                "ruff", [a.ruff, "server"], root, text, ruff_hover, edit_at, a.edits, a.hovers
            ),
        }
    print(f"{'':28}{'cannctl':>18}{'ruff':>18}{'cannctl/ruff':>14}")
    for what, label in (("change", "didChange -> diagnostics"), ("hover", "hover")):
        for p in (50, 99):
            c, r = pct(results["cannctl"][what], p), pct(results["ruff"][what], p)
            print(f"{label + f' p{p} (ms)':28}{ms(c):>18}{ms(r):>18}{c / r:>14.2f}")
        print(
            f"{label + ' mean (ms)':28}{ms(statistics.mean(results['cannctl'][what])):>18}"
            f"{ms(statistics.mean(results['ruff'][what])):>18}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
