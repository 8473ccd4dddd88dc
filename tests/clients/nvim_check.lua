-- Headless Neovim LSP client check (Neovim 0.7 = Debian 12; still valid on 0.8-0.11).
-- Usage: SERVER_CMD="python -m wave_lsp serve" nvim --headless -u NONE -i NONE -n -c "luafile nvim_check.lua" FILE
-- Prints one JSON line to stdout: {client, diagnostics[], completion_labels[], hover, timed_out};
-- exit 0, 2 on timeout, 3 when the server cannot be started.
local cmd = vim.split(os.getenv("SERVER_CMD") or "wave-lsp serve", " ", { trimempty = true })
local timeout = tonumber(os.getenv("LSP_TIMEOUT_MS") or "15000")
local bufnr = vim.api.nvim_get_current_buf()
local fname = vim.api.nvim_buf_get_name(bufnr)
local published = false

local client_id = vim.lsp.start_client({
  name = "wave-lsp",
  cmd = cmd,
  root_dir = os.getenv("ROOT_DIR") or vim.fn.fnamemodify(fname, ":p:h"),
  handlers = {
    ["textDocument/publishDiagnostics"] = function(err, result, ctx, config)
      published = true
      return vim.lsp.diagnostic.on_publish_diagnostics(err, result, ctx, config)
    end,
  },
})
if not client_id then io.stderr:write("start_client failed\n"); vim.cmd("cquit 3") end
vim.lsp.buf_attach_client(bufnr, client_id) -- initialize + initialized + didOpen

local ok = vim.wait(timeout, function() return published end, 50)

local diags = {}
for _, d in ipairs(vim.diagnostic.get(bufnr)) do
  table.insert(diags, { lnum = d.lnum, col = d.col, end_lnum = d.end_lnum, end_col = d.end_col,
    severity = d.severity, message = d.message, source = d.source,
    code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code) })
end

local labels = {}
local resp = vim.lsp.buf_request_sync(bufnr, "textDocument/completion", {
  textDocument = { uri = vim.uri_from_bufnr(bufnr) }, position = { line = 2, character = 0 },
}, timeout)
for _, r in pairs(resp or {}) do
  local items = r.result and (r.result.items or r.result) or {}
  for _, it in ipairs(items) do table.insert(labels, it.label) end
end

local hover = ""
local hresp = vim.lsp.buf_request_sync(bufnr, "textDocument/hover", {
  textDocument = { uri = vim.uri_from_bufnr(bufnr) }, position = { line = 1, character = 1 },
}, timeout)
for _, r in pairs(hresp or {}) do
  if r.result and r.result.contents then hover = r.result.contents.value or "" end
end

local client = vim.lsp.get_client_by_id(client_id)
io.stdout:write(vim.fn.json_encode({
  client = client and client.name, diagnostics = diags, completion_labels = labels,
  hover = hover, timed_out = not ok,
}) .. "\n")
vim.lsp.stop_client(client_id) -- shutdown + exit
vim.wait(2000, function() return vim.lsp.get_client_by_id(client_id) == nil end, 50)
vim.cmd(ok and "qall!" or "cquit 2")
