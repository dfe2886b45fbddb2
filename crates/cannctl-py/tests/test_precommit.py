"""The pre-commit hooks, run by `pre-commit try-repo` on a sample repository, as a user's
repository runs them, with no package index: the wheel hooks install the built wheel (from
CANNCTL_WHEEL_DIR), the source hooks build cannctl from the repository itself (maturin and
setuptools, the build tools, from the same directory; the Rust build in CANNCTL_TARGET_DIR,
the workspace's target directory, with the dev profile, so CI compiles only the workspace's
own crates again)."""

import os
import re
import subprocess
import sys

import pytest

import cannctl
from conftest import REPO, need

WHEELS = os.environ.get("CANNCTL_WHEEL_DIR")

BAD_SCRIPT = (
    "import tensorflow as tf\n"
    "config = tf.compat.v1.ConfigProto()\n"
    "custom_op = config.graph_options.rewrite_options.custom_optimizers.add()\n"
    'custom_op.name = "NpuOptimizer"\n'
    'custom_op.parameter_map["op_debug_levl"].i = 0\n'
)
BAD_CONFIG = (
    "product: atlas-a2-training\n"
    "npu_run_config:\n"
    "  op_compiler_cache_mod: enable\n"
)


@pytest.fixture(scope="module")
def wheels():
    if not WHEELS:
        if os.environ.get("CI") == "true":
            pytest.fail("CANNCTL_WHEEL_DIR is unset under CI")
        pytest.skip("skipped: CANNCTL_WHEEL_DIR (the built wheel's directory) is unset")
    need("pre_commit")
    return WHEELS


def git(cwd, *args):
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
    )


@pytest.fixture(scope="module")
def home(tmp_path_factory):
    # One pre-commit cache for the module: the hook environment is built once.
    return tmp_path_factory.mktemp("pre-commit-home")


def try_repo(sample, hook, home, wheels):
    env = dict(
        os.environ,
        PRE_COMMIT_HOME=str(home),
        PIP_FIND_LINKS=wheels,
        PIP_NO_INDEX="1",
        NO_COLOR="1",
    )
    target = os.environ.get("CANNCTL_TARGET_DIR")
    if target:
        env["CARGO_TARGET_DIR"] = target
        env["MATURIN_PEP517_ARGS"] = "--profile dev"
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "try-repo", str(REPO), hook, "--all-files"],
        cwd=sample,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )


def sample_repo(path, script, config):
    path.mkdir()
    git(path, "init", "-q")
    (path / "train.py").write_text(script)
    (path / "train.cann.yaml").write_text(config)
    # Not named as a cannctl config: the check hook leaves it alone.
    (path / "docker-compose.yaml").write_text("services: {app: {image: x}}\n")
    git(path, "add", "-A")
    return path


def test_hooks_find_the_wrong_keys(tmp_path, home, wheels):
    sample = sample_repo(tmp_path / "sample", BAD_SCRIPT, BAD_CONFIG)
    lint = try_repo(sample, "cannctl-lint", home, wheels)
    assert lint.returncode == 1, lint.stdout + lint.stderr
    assert "unknown parameter_map key `op_debug_levl`" in lint.stdout
    assert "train.py:5:" in lint.stdout
    check = try_repo(sample, "cannctl-check", home, wheels)
    assert check.returncode == 1, check.stdout + check.stderr
    assert "unknown option `op_compiler_cache_mod`" in check.stdout
    assert "train.cann.yaml:3:3" in check.stdout
    assert "docker-compose" not in check.stdout


def test_hooks_pass_a_clean_repository(tmp_path, home, wheels):
    good_script = BAD_SCRIPT.replace("op_debug_levl", "op_debug_level")
    good_config = BAD_CONFIG.replace("cache_mod:", "cache_mode:")
    sample = sample_repo(tmp_path / "clean", good_script, good_config)
    for hook in ["cannctl-lint", "cannctl-check"]:
        out = try_repo(sample, hook, home, wheels)
        assert out.returncode == 0, out.stdout + out.stderr
        assert "Passed" in out.stdout


def test_the_source_hooks_build_from_the_repository(tmp_path, home, wheels):
    # A cold build of the whole tree takes a quarter of an hour on 2 cores: only with the
    # workspace's target directory (CI sets it).
    if not os.environ.get("CANNCTL_TARGET_DIR"):
        if os.environ.get("CI") == "true":
            pytest.fail("CANNCTL_TARGET_DIR is unset under CI")
        pytest.skip("skipped: CANNCTL_TARGET_DIR (the workspace's target dir) is unset")
    # The user this hook is for has no cannctl wheel anywhere: pip sees only the build tools,
    # so a hook that runs at all was built from the repository's source.
    tools = tmp_path / "tools"
    tools.mkdir()
    for wheel in os.listdir(wheels):
        if wheel.endswith(".whl") and not wheel.startswith("cannctl-"):
            os.symlink(os.path.join(wheels, wheel), tools / wheel)
    sample = sample_repo(tmp_path / "sample", BAD_SCRIPT, BAD_CONFIG)
    lint = try_repo(sample, "cannctl-lint-source", home, str(tools))
    assert lint.returncode == 1, lint.stdout + lint.stderr
    assert "unknown parameter_map key `op_debug_levl`" in lint.stdout
    # try-repo builds each hook's environment in a store of its own: a second build.
    check = try_repo(sample, "cannctl-check-source", home, str(tools))
    assert check.returncode == 1, check.stdout + check.stderr
    assert "train.cann.yaml:3:3" in check.stdout


def test_the_hooks_package_pins_this_version():
    text = (REPO / "pyproject.toml").read_text()
    public = cannctl.__version__.split("+")[0]
    assert re.search(r'"cannctl==([^"]+)"', text).group(1) == public
    assert re.search(r'^version = "([^"]+)"', text, re.M).group(1) == public
