-- Headless Neovim (>= 0.11) shows a diagnostic's message at the end of its line only after the
-- README's one line of configuration (WAVE_VIRTUAL_TEXT_CONFIG, Lua, run here as written): waits
-- for the skill's diagnostics, collects the virtual text of the buffer's extmarks, runs the
-- line, collects it again. Usage (the snippet as $XDG_CONFIG_HOME/nvim/init.lua):
-- nvim --headless -c "luafile THIS" SKILL.md
-- Prints one JSON line to stdout.
local timeout = tonumber(os.getenv("LSP_TIMEOUT_MS") or "15000")
local bufnr = vim.api.nvim_get_current_buf()
local result = { timed_out = {} }

local function virtual_texts()
  local texts = {}
  for _, mark in ipairs(vim.api.nvim_buf_get_extmarks(bufnr, -1, 0, -1, { details = true })) do
    for _, chunk in ipairs(mark[4].virt_text or {}) do table.insert(texts, chunk[1]) end
  end
  return texts
end

if not vim.wait(timeout, function() return #vim.diagnostic.get(bufnr) > 0 end, 50) then
  table.insert(result.timed_out, "diagnostics")
end
vim.wait(300, function() return false end, 50) -- let the handlers draw
result.messages = vim.tbl_map(function(d) return d.message end, vim.diagnostic.get(bufnr))
result.before = virtual_texts()
local configure, problem = loadstring(os.getenv("WAVE_VIRTUAL_TEXT_CONFIG"))
if configure then configure() else result.error = problem end
vim.wait(300, function() return false end, 50)
result.after = virtual_texts()
io.stdout:write(vim.fn.json_encode(result) .. "\n")
vim.cmd("qall!")
