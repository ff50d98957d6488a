-- platcheck's language server in Neovim. Put this file in your config
-- (e.g. ~/.config/nvim/after/plugin/platcheck.lua) or copy the call.
-- Neovim 0.11+: vim.lsp.config / vim.lsp.enable; 0.8–0.10: vim.lsp.start.
local root_markers = { "platcheck.yaml", ".git" }
if vim.lsp.config then
  vim.lsp.config("platcheck", {
    cmd = { "platcheck", "lsp" },
    filetypes = { "sql", "yaml", "markdown" },
    root_markers = root_markers,
  })
  vim.lsp.enable("platcheck")
else
  vim.api.nvim_create_autocmd("FileType", {
    pattern = { "sql", "yaml", "markdown" },
    callback = function(args)
      vim.lsp.start({
        name = "platcheck",
        cmd = { "platcheck", "lsp" },
        root_dir = vim.fs.dirname(vim.fs.find(root_markers, { upward = true, path = vim.api.nvim_buf_get_name(args.buf) })[1]),
      })
    end,
  })
end
