"""cannctl.check_session_config on real tf.compat.v1.ConfigProto objects from tensorflow-cpu."""

import sys
import types

import pytest

import cannctl
from conftest import EXAMPLES, need

tf = need("tensorflow")
from tensorflow.core.protobuf.rewriter_config_pb2 import RewriterConfig  # noqa: E402


def session(**rewrites):
    config = tf.compat.v1.ConfigProto()
    op = config.graph_options.rewrite_options.custom_optimizers.add()
    op.name = "NpuOptimizer"
    rw = config.graph_options.rewrite_options
    rw.remapping = rewrites.get("remapping", RewriterConfig.OFF)
    rw.memory_optimization = rewrites.get("memory_optimization", RewriterConfig.OFF)
    return config, op


def by_setting(report):
    return {f.setting: (f.severity, f.option) for f in report}


def test_a_clean_session_is_ok():
    config, op = session()
    op.parameter_map["use_off_line"].b = True
    op.parameter_map["op_compiler_cache_mode"].s = tf.compat.as_bytes("enable")
    op.parameter_map["atomic_clean_policy"].i = 1
    r = cannctl.check_session_config(config, product="atlas-a2-training")
    assert r.ok and len(r) == 0, str(r)
    assert (r.source, r.product) == ("<ConfigProto>", "atlas-a2-training")


def test_mistakes_in_a_real_config_proto():
    config, op = session(remapping=RewriterConfig.DEFAULT)
    op.parameter_map["op_compiler_cache_mode"].s = tf.compat.as_bytes("enabel")
    # Read with .i by the adapter: a value set with .s is ignored.
    op.parameter_map["static_memory_policy"].s = b"2"
    # A misspelled key has no effect at all.
    op.parameter_map["op_debug_levl"].i = 0
    # Read without assignment: the entry exists, with no value.
    op.parameter_map["enable_dump"]
    op.parameter_map["aicore_num"].s = b"0|48"
    r = cannctl.check_session_config(config)
    assert not r.ok
    got = by_setting(r)
    assert got['parameter_map["op_compiler_cache_mode"].s'] == (
        "error",
        "npu_run_config.op_compiler_cache_mode",
    )
    assert got['parameter_map["static_memory_policy"].s'] == (
        "error",
        "npu_run_config.memory_config.static_memory_policy",
    )
    assert got['parameter_map["op_debug_levl"].i'][0] == "error"
    assert got['parameter_map["enable_dump"]'] == (
        "warning",
        "npu_run_config.dump_config.enable_dump",
    )
    assert got['parameter_map["aicore_num"].s'][0] == "error"
    # Findings about the whole session have no setting of their own.
    assert got[None] == ("warning", "rewrite_options.remapping")
    typo = next(f for f in r if f.setting == 'parameter_map["op_debug_levl"].i')
    assert typo.hint == "did you mean `op_debug_level`?"
    assert all(f.line is None for f in r)
    assert "--> <ConfigProto>: rewrite_options.remapping" in str(r)
    assert "DEFAULT" in str(r)


def test_product_support_is_checked_with_a_product_only():
    config, op = session()
    op.parameter_map["input_batch_cpy"].b = True
    # Not supported on Atlas training series: reported only when that product is named.
    assert cannctl.check_session_config(config).ok
    r = cannctl.check_session_config(config, product="atlas-training")
    assert [f.option for f in r] == ["npu_run_config.input_batch_cpy"], str(r)


def test_without_the_npu_optimizer_nothing_is_read():
    config = tf.compat.v1.ConfigProto()
    op = config.graph_options.rewrite_options.custom_optimizers.add()
    op.name = "NPUOptimizer"
    op.parameter_map["op_debug_levl"].i = 0
    r = cannctl.check_session_config(config)
    [f] = r.findings
    assert f.severity == "error" and "NpuOptimizer" in f.message
    assert f.setting == 'custom_optimizers[0] ("NPUOptimizer")'
    r = cannctl.check_session_config(tf.compat.v1.ConfigProto())
    assert r.errors == 1


def test_two_npu_optimizers_are_read_in_turn():
    config, op = session()
    op.parameter_map["op_debug_level"].i = 0
    second = config.graph_options.rewrite_options.custom_optimizers.add()
    second.name = "NpuOptimizer"
    second.parameter_map["op_debug_level"].i = 9
    got = by_setting(cannctl.check_session_config(config))
    assert got['custom_optimizers[1] ("NpuOptimizer")'][0] == "warning"
    assert got['parameter_map["op_debug_level"].i'] == (
        "error",
        "npu_run_config.op_debug_level",
    )


def test_rewrite_options_the_guide_names():
    config, _ = session(memory_optimization=RewriterConfig.NO_MEM_OPT)
    assert len(cannctl.check_session_config(config)) == 0
    config.graph_options.rewrite_options.constant_folding = RewriterConfig.OFF
    config.graph_options.rewrite_options.disable_model_pruning = True
    options = sorted(f.option for f in cannctl.check_session_config(config))
    assert options == [
        "rewrite_options.constant_folding",
        "rewrite_options.disable_model_pruning",
    ]


def test_guard_and_a_run_config_holding_the_proto():
    config, op = session()
    op.parameter_map["op_compiler_cache_mode"].s = b"enabel"
    with pytest.raises(cannctl.ConfigError) as e:
        cannctl.guard_session_config(config)
    assert e.value.report.errors == 1
    run_config = types.SimpleNamespace(session_config=config)
    assert cannctl.check_session_config(run_config).errors == 1
    with pytest.raises(TypeError, match="ConfigProto"):
        cannctl.check_session_config({"graph_options": 1})


def test_chinese_session_findings():
    config, op = session()
    op.parameter_map["op_debug_levl"].i = 0
    [f] = cannctl.check_session_config(config, lang="zh").findings
    assert "未知" in f.message


def test_what_emit_writes_for_a_session_checks_clean(monkeypatch):
    """The TF1 session code `emit` writes for every clean example config, run on real
    TensorFlow (npu_bridge stubbed), builds a ConfigProto in which check_session_config finds
    nothing wrong with the options."""
    for name in ["npu_bridge", "npu_bridge.npu_init"]:
        monkeypatch.setitem(sys.modules, name, types.ModuleType(name))
    checked = 0
    for path in sorted(EXAMPLES.glob("*.yaml")):
        report = cannctl.check(str(path))
        if not report.ok:
            continue
        scope = {}
        exec(compile(cannctl.emit(str(path), to="session"), str(path), "exec"), scope)
        r = cannctl.check_session_config(scope["config"], product=report.product)
        assert r.ok, str(r)
        # The session says what the file says (the same notes, say), nothing more; only
        # advice on the rewrite options may come on top. Environment variables are set in
        # the process, not in a ConfigProto, so what the file says of them is not repeated.
        said = sorted((f.severity, f.option, f.message) for f in r if f.setting is not None)
        in_file = [f for f in report if not f.option.startswith("env.")]
        assert said == sorted((f.severity, f.option, f.message) for f in in_file), str(r)
        checked += 1
    assert checked >= 1
