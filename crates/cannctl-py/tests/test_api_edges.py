"""The API as a training script and a notebook use it: exceptions as their stubs say,
cannctl.main through sys.stdout, locale spellings, odd input, pickling and display."""

import contextlib
import io
import multiprocessing
import os
import pathlib
import pickle

import pytest

import cannctl
from conftest import run

MISTAKES = "examples/mistakes.yaml"


# 10. Exceptions carry what the stub declares.

def test_every_input_error_has_the_stubs_attributes(tmp_path):
    errors = []
    for call in [
        lambda: cannctl.check("a: [1,\n"),
        lambda: cannctl.explain("no_such_option_at_all"),
        lambda: cannctl.lint(tmp_path / "nope"),
        lambda: cannctl.check("examples/train-a2.yaml", product="nope"),
    ]:
        with pytest.raises(cannctl.InputError) as e:
            call()
        errors.append(e.value)
    for e in errors:
        assert isinstance(e.findings, list)
        for attr in ("line", "column", "hint"):
            getattr(e, attr)
    parse, explain, lint, product = errors
    assert (parse.line, parse.column) is not None and parse.line >= 1
    assert explain.hint, "explain's error carries the command's hint"
    assert lint.findings == []
    assert product.hint and "atlas-a2-training" in product.hint
    # The class has them too (stubtest reads the class).
    assert cannctl.InputError.line is None and cannctl.InputError.findings == []


def test_lint_error_keeps_the_findings_of_readable_files(tmp_path):
    (tmp_path / "train.py").write_text(
        "from npu_bridge.npu_init import *\nconfig = NPURunConfig(op_debug_levl=0)\n"
    )
    # A named pipe is no script file: listed as not linted, the other file still is.
    os.mkfifo(tmp_path / "pipe.py")
    with pytest.raises(cannctl.InputError) as e:
        cannctl.lint([tmp_path / "train.py", tmp_path / "pipe.py"])
    assert "pipe.py" in str(e.value)
    assert [f.option for f in e.value.findings] == ["npu_run_config.op_debug_levl"]


# 11. cannctl.main writes through sys.stdout and sys.stderr.

def test_main_writes_through_sys_stdout():
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cannctl.main(["check", MISTAKES])
    assert code == 1
    assert out.getvalue() == run("check", MISTAKES).stdout
    assert "\x1b[" not in out.getvalue()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        assert cannctl.main(["check", "no/such.yaml"]) == 2
        assert cannctl.main(["--version"]) == 0
        assert cannctl.main(["frobnicate"]) == 2
    assert "no/such.yaml: cannot open" in err.getvalue()
    assert "`frobnicate`" in err.getvalue()
    assert f"cannctl {cannctl.__version__.split('+')[0]}" in out.getvalue()


def test_main_takes_no_string():
    with pytest.raises(TypeError):
        cannctl.main("check examples/mistakes.yaml")


# 12. Languages as locales spell them.

@pytest.mark.parametrize("lang", ["zh", "zh_CN", "zh-CN", "zh_CN.UTF-8", "ZH"])
def test_chinese_by_any_locale_spelling(lang):
    r = cannctl.check(MISTAKES, lang=lang)
    assert "未知" in str(r) or "没有选项" in str(r)


@pytest.mark.parametrize("lang", ["en", "en_US", "en-US", "en_US.UTF-8"])
def test_english_by_any_locale_spelling(lang):
    assert "unknown option" in str(cannctl.check(MISTAKES, lang=lang))


def test_the_default_language_is_the_locales(monkeypatch):
    for k in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(k, raising=False)
    assert "unknown option" in str(cannctl.check(MISTAKES))
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    zh = str(cannctl.check(MISTAKES))
    assert zh == str(cannctl.check(MISTAKES, lang="zh"))
    monkeypatch.setenv("LC_ALL", "C")
    assert "unknown option" in str(cannctl.check(MISTAKES))


def test_an_unknown_language_is_refused():
    with pytest.raises(ValueError, match="fr"):
        cannctl.check(MISTAKES, lang="fr")


# A wrong type given to a function: the TypeError speaks the call's language too.
WRONG_TYPES = [
    (lambda lang: cannctl.check(42, lang=lang),
     "source must be a path", "source 应为路径"),
    (lambda lang: cannctl.check({1: 2}, lang=lang),
     "keys of the config must be strings, found int 1", "配置的键应为字符串，实际为 int 1"),
    (lambda lang: cannctl.check({"npu_run_config": {1: 2}}, lang=lang),
     "keys of `npu_run_config` must be strings", "`npu_run_config` 的键应为字符串"),
    (lambda lang: cannctl.check({"npu_run_config": {"x": object()}}, lang=lang),
     "`npu_run_config.x` is a object, which a config file cannot hold",
     "`npu_run_config.x` 是 object，配置文件无法容纳该类型"),
    (lambda lang: cannctl.lint([MISTAKES, 3], lang=lang),
     "paths must be str, bytes or os.PathLike", "paths 应为 str、bytes 或 os.PathLike"),
    (lambda lang: cannctl.check_session_config({"graph_options": 1}, lang=lang),
     "expected a tf.compat.v1.ConfigProto", "应为 tf.compat.v1.ConfigProto"),
]


@pytest.mark.parametrize("call,en,zh", WRONG_TYPES)
def test_a_wrong_type_is_a_type_error_in_the_calls_language(call, en, zh):
    with pytest.raises(TypeError) as e:
        call("en")
    assert en in str(e.value)
    with pytest.raises(TypeError) as e:
        call("zh")
    assert zh in str(e.value)
    assert en not in str(e.value)


def test_a_huge_key_is_not_repeated_whole():
    with pytest.raises(TypeError) as e:
        cannctl.check({b"k" * 1_000_000: 1})
    assert len(str(e.value)) < 10_000


# 13. Odd input.

def test_a_huge_string_gives_a_short_message():
    huge = "x" * 50_000_000
    with pytest.raises((cannctl.InputError, OSError)) as e:
        cannctl.check(huge)
    assert len(str(e.value)) < 10_000
    with pytest.raises(cannctl.InputError) as e:
        cannctl.check("k: " + huge)
    assert len(str(e.value)) < 10_000


def test_a_large_flat_yaml_names_the_budget(tmp_path):
    text = "npu_run_config:\n" + "".join(f"  k{i}: {i}\n" for i in range(1_500_000))
    assert len(text) > 20_000_000
    with pytest.raises(cannctl.InputError) as e:
        cannctl.check(text)
    message = str(e.value)
    assert "alias" not in message and "nest" not in message, message
    assert "250000" in message and "values" in message, message
    assert len(message) < 10_000
    # As a file, the size cap speaks first.
    big = tmp_path / "big.yaml"
    big.write_text(text)
    with pytest.raises(cannctl.InputError) as e:
        cannctl.check(big)
    assert "alias" not in str(e.value), str(e.value)


def test_bytes_and_pathlike_paths(tmp_path):
    (tmp_path / "train.py").write_text(
        "from npu_bridge.npu_init import *\nconfig = NPURunConfig(op_debug_levl=0)\n"
    )
    by_str = [f.message for f in cannctl.lint(str(tmp_path / "train.py"))]
    assert len(by_str) == 1
    assert [f.message for f in cannctl.lint(os.fsencode(tmp_path / "train.py"))] == by_str
    assert [f.message for f in cannctl.lint([os.fsencode(tmp_path)])] == by_str

    class Fspath:
        def __fspath__(self):
            return os.fsencode(tmp_path / "train.py")

    assert [f.message for f in cannctl.lint(Fspath())] == by_str
    assert cannctl.check(pathlib.Path(MISTAKES)).errors == 4


def test_a_big_integer_is_called_an_integer():
    for r in [
        cannctl.check({"product": "atlas-a2-training", "npu_run_config": {"op_debug_level": 2**100}}),
        cannctl.check_npu_run_config(op_debug_level=2**100),
        cannctl.check_global_options(op_debug_level=2**100),
    ]:
        # (op_debug_level is deprecated too: a warning beside the error.)
        [f] = [f for f in r if f.severity == "error"]
        assert "floating" not in f.message and "integer" in f.message, f.message
        assert f.value == str(2**100)


# 14. Pickling, truth, display, names.

def _check_in_worker(path):
    return cannctl.check(path)


def test_a_report_survives_pickle_and_a_process_pool():
    r = cannctl.check(MISTAKES, lang="zh")
    back = pickle.loads(pickle.dumps(r))
    assert str(back) == str(r)
    assert back.to_dict() == r.to_dict()
    assert [f.to_dict() for f in back] == [f.to_dict() for f in r]
    live = cannctl.check_npu_run_config(op_debug_levl=0)
    assert pickle.loads(pickle.dumps(live)).findings[0].setting == "op_debug_levl"
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        [remote] = pool.map(_check_in_worker, [os.path.abspath(MISTAKES)])
    assert remote.errors == 4


def test_truth_is_ok():
    assert not cannctl.check(MISTAKES)
    assert cannctl.check("examples/train-a2.yaml")
    warned = cannctl.check_npu_run_config(op_debug_level=2)
    assert warned.ok and warned and len(warned) > 0


def test_notebook_display():
    r = cannctl.check(MISTAKES)
    html = r._repr_html_()
    assert html.count("<tr>") == 1 + len(r)
    assert "op_compiler_cache_mod" in html and "<script" not in html
    md = r._repr_markdown_()
    assert md.count("\n| ") == 1 + len(r)
    assert "4 errors" in md
    zh = cannctl.check(MISTAKES, lang="zh")._repr_html_()
    assert "级别" in zh
    clean = cannctl.check({"product": "atlas-a2-training"})
    assert len(clean) == 0
    assert "<table>" not in clean._repr_html_()


def test_a_product_suggestion_is_an_accepted_id():
    suggested = []
    for typo in ["Ascend 910", "Atlas 800T A3", "atlas-a2-trainin", "Atlas 300I"]:
        with pytest.raises(cannctl.InputError) as e:
            cannctl.check("examples/train-a2.yaml", product=typo)
        message = str(e.value)
        if "did you mean `" in message:
            name = message.split("did you mean `")[1].split("`")[0]
            suggested.append(name)
            # An id, as `--product` and `product:` are written.
            assert cannctl.check("examples/train-a2.yaml", product=name).product == name
    assert "atlas-a3-training" in suggested and "atlas-a2-training" in suggested


def test_chinese_messages_space_latin_code(tmp_path):
    (tmp_path / "train.py").write_text(
        "import tensorflow as tf\n"
        "config = tf.compat.v1.ConfigProto()\n"
        "custom_op = config.graph_options.rewrite_options.custom_optimizers.add()\n"
        'custom_op.name = "NpuOptimizer"\n'
        'custom_op.parameter_map["op_debug_levl"].i = 0\n'
    )
    [f] = cannctl.lint(tmp_path / "train.py", lang="zh")
    assert "未知的 parameter_map 键" in f.message, f.message


def test_version_names_the_spec_release():
    public, _, label = cannctl.__version__.partition("+")
    assert label == "cann." + cannctl.__spec_release__.lower()
    assert cannctl.__spec_release__ in run("--version").stdout
    from importlib.metadata import version

    assert version("cannctl") == public
