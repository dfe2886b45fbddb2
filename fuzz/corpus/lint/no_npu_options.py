"""A plain data-loading module: no NPU option is set here."""
import tensorflow as tf


def dataset(files, batch_size=32):
    ds = tf.data.TFRecordDataset(files)
    return ds.batch(batch_size).prefetch(tf.data.AUTOTUNE)
