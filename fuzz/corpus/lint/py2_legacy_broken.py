# Python 2-era training script, with a syntax error further down.
import tensorflow as tf
from npu_bridge.estimator.npu.npu_config import NPURunConfig

print "starting training"

def get_config():
    custom_op = tf.ConfigProto().graph_options.rewrite_options.custom_optimizers.add()
    custom_op.parameter_map["static_memory_policy"].i = 10L
    custom_op.parameter_map["op_compiler_cache_mode"].s = "forse"
    return NPURunConfig(op_compiler_cache_mode="disable", op_debug_level=0

def broken(:
    pass

run_config = NPURunConfig(op_compiler_cache_dir=u"/data/\u7f13\u5b58", oo_constant_folding="False")
