"""check_npu_run_config and check_global_options with what a training script holds: the
adapter's own config objects, a session_config ConfigProto, objects cannctl cannot read."""

import cannctl
from conftest import need


# Stand-ins for npu_bridge's classes (not installable here), with the adapter's attribute
# names: each constructor keeps its keywords as `_name` (hicann/tensorflow@4f8aa5a:
# tf_adapter/python/npu_bridge/estimator/npu/npu_config.py, MemoryConfig, DumpConfig,
# ExperimentalConfig, GraphMemoryOptimizeConfig).
class MemoryConfig:
    def __init__(self, atomic_clean_policy=0, static_memory_policy=0,
                 memory_optimization_policy=None, variable_use_1g_huge_page=0):
        self._atomic_clean_policy = atomic_clean_policy
        self._static_memory_policy = static_memory_policy
        self._memory_optimization_policy = memory_optimization_policy
        self._variable_use_1g_huge_page = variable_use_1g_huge_page


class DumpConfig:
    def __init__(self, enable_dump=False, dump_path=None, dump_step=None, dump_mode="output",
                 enable_dump_debug=False, dump_debug_mode="all", dump_data="tensor",
                 dump_layer=None):
        self._enable_dump = enable_dump
        self._dump_path = dump_path
        self._dump_step = dump_step
        self._dump_mode = dump_mode
        self._enable_dump_debug = enable_dump_debug
        self._dump_debug_mode = dump_debug_mode
        self.dump_data = dump_data
        self.dump_layer = dump_layer


def by_setting(report):
    return {f.setting: (f.severity, f.option) for f in report}


def test_the_adapters_memory_config_object_is_read():
    r = cannctl.check_npu_run_config(memory_config=MemoryConfig(static_memory_policy=7))
    assert by_setting(r) == {
        "memory_config.static_memory_policy": (
            "error",
            "npu_run_config.memory_config.static_memory_policy",
        )
    }, str(r)
    # The same object with a valid value: no error (the spec's advice on policy 2 is a
    # note); with the constructor's defaults: nothing to say.
    valid = cannctl.check_npu_run_config(memory_config=MemoryConfig(static_memory_policy=2))
    assert valid.errors == 0 and valid.warnings == 0, str(valid)
    assert len(cannctl.check_npu_run_config(memory_config=MemoryConfig())) == 0


def test_an_object_and_a_dict_give_the_same_findings():
    obj = cannctl.check_npu_run_config(
        memory_config=MemoryConfig(atomic_clean_policy=5),
        dump_config=DumpConfig(enable_dump=True, dump_mode="outptu"),
    )
    as_dict = cannctl.check_npu_run_config(
        memory_config={"atomic_clean_policy": 5},
        dump_config={"enable_dump": True, "dump_mode": "outptu"},
    )
    got = [(f.severity, f.option, f.message) for f in obj]
    assert got == [(f.severity, f.option, f.message) for f in as_dict]
    assert len(got) >= 2, got


def test_an_object_of_the_wrong_class_is_an_error():
    [f] = cannctl.check_npu_run_config(memory_config=DumpConfig()).findings
    assert f.severity == "error"
    assert "MemoryConfig" in f.message and "DumpConfig" in f.message


def test_what_is_not_read_is_said():
    class Strategy:
        pass

    r = cannctl.check_npu_run_config(distribute=Strategy(), session_config=object())
    notes = {f.setting: f for f in r if f.severity == "note"}
    assert set(notes) == {"distribute", "session_config"}, str(r)
    assert "Strategy" in notes["distribute"].message
    assert "not checked" in notes["distribute"].message
    assert r.ok


def test_session_config_is_read_as_check_session_config_reads_it():
    tf = need("tensorflow")
    config = tf.compat.v1.ConfigProto()
    custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
    custom_op.name = "NpuOptimizer"
    custom_op.parameter_map["op_debug_levl"].i = 0
    config.graph_options.rewrite_options.remapping = 2  # RewriterConfig.OFF
    config.graph_options.rewrite_options.memory_optimization = 2
    r = cannctl.check_npu_run_config(session_config=config, op_compiler_cache_mode="enable")
    [f] = r.findings
    assert f.severity == "error" and "op_debug_levl" in f.message
    assert f.setting == 'session_config.parameter_map["op_debug_levl"].i'
    assert f.hint == "did you mean `op_debug_level`?"
    # A session without the adapter's optimizer is fine: the Estimator adds it.
    assert len(cannctl.check_npu_run_config(session_config=tf.compat.v1.ConfigProto())) == 0


def test_global_options_are_checked_as_lint_checks_the_script(tmp_path):
    script = tmp_path / "train.py"
    script.write_text(
        "import npu_device as npu\n"
        "npu.global_options().op_compiler_cache_mode = 'enabel'\n"
        "npu.global_options().memory_config.atomic_clean_policy = 3\n"
        "npu.global_options().op_debug_levl = 0\n"
    )
    linted = [(f.severity, f.option, f.message) for f in cannctl.lint(script)]
    live = cannctl.check_global_options(
        op_compiler_cache_mode="enabel",
        memory_config={"atomic_clean_policy": 3},
        op_debug_levl=0,
    )
    assert linted == [(f.severity, f.option, f.message) for f in live]
    assert len(linted) == 3
    assert [f.setting for f in live] == [
        "op_compiler_cache_mode",
        "memory_config.atomic_clean_policy",
        "op_debug_levl",
    ]
    assert cannctl.guard_global_options(op_compiler_cache_mode="enable").ok
