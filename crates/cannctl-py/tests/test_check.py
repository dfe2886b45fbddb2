"""cannctl.check and cannctl.guard on files, text and dicts: the command's findings."""

import json
import pathlib

import pytest

import cannctl
from conftest import EXAMPLES, run

MISTAKES = "examples/mistakes.yaml"


def summary(report):
    return [(f.severity, f.option, f.message) for f in report]


def test_the_installed_package_is_tested():
    assert "site-packages" in cannctl.__file__, cannctl.__file__


def test_a_clean_config_is_ok():
    r = cannctl.check("examples/train-a2.yaml")
    assert r.ok and r.errors == 0
    assert r.product == "atlas-a2-training"


def test_every_finding_at_once_with_positions():
    r = cannctl.check(MISTAKES)
    assert not r.ok
    assert (r.errors, r.warnings, r.notes) == (4, 3, 1)
    assert len(r) == len(r.findings) == 8
    first = r.findings[0]
    assert first.severity == "error"
    assert first.option == "npu_run_config.op_compiler_cache_mod"
    assert (first.line, first.column) == (5, 3)
    assert first.hint == "did you mean `op_compiler_cache_mode`?"
    assert [f.option for f in r] == [f.option for f in r.findings]


def test_str_is_what_the_command_prints():
    for name in ["examples/mistakes.yaml", "examples/train-a2.yaml"]:
        cli = run("check", name)
        assert cli.returncode in (0, 1), cli.stderr
        assert str(cannctl.check(name)) == cli.stdout


def test_to_dict_is_the_commands_json():
    cli = json.loads(run("check", MISTAKES, "--format", "json").stdout)
    mine = cannctl.check(MISTAKES).to_dict()
    for key in ["file", "product", "release", "errors", "warnings", "notes"]:
        assert mine[key] == cli[key]
    # The command leaves out fields that are unset; the dict has them as None.
    for a, b in zip(mine["diagnostics"], cli["diagnostics"]):
        assert {k: v for k, v in a.items() if v is not None and k in b} == b


def test_path_text_bytes_and_dict_agree():
    text = (EXAMPLES / "mistakes.yaml").read_text()
    by_path = cannctl.check(pathlib.Path(MISTAKES))
    by_text = cannctl.check(text)
    by_bytes = cannctl.check(text.encode())
    assert summary(by_path) == summary(by_text) == summary(by_bytes)
    assert by_text.source == "<string>"
    assert by_text.findings[0].line == 5
    config = {
        "product": "atlas-a2-training",
        "npu_run_config": {
            "op_compiler_cache_mod": "enable",
            "aicore_num": "0|48",
            "memory_config": {"static_memory_policy": 1},
        },
    }
    by_dict = cannctl.check(config)
    by_json = cannctl.check(json.dumps(config))
    assert summary(by_dict) == summary(by_json)
    # A dict has no lines: the option path says where.
    assert all(f.line is None and f.column is None for f in by_dict)
    assert by_dict.source == "<dict>"
    assert "<dict>: npu_run_config.aicore_num" in str(by_dict)


def test_the_target_comes_from_arguments_over_the_file():
    r = cannctl.check(MISTAKES, product="atlas-a2-training", release="9.0.0")
    assert (r.product, r.release) == ("atlas-a2-training", "9.0.0")
    # MemoryConfig is supported on Atlas A2 training, so that error is gone.
    assert not any("not supported" in f.message for f in r)
    with pytest.raises(cannctl.InputError, match="no product to check against"):
        cannctl.check({"npu_run_config": {}})


def test_chinese_findings():
    r = cannctl.check(MISTAKES, lang="zh")
    assert any("\u4e00" <= ch <= "\u9fff" for f in r for ch in f.message)
    with pytest.raises(ValueError, match="lang"):
        cannctl.check(MISTAKES, lang="fr")


def test_guard_raises_with_the_report():
    assert cannctl.guard("examples/train-a2.yaml").ok
    with pytest.raises(cannctl.ConfigError) as e:
        cannctl.guard(MISTAKES)
    assert e.value.report.errors == 4
    assert str(e.value) == str(e.value.report)
    assert isinstance(e.value, ValueError)


def test_input_errors_are_python_exceptions_with_a_place():
    with pytest.raises(FileNotFoundError) as e:
        cannctl.check("no/such/config.yaml")
    assert e.value.filename == "no/such/config.yaml"
    with pytest.raises(cannctl.InputError) as e:
        cannctl.check("product: atlas-a2-training\nnpu_run_config: [1,\n")
    assert (e.value.line, e.value.column) == (2, 17)
    assert "<string>:2:17" in str(e.value)
    with pytest.raises(cannctl.InputError, match="unknown product"):
        cannctl.check(MISTAKES, product="atlas-a9")
    with pytest.raises(cannctl.InputError, match="unknown release"):
        cannctl.check(MISTAKES, release="1.0")
    with pytest.raises(TypeError, match="source must be"):
        cannctl.check(42)
    with pytest.raises(TypeError, match="keys of `npu_run_config` must be strings"):
        cannctl.check({"npu_run_config": {1: 2}})
    with pytest.raises(TypeError, match="cannot hold"):
        cannctl.check({"npu_run_config": {"op_compiler_cache_dir": object()}})
    deep = {}
    for _ in range(100):
        deep = {"x": deep}
    with pytest.raises(cannctl.InputError, match="nested"):
        cannctl.check({"npu_run_config": deep})


def test_an_empty_value_upstream_ignores_is_a_warning_not_an_error():
    # The spec's removal of auto_tune_mode says upstream skips an empty value
    # (empty_ignored): the check warns that it has no effect; any other value is an error.
    def check(value):
        return cannctl.check(
            {
                "product": "atlas-a2-training",
                "release": "9.0.0",
                "npu_run_config": {"auto_tune_mode": value},
            }
        )

    empty = check("")
    assert empty.ok and (empty.errors, empty.warnings) == (0, 1)
    [f] = empty.findings
    assert (f.severity, f.option) == ("warning", "npu_run_config.auto_tune_mode")
    assert "has no effect" in f.message
    assert "npu_run_config.aoe_mode" in f.hint
    refused = check("RL,GA")
    assert not refused.ok and refused.errors == 1
    assert "was removed" in refused.findings[0].message


def test_dict_values_are_read_as_a_file_would_hold_them():
    r = cannctl.check(
        {
            "product": "atlas-a2-training",
            "npu_run_config": {
                "memory_config": {"static_memory_policy": "2"},
                "op_compiler_cache_dir": b"/data/cache",
            },
        }
    )
    [f] = r.findings
    assert f.option == "npu_run_config.memory_config.static_memory_policy"
    assert f.message.startswith("`static_memory_policy` must be an integer")
