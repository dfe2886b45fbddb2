"""GPT-2 small fine-tuning with TF2 Keras on Ascend."""
import os

import npu_device as npu
import tensorflow as tf

npu.global_options().precision_mode = "allow_mix_precision"
npu.global_options().op_compiler_cache_mode = "enable"
npu.global_options().op_compiler_cache_dir = os.path.join(os.getcwd(), "cache")
npu.global_options().memory_config.static_memory_policy = 4
npu.global_options().memory_config.atomic_clean_policy = "1"
npu.global_options().memory_config.memory_optimization_policy = "MemoryPriority"
opts = npu.global_options()
opts.op_debug_level = 0
opts.oo_constant_folding = False
opts.memory_config.static_memroy_policy = 2
mem = npu.global_options().memory_config
mem.variable_use_1g_huge_page = 7
npu.open().as_default()


def build_model(vocab_size=50257):
    inputs = tf.keras.Input(shape=(1024,), dtype=tf.int32)
    x = tf.keras.layers.Embedding(vocab_size, 768)(inputs)
    outputs = tf.keras.layers.Dense(vocab_size)(x)
    return tf.keras.Model(inputs, outputs)


if __name__ == "__main__":
    model = build_model()
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
