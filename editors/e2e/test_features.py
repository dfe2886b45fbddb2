"""Hover (English and Chinese), completion at each position kind, each quick fix and the
fix-all source action, settings from pyproject.toml, and recovery after a syntax error typed
and removed: the real `cannctl server` driven by pytest-lsp's client. Expected facts come from
the command (`cannctl explain`, `cannctl options`, `cannctl lint --fix`) on the same inputs."""

from __future__ import annotations

import json
import pathlib
import re
import shutil

import pytest
from lsp import (
    FIXTURES,
    REPO,
    apply_byte_edits,
    apply_edits,
    cannctl,
    lint_json,
    position_of,
    server,
)
from lsprotocol import types as t

CJK = re.compile(r"[\u4e00-\u9fff]")


def copy(tmp: pathlib.Path, name: str) -> pathlib.Path:
    dst = tmp / pathlib.Path(name).name
    shutil.copy(FIXTURES / name, dst)
    return dst


def hover_text(h: t.Hover | None) -> str:
    assert h is not None, "no hover"
    c = h.contents
    if isinstance(c, t.MarkupContent):
        return c.value
    if isinstance(c, list):
        return "\n".join(x if isinstance(x, str) else x.value for x in c)
    return c if isinstance(c, str) else c.value


def explain(name: str, lang: str) -> dict:
    return json.loads(cannctl("explain", name, "--format", "json", "--lang", lang))


# (fixture, text at the cursor, characters into it, option the hover is about)
HOVERS = [
    ("session_bert.py", '"precision_mode"', 3, "precision_mode"),  # parameter_map key
    ("estimator_resnet50.py", "op_compiler_cache_dir=", 2, "op_compiler_cache_dir"),  # keyword
    ("tf2_keras_gpt.py", "precision_mode =", 2, "precision_mode"),  # global_options attribute
]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(("fixture", "needle", "inside", "option"), HOVERS)
async def test_hover_describes_the_option(
    tmp_path: pathlib.Path, lang: str, fixture: str, needle: str, inside: int, option: str
) -> None:
    path = copy(tmp_path, fixture)
    text = path.read_text(encoding="utf-8")
    async with server(tmp_path, init={"lang": lang}) as s:
        await s.open(path, text)
        got = hover_text(await s.hover(path, position_of(text, needle, inside=inside)))
    assert option in got, got
    assert bool(CJK.search(got)) == (lang == "zh"), got
    # The option's description, worded once in the catalog, as `cannctl explain` says it.
    desc = explain(option, lang).get("description", "")
    assert desc and desc.split("\n")[0][:40] in got, (desc, got)


async def test_hover_follows_the_client_locale(tmp_path: pathlib.Path) -> None:
    path = copy(tmp_path, "session_bert.py")
    text = path.read_text(encoding="utf-8")
    async with server(tmp_path, locale="zh-cn") as s:
        await s.open(path, text)
        got = hover_text(await s.hover(path, position_of(text, '"precision_mode"', inside=3)))
    assert CJK.search(got), got


async def test_hover_on_config_key_and_value(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "train-a2.yaml"
    shutil.copy(REPO / "examples" / "train-a2.yaml", path)
    text = path.read_text(encoding="utf-8")
    async with server(tmp_path) as s:
        await s.open(path, text, language="yaml")
        key = hover_text(await s.hover(path, position_of(text, "static_memory_policy", inside=2)))
        assert "static_memory_policy" in key, key


def labels(items: list[t.CompletionItem]) -> set[str]:
    return {i.label for i in items}


SCRIPT_HEAD = (
    "import tensorflow as tf\n"
    "import npu_device as npu\n"
    "from npu_bridge.npu_init import *\n"
    "config = tf.ConfigProto()\n"
    "custom_op = config.graph_options.rewrite_options.custom_optimizers.add()\n"
    'custom_op.name = "NpuOptimizer"\n'
)


@pytest.mark.parametrize(
    ("line", "expect"),
    [
        ('custom_op.parameter_map["', "precision_mode"),  # parameter_map key
        ('custom_op.parameter_map["precision_mode"].', "s"),  # accessor
        (
            'custom_op.parameter_map["precision_mode"].s = tf.compat.as_bytes("',
            "allow_mix_precision",
        ),  # enum value
        ("run_config = NPURunConfig(", "precision_mode"),  # NPURunConfig keyword
        ("npu.global_options().", "precision_mode"),  # global_options attribute
    ],
)
async def test_completion_in_scripts(tmp_path: pathlib.Path, line: str, expect: str) -> None:
    path = tmp_path / "train.py"
    text = SCRIPT_HEAD + line + "\n"
    async with server(tmp_path) as s:
        await s.open(path, text)
        items = await s.complete(path, t.Position(line=text.count("\n") - 1, character=len(line)))
    assert any(i.label == expect or i.label.startswith(expect + " ") for i in items), labels(items)


async def test_completion_session_keys_follow_the_spec(tmp_path: pathlib.Path) -> None:
    """Every session key `cannctl options` lists for the release is offered; retired ones
    (removed) are not."""
    options = json.loads(cannctl("options", "--format", "json"))
    rows = options if isinstance(options, list) else options.get("options", [])
    path = tmp_path / "train.py"
    line = 'custom_op.parameter_map["'
    text = SCRIPT_HEAD + line + "\n"
    async with server(tmp_path) as s:
        await s.open(path, text)
        got = labels(
            await s.complete(path, t.Position(line=text.count("\n") - 1, character=len(line)))
        )
    assert len(got) > 50, got
    assert "not_an_option_at_all" not in got
    session = {r.get("session") for r in rows if isinstance(r.get("session"), str)}
    assert session, "cannctl options --format json names no session key"
    assert session & got, (sorted(session)[:5], sorted(got)[:5])


@pytest.mark.parametrize(
    ("text", "line", "col", "expect"),
    [
        (
            "product: atlas-a2-training\nnpu_run_config:\n  op_comp\n",
            2,
            9,
            "op_compiler_cache_mode",
        ),
        (
            "product: atlas-a2-training\nnpu_run_config:\n  op_compiler_cache_mode: \n",
            2,
            26,
            "enable",
        ),
    ],
)
async def test_completion_in_config_files(
    tmp_path: pathlib.Path, text: str, line: int, col: int, expect: str
) -> None:
    path = tmp_path / "job.yaml"
    async with server(tmp_path) as s:
        await s.open(path, text, language="yaml")
        items = await s.complete(path, t.Position(line=line, character=col))
    assert expect in labels(items), labels(items)


FIXABLE = ["patterns/unknown_names.py", "estimator_resnet50.py", "session_bert.py"]


@pytest.mark.parametrize("fixture", FIXABLE)
async def test_each_quick_fix_is_the_commands_fix(tmp_path: pathlib.Path, fixture: str) -> None:
    path = copy(tmp_path, fixture)
    data = path.read_bytes()
    text = data.decode("utf-8")
    findings = lint_json([path], cwd=tmp_path)["files"][0]["findings"]
    fixes = [f for f in findings if f.get("fix")]
    assert fixes, f"{fixture}: the command fixes nothing"
    async with server(tmp_path) as s:
        diags = await s.open(path, text)
        for f in fixes:
            want = apply_byte_edits(data, f["fix"]["edits"]).decode("utf-8")
            d = next(
                d
                for d in diags
                if d.range.start.line == f["line"] - 1 and d.message == f["message"]
            )
            actions = await s.code_actions(path, d.range, [d], only=[t.CodeActionKind.QuickFix])
            mine = [a for a in actions if a.diagnostics and d in a.diagnostics]
            assert mine, (f["message"], actions)
            edits = mine[0].edit.changes[path.resolve().as_uri()]
            assert apply_edits(text, edits) == want, f["message"]
            assert mine[0].title == f["fix"]["description"]


@pytest.mark.parametrize("fixture", FIXABLE)
async def test_fix_all_equals_lint_fix(tmp_path: pathlib.Path, fixture: str) -> None:
    path = copy(tmp_path, fixture)
    text = path.read_text(encoding="utf-8")
    fixed = tmp_path / "fixed" / path.name
    fixed.parent.mkdir()
    shutil.copy(path, fixed)
    cannctl("lint", "--fix", str(fixed), cwd=tmp_path)
    async with server(tmp_path) as s:
        await s.open(path, text)
        end = t.Position(line=text.count("\n") + 1, character=0)
        actions = await s.code_actions(
            path,
            t.Range(start=t.Position(line=0, character=0), end=end),
            [],
            only=[t.CodeActionKind.SourceFixAll],
        )
    assert len(actions) == 1, actions
    edits = actions[0].edit.changes[path.resolve().as_uri()]
    assert apply_edits(text, edits) == fixed.read_text(encoding="utf-8")


async def test_settings_from_pyproject(tmp_path: pathlib.Path) -> None:
    """[tool.cannctl] lang and product apply to the server as to `cannctl lint`; the
    client's settings override them."""
    (tmp_path / "pyproject.toml").write_text(
        '[tool.cannctl]\nproduct = "atlas-a2-training"\nlang = "zh"\n', encoding="utf-8"
    )
    path = copy(tmp_path, "estimator_resnet50.py")
    text = path.read_text(encoding="utf-8")
    want = lint_json([path], cwd=tmp_path)["files"][0]["findings"]
    async with server(tmp_path) as s:
        diags = await s.open(path, text)
    assert sorted(d.message for d in diags) == sorted(f["message"] for f in want)
    assert all(CJK.search(d.message) for d in diags), [d.message for d in diags]
    async with server(tmp_path, init={"lang": "en"}) as s:
        diags = await s.open(path, text)
    assert diags and not any(CJK.search(d.message) for d in diags)


async def test_recovery_after_a_syntax_error(tmp_path: pathlib.Path) -> None:
    path = copy(tmp_path, "session_bert.py")
    text = path.read_text(encoding="utf-8")
    async with server(tmp_path) as s:
        before = await s.open(path, text)
        assert before
        # An unclosed bracket typed at the end of the file, mid-edit.
        end_line = text.count("\n")
        at = t.Position(line=end_line, character=0)
        broken = await s.change(path, at, at, "x = foo(\n")
        # The parts that still parse keep their findings.
        keys = {(d.range.start.line, d.message) for d in before}
        assert keys <= {(d.range.start.line, d.message) for d in broken}
        # Removed again: the same diagnostics as before.
        after = await s.change(path, at, t.Position(line=end_line + 1, character=0), "")
        assert sorted((d.range.start.line, d.message) for d in after) == sorted(keys)
