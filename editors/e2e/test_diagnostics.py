"""Diagnostics from `cannctl server` equal `cannctl lint --format json` (and `cannctl check
--format json` for config files) on the same text: same places, severities, rule ids,
messages and hints."""

from __future__ import annotations

import csv
import io
import json
import os
import pathlib
import shutil

import pytest
from lsp import FIXTURES, REPO, cannctl, lint_json, server, utf16_col
from lsprotocol import types as t

SEVERITY = {
    "error": t.DiagnosticSeverity.Error,
    "warning": t.DiagnosticSeverity.Warning,
    "note": t.DiagnosticSeverity.Information,
}

SCRIPTS = sorted(FIXTURES.glob("*.py")) + sorted((FIXTURES / "patterns").glob("*.py"))


def check_rule_id(f: dict) -> str:
    """The code of a `cannctl check` finding: its spec rule, else its option."""
    return f.get("rule") or f.get("option") or ""


def expected(text: str, findings: list[dict], codes: list[str]) -> list[tuple]:
    """What the command found, in the server's terms: 0-based line, UTF-16 column."""
    lines = text.split("\n")
    out = []
    for f, code in zip(findings, codes, strict=True):
        line = f.get("line", 1) - 1
        col = utf16_col(lines[line] if line < len(lines) else "", f.get("column", 1) - 1)
        out.append((line, col, SEVERITY[f["severity"]], code, f["message"], f.get("hint")))
    return sorted(out, key=repr)


def got(diags: list[t.Diagnostic]) -> list[tuple]:
    out = []
    for d in diags:
        hint = d.related_information[0].message if d.related_information else None
        out.append(
            (d.range.start.line, d.range.start.character, d.severity, d.code, d.message, hint)
        )
    return sorted(out, key=repr)


def findings_by_path(report: dict) -> dict[str, list[dict]]:
    return {f["path"]: f["findings"] for f in report["files"]}


async def compare(root: pathlib.Path, rel: list[str], flags: tuple[str, ...] = ()) -> int:
    """Opens each script in one server and compares with one `cannctl lint` run over all;
    returns the number of findings compared."""
    report = lint_json([pathlib.Path(r) for r in rel], *flags, cwd=root)
    assert not report["unreadable"], report["unreadable"]
    by_path = findings_by_path(report)
    seen = 0
    async with server(root) as s:
        for r in rel:
            path = root / r
            text = path.read_bytes().decode("utf-8", errors="replace")
            diags = await s.open(path, text)
            findings = by_path.get(r, [])
            # Every finding of the JSON report names its rule, as SARIF's `ruleId` does.
            want = expected(text, findings, [f["rule"] for f in findings])
            assert got(diags) == want, r
            seen += len(want)
            s.close(path)
    return seen


async def test_fixture_scripts_equal_lint(tmp_path: pathlib.Path) -> None:
    rel = []
    for src in SCRIPTS:
        name = src.relative_to(FIXTURES).as_posix()
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(src, tmp_path / name)
        rel.append(name)
    n = await compare(tmp_path, rel)
    # The fixtures are written to hold findings of every kind; none would mean a broken run.
    assert n >= 40, n


def modelzoo() -> tuple[pathlib.Path, list[str]] | None:
    """The real-code corpus lint is scored on (crates/cann-lint/tests/modelzoo.rs): a checkout
    of Ascend/ModelZoo-TensorFlow named by CANNCTL_MODELZOO, and the labelled scripts."""
    root = os.environ.get("CANNCTL_MODELZOO")
    rows = csv.reader(
        io.StringIO(
            "".join(
                line
                for line in (REPO / "crates/cann-lint/corpus/modelzoo.csv").open(encoding="utf-8")
                if not line.startswith("#")
            )
        )
    )
    next(rows)
    files = sorted({row[2] for row in rows})
    if not root:
        if os.environ.get("CANNCTL_SKIP_MODELZOO") == "1":
            pytest.skip("CANNCTL_SKIP_MODELZOO=1: the real-code corpus run is left out")
        msg = (
            "set CANNCTL_MODELZOO to a checkout of Ascend/ModelZoo-TensorFlow (README, "
            "Editors) or CANNCTL_SKIP_MODELZOO=1 to leave the corpus run out"
        )
        if os.environ.get("CI") == "true":
            pytest.fail(msg)
        pytest.skip(msg)
    missing = [f for f in files if not (pathlib.Path(root) / f).is_file()]
    assert not missing, (
        f"CANNCTL_MODELZOO={root} lacks {len(missing)} labelled scripts: {missing[:3]}"
    )
    return pathlib.Path(root), files


async def test_modelzoo_corpus_equals_lint() -> None:
    got_corpus = modelzoo()
    assert got_corpus is not None
    root, files = got_corpus
    n = await compare(root, files)
    print(f"{len(files)} ModelZoo scripts, {n} findings: server equals lint")
    assert n > 0


CONFIGS = ["mistakes.yaml", "train-a2.yaml", "distributed-8p.yaml"]


@pytest.mark.parametrize("name", CONFIGS)
async def test_config_files_equal_check(tmp_path: pathlib.Path, name: str) -> None:
    src = REPO / "examples" / name
    shutil.copy(src, tmp_path / name)
    report = json.loads(cannctl("check", "--format", "json", name, cwd=tmp_path))
    text = (tmp_path / name).read_text(encoding="utf-8")
    async with server(tmp_path) as s:
        diags = await s.open(tmp_path / name, text, language="yaml")
    findings = report["diagnostics"]
    want = expected(text, findings, [check_rule_id(f) for f in findings])
    assert got(diags) == want
