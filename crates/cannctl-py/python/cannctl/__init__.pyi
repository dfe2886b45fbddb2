# Types of the cannctl package. The docstrings are the native module's own (a test keeps the
# two equal), so editors show the same text as help().
import os
from typing import Any, Dict, Iterable, Iterator, List, Mapping, Optional, Union

__version__: str

Source = Union[str, bytes, "os.PathLike[str]", Mapping[str, Any]]
Paths = Union[str, "os.PathLike[str]", Iterable[Union[str, "os.PathLike[str]"]]]

class InputError(ValueError):
    """The input cannot be read as a config: unreadable file, bad YAML/JSON, unknown product or release. The message is what the command prints (file:line:column, the line, a hint).
输入无法作为配置读取：文件不可读、YAML/JSON 有误、产品或版本未知。消息与命令行输出一致（文件:行:列、所在行与提示）。"""

    line: Optional[int]
    column: Optional[int]
    hint: Optional[str]
    findings: List[Finding]

class ConfigError(ValueError):
    """Raised by the guard functions when a config has findings at error severity. `.report` is the whole Report; the message is its text as the command prints it.
guard 系列函数在配置存在错误级别问题时抛出。`.report` 为完整报告；消息即命令行输出的报告文本。"""

    report: Report

class Finding:
    """One finding: what is wrong, where, and how to fix it.
一条检查结果：问题是什么、位于何处、如何修正。

`severity` is "error", "warning" or "note". `option` is the option's dotted path
(`npu_run_config.memory_config.static_memory_policy`). `line` and `column` are 1-based
positions in the file or text checked, `None` when the config was a dict or a live object;
for those, `setting` says how the value was written (`parameter_map["op_debug_level"]`,
`memory_config.static_memory_policy`). `path` is the script of a lint finding.
`severity` 取 "error"、"warning" 或 "note"；`option` 为选项的点分路径；`line`、`column`
为所查文件或文本中从 1 开始的位置，检查 dict 或运行中对象时为 `None`，此时 `setting`
给出该值的写法；`path` 为 lint 结果所在的脚本。"""

    @property
    def severity(self) -> str: ...
    @property
    def option(self) -> str: ...
    @property
    def message(self) -> str: ...
    @property
    def hint(self) -> Optional[str]: ...
    @property
    def expected(self) -> Optional[str]: ...
    @property
    def value(self) -> Optional[str]: ...
    @property
    def rule(self) -> Optional[str]: ...
    @property
    def line(self) -> Optional[int]: ...
    @property
    def column(self) -> Optional[int]: ...
    @property
    def setting(self) -> Optional[str]: ...
    @property
    def path(self) -> Optional[str]: ...
    def to_dict(self) -> Dict[str, Any]:
        """The finding as a dict of its fields. / 以 dict 形式返回各字段。"""

class Report:
    """The result of a check: every finding at once, and the product and release checked.
一次检查的结果：全部问题及所检查的产品与版本。

`ok` is true when no finding is an error. Iterating yields the findings in order;
`len(report)` counts them. `str(report)` is what `cannctl check` prints. `product` is
`None` when none was given for a live object: then the findings are those that hold on
every product of the release.
无错误级别问题时 `ok` 为真。遍历按顺序得到各条结果，`len(report)` 为条数，`str(report)`
与 `cannctl check` 的输出一致。未指定产品时 `product` 为 `None`，结果为该版本所有产品上都成立的问题。"""

    @property
    def source(self) -> str: ...
    @property
    def findings(self) -> List[Finding]: ...
    @property
    def ok(self) -> bool:
        """True when no finding is an error. / 无错误级别问题时为真。"""
    @property
    def errors(self) -> int:
        """Number of findings at error severity. / 错误级别问题数。"""
    @property
    def warnings(self) -> int:
        """Number of warnings. / 警告数。"""
    @property
    def notes(self) -> int:
        """Number of notes. / 提示数。"""
    @property
    def product(self) -> Optional[str]:
        """The product id checked against, or None for every product of the release.
所检查的产品 id；为 None 时表示该版本的所有产品。"""
    @property
    def release(self) -> str:
        """The CANN release checked against. / 所检查的 CANN 版本。"""
    def to_dict(self) -> Dict[str, Any]:
        """The report as a dict shaped like `cannctl check --format json`.
以 dict 形式返回报告，结构与 `cannctl check --format json` 一致。"""
    def __iter__(self) -> Iterator[Finding]: ...
    def __len__(self) -> int: ...

def check(
    source: Source,
    *,
    product: Optional[str] = None,
    release: Optional[str] = None,
    lang: str = "en",
) -> Report:
    """Checks a config file, YAML or JSON text, or a dict against a product and release, and
returns every finding at once, as `cannctl check` does.
按产品与版本检查配置文件、YAML/JSON 文本或 dict，一次返回全部问题，与 `cannctl check` 一致。"""

def guard(
    source: Source,
    *,
    product: Optional[str] = None,
    release: Optional[str] = None,
    lang: str = "en",
) -> Report:
    """As `check`, but raises `ConfigError` (with `.report`) when any finding is an error.
同 `check`，但存在错误级别问题时抛出 `ConfigError`（附 `.report`）。"""

def check_session_config(
    config_proto: Any,
    *,
    product: Optional[str] = None,
    release: Optional[str] = None,
    lang: str = "en",
) -> Report:
    """Checks a TF1 session's `tf.compat.v1.ConfigProto`: its `NpuOptimizer` custom optimizer's
`parameter_map` (each key, the `AttrValue` field it is set through, its value) and the
rewrite options the adapter needs, as `cannctl lint` checks the same settings in a
script. Without `product`, only what is wrong on every product of the release is reported.
检查 TF1 session 的 `tf.compat.v1.ConfigProto`：`NpuOptimizer` 自定义优化器的 `parameter_map`
（键名、`AttrValue` 字段与取值）以及适配器要求的 rewrite 选项，与 `cannctl lint` 对脚本的检查一致。
未指定 `product` 时，仅报告该版本所有产品上都成立的问题。"""

def guard_session_config(
    config_proto: Any,
    *,
    product: Optional[str] = None,
    release: Optional[str] = None,
    lang: str = "en",
) -> Report:
    """As `check_session_config`, but raises `ConfigError` when any finding is an error; call it
before building the session.
同 `check_session_config`，但存在错误级别问题时抛出 `ConfigError`；请在创建 session 前调用。"""

def check_npu_run_config(
    *,
    product: Optional[str] = None,
    release: Optional[str] = None,
    lang: str = "en",
    **kwargs: Any,
) -> Report:
    """Checks keyword arguments for `NPURunConfig(...)` (the TF1 Estimator surface), as
`cannctl lint` checks the same call in a script. Classes an option takes
(`memory_config=MemoryConfig(...)`) are given as dicts of their keyword arguments.
检查 `NPURunConfig(...)` 的关键字参数（TF1 Estimator 接口），与 `cannctl lint` 对脚本中同一调用的检查一致。
选项所需的类（如 `memory_config=MemoryConfig(...)`）以其关键字参数组成的 dict 给出。"""

def guard_npu_run_config(
    *,
    product: Optional[str] = None,
    release: Optional[str] = None,
    lang: str = "en",
    **kwargs: Any,
) -> Report:
    """As `check_npu_run_config`, but raises `ConfigError` when any finding is an error.
同 `check_npu_run_config`，但存在错误级别问题时抛出 `ConfigError`。"""

def lint(
    paths: Paths,
    *,
    product: Optional[str] = None,
    release: Optional[str] = None,
    lang: str = "en",
) -> List[Finding]:
    """Lints Python training scripts (files, or directories searched for `.py` files honouring
.gitignore) and returns their findings, as `cannctl lint` does. Without `product`, only
what is wrong on every product of the release is reported.
检查 Python 训练脚本（文件，或按 .gitignore 搜索 `.py` 的目录）并返回结果，与 `cannctl lint` 一致。"""

def emit(
    source: Source,
    *,
    to: str,
    product: Optional[str] = None,
    release: Optional[str] = None,
    lang: str = "en",
) -> str:
    """Writes a config without errors for a target: "ge" (the graph engine's option map),
"estimator", "session", "tf2", "env" or "json", as `cannctl emit --to` does. A config
with errors raises `ConfigError`.
将无错误的配置输出为指定目标格式（"ge"、"estimator"、"session"、"tf2"、"env"、"json"），
与 `cannctl emit --to` 一致；配置有错误时抛出 `ConfigError`。"""

def explain(
    name: str, release: Optional[str] = None, lang: str = "en"
) -> Dict[str, Any]:
    """One option as `cannctl explain --format json` describes it: type, default, values,
ranges, keys on every surface, support by product and release, rules, sources. `name` is
an option name, a dotted path or an environment variable; with `release`, the facts in
effect in that release (`cannctl explain --release`), else in the newest.
以 dict 返回一个选项的说明，与 `cannctl explain --format json` 一致；`name` 可为选项名、点分路径或环境变量名；给出 `release` 时为该版本中生效的事实（同 `--release`），否则为最新版本。"""

def schema() -> Dict[str, Any]:
    """The JSON Schema of config files, as a dict (`cannctl schema` prints it).
配置文件的 JSON Schema（dict 形式；`cannctl schema` 输出同一内容）。"""
