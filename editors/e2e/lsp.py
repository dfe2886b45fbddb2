"""A session with the real `cannctl server` over stdio, through pytest-lsp's client, and
the helpers the tests share: run the command on the same text, convert positions, wait with
a bound."""

from __future__ import annotations

import asyncio
import json
import os
import pathlib
import subprocess
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import pytest
from lsprotocol import types as t
from pygls.protocol import default_converter
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

REPO = pathlib.Path(__file__).resolve().parents[2]
FIXTURES = REPO / "crates" / "cann-lint" / "tests" / "fixtures"
# Every wait is bounded: a step that does not happen in this time fails the test.
WAIT_S = 30.0


def binary() -> str:
    """The cannctl under test: CANNCTL_BIN, else target/debug/cannctl. Missing under
    CI=true is a failure, elsewhere a skip that says what to build."""
    bin_ = os.path.abspath(os.environ.get("CANNCTL_BIN") or REPO / "target" / "debug" / "cannctl")
    if not os.access(bin_, os.X_OK):
        msg = f"no cannctl binary at {bin_}: run `cargo build -p cannctl` or set CANNCTL_BIN"
        if os.environ.get("CI") == "true":
            pytest.fail(msg)
        pytest.skip(msg)
    return bin_


def cannctl(*args: str, cwd: pathlib.Path | None = None, ok: tuple[int, ...] = (0, 1)) -> str:
    p = subprocess.run(
        [binary(), *args],
        check=False,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        env=_env(),
    )
    assert p.returncode in ok, f"cannctl {' '.join(args)}: exit {p.returncode}\n{p.stderr}"
    return p.stdout


def _env() -> dict[str, str]:
    # The command's language must come from its flags and settings, not the machine's locale.
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANG")}
    env.pop("CANNCTL_DOCS_URL", None)
    return env


def lint_json(paths: list[pathlib.Path], *flags: str, cwd: pathlib.Path) -> dict[str, Any]:
    out = cannctl("lint", "--format", "json", *flags, *map(str, paths), cwd=cwd)
    return json.loads(out)


def uri(path: pathlib.Path) -> str:
    return path.resolve().as_uri()


def utf16_col(line_text: str, chars: int) -> int:
    """The UTF-16 column of the character at index `chars` of a line."""
    return sum(2 if ord(c) > 0xFFFF else 1 for c in line_text[:chars])


def position_of(text: str, needle: str, *, nth: int = 0, inside: int = 0) -> t.Position:
    """The LSP position of the `nth` occurrence of `needle`, `inside` characters into it."""
    at = -1
    for _ in range(nth + 1):
        at = text.index(needle, at + 1)
    at += inside
    line = text.count("\n", 0, at)
    start = text.rfind("\n", 0, at) + 1
    return t.Position(line=line, character=utf16_col(text[start:], at - start))


def offset_of(text: str, p: t.Position) -> int:
    """The string index of an LSP position (UTF-16 column)."""
    lines = text.split("\n")
    start = sum(len(line) + 1 for line in lines[: p.line])
    line = lines[p.line] if p.line < len(lines) else ""
    units = 0
    for i, c in enumerate(line):
        if units >= p.character:
            return start + i
        units += 2 if ord(c) > 0xFFFF else 1
    return start + len(line)


def apply_edits(text: str, edits: list[t.TextEdit]) -> str:
    """`edits` applied to `text`, as a client applies a WorkspaceEdit's edits to one file."""
    spans = sorted(
        ((offset_of(text, e.range.start), offset_of(text, e.range.end), e.new_text) for e in edits),
        reverse=True,
    )
    for s, e, new in spans:
        text = text[:s] + new + text[e:]
    return text


def apply_byte_edits(data: bytes, edits: list[dict[str, Any]]) -> bytes:
    """The command's fix edits (byte ranges) applied to the script's bytes."""
    for e in sorted(edits, key=lambda e: e["start"], reverse=True):
        data = data[: e["start"]] + e["replacement"].encode() + data[e["end"] :]
    return data


async def until(what: str, cond: Callable[[], Any], wait: float = WAIT_S) -> Any:
    """Polls `cond` until it is truthy; fails the test after `wait` seconds."""
    deadline = time.monotonic() + wait
    while True:
        got = cond()
        if got:
            return got
        if time.monotonic() > deadline:
            pytest.fail(f"no {what} within {wait:.0f} s")
        await asyncio.sleep(0.01)


class Session:
    """One running server and the documents opened in it."""

    def __init__(self, client: Any):
        self.client = client
        self.versions: dict[str, int] = {}
        self.texts: dict[str, str] = {}

    def _published(self, u: str) -> list[t.Diagnostic] | None:
        return self.client.diagnostics.get(u)

    async def diagnostics(self, u: str, action: Callable[[], None]) -> list[t.Diagnostic]:
        """Runs `action` (an open or a change of `u`) and returns the diagnostics published
        for it: the first publication for the document's new version."""
        self.client.diagnostics.pop(u, None)
        action()
        want = self.versions.get(u)

        def published() -> list[t.Diagnostic] | None:
            got = self.client.diagnostics.get(u)
            if got is None or self.client.published_versions.get(u) not in (None, want):
                return None
            return list(got)

        await until(f"publishDiagnostics for {u} (version {want})", lambda: published() is not None)
        return published() or []

    async def open(
        self, path: pathlib.Path, text: str | None = None, language: str = "python"
    ) -> list[t.Diagnostic]:
        u = uri(path)
        text = path.read_text(encoding="utf-8", errors="surrogateescape") if text is None else text
        self.versions[u] = 1
        self.texts[u] = text
        return await self.diagnostics(
            u,
            lambda: self.client.text_document_did_open(
                t.DidOpenTextDocumentParams(
                    text_document=t.TextDocumentItem(
                        uri=u, language_id=language, version=1, text=text
                    )
                )
            ),
        )

    async def change(
        self, path: pathlib.Path, start: t.Position, end: t.Position, new: str
    ) -> list[t.Diagnostic]:
        """One incremental edit, as an editor sends a keystroke or a paste."""
        u = uri(path)
        self.versions[u] += 1
        old = self.texts[u]
        self.texts[u] = old[: offset_of(old, start)] + new + old[offset_of(old, end) :]
        return await self.diagnostics(
            u,
            lambda: self.client.text_document_did_change(
                t.DidChangeTextDocumentParams(
                    text_document=t.VersionedTextDocumentIdentifier(
                        uri=u, version=self.versions[u]
                    ),
                    content_changes=[
                        t.TextDocumentContentChangePartial(
                            range=t.Range(start=start, end=end), text=new
                        )
                    ],
                )
            ),
        )

    def close(self, path: pathlib.Path) -> None:
        u = uri(path)
        self.client.text_document_did_close(
            t.DidCloseTextDocumentParams(text_document=t.TextDocumentIdentifier(uri=u))
        )
        self.versions.pop(u, None)
        self.texts.pop(u, None)

    async def hover(self, path: pathlib.Path, pos: t.Position) -> t.Hover | None:
        return await asyncio.wait_for(
            self.client.text_document_hover_async(
                t.HoverParams(text_document=t.TextDocumentIdentifier(uri=uri(path)), position=pos)
            ),
            WAIT_S,
        )

    async def complete(self, path: pathlib.Path, pos: t.Position) -> list[t.CompletionItem]:
        r = await asyncio.wait_for(
            self.client.text_document_completion_async(
                t.CompletionParams(
                    text_document=t.TextDocumentIdentifier(uri=uri(path)), position=pos
                )
            ),
            WAIT_S,
        )
        if r is None:
            return []
        return list(r.items if isinstance(r, t.CompletionList) else r)

    async def code_actions(
        self,
        path: pathlib.Path,
        rng: t.Range,
        diagnostics: list[t.Diagnostic],
        only: list[str] | None = None,
    ) -> list[t.CodeAction]:
        r = await asyncio.wait_for(
            self.client.text_document_code_action_async(
                t.CodeActionParams(
                    text_document=t.TextDocumentIdentifier(uri=uri(path)),
                    range=rng,
                    context=t.CodeActionContext(diagnostics=diagnostics, only=only),
                )
            ),
            WAIT_S,
        )
        return [a for a in (r or []) if isinstance(a, t.CodeAction)]


def _client() -> LanguageClient:
    """pytest-lsp's test client, which also keeps the version each publication is for."""
    client = LanguageClient(converter_factory=default_converter)
    client.published_versions = {}
    features = dict(DEFAULT_CLIENT_FEATURES)

    def published(c: LanguageClient, params: t.PublishDiagnosticsParams) -> None:
        c.published_versions[params.uri] = params.version
        c.diagnostics[params.uri] = params.diagnostics

    features[t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = published
    register_lsp_features(client, features)
    return client


@asynccontextmanager
async def server(
    root: pathlib.Path,
    init: dict[str, Any] | None = None,
    locale: str | None = None,
    watch: bool = False,
) -> AsyncIterator[Session]:
    """A `cannctl server` started in `root`, initialized with `init` as its
    initializationOptions; shut down (shutdown, exit) on leaving."""
    config = ClientServerConfig(
        server_command=[binary(), "server"], server_env=_env(), client_factory=_client
    )
    client = await config.start()

    caps = client_capabilities("visual-studio-code")
    if not watch:
        caps.workspace.did_change_watched_files = None
    try:
        await asyncio.wait_for(
            client.initialize_session(
                t.InitializeParams(
                    capabilities=caps,
                    root_uri=uri(root),
                    workspace_folders=[t.WorkspaceFolder(uri=uri(root), name=root.name)],
                    initialization_options=init,
                    locale=locale,
                )
            ),
            WAIT_S,
        )
        yield Session(client)
        await asyncio.wait_for(client.shutdown_session(), WAIT_S)
        # `exit` after `shutdown` ends the process, with status 0.
        proc = client._server
        code = await asyncio.wait_for(proc.wait(), WAIT_S) if proc else 0
        assert code == 0, f"cannctl server exited with status {code} after shutdown and exit"
    finally:
        # On a failed step the body never sent shutdown; pygls's stop() then waits for the
        # process, which (rightly) runs while its input is open: that wait was the suite's
        # hang. End the process first, so the step's own failure is what pytest reports.
        proc = client._server
        if proc is not None and proc.returncode is None:
            proc.kill()
        await client.stop()
