-- Headless Neovim against the real `cannctl server`, through editors/nvim/lua/cannctl.lua:
-- open a training script, receive its diagnostics, answer a hover and a completion. Each
-- step has a bounded wait; any step that does not happen exits non-zero (cquit).
--
-- Run by editors/nvim/test/run.sh, which sets CANNCTL_BIN (the binary) and
-- CANNCTL_NVIM_SCRIPT (a training script to open, copied to a temporary directory).

local WAIT_MS = 20000

local function say(msg)
  io.stderr:write(msg .. '\n')
end

local function fail(msg)
  say('nvim lsp test FAILED: ' .. msg)
  vim.cmd('cquit 1')
end

local function step(name, fn)
  local ok, err = pcall(fn)
  if not ok then
    fail(name .. ': ' .. tostring(err))
  end
  say('ok: ' .. name)
end

local function wait(what, cond)
  if not vim.wait(WAIT_MS, cond, 50) then
    error('no ' .. what .. ' within ' .. WAIT_MS .. ' ms', 0)
  end
end

local bin = os.getenv('CANNCTL_BIN')
local source = os.getenv('CANNCTL_NVIM_SCRIPT')
if not bin or bin == '' or not source or source == '' then
  fail('CANNCTL_BIN and CANNCTL_NVIM_SCRIPT must be set')
end

-- The script in a directory of its own, so no pyproject.toml of this repository applies.
local dir = vim.fn.tempname()
vim.fn.mkdir(dir, 'p')
local path = dir .. '/train.py'
vim.fn.writefile(vim.fn.readfile(source, 'b'), path, 'b')

vim.cmd('filetype on')
require('cannctl').setup({ cmd = { bin, 'server' }, init_options = { lang = 'en' } })
vim.cmd('edit ' .. vim.fn.fnameescape(path))
local buf = vim.api.nvim_get_current_buf()
local uri = vim.uri_from_bufnr(buf)

local function clients()
  if vim.lsp.get_clients then
    return vim.lsp.get_clients({ bufnr = buf })
  end
  return vim.lsp.buf_get_clients(buf)
end

-- The first line holding `needle` and the 0-based byte column just inside it.
local function find(needle)
  for i, line in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
    local col = line:find(needle, 1, true)
    if col then
      return i - 1, col
    end
  end
  error('the script has no ' .. needle, 0)
end

local function request(method, params)
  local answers, err = vim.lsp.buf_request_sync(buf, method, params, WAIT_MS)
  if not answers then
    error(method .. ': ' .. tostring(err), 0)
  end
  for _, a in pairs(answers) do
    if a.err then
      error(method .. ': ' .. vim.inspect(a.err), 0)
    end
    return a.result
  end
  error(method .. ': no answer', 0)
end

step('the server starts and attaches to the buffer', function()
  wait('attached client', function()
    return #clients() > 0
  end)
end)

step('diagnostics arrive for the misspelled key', function()
  local line = find('"op_debug_levl"')
  wait('diagnostic on line ' .. (line + 1), function()
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      if d.lnum == line and d.source == 'cannctl' and d.message:find('op_debug_levl', 1, true) then
        return true
      end
    end
    return false
  end)
end)

step('hover on a parameter_map key describes the option', function()
  local line, col = find('"precision_mode"')
  local r = request('textDocument/hover', {
    textDocument = { uri = uri },
    position = { line = line, character = col + 2 },
  })
  local value = r and r.contents and (r.contents.value or r.contents)
  if type(value) ~= 'string' or not value:find('precision_mode', 1, true) then
    error('hover answered ' .. vim.inspect(r), 0)
  end
end)

step('completion inside parameter_map[" offers the session keys', function()
  local line = find('"precision_mode"')
  local prefix = '    npu_opt.parameter_map["op_debug_le'
  vim.api.nvim_buf_set_lines(buf, line + 1, line + 1, false, { prefix })
  local r = request('textDocument/completion', {
    textDocument = { uri = uri },
    position = { line = line + 1, character = #prefix },
  })
  local items = r and (r.items or r) or {}
  for _, it in ipairs(items) do
    if it.label == 'op_debug_level' or (it.filterText or ''):find('op_debug_level', 1, true) then
      return
    end
  end
  error('completion answered ' .. vim.inspect(r):sub(1, 2000), 0)
end)

say('nvim lsp test passed (' .. tostring(vim.version and vim.version().minor and ('0.' .. vim.version().minor) or '?') .. ')')
vim.cmd('qall!')
