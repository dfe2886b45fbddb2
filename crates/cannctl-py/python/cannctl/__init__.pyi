# Types of the cannctl package. The docstrings are the native module's own (a test keeps the
# two equal), so editors show the same text as help().
import os
from typing import (
    Any,
    Dict,
    Iterable,
    Iterator,
    List,
    Literal,
    Mapping,
    Optional,
    Sequence,
    Tuple,
    Union,
    final,
)

__version__: str
__spec_release__: str

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

_Source = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]", Mapping[str, Any]]
_PathArg = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]
_Paths = Union[_PathArg, Iterable[_PathArg]]
# Private: type-checking names only (none exists at run time). The canonical spellings; at run time a locale naming one ("zh_CN.UTF-8", "en-US") is
# accepted too, and None takes the locale from LC_ALL / LC_MESSAGES / LANG.
_Lang = Literal["en", "zh"]
_Target = Literal["ge", "estimator", "session", "tf2", "env", "json"]

class InputError(ValueError):
    """The input cannot be read as a config: unreadable file, bad YAML/JSON, unknown product or release. The message is what the command prints (file:line:column, the line, a hint); `line` and `column` are 1-based and `None` when there is no place, `hint` is `None` when there is none, `findings` holds what `lint` found in the files it could read.
输入无法作为配置读取：文件不可读、YAML/JSON 有误、产品或版本未知。消息与命令行输出一致（文件:行:列、所在行与提示）；`line`、`column` 从 1 开始，无位置时为 `None`；无提示时 `hint` 为 `None`；`findings` 为 `lint` 在可读文件中的检查结果。"""

    line: Optional[int]
    column: Optional[int]
    hint: Optional[str]
    findings: List[Finding]

class ConfigError(ValueError):
    """Raised by the guard functions when a config has findings at error severity. `.report` is the whole Report; the message is its text as the command prints it.
guard 系列函数在配置存在错误级别问题时抛出。`.report` 为完整报告；消息即命令行输出的报告文本。"""

    report: Report

@final
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

@final
class Report:
    """The result of a check: every finding at once, and the product and release checked.
一次检查的结果：全部问题及所检查的产品与版本。

`ok` is true when no finding is an error, and so is the report itself (`if report:`);
iterating yields the findings in order; `len(report)` counts them. `str(report)` is what `cannctl check` prints. `product` is
`None` when none was given for a live object: then the findings are those that hold on
every product of the release.
无错误级别问题时 `ok` 为真，报告本身亦为真（`if report:`）。遍历按顺序得到各条结果，`len(report)` 为条数，`str(report)`
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
    def __bool__(self) -> bool: ...
    def _repr_html_(self) -> str:
        """The report as an HTML table (a summary line, then one row a finding), which Jupyter
shows for a report left as a cell's value.
以 HTML 表格呈现报告（摘要一行，每条问题一行）；报告作为 Jupyter 单元格的值时即如此显示。"""
    def _repr_markdown_(self) -> str:
        """The report as a Markdown table (a summary line, then one row a finding), for
notebook front ends and exports that take Markdown.
以 Markdown 表格呈现报告（摘要一行，每条问题一行），供接受 Markdown 的 Notebook 前端与导出使用。"""

def check(
    source: _Source,
    *,
    product: Optional[str] = None,
    release: Optional[str] = None,
    lang: Optional[_Lang] = None,
) -> Report:
    """Checks a config file, YAML or JSON text, or a dict against a product and release, and
returns every finding at once, as `cannctl check` does. What the call leaves out is
taken as the command takes it: `product` and `release` from the config itself, then from
`[tool.cannctl]` in the nearest pyproject.toml (above the file; above the working
directory for text and dicts); `lang` from there, then from the locale.
按产品与版本检查配置文件、YAML/JSON 文本或 dict，一次返回全部问题，与 `cannctl check` 一致。
未给出的参数与命令行取法相同：`product`、`release` 先取配置自身，再取最近的 pyproject.toml
（文件所在目录向上；文本与 dict 从工作目录向上）中的 `[tool.cannctl]`；`lang` 取该表，再取系统区域设置。"""

def guard(
    source: _Source,
    *,
    product: Optional[str] = None,
    release: Optional[str] = None,
    lang: Optional[_Lang] = None,
) -> Report:
    """As `check`, but raises `ConfigError` (with `.report`) when any finding is an error.
同 `check`，但存在错误级别问题时抛出 `ConfigError`（附 `.report`）。"""

def check_session_config(
    config_proto: Any,
    *,
    product: Optional[str] = None,
    release: Optional[str] = None,
    lang: Optional[_Lang] = None,
) -> Report:
    """Checks a TF1 session's `tf.compat.v1.ConfigProto`: its `NpuOptimizer` custom optimizer's
`parameter_map` (each key, the `AttrValue` field it is set through, its value) and the
rewrite options the adapter needs, as `cannctl lint` checks the same settings in a
script. `product`, `release` and `lang` not given come from `[tool.cannctl]` above the
working directory, as for `check`. Without a product, only what is wrong on every
product of the release is reported.
检查 TF1 session 的 `tf.compat.v1.ConfigProto`：`NpuOptimizer` 自定义优化器的 `parameter_map`
（键名、`AttrValue` 字段与取值）以及适配器要求的 rewrite 选项，与 `cannctl lint` 对脚本的检查一致。
未给出的 `product`、`release`、`lang` 取自工作目录向上的 `[tool.cannctl]`，与 `check` 相同；
没有产品时，仅报告该版本所有产品上都成立的问题。"""

def guard_session_config(
    config_proto: Any,
    *,
    product: Optional[str] = None,
    release: Optional[str] = None,
    lang: Optional[_Lang] = None,
) -> Report:
    """As `check_session_config`, but raises `ConfigError` when any finding is an error; call it
before building the session.
同 `check_session_config`，但存在错误级别问题时抛出 `ConfigError`；请在创建 session 前调用。"""

def check_npu_run_config(
    *,
    product: Optional[str] = None,
    release: Optional[str] = None,
    lang: Optional[_Lang] = None,
    **kwargs: Any,
) -> Report:
    """Checks keyword arguments for `NPURunConfig(...)` (the TF1 Estimator surface), as
`cannctl lint` checks the same call in a script. A class an option takes
(`memory_config=`) may be the adapter's own object (`MemoryConfig(...)`, read by its
attributes, those left at the constructor's default counting as not set) or a dict of its
keyword arguments; `session_config` may be a `ConfigProto`, whose `NpuOptimizer` entries
are checked as `check_session_config` checks them. Any other object is not read, and a
note in the report says so. `product`, `release` and `lang` not given come from
`[tool.cannctl]` above the working directory.
检查 `NPURunConfig(...)` 的关键字参数（TF1 Estimator 接口），与 `cannctl lint` 对脚本中同一调用的检查一致。
选项所需的类（`memory_config=`）可为适配器自己的对象（如 `MemoryConfig(...)`，按属性读取，等于构造默认值的属性视为未设置），
也可为其关键字参数组成的 dict；`session_config` 可为 `ConfigProto`，其 `NpuOptimizer` 条目按 `check_session_config` 的方式检查。
其他对象不会被读取，报告中会以提示说明。未给出的 `product`、`release`、`lang` 取自工作目录向上的 `[tool.cannctl]`。"""

def guard_npu_run_config(
    *,
    product: Optional[str] = None,
    release: Optional[str] = None,
    lang: Optional[_Lang] = None,
    **kwargs: Any,
) -> Report:
    """As `check_npu_run_config`, but raises `ConfigError` when any finding is an error.
同 `check_npu_run_config`，但存在错误级别问题时抛出 `ConfigError`。"""

def check_global_options(
    *,
    product: Optional[str] = None,
    release: Optional[str] = None,
    lang: Optional[_Lang] = None,
    **attrs: Any,
) -> Report:
    """Checks TF2's `npu.global_options()` settings, given as keyword arguments named as its
attributes (`op_compiler_cache_mode="enable"`), a section as a dict
(`memory_config={"atomic_clean_policy": 1}`), as `cannctl lint` checks
`npu.global_options().a.b = value` in a script. `product`, `release` and `lang` not
given come from `[tool.cannctl]` above the working directory.
检查 TF2 `npu.global_options()` 的设置：以属性名作关键字参数（`op_compiler_cache_mode="enable"`），
子项以 dict 给出（`memory_config={"atomic_clean_policy": 1}`），与 `cannctl lint` 对脚本中
`npu.global_options().a.b = value` 的检查一致。未给出的 `product`、`release`、`lang` 取自工作目录向上的 `[tool.cannctl]`。"""

def guard_global_options(
    *,
    product: Optional[str] = None,
    release: Optional[str] = None,
    lang: Optional[_Lang] = None,
    **attrs: Any,
) -> Report:
    """As `check_global_options`, but raises `ConfigError` when any finding is an error.
同 `check_global_options`，但存在错误级别问题时抛出 `ConfigError`。"""

def lint(
    paths: _Paths,
    *,
    product: Optional[str] = None,
    release: Optional[str] = None,
    lang: Optional[_Lang] = None,
) -> List[Finding]:
    """Lints Python training scripts (files, or directories searched for `.py` files honouring
.gitignore) and returns their findings, as `cannctl lint` does. Paths are `str`, `bytes`
or `os.PathLike`. `product`, `release` and `lang` not given come from `[tool.cannctl]`
above the first path, whose `exclude` leaves paths out, as for the command. Without a
product, only what is wrong on every product of the release is reported. Files that
cannot be read raise `InputError`, whose `findings` holds what the other files gave.
检查 Python 训练脚本（文件，或按 .gitignore 搜索 `.py` 的目录）并返回结果，与 `cannctl lint` 一致。
路径可为 `str`、`bytes` 或 `os.PathLike`。未给出的 `product`、`release`、`lang` 取自第一个路径向上的
`[tool.cannctl]`，其 `exclude` 同样排除路径。存在无法读取的文件时抛出 `InputError`，其 `findings` 为其余文件的结果。"""

def emit(
    source: _Source,
    *,
    to: _Target,
    product: Optional[str] = None,
    release: Optional[str] = None,
    lang: Optional[_Lang] = None,
) -> str:
    """Writes a config without errors for a target: "ge" (the graph engine's option map),
"estimator", "session", "tf2", "env" or "json", as `cannctl emit --to` does. A config
with errors raises `ConfigError`.
将无错误的配置输出为指定目标格式（"ge"、"estimator"、"session"、"tf2"、"env"、"json"），
与 `cannctl emit --to` 一致；配置有错误时抛出 `ConfigError`。"""

def explain(
    name: str, release: Optional[str] = None, lang: Optional[_Lang] = None
) -> Dict[str, Any]:
    """One option as `cannctl explain --format json` describes it: type, default, values,
ranges, keys on every surface, support by product and release, rules, sources. `name` is
an option name, a dotted path or an environment variable; with `release`, the facts in
effect in that release (`cannctl explain --release`), else in the newest.
以 dict 返回一个选项的说明，与 `cannctl explain --format json` 一致；`name` 可为选项名、点分路径或环境变量名；给出 `release` 时为该版本中生效的事实（同 `--release`），否则为最新版本。"""

def schema() -> Dict[str, Any]:
    """The JSON Schema of config files, as a dict (`cannctl schema` prints it).
配置文件的 JSON Schema（dict 形式；`cannctl schema` 输出同一内容）。"""

def main(args: Optional[Sequence[str]] = None) -> int:
    """Runs the `cannctl` command line with `args` (without the program name; `sys.argv[1:]`
when `None`) and returns its exit code, writing through `sys.stdout` and `sys.stderr`:
`contextlib.redirect_stdout` captures it and a notebook shows it.
以 `args`（不含程序名；为 `None` 时取 `sys.argv[1:]`）运行 `cannctl` 命令行并返回退出码，
输出经由 `sys.stdout` 与 `sys.stderr`，因此 `contextlib.redirect_stdout` 可以捕获、Notebook 可以显示。"""
