"""Shared helpers for the tests of the installed cannctl package.

They run against the wheel installed in the current interpreter (CI builds it with maturin
and installs it in a fresh virtual environment), never against the source tree.
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
EXAMPLES = REPO / "examples"


def need(module):
    """Imports `module`, or skips; under CI=true a missing module fails instead, so CI can
    never skip silently."""
    if os.environ.get("CI") == "true":
        return __import__(module)
    return pytest.importorskip(module)


def command():
    """The `cannctl` command the wheel installed beside this interpreter."""
    found = shutil.which("cannctl", path=str(Path(sys.executable).parent))
    assert found, "the wheel installs a `cannctl` command beside the interpreter"
    return found


def run(*args, cwd=REPO, **kw):
    env = dict(os.environ, NO_COLOR="1")
    return subprocess.run(
        [command(), *args], cwd=cwd, env=env, capture_output=True, text=True, **kw
    )


@pytest.fixture(autouse=True)
def _in_repo(monkeypatch):
    # Example paths are written relative to the repository, as a user types them.
    monkeypatch.chdir(REPO)
