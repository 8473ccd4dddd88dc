-- Headless Neovim session against wave-lsp, with the server started by the README's snippet
-- (the whole init.lua of a fresh configuration folder): wait for the client to attach, for the skill's diagnostics, complete
-- `description` on the empty frontmatter line and apply the item as Neovim does (text edit in
-- the negotiated encoding; a snippet expanded with its defaults), wait for the new diagnostics,
-- then hover, then ask for the code actions on a body line, run the preview action's command and
-- wait for the window the server's window/showDocument opens on the read-only preview.
-- Runs on Neovim 0.7 (Debian 12) and >= 0.11 alike.
-- Usage (the snippet as $XDG_CONFIG_HOME/nvim/init.lua): nvim --headless -c "luafile nvim_session.lua" SKILL.md
-- Prints one JSON line to stdout; exit 0, 2 when a wait timed out.
local timeout = tonumber(os.getenv("LSP_TIMEOUT_MS") or "15000")
local bufnr = vim.api.nvim_get_current_buf()
local result = { timed_out = {} }

local function clients()
  if vim.lsp.get_clients then return vim.lsp.get_clients({ bufnr = bufnr }) end
  return vim.tbl_values(vim.lsp.buf_get_clients(bufnr))
end

local function codes()
  local found = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    table.insert(found, d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code))
  end
  return found
end

local function has_code(code)
  return vim.tbl_contains(codes(), code)
end

local function wait(what, condition)
  if not vim.wait(timeout, condition, 50) then table.insert(result.timed_out, what) end
end

wait("attach", function() return #clients() > 0 end)
local client = clients()[1]
if client then
  result.client = client.name
  result.root_dir = client.config.root_dir
  result.offset_encoding = client.offset_encoding
  -- the server offers pull diagnostics only to clients that can be told to pull again
  result.pulls = (client.server_capabilities or {}).diagnosticProvider ~= nil
  result.filetype = vim.bo[bufnr].filetype
end
-- whether this Neovim asks for settings (`workspace/configuration`); 0.7 does not
local declared = vim.lsp.protocol.make_client_capabilities().workspace or {}
result.configuration_capability = declared.configuration == true

wait("diagnostics", function() return has_code("SK050") end)
result.diagnostics = {}
for _, d in ipairs(vim.diagnostic.get(bufnr)) do
  table.insert(result.diagnostics, { lnum = d.lnum, col = d.col, severity = d.severity,
    source = d.source, code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code) })
end

-- completion on the empty line 2 (0-based) of the frontmatter, applied as Neovim applies an item
local line = 2
local function position() return { line = line, character = 0 } end
local response = vim.lsp.buf_request_sync(bufnr, "textDocument/completion", {
  textDocument = { uri = vim.uri_from_bufnr(bufnr) }, position = position() }, timeout) or {}
local item
result.completion_labels = {}
for _, r in pairs(response) do
  for _, it in ipairs(r.result and (r.result.items or r.result) or {}) do
    table.insert(result.completion_labels, it.label)
    if it.label == "description" then item = it end
  end
end
if client and item and item.textEdit then
  local edit = item.textEdit
  result.snippet = item.insertTextFormat == 2
  if result.snippet and vim.snippet then
    -- Neovim >= 0.10: clear the edit's range, then expand the snippet at its start
    vim.lsp.util.apply_text_edits({ { range = edit.range, newText = "" } }, bufnr, client.offset_encoding)
    vim.api.nvim_win_set_cursor(0, { edit.range.start.line + 1, edit.range.start.character })
    vim.snippet.expand(edit.newText)
    vim.snippet.stop()
  else
    local text = edit.newText
    if result.snippet then text = vim.lsp.util.parse_snippet(text) end
    vim.lsp.util.apply_text_edits({ { range = edit.range, newText = text } }, bufnr, client.offset_encoding)
  end
  result.applied_line = vim.api.nvim_buf_get_lines(bufnr, line, line + 1, false)[1]
  wait("diagnostics after the completion", function() return not has_code("SK050") end)
  result.codes_after = codes()
else
  table.insert(result.timed_out, "no description completion item")
end

local hover = vim.lsp.buf_request_sync(bufnr, "textDocument/hover", {
  textDocument = { uri = vim.uri_from_bufnr(bufnr) }, position = { line = 1, character = 1 } }, timeout)
result.hover = ""
for _, r in pairs(hover or {}) do
  if r.result and r.result.contents then result.hover = r.result.contents.value or "" end
end

result.omnifunc = vim.bo[bufnr].omnifunc

-- the preview as a code action on a body line, asked for as vim.lsp.buf.code_action() asks (no
-- `only`), then run as Neovim runs an action's command (workspace/executeCommand)
local body_line = 0
for number, text in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
  if text == "Run it." then body_line = number - 1 end
end
local here = { line = body_line, character = 0 }
local actions = vim.lsp.buf_request_sync(bufnr, "textDocument/codeAction", {
  textDocument = { uri = vim.uri_from_bufnr(bufnr) }, range = { start = here, ["end"] = here },
  context = { diagnostics = {} } }, timeout) or {}
result.code_actions = {}
local preview
for _, r in pairs(actions) do
  for _, action in ipairs(r.result or {}) do
    table.insert(result.code_actions, { title = action.title, kind = action.kind or "" })
    if action.kind == "source.preview" then preview = action end
  end
end
if preview and type(preview.command) == "table" then
  local answer = vim.lsp.buf_request_sync(bufnr, "workspace/executeCommand", {
    command = preview.command.command, arguments = preview.command.arguments }, timeout) or {}
  for _, r in pairs(answer) do
    if type(r.result) == "table" then
      result.preview_ok = r.result.ok
      result.preview_first_line = vim.split(r.result.text or "", "\n")[1]
      result.preview_answer_document = r.result.document
    end
  end
  -- the server shows the preview as a document (window/showDocument): a window holds it
  local function preview_window()
    for _, win in ipairs(vim.api.nvim_list_wins()) do
      if vim.api.nvim_buf_get_name(vim.api.nvim_win_get_buf(win)):match("%.preview%.md$") then
        return win
      end
    end
  end
  wait("the preview document", function() return preview_window() ~= nil end)
  local window = preview_window()
  if window then
    local shown = vim.api.nvim_win_get_buf(window)
    result.preview_document = vim.api.nvim_buf_get_name(shown)
    result.preview_document_lines = vim.api.nvim_buf_get_lines(shown, 0, -1, false)
    result.preview_document_readonly = vim.bo[shown].readonly
    result.windows = #vim.api.nvim_list_wins()
  end
else
  table.insert(result.timed_out, "no preview code action")
end

io.stdout:write(vim.fn.json_encode(result) .. "\n")
-- every client (the preview, a Markdown file, may have started one of its own)
local function all_clients()
  if vim.lsp.get_clients then return vim.lsp.get_clients() end
  return vim.lsp.get_active_clients()
end
for _, c in ipairs(all_clients()) do vim.lsp.stop_client(c.id) end
vim.wait(2000, function() return #all_clients() == 0 end, 50)
vim.cmd(#result.timed_out == 0 and "qall!" or "cquit 2")
