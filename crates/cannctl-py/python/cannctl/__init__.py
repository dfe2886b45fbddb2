"""Check Ascend CANN TF Adapter options from Python, with the same core as the ``cannctl``
command: config files and dicts, a live TF1 ``ConfigProto``, ``NPURunConfig`` keyword
arguments, and training scripts.

用 Python 检查昇腾 CANN TF Adapter 选项，与 ``cannctl`` 命令共用同一内核：配置文件与 dict、
运行中的 TF1 ``ConfigProto``、``NPURunConfig`` 关键字参数以及训练脚本。

    >>> import cannctl
    >>> report = cannctl.check({"product": "atlas-a2-training",
    ...                         "npu_run_config": {"op_compiler_cache_mode": "enabel"}})
    >>> report.ok
    False
"""

from ._cannctl import (
    ConfigError,
    Finding,
    InputError,
    Report,
    __spec_release__,
    __version__,
    check,
    check_global_options,
    check_npu_run_config,
    check_session_config,
    emit,
    explain,
    guard,
    guard_global_options,
    guard_npu_run_config,
    guard_session_config,
    lint,
    main,
    schema,
)

__all__ = [
    "ConfigError",
    "Finding",
    "InputError",
    "Report",
    "__spec_release__",
    "__version__",
    "check",
    "check_global_options",
    "check_npu_run_config",
    "check_session_config",
    "emit",
    "explain",
    "guard",
    "guard_global_options",
    "guard_npu_run_config",
    "guard_session_config",
    "lint",
    "main",
    "schema",
]
