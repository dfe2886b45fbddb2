-- cannctl server for Neovim's built-in LSP client, on every Neovim from 0.7:
-- vim.lsp.config + vim.lsp.enable (0.11+), vim.lsp.start (0.8-0.10), else
-- vim.lsp.start_client + vim.lsp.buf_attach_client (0.7).
--
--   require('cannctl').setup({
--     cmd = { 'cannctl', 'server' },                       -- the default
--     init_options = { product = 'atlas-a2-training', release = '9.0.0', lang = 'zh' },
--   })
--
-- init_options keys: product, release, lang, docsUrl, exclude (a list of globs); unset
-- ones come from [tool.cannctl] in the nearest pyproject.toml.

local M = {}

M.filetypes = { 'python', 'yaml', 'json', 'toml' }
M.root_markers = { 'pyproject.toml', '.git' }

local function root_of(bufnr)
  local name = vim.api.nvim_buf_get_name(bufnr)
  local dir = vim.fn.fnamemodify(name, ':p:h')
  for _, marker in ipairs(M.root_markers) do
    local found = vim.fn.findfile(marker, dir .. ';')
    if found == '' then
      found = vim.fn.finddir(marker, dir .. ';')
    end
    if found ~= '' then
      return vim.fn.fnamemodify(found, ':p:h'):gsub('/%.git/?$', '')
    end
  end
  return dir
end

-- toml buffers are given to the server only for pyproject.toml, whose [tool.cannctl] it reads.
local function wanted(bufnr)
  if vim.bo[bufnr].filetype ~= 'toml' then
    return true
  end
  return vim.fn.fnamemodify(vim.api.nvim_buf_get_name(bufnr), ':t') == 'pyproject.toml'
end

function M.setup(opts)
  opts = opts or {}
  local config = {
    name = 'cannctl',
    cmd = opts.cmd or { 'cannctl', 'server' },
    init_options = opts.init_options or {},
    settings = opts.init_options or {},
    on_attach = opts.on_attach,
    capabilities = opts.capabilities,
  }
  if vim.lsp.config and vim.lsp.enable then
    config.filetypes = M.filetypes
    config.root_markers = M.root_markers
    vim.lsp.config('cannctl', config)
    vim.lsp.enable('cannctl')
    return
  end
  local client_id
  local group = vim.api.nvim_create_augroup('cannctl', { clear = true })
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = M.filetypes,
    callback = function(ev)
      if not wanted(ev.buf) then
        return
      end
      if vim.lsp.start then
        vim.lsp.start(vim.tbl_extend('force', config, { root_dir = root_of(ev.buf) }), { bufnr = ev.buf })
        return
      end
      if client_id == nil or vim.lsp.get_client_by_id(client_id) == nil then
        client_id = vim.lsp.start_client(vim.tbl_extend('force', config, { root_dir = root_of(ev.buf) }))
      end
      if client_id then
        vim.lsp.buf_attach_client(ev.buf, client_id)
      end
    end,
  })
end

return M
