"""cannctl.check_npu_run_config: NPURunConfig keyword arguments, as lint reads the same call."""

import pytest

import cannctl


def test_a_clean_call_is_ok():
    r = cannctl.check_npu_run_config(
        op_compiler_cache_mode="enable",
        memory_config={"atomic_clean_policy": 1},
        product="atlas-a2-training",
    )
    assert r.ok and len(r) == 0, str(r)
    assert r.source == "<NPURunConfig>"


def test_findings_name_the_argument():
    r = cannctl.check_npu_run_config(
        op_compiler_cache_mode="enabel",
        memory_config={"static_memory_policy": 7},
        op_debug_levl=0,
        session_config=object(),  # not a ConfigProto: counted as set, not read, and said
    )
    got = {f.setting: (f.severity, f.option) for f in r}
    assert got == {
        "op_compiler_cache_mode": ("error", "npu_run_config.op_compiler_cache_mode"),
        "memory_config.static_memory_policy": (
            "error",
            "npu_run_config.memory_config.static_memory_policy",
        ),
        "op_debug_levl": ("error", "npu_run_config.op_debug_levl"),
        "session_config": ("note", "npu_run_config.session_config"),
    }


def test_the_same_findings_as_lint_on_the_same_call(tmp_path):
    script = tmp_path / "train.py"
    script.write_text(
        "from npu_bridge.npu_init import *\n"
        "config = NPURunConfig(op_compiler_cache_mode='enabel',\n"
        "                      memory_config=MemoryConfig(static_memory_policy=7),\n"
        "                      op_debug_levl=0)\n"
    )
    linted = [(f.severity, f.option, f.message) for f in cannctl.lint(str(script))]
    live = cannctl.check_npu_run_config(
        op_compiler_cache_mode="enabel",
        memory_config={"static_memory_policy": 7},
        op_debug_levl=0,
    )
    assert linted == [(f.severity, f.option, f.message) for f in live]


def test_a_class_argument_of_the_wrong_kind():
    [f] = cannctl.check_npu_run_config(memory_config=3).findings
    assert f.severity == "error" and "MemoryConfig" in f.message


def test_guard():
    assert cannctl.guard_npu_run_config(op_compiler_cache_mode="enable").ok
    with pytest.raises(cannctl.ConfigError) as e:
        cannctl.guard_npu_run_config(op_compiler_cache_mode="enabel", lang="zh")
    assert "不是" in str(e.value)
