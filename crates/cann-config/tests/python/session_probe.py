"""Runs emitted TF1 session snippets on the real TensorFlow protobufs and reports what they built.

Input (stdin): a JSON list of {"id": ..., "code": ...}. Output (stdout): a JSON list, one
object per case, with the custom optimizers named NpuOptimizer, the kind and value of each
parameter_map entry, and the two rewriter switches. `npu_bridge` is stubbed as empty modules:
the snippets only need its star import to succeed.
"""
import json
import sys
import traceback
import types

for name in ("npu_bridge", "npu_bridge.npu_init"):
    sys.modules[name] = types.ModuleType(name)

import tensorflow as tf  # noqa: E402
from tensorflow.core.protobuf.rewriter_config_pb2 import RewriterConfig  # noqa: E402


def attr(value):
    kind = value.WhichOneof("value")
    if kind == "s":
        return [kind, value.s.decode("utf-8")]
    if kind in ("i", "b"):
        return [kind, getattr(value, kind)]
    return [kind, None]


def probe(code):
    scope = {}
    exec(compile(code, "<emitted>", "exec"), scope)
    config = scope["config"]
    if not isinstance(config, tf.compat.v1.ConfigProto):
        raise TypeError("`config` is a %s, not a ConfigProto" % type(config).__name__)
    rw = config.graph_options.rewrite_options
    npu = [o for o in rw.custom_optimizers if o.name == "NpuOptimizer"]
    return {
        "optimizers": len(rw.custom_optimizers),
        "npu_optimizers": len(npu),
        "parameter_map": {k: attr(v) for k, v in npu[0].parameter_map.items()} if npu else {},
        "remapping_off": rw.remapping == RewriterConfig.OFF,
        "memory_optimization_off": rw.memory_optimization == RewriterConfig.OFF,
    }


out = []
for case in json.load(sys.stdin):
    try:
        out.append({"id": case["id"], "result": probe(case["code"])})
    except Exception:  # every failure is reported with its case, not raised
        out.append({"id": case["id"], "error": traceback.format_exc()})
json.dump(out, sys.stdout)
