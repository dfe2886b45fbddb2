"""The abi3 wheel on the oldest CPython it claims, 3.7 (TF 1.15 images ship it), when one is
on this machine: installed in its own venv, the API and the command run. The pytest run
itself is on the CI's Python."""

import glob
import os
import shutil
import subprocess

import pytest

from conftest import REPO


def python37():
    found = os.environ.get("CANNCTL_PYTHON37") or shutil.which("python3.7")
    candidates = [found] if found else []
    candidates += sorted(glob.glob(os.path.expanduser("~/.pyenv/versions/3.7.*/bin/python3.7")))
    for c in candidates:
        ok = subprocess.run([c, "-c", "import sys; assert sys.version_info[:2] == (3, 7)"],
                            capture_output=True)
        if ok.returncode == 0:
            return c
    return None


def test_the_wheel_on_python_3_7(tmp_path):
    wheels = os.environ.get("CANNCTL_WHEEL_DIR")
    py = python37()
    if not wheels or not py:
        pytest.skip("skipped: needs CANNCTL_WHEEL_DIR and a CPython 3.7 (CANNCTL_PYTHON37)")
    [wheel] = glob.glob(os.path.join(wheels, "cannctl-*.whl"))
    venv = tmp_path / "py37"
    subprocess.run([py, "-m", "venv", str(venv)], check=True)
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "--no-index", wheel]
    subprocess.run(pip, check=True)
    code = (
        "import cannctl\n"
        "r = cannctl.check({'product': 'atlas-a2-training',"
        " 'npu_run_config': {'op_compiler_cache_mode': 'enabel'}})\n"
        "assert r.errors == 1 and r.findings[0].hint == 'did you mean \"enable\"?', r\n"
        "assert cannctl.check_npu_run_config(op_debug_levl=0).errors == 1\n"
        "print('ok')\n"
    )
    out = subprocess.run([str(venv / "bin" / "python"), "-c", code],
                         capture_output=True, text=True)
    assert out.stdout.strip() == "ok", out.stderr
    cli = subprocess.run([str(venv / "bin" / "cannctl"), "check", "examples/mistakes.yaml"],
                         cwd=REPO, capture_output=True, text=True, env={"NO_COLOR": "1"})
    assert cli.returncode == 1
    assert "4 errors" in cli.stdout
