;;; sheet-mode.el --- HTTP requests in a sheet  -*- lexical-binding: t; -*-

;; Copyright (C) 2026 The sheet-rest authors

;; Author: The sheet-rest authors
;; Maintainer: The sheet-rest authors
;; Version: 0.1.0
;; URL: https://github.com/sheet-rest/sheet-rest
;; Keywords: comm, tools
;; Package-Requires: ((emacs "28.1"))

;; This file is not part of GNU Emacs.

;; Permission is hereby granted, free of charge, to any person obtaining a
;; copy of this software and associated documentation files, to deal in the
;; software without restriction, subject to the MIT license terms shipped with
;; sheet-rest (LICENSE).

;;; Commentary:

;; `sheet-mode' is restclient.el's syntax and keys on top of one engine.  A
;; sheet holds requests (`GET http://host/path', headers, a body after an
;; empty line), variables (`:name = value', `:name := (form)', multi-line with
;; `<<') and hooks (`-> jq-set-var', `-> run-hook').  Put point on a request
;; and press C-c C-c.
;;
;; How it works: Emacs never parses the sheet for behaviour.  A TypeScript
;; engine, started lazily as a subprocess (`sheet-engine-command'), speaks
;; JSON-RPC over stdio through the built-in jsonrpc.el, like eglot does with
;; language servers.  Emacs sends the whole buffer text and the line of point
;; (`sheet/send'); the engine parses, substitutes variables (asking Emacs to
;; evaluate `:=' forms through `lisp/eval'), sends the request, pretty-prints
;; the response and runs the jq hooks.  Emacs then fills the response buffer
;; (`sheet-buffer-response-name') the way restclient.el does: the body, then
;; the request and the status line, headers and duration as comment lines.
;; Navigation, narrowing, marking, outline hiding and helm ask the engine for
;; the sheet's outline (`sheet/outline').
;;
;; Sending is asynchronous: Emacs stays responsive, and C-c C-k cancels the
;; request in flight.  If the engine dies, pending requests fail with a
;; message and the next command starts a new one.  See docs/sheet-mode.md in
;; the checkout for the whole manual.
;;
;; This file holds the mode, its keymap and menu, and the commands
;; that are autoloaded or about variables; the other parts are
;; sheet-custom.el (options), sheet-engine.el (the connection),
;; sheet-send.el (sending, C-c C-c, C-c C-k), sheet-response.el (the
;; response buffer), sheet-body.el (bodies, big ones in chunks),
;; sheet-font-lock.el (faces, syntax), sheet-outline.el,
;; sheet-environment.el, sheet-run.el, sheet-session.el (what
;; outlives an engine), sheet-engine-eval.el (Lisp for the engine),
;; sheet-engine-log.el, sheet-engine-read.el, sheet-settings.el,
;; sheet-prompt.el, sheet-curl.el (curl both ways), sheet-curl-edit.el,
;; sheet-complete.el, sheet-eldoc.el, sheet-flymake.el,
;; sheet-history.el, sheet-code.el, sheet-restclient.el.

;;; Code:

(require 'cl-lib)
(require 'jsonrpc)
(require 'seq)
(require 'subr-x)
(require 'newcomment)
(require 'sheet-custom)       ; options, group `sheet'
(require 'sheet-engine)
(require 'sheet-outline)      ; outline, jumps, helm, `sheet-outline-mode'
(require 'sheet-environment)  ; .http environments, C-c C-e
(require 'sheet-auth)         ; OAuth2 tokens: M-x sheet-auth-list/login/logout
(require 'sheet-run)          ; assertion results, `sheet-run-buffer'
(require 'sheet-font-lock)    ; faces, font lock, syntax table
(require 'sheet-body)         ; response bodies, big ones in chunks
(require 'sheet-response)     ; the response buffer
(require 'sheet-send)         ; C-c C-c and friends, C-c C-k
(require 'sheet-restclient)   ; restclient.el's other names
(require 'sheet-curl-edit)    ; C-c C-y's curl command line
(require 'sheet-curl)         ; C-c C-u and C-c C-y: curl both ways
(require 'sheet-complete)     ; completion at point
(require 'sheet-eldoc)        ; Eldoc: values, URLs
(require 'sheet-flymake)      ; Flymake: the parser's diagnostics
(require 'sheet-code)         ; C-c C-S-u: the request as code
(require 'sheet-history)      ; C-c C-h, `sheet-response-diff'
;; `M-x sheet-import' without loading sheet-import.el until it is used: its
;; ;;;###autoload cookie works only through an autoloads file, and
;; README.md's set-up is a plain `require'.
(autoload 'sheet-import "sheet-import"
  "Import SOURCE (Postman, OpenAPI, Bruno, HAR) as `.http' files." t)

(defvar-local sheet-syntax nil
  "The syntax the engine reads this buffer in, from its first line.
`sheet' (or its synonym `restclient') or `http', set by the marker
`-*- sheet-syntax: restclient -*-' (or `sheet', `http') on the first
line, which the engine reads in the text itself (docs/http-files.md,
\"Which parser\"); Emacs only keeps it from asking whether it is
safe.  Without the marker the engine guesses a `.http' file's syntax
from its text, and its errors say so and name the marker.")
;;;###autoload
(put 'sheet-syntax 'safe-local-variable
     (lambda (v) (memq v '(sheet restclient http))))

(defun sheet--text ()
  "The whole text of the current buffer, ignoring narrowing."
  (save-restriction
    (widen)
    (buffer-substring-no-properties (point-min) (point-max))))

(defun sheet--line ()
  "The 1-based line of point, ignoring narrowing."
  (line-number-at-pos nil t))

(defun sheet--location-params ()
  "The text, line and file of the current buffer, as the engine wants them."
  (append (list :text (sheet--text) :line (sheet--line))
          (and buffer-file-name (list :path buffer-file-name))
          (sheet-environment-params)
          (list :settings (sheet-engine--settings))))

;;;###autoload
(defun sheet-set-var (name value)
  "Set the variable NAME (a string, \":token\") to VALUE for later requests.
The value overrides the sheet's declarations for this engine
session.  VALUE is turned into a string with `format' when it is
not one; a NAME without its colon gets one (restclient.el accepts
both).  Usable from `-> run-hook' forms and from user code."
  (unless (and (stringp name) (not (string-empty-p name)))
    (user-error
     "Sheet-mode: a variable name is a string such as \":token\": %S" name))
  (let* ((conn (sheet-engine--ensure))
         (name (if (string-prefix-p ":" name) name (concat ":" name)))
         (text (if (stringp value) value (format "%s" value))))
    ;; Kept in Emacs too, for the next engine should this one die.
    (sheet-session-note name text)
    ;; A `run-hook' form's later `sheet-get-var' sees it at once.
    (when sheet--response-info
      (setq sheet--response-info
            (plist-put sheet--response-info :vars
                       (plist-put (plist-get sheet--response-info :vars)
                                  (intern (concat ":" name)) text))))
    (jsonrpc-async-request
     conn 'sheet/setVar
     (list :name name :value text)
     :success-fn #'ignore
     :error-fn (lambda (err)
                 (message "Sheet-mode: setting %s failed: %s" name
                          (sheet-engine--error-text err)))
     :timeout-fn #'ignore))
  value)

;;;###autoload
(defun sheet-get-var (name)
  "The value of the variable NAME (\":token\") at point, or nil.
As restclient.el's `restclient-get-var': the overrides (set by
`sheet-set-var' or `jq-set-var'), else the last declaration above
point, substituted.  Inside a `:=' form, the variables above the
form, as the engine sent them with the form (`lisp/eval').  In a
response buffer (its `run-hook' forms), the values its request
used, with what its hooks set over them (the answer's `vars').
Elsewhere the engine resolves them (`sheet/variables')."
  (let ((name (if (string-prefix-p ":" name) name (concat ":" name))))
    (cond
     (sheet-engine--evaluating
      (cdr (assoc name sheet-engine--eval-vars)))
     (sheet--response-info
      (cdr (assoc name (sheet-engine--vars-alist
                        (plist-get sheet--response-info :vars)))))
     (t
      (let* ((result (sheet-engine--request 'sheet/variables
                                            (sheet--location-params) t))
             (match (lambda (list)
                      (cl-find-if (lambda (v) (equal (plist-get v :name) name))
                                  (append list nil))))
             (found (or (funcall match (plist-get result :overrides))
                        (funcall match (plist-get result :variables)))))
        (and found (not (plist-get found :error))
             (plist-get found :value)))))))

;; restclient.el's names, so that sheets and init files written for it
;; keep working; restclient.el's own definitions win when it is loaded.
;;;###autoload
(unless (fboundp 'restclient-get-var)
  (defalias 'restclient-get-var #'sheet-get-var))
;;;###autoload
(unless (fboundp 'restclient-set-var)
  (defalias 'restclient-set-var #'sheet-set-var))

;;; Commands

;;;###autoload
(defun sheet-set-environment (name)
  "Use the environment NAME for this `.http' buffer's requests.
NAME nil: none (only the `$shared' values apply).  Interactively,
complete over the names the engine finds in the environment files
above the buffer's file: JetBrains `http-client.env.json' and
`http-client.private.env.json', VS Code's
`rest-client.environmentVariables' (docs/http-files.md); an empty
answer clears the choice.  The choice goes with each send, curl
copy and \\[sheet-show-info], to `sheet run' (\\[sheet-run-buffer]),
and is shown in the mode line."
  (interactive (list (sheet-environment-read)))
  (sheet-environment-set name))

(defun sheet-show-info ()
  "Show the overrides, the variables at point and the hook types."
  (interactive)
  (let* ((result (sheet-engine--request 'sheet/variables
                                        (sheet--location-params) t))
         ;; The last response's warnings, then any the look-up itself
         ;; gave (substitution warnings at point).
         (warnings (append sheet--last-warnings
                           (plist-get result :warnings) nil))
         (buf (get-buffer-create "*Sheet Info*")))
    (with-current-buffer buf
      (let ((inhibit-read-only t))
        (erase-buffer)
        (insert (propertize "Dynamic variables (overrides)\n" 'face 'bold))
        (let ((overrides (append (plist-get result :overrides) nil)))
          (if overrides
              (dolist (o overrides)
                (insert (format "  %s = %s\n" (plist-get o :name)
                                (plist-get o :value))))
            (insert "  (none)\n")))
        (insert (propertize "\nVariables at point\n" 'face 'bold))
        (let ((vars (append (plist-get result :variables) nil)))
          (if vars
              (dolist (v vars)
                (insert (format "  %s %s %s  (line %d)\n"
                                (plist-get v :name)
                                (sheet--assign v)
                                (string-trim-right (plist-get v :raw))
                                (plist-get v :line)))
                (insert (if (plist-get v :error)
                            (format "      error: %s\n" (plist-get v :error))
                          (format "      value: %s\n" (plist-get v :value)))))
            (insert "  (none)\n")))
        (insert (propertize "\nWarnings of the last request\n" 'face 'bold))
        (if warnings
            (dolist (w warnings)
              (insert (format "  %s\n" (plist-get w :message))))
          (insert "  (none)\n"))
        (insert (propertize "\nHook types\n" 'face 'bold))
        (dolist (h (append (plist-get result :hookTypes) nil))
          (insert (format "  -> %s %s\n      %s\n"
                          (plist-get h :name) (plist-get h :args)
                          (plist-get h :doc))))
        (goto-char (point-min))
        (special-mode)))
    (display-buffer buf)
    buf))

;;; Mode

(defvar sheet-mode-map
  (let ((map (make-sparse-keymap)))
    (define-key map (kbd "C-c C-c") #'sheet-http-send-current)
    (define-key map (kbd "C-c C-r") #'sheet-http-send-current-raw)
    (define-key map (kbd "C-c C-v") #'sheet-http-send-current-stay-in-window)
    (define-key map (kbd "C-c C-b")
      #'sheet-http-send-current-suppress-response-buffer)
    (define-key map (kbd "C-c C-n") #'sheet-jump-next)
    (define-key map (kbd "C-c C-p") #'sheet-jump-prev)
    (define-key map (kbd "C-c C-.") #'sheet-mark-current)
    (define-key map (kbd "C-c C-u") #'sheet-copy-curl-command)
    (define-key map (kbd "C-c C-S-u") #'sheet-copy-as-code)
    (define-key map (kbd "C-c C-y") #'sheet-yank-curl)
    (define-key map (kbd "C-c C-g") #'sheet-helm)
    (define-key map (kbd "C-c n n") #'sheet-narrow-to-current)
    (define-key map (kbd "C-c C-i") #'sheet-show-info)
    (define-key map (kbd "C-c C-k") #'sheet-cancel)
    (define-key map [remap comment-dwim] #'sheet-comment-dwim)
    (define-key map (kbd "C-c C-t") #'sheet-run-buffer)
    (define-key map (kbd "C-c C-e") #'sheet-set-environment)
    (define-key map (kbd "C-c C-h") #'sheet-response-history)
    map)
  "Keymap of `sheet-mode'.")

(easy-menu-define sheet-mode-menu sheet-mode-map
  "Menu of `sheet-mode'."
  '("Sheet"
    ["Send request" sheet-http-send-current]
    ["Send request, raw response" sheet-http-send-current-raw]
    ["Send request, stay in window" sheet-http-send-current-stay-in-window]
    ["Send request, don't show response"
     sheet-http-send-current-suppress-response-buffer]
    ["Cancel request in flight" sheet-cancel]
    ["Earlier response" sheet-response-history]
    ["Diff of the last two responses" sheet-response-diff]
    "--"
    ["Next request" sheet-jump-next]
    ["Previous request" sheet-jump-prev]
    ["Jump to request or variable" sheet-helm]
    ["Mark request" sheet-mark-current]
    ["Narrow to request" sheet-narrow-to-current]
    ["Hide/show request body" sheet-toggle-body-visibility-or-indent
     :active sheet-outline-mode]
    ["Show all" sheet-show-all :active sheet-outline-mode]
    "--"
    ["Copy as curl command" sheet-copy-curl-command]
    ["Copy as code (Python, JavaScript, Go...)" sheet-copy-as-code]
    ["Insert curl command as request" sheet-yank-curl]
    ["Variables and hooks" sheet-show-info]
    ["Environment (.http)" sheet-set-environment]
    "--"
    ["Engine events" sheet-engine-events]
    ["Restart engine" sheet-engine-restart]
    ["Stop engine" sheet-engine-shutdown]
    ["Customize" (customize-group 'sheet)]))

(defun sheet-comment-dwim (arg)
  "Comment or uncomment the current line, or the lines of the region.
\[comment-dwim] in a sheet: a `#' after text is not a comment in a
sheet (it would become part of a URL or a header value), so the
current line is commented or uncommented as a whole instead of
getting an end-of-line comment.  With an active region, ARG is
passed to `comment-dwim'."
  (interactive "*P")
  (if (use-region-p)
      (comment-dwim arg)
    (comment-or-uncomment-region (line-beginning-position)
                                 (line-end-position))))

;;;###autoload
(define-derived-mode sheet-mode fundamental-mode "Sheet"
  "Major mode for sheets of HTTP requests, restclient.el's syntax.

Put point on a request and press \\[sheet-http-send-current].

Also for VS Code REST Client / JetBrains `.http' and `.rest'
files, opted in with an `auto-mode-alist' entry (docs/http-files.md,
\"In each front end\"); the engine reads them by their file name,
and \\[sheet-set-environment] chooses their environment.

\\{sheet-mode-map}"
  :group 'sheet
  (setq-local comment-start "# ")
  (setq-local comment-start-skip "^#+[ \t]*")
  (setq-local comment-end "")
  (setq-local syntax-propertize-function sheet--syntax-propertize)
  ;; The .http environment (C-c C-e), then the requests in flight.
  (setq-local mode-line-process
              '((:eval (sheet-environment-mode-line))
                (:eval (sheet--mode-line-sending))))
  (setq-local font-lock-defaults '(sheet-font-lock-keywords t))
  (setq-local font-lock-multiline t)
  (add-hook 'completion-at-point-functions #'sheet-completion-at-point nil t)
  (add-hook 'eldoc-documentation-functions #'sheet-eldoc-function nil t)
  (add-hook 'flymake-diagnostic-functions #'sheet-flymake nil t)
  (sheet-restclient-share-names))

;;;###autoload
(add-to-list 'auto-mode-alist '("\\.sheet\\'" . sheet-mode))

(provide 'sheet-mode)
;;; sheet-mode.el ends here
