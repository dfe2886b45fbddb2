"""The `cannctl` command the wheel installs: the Rust CLI, run in-process by the console
script."""

import json
import subprocess
import sys

import cannctl
from conftest import REPO, command, run


def test_version_and_help():
    out = run("--version")
    assert out.returncode == 0
    assert out.stdout.strip() == f"cannctl {cannctl.__version__}"
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
    assert usage.returncode == 2 and "unrecognized subcommand" in usage.stderr


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
