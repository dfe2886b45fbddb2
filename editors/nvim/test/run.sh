#!/usr/bin/env bash
# Headless Neovim drives `cannctl server` through editors/nvim/lua/cannctl.lua.
# Usage: CANNCTL_BIN=target/debug/cannctl [NVIM=nvim] editors/nvim/test/run.sh
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
repo="$(cd "$here/../.." && pwd)"
nvim="${NVIM:-nvim}"
: "${CANNCTL_BIN:?set CANNCTL_BIN to the cannctl binary (target/debug/cannctl)}"
command -v "$nvim" >/dev/null || { echo "nvim not found: apt-get install neovim" >&2; exit 1; }
export CANNCTL_BIN="$(cd "$(dirname "$CANNCTL_BIN")" && pwd)/$(basename "$CANNCTL_BIN")"
export CANNCTL_NVIM_SCRIPT="${CANNCTL_NVIM_SCRIPT:-$repo/crates/cann-lint/tests/fixtures/session_bert.py}"
"$nvim" --version | head -1
# The bound on the whole run is for a Neovim that hangs before the script's own waits run.
timeout 120 "$nvim" --headless --clean -u NONE -i NONE -n \
    --cmd "set runtimepath^=$here" \
    -c "luafile $here/test/lsp_test.lua" </dev/null
