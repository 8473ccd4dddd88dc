;;; eglot_session.el --- headless Emacs eglot session against wave-lsp  -*- lexical-binding: t -*-

;; Emacs is configured by the README's eglot snippet alone (loaded first with -l, after the
;; packages' autoloads as at an interactive start-up); this opens a SKILL.md
;; (markdown-mode, so the snippet's hook runs `eglot-ensure'), waits for the skill's diagnostics,
;; completes `description' on the empty frontmatter line with `completion-at-point' (eglot
;; applies the item), waits for the new diagnostics, hovers, then asks for the code actions on a
;; body line and runs the preview action's command.  Runs on Emacs 28 with the eglot
;; package (Debian's elpa-eglot) and on Emacs >= 29, where eglot is built in.
;;
;; Usage: SKILL_FILE=... emacs --batch -f package-activate-all -l README_SNIPPET.el -l eglot_session.el
;; Prints one JSON line to stdout; exit 0, 2 when a wait timed out.

(require 'cl-lib)
(require 'json)
(require 'eglot)

(defvar wave-timeout (string-to-number (or (getenv "LSP_TIMEOUT_S") "15")))
(defvar wave-published nil
  "Every publishDiagnostics received: (URI VERSION . DIAGNOSTICS), newest first.")
(defvar wave-result nil)
(defvar wave-timed-out nil)

(cl-defmethod eglot-handle-notification :after
  (_server (_method (eql textDocument/publishDiagnostics)) &key uri version diagnostics
           &allow-other-keys)
  (push (cons uri (cons version diagnostics)) wave-published))

(defun wave-wait (what condition)
  "Process the server's messages until CONDITION holds; record WHAT when it never does."
  (let ((end (+ (float-time) wave-timeout)))
    (while (and (not (funcall condition)) (< (float-time) end))
      (accept-process-output nil 0.05))
    (unless (funcall condition) (push what wave-timed-out))))

(defun wave-latest (uri &optional version)
  "The latest diagnostics for URI (for VERSION or later, when given), or nil."
  (let ((latest (cdr (assoc uri wave-published))))
    (when (and latest (or (null version) (and (car latest) (>= (car latest) version))))
      (cdr latest))))

(defun wave-codes (diagnostics)
  (mapcar (lambda (d) (plist-get d :code)) diagnostics))

(find-file (getenv "SKILL_FILE"))
;; `eglot-ensure' connects at the end of the command that visited the file
(run-hooks 'post-command-hook)
(wave-wait "connect" (lambda () (eglot-current-server)))
(let* ((server (eglot-current-server))
       (uri (eglot--path-to-uri (buffer-file-name))))
  (push (cons 'major_mode (symbol-name major-mode)) wave-result)
  (when server
    (push (cons 'server (eglot--project-nickname server)) wave-result)
    (push (cons 'root (project-root (eglot--project server))) wave-result))
  (wave-wait "diagnostics" (lambda () (member "SK050" (wave-codes (wave-latest uri)))))
  (push (cons 'diagnostics
              (vconcat (mapcar (lambda (d)
                                 `((code . ,(plist-get d :code)) (severity . ,(plist-get d :severity))
                                   (source . ,(plist-get d :source))
                                   (line . ,(plist-get (plist-get (plist-get d :range) :start) :line))
                                   (character . ,(plist-get (plist-get (plist-get d :range) :start)
                                                            :character))))
                               (wave-latest uri))))
        wave-result)
  ;; complete "descri" on the empty line 3 (1-based): the only candidate, so eglot applies it
  (goto-char (point-min))
  (forward-line 2)
  (insert "descri")
  (completion-at-point)
  (push (cons 'applied_line (buffer-substring-no-properties (line-beginning-position)
                                                           (line-end-position)))
        wave-result)
  ;; what eglot's idle timer runs after an edit; batch Emacs is never idle
  (eglot--signal-textDocument/didChange)
  ;; the diagnostics of the buffer as it is now (not of the "descri" that completion flushed)
  (let ((version eglot--versioned-identifier))
    (push (cons 'version version) wave-result)
    (wave-wait "diagnostics after the completion"
               (lambda () (let ((latest (cdr (assoc uri wave-published))))
                            (and latest (car latest) (>= (car latest) version)))))
    (push (cons 'codes_after (vconcat (wave-codes (wave-latest uri version)))) wave-result))
  (when server
    (goto-char (point-min))
    (forward-line 1)
    (forward-char 1)
    (let ((hover (jsonrpc-request server :textDocument/hover
                                  (eglot--TextDocumentPositionParams))))
      (push (cons 'hover (or (plist-get (plist-get hover :contents) :value) "")) wave-result))
    ;; the preview as a code action on a body line (what `eglot-code-actions' asks for there),
    ;; then its command run as eglot runs an action's command
    (goto-char (point-min))
    (search-forward "Run it.")
    (let* ((here (eglot--pos-to-lsp-position))
           (actions (jsonrpc-request server :textDocument/codeAction
                                     (list :textDocument (eglot--TextDocumentIdentifier)
                                           :range (list :start here :end here)
                                           :context (list :diagnostics []))))
           (preview (cl-find-if (lambda (action) (equal (plist-get action :kind) "source.preview"))
                                actions)))
      (push (cons 'code_actions
                  (vconcat (mapcar (lambda (action)
                                     `((title . ,(plist-get action :title))
                                       (kind . ,(or (plist-get action :kind) ""))))
                                   actions)))
            wave-result)
      (if (null preview)
          (push "no preview code action" wave-timed-out)
        (let* ((command (plist-get preview :command))
               (answer (jsonrpc-request server :workspace/executeCommand
                                        (list :command (plist-get command :command)
                                              :arguments (plist-get command :arguments)))))
          (push (cons 'preview_ok (if (eq (plist-get answer :ok) t) t :json-false)) wave-result)
          (push (cons 'preview_first_line
                      (car (split-string (or (plist-get answer :text) "") "\n")))
                wave-result)
          (push (cons 'preview_answer_document (plist-get answer :document)) wave-result)
          ;; the server shows the preview as a document (window/showDocument): a buffer visits it
          (let ((waited 0) shown)
            (while (and (not shown) (< waited 100))
              (accept-process-output nil 0.1)
              (setq waited (1+ waited))
              (setq shown (cl-find-if (lambda (buffer)
                                        (string-suffix-p ".preview.md"
                                                         (or (buffer-file-name buffer) "")))
                                      (buffer-list))))
            (if (null shown)
                (push "the preview document" wave-timed-out)
              (with-current-buffer shown
                (push (cons 'preview_document buffer-file-name) wave-result)
                (push (cons 'preview_document_read_only (if buffer-read-only t :json-false))
                      wave-result)
                (push (cons 'preview_document_shown (if (get-buffer-window shown) t :json-false))
                      wave-result)
                (push (cons 'preview_document_text (buffer-string)) wave-result)))))))))

(push (cons 'timed_out (vconcat wave-timed-out)) wave-result)
(princ (concat (json-encode wave-result) "\n"))
(when (eglot-current-server)
  (ignore-errors (eglot-shutdown (eglot-current-server))))
(kill-emacs (if wave-timed-out 2 0))
