# -*- coding: utf-8 -*-
"""BERT pre-training with a TF1 session on Ascend (sess.run loop)."""
import os

import tensorflow as tf
from tensorflow.core.protobuf.rewriter_config_pb2 import RewriterConfig
from npu_bridge.npu_init import *

FLAGS = tf.app.flags.FLAGS


def npu_session_config(cache_dir):
    config = tf.ConfigProto(allow_soft_placement=True, log_device_placement=False)
    npu_opt = config.graph_options.rewrite_options.custom_optimizers.add()
    npu_opt.name = "NpuOptimizer"
    npu_opt.parameter_map["use_off_line"].b = True
    npu_opt.parameter_map["precision_mode"].s = tf.compat.as_bytes("allow_mix_precision")
    npu_opt.parameter_map["op_compiler_cache_mode"].i = 1
    npu_opt.parameter_map["op_compiler_cache_dir"].s = tf.compat.as_bytes(cache_dir)
    npu_opt.parameter_map["static_memory_policy"].i = 2
    npu_opt.parameter_map["atomic_clean_policy"].i = 3
    npu_opt.parameter_map["op_debug_levl"].i = 0
    npu_opt.parameter_map["aicore_num"].s = b"24|48"
    npu_opt.parameter_map["oo_constant_folding"].b = False
    npu_opt.parameter_map["memory_optimization_policy"].s = str("MemoryPriority")
    config.graph_options.rewrite_options.remapping = RewriterConfig.OFF
    return config


def debug_session_config():
    # A second session, for debugging one operator; its options are checked on their own.
    cfg = tf.ConfigProto()
    custom_op = cfg.graph_options.rewrite_options.custom_optimizers.add()
    custom_op.name = "NpuOptimizer"
    custom_op.parameter_map["op_debug_config"].s = tf.compat.as_bytes("/home/user/debug.cfg")
    custom_op.parameter_map["variable_use_1g_huge_page"].i = FLAGS.huge_pages
    custom_op.parameter_map["op_compiler_cache_mode"].s = b"disable"
    print(custom_op.parameter_map["op_compiler_cache_mode"].s)
    return cfg


def train():
    with tf.Session(config=npu_session_config("/cache/kernel")) as sess:
        sess.run(tf.global_variables_initializer())


if __name__ == "__main__":
    os.environ["GE_USE_STATIC_MEMORY"] = "1"
    os.environ.setdefault("ASCEND_MAX_OP_CACHE_SIZE", "-5")
    os.environ["ASCEND_CACHE_PAHT"] = "/cache"
    os.environ["RANK_SIZE"] = "8"
    train()
