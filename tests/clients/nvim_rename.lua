-- Headless Neovim renames the skill on its `name:` value (the README's snippet as the
-- whole init.lua) and reports what happened on disk: whether the server's edit renamed the folder.
-- Neovim 0.10+ applies a folder's RenameFile; 0.7 declares it can but fails, so the server sends
-- it only text edits there. Usage (the snippet as $XDG_CONFIG_HOME/nvim/init.lua):
-- nvim --headless -c "luafile THIS" SKILL.md
-- Prints one JSON line to stdout.
local timeout = tonumber(os.getenv("LSP_TIMEOUT_MS") or "15000")
local bufnr = vim.api.nvim_get_current_buf()
local skill = vim.api.nvim_buf_get_name(bufnr)
local folder = vim.fn.fnamemodify(skill, ":h")
local renamed = vim.fn.fnamemodify(folder, ":h") .. "/renamed"
local result = { timed_out = {}, errors = {} }

local function clients()
  if vim.lsp.get_clients then return vim.lsp.get_clients({ bufnr = bufnr }) end
  return vim.tbl_values(vim.lsp.buf_get_clients(bufnr))
end

if not vim.wait(timeout, function() return #clients() > 0 end, 50) then
  table.insert(result.timed_out, "attach")
end
-- let the server finish indexing the project before the rename
vim.wait(1500, function() return false end, 50)
local notify = vim.notify
vim.notify = function(message, ...) table.insert(result.errors, tostring(message)); return notify(message, ...) end
local ok, err = pcall(function()
  local response = vim.lsp.buf_request_sync(bufnr, "textDocument/rename", {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) }, position = { line = 1, character = 7 },
    newName = "renamed" }, timeout) or {}
  for client_id, r in pairs(response) do
    if r.error then table.insert(result.errors, vim.inspect(r.error)) end
    if r.result then
      local client = vim.lsp.get_client_by_id(client_id)
      result.has_document_changes = r.result.documentChanges ~= nil
      vim.lsp.util.apply_workspace_edit(r.result, client.offset_encoding)
    end
  end
end)
if not ok then table.insert(result.errors, tostring(err)) end
result.old_folder_exists = vim.fn.isdirectory(folder) == 1
result.new_folder_exists = vim.fn.isdirectory(renamed) == 1
local shown = vim.api.nvim_get_current_buf()
result.name_line = vim.api.nvim_buf_get_lines(shown, 1, 2, false)[1]
io.stdout:write(vim.fn.json_encode(result) .. "\n")
vim.cmd("qall!")
