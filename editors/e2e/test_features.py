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
    desc = explain(option, lang).get("doc", "")
    assert desc and desc.split("\n")[0][:40] in got, (desc, got)


async def test_hover_follows_the_client_locale(tmp_path: pathlib.Path) -> None:
    path = copy(tmp_path, "session_bert.py")
    text = path.read_text(encoding="utf-8")
    async with server(tmp_path, locale="zh-cn") as s:
        await s.open(path, text)
        got = hover_text(await s.hover(path, position_of(text, '"precision_mode"', inside=3)))
    assert CJK.search(got), got


def value_doc(option: str, value: str, lang: str) -> str:
    """`cannctl explain`'s description of one value of `option`."""
    (v,) = [v for v in explain(option, lang)["values"] if v["value"] == value]
    return v["doc"]


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_hover_on_config_keys_and_values(tmp_path: pathlib.Path, lang: str) -> None:
    path = tmp_path / "train-a2.yaml"
    shutil.copy(REPO / "examples" / "train-a2.yaml", path)
    text = path.read_text(encoding="utf-8")
    async with server(tmp_path, init={"lang": lang}) as s:
        await s.open(path, text, language="yaml")
        key = hover_text(await s.hover(path, position_of(text, "static_memory_policy", inside=2)))
        value = hover_text(await s.hover(path, position_of(text, "policy: 2", inside=8)))
        env = hover_text(await s.hover(path, position_of(text, "ASCEND_MAX_OP_CACHE_SIZE")))
    assert "static_memory_policy" in key, key
    assert explain("static_memory_policy", lang)["doc"][:30] in key, key
    assert value_doc("static_memory_policy", "2", lang)[:30] in value, value
    assert explain("ASCEND_MAX_OP_CACHE_SIZE", lang)["doc"][:30] in env, env
    assert bool(CJK.search(key + value + env)) == (lang == "zh")


async def test_hover_on_script_values_and_environment(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "train.py"
    text = (
        SCRIPT_HEAD
        + "import os\n"
        + 'custom_op.parameter_map["precision_mode"].s = tf.compat.as_bytes("force_fp16")\n'
        + 'os.environ["ASCEND_MAX_OP_CACHE_SIZE"] = "2000"\n'
    )
    async with server(tmp_path) as s:
        await s.open(path, text)
        value = hover_text(await s.hover(path, position_of(text, '"force_fp16"', inside=3)))
        env = hover_text(await s.hover(path, position_of(text, "ASCEND_MAX_OP_CACHE_SIZE")))
    assert value_doc("precision_mode", '"force_fp16"', "en")[:30] in value, value
    assert explain("ASCEND_MAX_OP_CACHE_SIZE", "en")["doc"][:30] in env, env


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
        (
            'custom_op.parameter_map["precision_mode"].s = tf.compat.as_bytes("',
            "allow_mix_precision",
        ),  # enum value
        ('custom_op.parameter_map["static_memory_policy"].i = ', "2"),  # int enum value
        ("run_config = NPURunConfig(", "precision_mode"),  # NPURunConfig keyword
        ("run_config = NPURunConfig(\n    enable_dump=True,\n    ", "dump_config"),  # 2nd line
        ("npu.global_options().", "precision_mode"),  # global_options attribute
        ("npu.global_options().aoe_config.", "aoe_mode"),  # nested attribute
        ('os.environ["', "ASCEND_CACHE_PATH"),  # environment variable
    ],
)
async def test_completion_in_scripts(tmp_path: pathlib.Path, line: str, expect: str) -> None:
    path = tmp_path / "train.py"
    text = SCRIPT_HEAD + "import os\n" + line
    end = t.Position(line=text.count("\n"), character=len(text.rsplit("\n", 1)[-1]))
    async with server(tmp_path) as s:
        await s.open(path, text)
        items = await s.complete(path, end)
    assert expect in labels(items), labels(items)


def session_options(*flags: str) -> list[dict]:
    """`cannctl options --format json` rows that have a parameter_map key."""
    rows = json.loads(cannctl("options", "--format", "json", *flags))
    return [r for r in rows if r.get("session")]


@pytest.mark.parametrize("key", ["precision_mode", "static_memory_policy", "enable_dump"])
async def test_session_key_completes_its_accessor(tmp_path: pathlib.Path, key: str) -> None:
    """A session key completes with what reads it: `"].s = tf.compat.as_bytes(...)`,
    `"].i = ...`, `"].b = ...`, the accessor `cannctl options` names for the key."""
    (row,) = [r for r in session_options(key) if r["session"]["name"] == key]
    accessor = row["session"]["accessor"]
    path = tmp_path / "train.py"
    line = 'custom_op.parameter_map["' + key[:4]
    text = SCRIPT_HEAD + line + '"]\n'
    async with server(tmp_path) as s:
        await s.open(path, text)
        items = await s.complete(path, t.Position(line=text.count("\n") - 1, character=len(line)))
        (it,) = [i for i in items if i.label == key]
    edited = apply_edits(text, [it.text_edit])
    done = edited.split("\n")[-2]
    assert done.startswith(f'custom_op.parameter_map["{key}"].{accessor} = '), done
    if accessor == "s":
        assert ".s = tf.compat.as_bytes(" in done, done
    # The editor's closing `"]` is replaced, not doubled.
    assert done.count("]") == 1, done


@pytest.mark.parametrize("key", ["precision_mode", "static_memory_policy", "enable_dump"])
async def test_accessor_after_a_written_key(tmp_path: pathlib.Path, key: str) -> None:
    """After `parameter_map["key"].` typed by hand, the accessor the key is read with and an
    example value: `.s = tf.compat.as_bytes(...)`, `.i = ...`, `.b = ...`."""
    (row,) = [r for r in session_options(key) if r["session"]["name"] == key]
    accessor = row["session"]["accessor"]
    path = tmp_path / "train.py"
    line = f'custom_op.parameter_map["{key}"].'
    text = SCRIPT_HEAD + line + "\n"
    async with server(tmp_path) as s:
        await s.open(path, text)
        items = await s.complete(path, t.Position(line=text.count("\n") - 1, character=len(line)))
    assert len(items) == 1, labels(items)
    assert items[0].filter_text == accessor
    done = apply_edits(text, [items[0].text_edit]).split("\n")[-2]
    assert done.startswith(f'{line}{accessor} = '), done
    if accessor == "s":
        assert done.startswith(f"{line}s = tf.compat.as_bytes("), done


async def test_completion_session_keys_follow_the_spec(tmp_path: pathlib.Path) -> None:
    """Every session key `cannctl options --release` lists for the release is offered; the
    keys it does not list (retired, or of another release) are not."""
    path = tmp_path / "train.py"
    line = 'custom_op.parameter_map["'
    text = SCRIPT_HEAD + line + "\n"
    path.write_text(text, encoding="utf-8")
    # The release both default to: the one `cannctl lint` reports it checked against.
    release = lint_json([path], cwd=tmp_path)["release"]
    rows = session_options("--release", release)
    async with server(tmp_path) as s:
        await s.open(path, text)
        got = labels(
            await s.complete(path, t.Position(line=text.count("\n") - 1, character=len(line)))
        )
    live = {r["session"]["name"] for r in rows if not r["removed"]}
    # Keys of other releases, or retired in this one: not offered.
    retired = {r["session"]["name"] for r in session_options()} - live
    assert len(live) > 50 and retired, (len(live), retired)
    assert live - got == set(), sorted(live - got)
    assert retired & got == set(), sorted(retired & got)


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
        (
            '{\n  "product": "atlas-a2-training",\n  "npu_run_config": {\n    "op_comp"',
            3,
            12,
            "op_compiler_cache_mode",
        ),
        ('{"npu_run_config": {"memory_config": {"static_memory_policy": ', 0, 62, "2"),
        (
            '{"product": "atlas-a2-training", "npu_run_config": {"precision_mode": "',
            0,
            71,
            "allow_mix_precision",
        ),
        ('{"product": "', 0, 13, "atlas-a2-training"),
    ],
)
async def test_completion_in_config_files(
    tmp_path: pathlib.Path, text: str, line: int, col: int, expect: str
) -> None:
    json_ = text.startswith("{")
    path = tmp_path / ("job.json" if json_ else "job.yaml")
    async with server(tmp_path) as s:
        await s.open(path, text, language="json" if json_ else "yaml")
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


@pytest.mark.parametrize("how", ["watched-files", "saved-in-the-editor"])
async def test_a_pyproject_change_reaches_the_running_server(
    tmp_path: pathlib.Path, how: str
) -> None:
    """[tool.cannctl] edited while the server runs: every open document is checked again
    with the new settings, as `cannctl lint` reads them after the change."""
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text('[tool.cannctl]\nlang = "en"\n', encoding="utf-8")
    path = copy(tmp_path, "estimator_resnet50.py")
    text = path.read_text(encoding="utf-8")
    before_cmd = lint_json([path], cwd=tmp_path)["files"][0]["findings"]
    async with server(tmp_path, watch=True) as s:
        before = await s.open(path, text)
        assert sorted(d.message for d in before) == sorted(f["message"] for f in before_cmd)
        pyproject.write_text(
            '[tool.cannctl]\nproduct = "atlas-a2-training"\nlang = "zh"\n', encoding="utf-8"
        )
        u = pyproject.resolve().as_uri()
        if how == "watched-files":
            tell = lambda: s.client.workspace_did_change_watched_files(
                t.DidChangeWatchedFilesParams(
                    changes=[t.FileEvent(uri=u, type=t.FileChangeType.Changed)]
                )
            )
        else:
            tell = lambda: s.client.text_document_did_save(
                t.DidSaveTextDocumentParams(text_document=t.TextDocumentIdentifier(uri=u))
            )
        after = await s.diagnostics(path.resolve().as_uri(), tell)
    want = lint_json([path], cwd=tmp_path)["files"][0]["findings"]
    assert sorted(d.message for d in after) == sorted(f["message"] for f in want)
    assert after and all(CJK.search(d.message) for d in after), [d.message for d in after]
    assert sorted(d.message for d in after) != sorted(d.message for d in before)


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


async def test_an_unclosed_bracket_above_the_settings_hides_nothing(tmp_path: pathlib.Path) -> None:
    """A bracket typed open at the top of a function, above its settings (tree-sitter's
    recovery would take every line below into the broken call): the settings below keep
    their diagnostics while it is open, as `cannctl lint` reports for the same text."""
    path = copy(tmp_path, "session_bert.py")
    text = path.read_text(encoding="utf-8")
    # The first line of the function that builds the session config.
    at = position_of(text, "custom_optimizers.add()")
    line = text.split("\n")[at.line]
    indent = line[: len(line) - len(line.lstrip())]
    start = t.Position(line=at.line, character=0)
    async with server(tmp_path) as s:
        before = await s.open(path, text)
        below = {(d.range.start.line, d.message) for d in before if d.range.start.line >= at.line}
        assert below, "the fixture sets nothing below the line typed on"
        typed = await s.change(path, start, start, indent + "x = foo(1,\n")
        broken = s.texts[path.resolve().as_uri()]
        got = {(d.range.start.line - 1, d.message) for d in typed}
        assert below <= got, sorted(below - got)
        # The command says the same of the same text.
        (tmp_path / "broken.py").write_text(broken, encoding="utf-8")
        cmd = lint_json([tmp_path / "broken.py"], cwd=tmp_path)["files"][0]["findings"]
        assert sorted(d.message for d in typed) == sorted(f["message"] for f in cmd)
