# coding=utf-8
# Copyright 2024 The ResNet Authors. Licensed under the Apache License, Version 2.0.
"""ResNet-50 on ImageNet with a TF1 Estimator on Ascend NPUs."""
from __future__ import absolute_import, division, print_function

import os

import tensorflow as tf
from npu_bridge.npu_init import *
from npu_bridge.estimator.npu.npu_config import NPURunConfig, MemoryConfig
from npu_bridge.estimator.npu.npu_estimator import NPUEstimator

flags = tf.compat.v1.flags
flags.DEFINE_string("data_dir", "/data/imagenet", "TFRecord directory")
flags.DEFINE_string("model_dir", "./ckpt", "checkpoint directory")
flags.DEFINE_integer("iterations_per_loop", 100, "steps per device loop")
FLAGS = flags.FLAGS


def model_fn(features, labels, mode, params):
    logits = tf.keras.applications.ResNet50(weights=None)(features, training=True)
    loss = tf.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)
    opt = tf.train.MomentumOptimizer(learning_rate=0.1, momentum=0.9)
    train_op = opt.minimize(loss, global_step=tf.train.get_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


def build_run_config():
    session_config = tf.ConfigProto(allow_soft_placement=True)
    rank_size = int(os.getenv("RANK_SIZE", "1"))
    return NPURunConfig(
        model_dir=FLAGS.model_dir,
        save_checkpoints_steps=1000,
        iterations_per_loop=FLAGS.iterations_per_loop,
        session_config=session_config,
        precision_mode="allow_mix_precision",
        op_compiler_cache_mode="enabel",
        op_compiler_cache_dir="/home/ma-user/op cache",
        op_debug_level=1,
        aicore_num="24|0",
        hcom_parallel=rank_size > 1,
        memory_config=MemoryConfig(
            atomic_clean_policy=1,
            static_memory_policy=1,
            static_memory_polcy=2,
        ),
    )


def build_eval_config():
    # Evaluation shares the compile cache; a separate memory config keeps it small.
    eval_memory = MemoryConfig(static_memory_policy=5, variable_use_1g_huge_page=2)
    return NPURunConfig(memory_config=eval_memory, op_compiler_cache_mode="force")


def main(_):
    estimator = NPUEstimator(model_fn=model_fn, config=build_run_config(), params={})
    estimator.train(input_fn=lambda: None, max_steps=90000)


if __name__ == "__main__":
    tf.compat.v1.app.run()
