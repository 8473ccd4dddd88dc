" tests/clients: ALE with the README's vim-ale snippet sourced before. Opens $SKILL_FILE as markdown,
" waits up to 15 s for the wave-lsp diagnostics and writes them to $RESULT_FILE as JSON.
let g:ale_linters = {'markdown': ['wave-lsp']}
execute 'edit ' . fnameescape($SKILL_FILE)
set filetype=markdown
call ale#Queue(0)
let s:waited = 0
let s:items = []
while empty(s:items) && s:waited < 150
  sleep 100m
  let s:waited += 1
  let s:items = ale#engine#GetLoclist(bufnr('%'))
endwhile
call writefile([json_encode({'codes': map(copy(s:items), {_, v -> get(v, 'code', '')}),
      \ 'linters': map(copy(s:items), {_, v -> get(v, 'linter_name', '')}),
      \ 'lines': map(copy(s:items), {_, v -> v.lnum})})], $RESULT_FILE)
qall!
