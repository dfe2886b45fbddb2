"""cannctl.lint, emit, explain and schema: what the command says, in-process."""

import json

import pytest

import cannctl
from conftest import run

SCRIPT = (
    "import tensorflow as tf\n"
    "config = tf.compat.v1.ConfigProto()\n"
    "custom_op = config.graph_options.rewrite_options.custom_optimizers.add()\n"
    'custom_op.name = "NpuOptimizer"\n'
    'custom_op.parameter_map["op_debug_levl"].i = 0\n'
    'custom_op.parameter_map["static_memory_policy"].s = tf.compat.as_bytes("2")\n'
)


def test_lint_is_the_commands_lint(tmp_path):
    (tmp_path / "train.py").write_text(SCRIPT)
    (tmp_path / "clean.py").write_text("print('no options here')\n")
    findings = cannctl.lint(tmp_path)
    cli = json.loads(run("lint", str(tmp_path), "--format", "json").stdout)
    [file] = cli["files"]
    assert [(f.path, f.line, f.column, f.message) for f in findings] == [
        (file["path"], d["line"], d["column"], d["message"]) for d in file["findings"]
    ]
    assert {f.rule for f in findings} == {"unknown-option", "session-accessor"}
    # The wrong key: where it is written, and the key meant.
    [typo] = [f for f in findings if f.rule == "unknown-option"]
    assert (typo.line, typo.column, typo.severity) == (5, 25, "error")
    assert "op_debug_levl" in typo.message
    assert typo.hint == "did you mean `op_debug_level`?"
    assert str(findings[0]).startswith(f"{tmp_path / 'train.py'}:5:")
    # A path, a list of paths, a pathlib.Path: the same.
    one = [f.message for f in cannctl.lint(str(tmp_path / "train.py"))]
    assert one == [f.message for f in cannctl.lint([tmp_path / "train.py", tmp_path / "clean.py"])]
    assert len(one) == 2


def test_lint_of_a_missing_path_raises(tmp_path):
    with pytest.raises(cannctl.InputError, match="nope"):
        cannctl.lint(tmp_path / "nope")


@pytest.mark.parametrize("to", ["ge", "estimator", "session", "tf2", "env", "json"])
def test_emit_is_the_commands_emit(to):
    cli = run("emit", "examples/train-a2.yaml", "--to", to)
    assert cli.returncode == 0, cli.stderr
    assert cannctl.emit("examples/train-a2.yaml", to=to) == cli.stdout


def test_emit_refuses_a_config_with_errors():
    with pytest.raises(cannctl.ConfigError) as e:
        cannctl.emit("examples/mistakes.yaml", to="ge")
    assert e.value.report.errors == 4
    with pytest.raises(ValueError, match="to must be one of"):
        cannctl.emit("examples/train-a2.yaml", to="yaml")


def test_explain_is_the_commands_json():
    cli = json.loads(run("explain", "static_memory_policy", "--format", "json").stdout)
    assert cannctl.explain("static_memory_policy") == cli
    zh = cannctl.explain("static_memory_policy", lang="zh")
    assert zh["doc"] != cli["doc"]
    with pytest.raises(cannctl.InputError, match="op_debug_level"):
        cannctl.explain("op_debug_levl")


def test_explain_release_is_the_commands_release():
    # The facts of a release are what `cannctl explain --release` says for it; the rules
    # on static_memory_policy changed in 8.0.0, so 8.0.RC2 and 9.0.0 read differently.
    for name in ("static_memory_policy", "memory_optimization_policy"):
        for release in ("8.0.RC2", "9.0.0"):
            cli = json.loads(
                run("explain", name, "--release", release, "--format", "json").stdout
            )
            assert cannctl.explain(name, release) == cli
            assert cannctl.explain(name, release=release, lang="zh") == json.loads(
                run(
                    "explain", name, "--release", release, "--format", "json", "--lang", "zh"
                ).stdout
            )
            assert cli["release"] == release
    old = cannctl.explain("static_memory_policy", "8.0.RC2")
    assert old["rules_in_release"] != cannctl.explain("static_memory_policy")["rules_in_release"]
    with pytest.raises(cannctl.InputError, match="7.0.0"):
        cannctl.explain("static_memory_policy", "7.0.0")


def test_schema_has_an_id_and_is_the_commands():
    s = cannctl.schema()
    assert s["$id"] == "urn:cannctl:schema:cann-config"
    assert s == json.loads(run("schema").stdout)
    assert "npu_run_config" in s["properties"]
