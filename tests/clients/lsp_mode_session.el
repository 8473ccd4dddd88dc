;;; lsp_mode_session.el --- drive lsp-mode (the README's snippet loaded before) in batch Emacs -*- lexical-binding: t -*-
;; Opens $SKILL_FILE, starts lsp-mode in it (the snippet's `lsp-deferred' waits for an idle,
;; visible buffer, which batch Emacs never has), waits up to 20 s for the file's diagnostics and
;; prints one JSON line: the server that answered, the root it was given, the codes, lines and
;; severities, and what the snippet's `wave-lsp-preview' command opened.  Nothing is configured here: lsp-mode's question about the project root is answered
;; with a key press, as a user answers it the first time.
(require 'json)
(require 'cl-lib)
(let* ((file (getenv "SKILL_FILE"))
       (buffer (find-file-noselect file))
       (waited 0)
       found)
  (with-current-buffer buffer
    ;; the question about the project root is answered with the key `i' ("Import project root":
    ;; the version-control root lsp-mode suggests), as the user presses it
    (setq unread-command-events (list ?i))
    (unless (bound-and-true-p lsp-mode) (lsp))
    (while (and (not found) (< waited 200))
      (accept-process-output nil 0.1)
      (setq waited (1+ waited))
      (setq found (gethash file (lsp-diagnostics t))))
    (let ((workspace (car (lsp-workspaces)))
          shown)
      ;; the snippet's `wave-lsp-preview', run as the user runs it (M-x), opens the preview
      (when workspace
        (call-interactively #'wave-lsp-preview)
        (setq shown (cl-find-if (lambda (b) (string-suffix-p ".preview.md" (or (buffer-file-name b) "")))
                                (buffer-list))))
      (princ (json-encode
              (list (cons 'preview_document (and shown (buffer-file-name shown)))
                    (cons 'preview_document_read_only
                          (if (and shown (buffer-local-value 'buffer-read-only shown)) t :json-false))
                    (cons 'preview_document_shown (if (and shown (get-buffer-window shown)) t :json-false))
                    (cons 'preview_document_text (if shown (with-current-buffer shown (buffer-string)) ""))
                    (cons 'major_mode (symbol-name major-mode))
                    (cons 'server (and workspace (symbol-name (lsp--client-server-id
                                                               (lsp--workspace-client workspace)))))
                    (cons 'root (and workspace (lsp--workspace-root workspace)))
                    (cons 'codes (vconcat (mapcar (lambda (d) (lsp:diagnostic-code? d)) found)))
                    (cons 'severities (vconcat (mapcar (lambda (d) (lsp:diagnostic-severity? d)) found)))
                    (cons 'lines (vconcat (mapcar (lambda (d) (lsp:position-line
                                                               (lsp:range-start (lsp:diagnostic-range d))))
                                                  found))))))
      (terpri))))
(kill-emacs 0)
