" tests/clients: Vim configured by the README's vim-ale snippet alone (~/.vimrc of a fresh HOME),
" started on $SKILL_FILE; this waits up to 15 s for ALE to show wave-lsp's diagnostics and writes
" them, with the buffer's file type, to $RESULT_FILE as JSON; then runs the snippet's :WavePreview
" and records the window it opens.
" Usage: vim --not-a-term -S ale_session.vim SKILL.md
let s:waited = 0
let s:items = []
while empty(s:items) && s:waited < 150
  sleep 100m
  let s:waited += 1
  let s:items = filter(ale#engine#GetLoclist(bufnr('%')),
        \ {_, v -> get(v, 'linter_name', '') ==# 'wave-lsp'})
endwhile
let s:filetype = &filetype
" the snippet's :WavePreview, run as the user runs it, opens the preview in a window
let s:preview = {}
if !empty(s:items)
  WavePreview
  let s:waited = 0
  while empty(s:preview) && s:waited < 150
    sleep 100m
    let s:waited += 1
    for s:window in range(1, winnr('$'))
      let s:name = bufname(winbufnr(s:window))
      if s:name =~# '\.preview\.md$'
        let s:preview = {'document': fnamemodify(s:name, ':p'),
              \ 'readonly': getbufvar(winbufnr(s:window), '&readonly'),
              \ 'lines': getbufline(winbufnr(s:window), 1, '$')}
      endif
    endfor
  endwhile
endif
call writefile([json_encode({'filetype': s:filetype, 'preview': s:preview,
      \ 'codes': map(copy(s:items), {_, v -> get(v, 'code', '')}),
      \ 'types': map(copy(s:items), {_, v -> get(v, 'type', '')}),
      \ 'lines': map(copy(s:items), {_, v -> v.lnum})})], $RESULT_FILE)
qall!
