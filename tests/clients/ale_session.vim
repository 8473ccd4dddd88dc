" tests/clients: Vim configured by the README's vim-ale snippet alone (~/.vimrc of a fresh HOME),
" started on $SKILL_FILE; this waits up to 15 s for ALE to show wave-lsp's diagnostics and writes
" them, with the buffer's file type, to $RESULT_FILE as JSON.
" Usage: vim --not-a-term -S ale_session.vim SKILL.md
let s:waited = 0
let s:items = []
while empty(s:items) && s:waited < 150
  sleep 100m
  let s:waited += 1
  let s:items = filter(ale#engine#GetLoclist(bufnr('%')),
        \ {_, v -> get(v, 'linter_name', '') ==# 'wave-lsp'})
endwhile
call writefile([json_encode({'filetype': &filetype,
      \ 'codes': map(copy(s:items), {_, v -> get(v, 'code', '')}),
      \ 'types': map(copy(s:items), {_, v -> get(v, 'type', '')}),
      \ 'lines': map(copy(s:items), {_, v -> v.lnum})})], $RESULT_FILE)
qall!
