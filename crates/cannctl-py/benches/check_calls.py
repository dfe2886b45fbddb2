"""Benchmark: `cannctl.check(dict)` in-process against running the command once per config
(process start included), in one run, printed as calls per second and as a ratio.

    python crates/cannctl-py/benches/check_calls.py [--seconds 5] [--binary target/release/cannctl]

It uses the cannctl installed in this interpreter and the `cannctl` console script beside
it; `--binary` adds the plain Rust binary (no Python start) as a third row.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import cannctl

# The README's example config, with one mistake so every call renders a finding.
CONFIG = {
    "product": "atlas-a2-training",
    "release": "9.0.0",
    "npu_run_config": {
        "op_compiler_cache_mode": "enable",
        "aicore_num": "24|48",
        "op_debug_levl": 0,
        "memory_config": {"static_memory_policy": 2, "variable_use_1g_huge_page": 2},
    },
    "env": {"ASCEND_MAX_OP_CACHE_SIZE": 2000},
}


def rate(fn, seconds):
    """Calls per second of `fn` over about `seconds` (after one warm-up call)."""
    fn()
    n, start = 0, time.perf_counter()
    while True:
        fn()
        n += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return n / elapsed, n


def yaml_text(d, indent=0):
    out = []
    for k, v in d.items():
        if isinstance(v, dict):
            out.append(" " * indent + f"{k}:")
            out.append(yaml_text(v, indent + 2))
        else:
            val = f'"{v}"' if isinstance(v, str) else str(v)
            out.append(" " * indent + f"{k}: {val}")
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--binary", help="the Rust cannctl binary, for a third row")
    args = ap.parse_args()

    script = shutil.which("cannctl", path=str(Path(sys.executable).parent))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp, "train.cann.yaml")
        path.write_text(yaml_text(CONFIG) + "\n")
        # Same findings both ways, so the same work is measured.
        assert cannctl.check(CONFIG).errors == cannctl.check(str(path)).errors == 1
        env = dict(os.environ, NO_COLOR="1")

        def cli(cmd):
            def go():
                subprocess.run([cmd, "check", str(path)], stdout=subprocess.DEVNULL, env=env)
            return go

        rows = [("cannctl.check(dict), in-process", rate(lambda: cannctl.check(CONFIG), args.seconds))]
        rows.append(("cannctl.check(dict) + str(report)", rate(lambda: str(cannctl.check(CONFIG)), args.seconds)))
        rows.append((f"`cannctl check FILE` per config ({Path(script).name}, console script)", rate(cli(script), args.seconds)))
        if args.binary:
            rows.append((f"`cannctl check FILE` per config (Rust binary)", rate(cli(args.binary), args.seconds)))

    base = rows[0][1][0]
    print(f"{'what':<66} {'calls/s':>12} {'calls':>8} {'in-process is':>16}")
    for name, (r, n) in rows:
        print(f"{name:<66} {r:>12.1f} {n:>8} {base / r:>15.1f}x")


if __name__ == "__main__":
    main()
