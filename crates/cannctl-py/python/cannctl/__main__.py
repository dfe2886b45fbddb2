"""The ``cannctl`` command: ``python -m cannctl`` and the console script both land here."""

import signal
import sys

# The native module's types are in __init__.pyi; `_console` is its private entry, left out.
from ._cannctl import _console  # type: ignore[import-not-found]


def main() -> None:
    # The command runs inside the interpreter; let Ctrl-C stop it as it stops the binary,
    # instead of waiting for control to return to Python.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    sys.stdout.flush()
    sys.exit(_console(sys.argv))


if __name__ == "__main__":
    main()
