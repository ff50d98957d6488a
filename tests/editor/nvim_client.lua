-- Drives `platcheck lsp` from a real client: headless Neovim (0.7+ API).
-- Opens one migration of a copy of an example repository, waits for the
-- published diagnostics, asks for the code actions at the MG001
-- diagnostic, applies the MG001 quick fix, writes every buffer and records
-- what it saw in PLATCHECK_NVIM_OUT (JSON) for the Rust test to judge.
local bin = os.getenv('PLATCHECK_BIN')
local root = os.getenv('PLATCHECK_ROOT')
local file = os.getenv('PLATCHECK_FILE')
local out = os.getenv('PLATCHECK_NVIM_OUT')

local result = { published = {}, actions = {}, applied = false }

local function main()
  local client_id = vim.lsp.start_client({
    name = 'platcheck',
    cmd = { bin, 'lsp' },
    root_dir = root,
    handlers = {
      ['textDocument/publishDiagnostics'] = function(err, res, ctx, config)
        table.insert(result.published, res)
        return vim.lsp.diagnostic.on_publish_diagnostics(err, res, ctx, config)
      end,
    },
  })
  assert(client_id, 'the client did not start')
  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  local buf = vim.api.nvim_get_current_buf()
  vim.lsp.buf_attach_client(buf, client_id)
  local uri = vim.uri_from_bufnr(buf)
  local function latest()
    for i = #result.published, 1, -1 do
      if result.published[i].uri == uri then
        return result.published[i].diagnostics
      end
    end
  end
  -- A bound, not a speed assertion: the Rust test fails on what is missing.
  vim.wait(120000, function()
    local d = latest()
    return d ~= nil and #d > 0
  end, 50)
  local target
  for _, d in ipairs(latest() or {}) do
    if d.code == 'MG001' then
      target = d
    end
  end
  assert(target, 'no MG001 diagnostic was published for ' .. uri)
  local client = vim.lsp.get_client_by_id(client_id)
  local resp = client.request_sync('textDocument/codeAction', {
    textDocument = { uri = uri },
    range = target.range,
    context = { diagnostics = { target } },
  }, 120000, buf)
  assert(resp and resp.result, 'no code action response: ' .. vim.inspect(resp))
  result.actions = resp.result
  for _, action in ipairs(resp.result) do
    if action.diagnostics and action.diagnostics[1] and action.diagnostics[1].code == 'MG001' then
      vim.lsp.util.apply_workspace_edit(action.edit, client.offset_encoding or 'utf-16')
      result.applied = true
      break
    end
  end
  vim.cmd('silent! wall')
  client.stop()
end

local ok, err = pcall(main)
if not ok then
  result.error = tostring(err)
end
local f = assert(io.open(out, 'w'))
f:write(vim.fn.json_encode(result))
f:close()
vim.cmd('qa!')
