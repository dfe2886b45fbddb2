"""`[tool.cannctl]` in the nearest pyproject.toml, read by the in-process API as the command
reads it: what a call leaves out comes from there (the config's own product and release
first, for check), an explicit argument beats it, and bad settings are an InputError at
their place."""

import textwrap

import pytest

import cannctl
from conftest import run

# Product-dependent: MemoryConfig is not supported on the Atlas inference series.
MEMORY = {"npu_run_config": {"memory_config": {"atomic_clean_policy": 1}}}
MEMORY_YAML = "npu_run_config:\n  memory_config:\n    atomic_clean_policy: 1\n"
SCRIPT = (
    "from npu_bridge.npu_init import *\n"
    "config = NPURunConfig(memory_config=MemoryConfig(atomic_clean_policy=1))\n"
)


def project(root, body):
    (root / "pyproject.toml").write_text(
        "[project]\nname = 'job'\n\n[tool.cannctl]\n" + textwrap.dedent(body)
    )
    sub = root / "jobs" / "train"
    sub.mkdir(parents=True)
    return sub


def test_check_takes_the_product_from_the_nearest_pyproject(tmp_path, monkeypatch):
    sub = project(tmp_path, 'product = "atlas-inference"\nrelease = "8.3.RC1"\n')
    config = sub / "job.yaml"
    config.write_text(MEMORY_YAML)
    r = cannctl.check(config)
    assert (r.product, r.release) == ("atlas-inference", "8.3.RC1")
    assert r.errors == 1 and "not supported" in r.findings[0].message
    # The command, from anywhere, says the same of the same file.
    assert str(r) == run("check", str(config)).stdout
    # An argument beats the settings; the config's own product does too.
    assert cannctl.check(config, product="atlas-a2-training").ok
    config.write_text("product: atlas-a2-training\n" + MEMORY_YAML)
    assert cannctl.check(config).product == "atlas-a2-training"
    # Text and dicts: the working directory's project.
    monkeypatch.chdir(sub)
    assert cannctl.check(MEMORY).product == "atlas-inference"
    assert cannctl.check(MEMORY_YAML).product == "atlas-inference"
    assert cannctl.guard(MEMORY, product="atlas-a2-training").ok


def test_without_settings_a_dict_still_needs_a_product(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(cannctl.InputError, match="product"):
        cannctl.check(MEMORY)


def test_the_settings_language_unless_one_is_given(tmp_path, monkeypatch):
    for k in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(k, raising=False)
    sub = project(tmp_path, 'product = "atlas-inference"\nlang = "zh"\n')
    config = sub / "job.yaml"
    config.write_text(MEMORY_YAML)
    assert "不支持" in str(cannctl.check(config))
    assert "not supported" in str(cannctl.check(config, lang="en"))
    monkeypatch.chdir(sub)
    assert "不支持" in str(cannctl.check_npu_run_config(**MEMORY["npu_run_config"]))


def test_the_live_checks_read_the_working_directorys_project(tmp_path, monkeypatch):
    sub = project(tmp_path, 'product = "atlas-inference"\n')
    monkeypatch.chdir(sub)
    est = cannctl.check_npu_run_config(**MEMORY["npu_run_config"])
    assert est.product == "atlas-inference" and est.errors == 1, str(est)
    tf2 = cannctl.check_global_options(**MEMORY["npu_run_config"])
    assert tf2.product == "atlas-inference" and tf2.errors == 1, str(tf2)
    assert cannctl.check_npu_run_config(product="atlas-a2-training", **MEMORY["npu_run_config"]).ok


def test_lint_reads_the_project_of_its_first_path(tmp_path):
    sub = project(tmp_path, 'product = "atlas-inference"\nexclude = ["vendor"]\n')
    (sub / "train.py").write_text(SCRIPT)
    (sub / "vendor").mkdir()
    (sub / "vendor" / "train.py").write_text(SCRIPT)
    found = cannctl.lint(sub)
    assert [f.path for f in found] == [str(sub / "train.py")], [str(f.message) for f in found]
    assert "not supported" in found[0].message
    # The command agrees: one finding, in the same file.
    out = run("lint", "--format", "json", str(sub)).stdout
    assert out.count('"path"') == 1 and str(sub / "train.py") in out, out
    # Named explicitly, an excluded file is left out too, as by the command.
    assert cannctl.lint(sub / "vendor" / "train.py") == []
    assert cannctl.lint(sub / "train.py", product="atlas-a2-training") == []


def test_bad_settings_are_an_input_error_at_their_place(tmp_path):
    sub = project(tmp_path, 'product = "atlas-inferenc"\n')
    config = sub / "job.yaml"
    config.write_text(MEMORY_YAML)
    with pytest.raises(cannctl.InputError) as e:
        cannctl.check(config)
    assert "pyproject.toml" in str(e.value)
    assert (e.value.line, e.value.column) == (5, 11)
    assert "atlas-inference" in (e.value.hint or "")
    with pytest.raises(cannctl.InputError):
        cannctl.lint(sub)
