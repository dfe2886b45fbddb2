"""The `cannctl` command the wheel installs: the Rust CLI, run in-process by the console
script."""

import json
import re
import subprocess
import sys

import cannctl
from conftest import REPO, command, run


def test_version_and_help():
    out = run("--version")
    assert out.returncode == 0
    # The command names the spec's newest release after its own version, as the package's
    # version does in its local label (0.1.0+cann.9.0.0).
    public, _, label = cannctl.__version__.partition("+")
    assert out.stdout.strip() == f"cannctl {public} (CANN {cannctl.__spec_release__})"
    assert label == "cann." + cannctl.__spec_release__.lower()
    assert "Usage: cannctl" in run("--help").stdout


def test_exit_codes_are_the_commands():
    assert run("check", "examples/train-a2.yaml").returncode == 0
    bad = run("check", "examples/mistakes.yaml")
    assert bad.returncode == 1
    assert "examples/mistakes.yaml: 4 errors" in bad.stdout
    missing = run("check", "no/such.yaml")
    assert missing.returncode == 2
    assert "no/such.yaml: cannot open" in missing.stderr
    usage = run("frobnicate")
    assert usage.returncode == 2 and "`frobnicate`" in usage.stderr


def test_python_dash_m_is_the_same_command():
    out = subprocess.run(
        [sys.executable, "-m", "cannctl", "check", "examples/mistakes.yaml"],
        cwd=REPO,
        capture_output=True,
        text=True,
        env={"NO_COLOR": "1", "PATH": ""},
    )
    assert out.returncode == 1
    assert out.stdout == run("check", "examples/mistakes.yaml").stdout


def test_schema_command_prints_the_shipped_schema():
    out = run("schema")
    assert out.returncode == 0
    assert json.loads(out.stdout)["$id"] == "urn:cannctl:schema:cann-config"


def test_the_command_is_a_console_script_of_this_environment():
    text = open(command(), encoding="utf-8").read()
    assert "cannctl.__main__" in text or "from cannctl" in text


WRONG_KEY = (
    "import tensorflow as tf\n"
    "config = tf.compat.v1.ConfigProto()\n"
    "custom_op = config.graph_options.rewrite_options.custom_optimizers.add()\n"
    'custom_op.name = "NpuOptimizer"\n'
    'custom_op.parameter_map["op_debug_levl"].i = 0\n'
)


def test_lint_formats_for_ci_name_the_wrong_key(tmp_path):
    # What the README's GitHub and GitLab snippets run: an absolute path still comes out
    # relative to the directory the command runs in, and the job fails (exit 1).
    (tmp_path / "train.py").write_text(WRONG_KEY)
    script = str(tmp_path / "train.py")
    gh = run("lint", "--format", "github", script, cwd=tmp_path)
    assert gh.returncode == 1, gh.stderr
    [line] = gh.stdout.splitlines()
    assert line.startswith("::error file=train.py,line=5,col=25,")
    assert "op_debug_levl" in line and "op_debug_level" in line
    gl = run("lint", "--format", "gitlab", script, cwd=tmp_path)
    assert gl.returncode == 1, gl.stderr
    [issue] = json.loads(gl.stdout)
    assert issue["location"] == {"path": "train.py", "lines": {"begin": 5}}
    assert issue["check_name"] == "unknown-option"
    # The fingerprint follows the line, not its number: code added above keeps it.
    (tmp_path / "train.py").write_text("import os\n\n" + WRONG_KEY)
    [moved] = json.loads(run("lint", "--format", "gitlab", script, cwd=tmp_path).stdout)
    assert moved["location"]["lines"]["begin"] == 7
    assert moved["fingerprint"] == issue["fingerprint"]
