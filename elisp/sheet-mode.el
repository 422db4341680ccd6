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

;;; Code:

(require 'cl-lib)
(require 'jsonrpc)
(require 'seq)
(require 'subr-x)
(require 'newcomment)
(require 'sheet-engine)
(require 'sheet-outline)      ; outline, jumps, helm, `sheet-outline-mode'
(require 'sheet-environment)  ; .http environments, C-c C-e
(require 'sheet-run)          ; assertion results, `sheet-run-buffer'

(declare-function json-mode "ext:json-mode")

;;; Customization

(defgroup sheet nil
  "Run HTTP requests written in a plain-text sheet."
  :group 'comm
  :prefix "sheet-"
  :link '(url-link :tag "Manual" "https://github.com/sheet-rest/sheet-rest"))

(defcustom sheet-engine-command nil
  "Program and arguments that start the engine, speaking JSON-RPC on stdio.
nil (the default) finds the engine without configuration
\(`sheet-engine-find-command'): the bundle built by `make build' in
the checkout this file belongs to (node ../engine/dist/engine.cjs
--stdio), else `sheet engine --stdio' when `npm install -g' put the
`sheet' executable on the variable `exec-path'
\(\\[sheet-install-engine])."
  :type '(choice (const :tag "Find it" nil)
                 (repeat :tag "Command line" (string :tag "Argument"))))

(defcustom sheet-engine-executable "sheet"
  "Name of the engine's executable looked for on the variable `exec-path'.
Installed by `npm install -g' of `sheet-engine-npm-package'."
  :type 'string)

(defcustom sheet-engine-npm-package "sheet-rest"
  "The npm package holding the engine, for `sheet-install-engine'."
  :type 'string)

(defcustom sheet-npm-program "npm"
  "The npm program `sheet-install-engine' runs."
  :type 'string)

(defcustom sheet-log-request t
  "When non-nil, each request is logged to the *Messages* buffer."
  :type 'boolean)

(defcustom sheet-same-buffer-response t
  "When non-nil, one buffer is reused for every response.
Its name is `sheet-buffer-response-name'.  When nil, each response
gets its own buffer named *HTTP <METHOD> <URL>*, with <2>, <3>
appended for repeated calls."
  :type 'boolean)

(defcustom sheet-buffer-response-name "*HTTP Response*"
  "Name of the response buffer when `sheet-same-buffer-response' is non-nil."
  :type 'string)

(defcustom sheet-inhibit-cookies nil
  "When non-nil, cookies from the engine's cookie jar are not sent implicitly."
  :type 'boolean)

(defcustom sheet-response-size-threshold 100000
  "Response size, in characters, above which only the bare major mode is used.
Above the threshold the response's major mode runs without its
hooks (function `delay-mode-hooks'); above ten times the threshold the
buffer stays in `fundamental-mode'.  nil disables the threshold."
  :type '(choice (const :tag "No threshold" nil)
                 (natnum :tag "Characters")))

(defcustom sheet-cookie-jar-file nil
  "File that keeps the engine's cookies, in the Netscape format curl uses.
nil keeps them in the engine's memory for its session.  The same
file works with curl (-b/-c) and with the shell verbs."
  :type '(choice (const :tag "In memory" nil) (file :tag "Cookie file")))

(defcustom sheet-timeout nil
  "Seconds to wait for a complete response; nil waits without limit."
  :type '(choice (const :tag "No limit" nil) (number :tag "Seconds")))

(defcustom sheet-follow-redirects t
  "When non-nil, redirects are followed; nil shows the redirect response."
  :type 'boolean)

(defcustom sheet-vars-max-passes 10
  "Maximum number of substitution passes for variables."
  :type 'natnum)

(defcustom sheet-content-type-modes
  '(("application/xml" . nxml-mode)
    ("text/xml" . nxml-mode)
    ("application/atom+xml" . nxml-mode)
    ("image/svg+xml" . nxml-mode)
    ("text/html" . html-mode)
    ("application/xhtml+xml" . html-mode)
    ("application/javascript" . js-mode)
    ("text/javascript" . js-mode)
    ("text/css" . css-mode)
    ("text/plain" . text-mode))
  "Major mode for a response, by content type (without parameters).
A content type missing here gets a mode from the engine's hint:
JSON uses `json-mode' when installed, else `js-mode'; XML uses
`nxml-mode'; HTML uses `html-mode'; anything else `text-mode'."
  :type '(alist :key-type (string :tag "Content type")
                :value-type (function :tag "Major mode")))

(defcustom sheet-use-helm t
  "When non-nil, \\[sheet-helm] uses helm when it is installed.
When nil, or when helm is not installed, it jumps with `completing-read'."
  :type 'boolean)

(defcustom sheet-events-buffer-size 0
  "Size limit of jsonrpc.el's own full log of engine traffic; 0 turns it off.
jsonrpc.el pretty-prints every message it logs, which takes
seconds for a response of several megabytes, so it is off by
default; `sheet-mode' always writes a one-line summary of each
message to the events buffer (`sheet-engine-events').  nil means
no limit.  Takes effect when the engine next starts."
  :type '(choice (const :tag "No limit" nil) (natnum :tag "Characters")))

(defcustom sheet-request-timeout 10
  "Seconds to wait for the engine's answer to a quick look-up.
Used for the outline, variables and curl look-ups; sending a
request has no timeout (cancel it with \\[sheet-cancel])."
  :type 'number)

(defcustom sheet-prompt-secret-regexp "pass\\(?:word\\|wd\\)?\\|token\\|secret"
  "Names of `# @prompt' variables whose answer is read without echo.
Matched case-insensitively against the name: such answers are
read with `read-passwd', the others with `read-string'.  VS Code
REST Client masks password names the same way; tokens and
secrets are masked here too."
  :type 'regexp)

(defcustom sheet-mode-hook '(sheet-outline-mode)
  "Hook run when entering `sheet-mode'.
`sheet-outline-mode' is on it by default; remove it to free TAB."
  :type 'hook
  :options '(sheet-outline-mode))

(defcustom sheet-response-received-hook nil
  "Hook run in the response buffer right after the response data is inserted."
  :type 'hook)

(defcustom sheet-response-loaded-hook nil
  "Hook run in the response buffer after it has been formatted."
  :type 'hook)

(defvar-local sheet-syntax nil
  "The syntax the engine reads this buffer in, from its first line.
`sheet' or `http', set by the marker `-*- sheet-syntax: sheet -*-'
\(or `http') on the first line, which the engine reads in the text
itself (docs/http-files.md, \"Which parser\"); Emacs only keeps it
from asking whether the value is safe.  Without the marker the
engine goes by the file name, and reads a `.http' file that is
plainly a restclient sheet (`:name = value' before the first
request, or no `###' line and a hook or several requests) as a
sheet.")
;;;###autoload
(put 'sheet-syntax 'safe-local-variable (lambda (v) (memq v '(sheet http))))

;;; Faces

(defgroup sheet-faces nil
  "Faces used by `sheet-mode'."
  :group 'sheet
  :prefix "sheet-")

(defface sheet-method '((t :inherit font-lock-keyword-face))
  "Face for the method of a request line.")

(defface sheet-url '((t :inherit font-lock-function-name-face))
  "Face for the URL of a request line.")

(defface sheet-header-name '((t :inherit font-lock-variable-name-face))
  "Face for header names.")

(defface sheet-header-value '((t :inherit font-lock-string-face))
  "Face for header values.")

(defface sheet-variable-name '((t :inherit font-lock-preprocessor-face))
  "Face for the names of variable declarations.")

(defface sheet-variable-string-value '((t :inherit font-lock-string-face))
  "Face for the value of a literal variable (`:name = value').")

(defface sheet-variable-elisp-value '((t :inherit font-lock-constant-face))
  "Face for the Lisp form of a Lisp variable (`:name := form').")

(defface sheet-variable-multiline-value '((t :inherit font-lock-doc-face))
  "Face for the lines of a multi-line variable (`:name = <<').")

(defface sheet-hook '((t :inherit font-lock-builtin-face))
  "Face for hook lines (`-> jq-set-var', `-> run-hook').")

(defface sheet-file-body '((t :inherit font-lock-type-face))
  "Face for a file body line (`< path').")

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
  (let ((conn (sheet-engine--ensure))
        (name (if (string-prefix-p ":" name) name (concat ":" name))))
    (jsonrpc-async-request
     conn 'sheet/setVar
     (list :name name :value (if (stringp value) value (format "%s" value)))
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
form, as the engine sent them with the form (`lisp/eval');
elsewhere the engine resolves them (`sheet/variables')."
  (let ((name (if (string-prefix-p ":" name) name (concat ":" name))))
    (if sheet-engine--eval-vars
        (cdr (assoc name sheet-engine--eval-vars))
      (let* ((result (sheet-engine--request 'sheet/variables
                                            (sheet--location-params) t))
             (match (lambda (list)
                      (cl-find-if (lambda (v) (equal (plist-get v :name) name))
                                  (append list nil))))
             (found (or (funcall match (plist-get result :overrides))
                        (funcall match (plist-get result :variables)))))
        (and found (not (plist-get found :error)) (plist-get found :value))))))

;; restclient.el's names, so that sheets and init files written for it
;; keep working; restclient.el's own definitions win when it is loaded.
;;;###autoload
(unless (fboundp 'restclient-get-var)
  (defalias 'restclient-get-var #'sheet-get-var))
;;;###autoload
(unless (fboundp 'restclient-set-var)
  (defalias 'restclient-set-var #'sheet-set-var))

;;; Prompts (`# @prompt name' in .http files)

(defvar sheet--prompt-history nil
  "Minibuffer history of the answers to `# @prompt' lines.")

(defun sheet--read-prompt (prompt)
  "Read the answer to PROMPT, a plist (:name :description :line).
A name matching `sheet-prompt-secret-regexp' is read with
`read-passwd', any other with `read-string'."
  (let* ((name (plist-get prompt :name))
         (description (plist-get prompt :description))
         (text (format "%s: " (if (or (null description)
                                      (string-empty-p description))
                                  name
                                (format "%s (%s)" description name)))))
    (if (let ((case-fold-search t))
          (string-match-p sheet-prompt-secret-regexp name))
        (read-passwd text)
      (read-string text nil 'sheet--prompt-history))))

(defun sheet--prompt-answers ()
  "Ask for the `# @prompt' values of the request at point.
Return (:prompts (:NAME ANSWER ...)) for the engine's `prompts'
\(docs/protocol.md), or nil when the request has no prompt.  The
engine's outline says which prompts a request has; it is only
asked when the buffer mentions `@prompt' at all, so other sends
cost no extra round trip."
  (when (save-excursion
          (save-restriction
            (widen)
            (goto-char (point-min))
            (search-forward "@prompt" nil t)))
    (let ((prompts (plist-get (sheet--request-at) :prompts))
          answers)
      (seq-doseq (prompt prompts)
        (setq answers
              (append answers
                      (list (intern (concat ":" (plist-get prompt :name)))
                            (sheet--read-prompt prompt)))))
      (and answers (list :prompts answers)))))

;;; Commands

(defvar-local sheet--last-warnings nil
  "In a sheet buffer: the warnings of its last response, a list of plists.
Each has :message, :code and :line, as the engine's `hooks.warnings'.")

(defun sheet-copy-curl-command ()
  "Copy the request at point, as a curl command line, to the kill ring."
  (interactive)
  (let* ((result (sheet-engine--request 'sheet/curl
                                        (append (sheet--location-params)
                                                (sheet--prompt-answers))
                                        t))
         (command (plist-get result :command)))
    (kill-new command)
    (message "curl command copied: %s" command)
    command))

;;;###autoload
(defun sheet-yank-curl (command)
  "Insert the request of the curl command line COMMAND at point.
Interactively, COMMAND is the latest kill when it is a curl
command line; otherwise, or with a prefix argument, it is read in
the minibuffer, the latest kill as the default.  The engine
converts it (`sheet/fromCurl', the converter of `sheet
import-curl'; docs/sheet-format.md, \"Importing curl command
lines\"): the URL, -X, -H, -d and its variants, --json, -u, -b,
-A, -e.  The request goes on its own lines, separated from the
requests around it by the file's separator line (`#', or `###' in
a `.http' file).  What the request does not carry (-k, -F, ...)
is named in a warning in the echo area; a command it cannot
write is a `user-error' naming the option.  Return the inserted
request's text.  This is restclient.el's issue #290."
  (interactive (list (sheet--read-curl-command current-prefix-arg)))
  (barf-if-buffer-read-only)
  (let* ((result (sheet-engine--request
                  'sheet/fromCurl
                  (append (list :command command :text (sheet--text))
                          (and buffer-file-name
                               (list :path buffer-file-name)))))
         (text (plist-get result :text))
         (separator (plist-get result :separator))
         (warnings (append (plist-get result :warnings) nil)))
    (unless (bolp) (end-of-line) (insert "\n"))
    ;; A line starting with `#' separates sheet requests, `###' .http
    ;; ones: regexp-quote of the separator matches both rules.
    (unless (or (bobp)
                (save-excursion
                  (forward-line -1)
                  (looking-at-p (regexp-quote separator))))
      (insert separator "\n"))
    (let ((start (point)))
      (insert text)
      (unless (or (eobp) (looking-at-p (regexp-quote separator)))
        (insert separator "\n"))
      (goto-char start))
    (if warnings
        (message "Sheet-mode: curl command inserted; warning: %s"
                 (sheet--warning-text warnings))
      (message "Sheet-mode: curl command inserted"))
    text))

(defun sheet--curl-command-p (text)
  "Return non-nil when TEXT is a curl command line (`curl ...', `$ curl ...')."
  (and (stringp text)
       (string-match-p "\\`[ \t\n]*\\(\\$[ \t]+\\)?curl\\(\\.exe\\)?[ \t\n]"
                       text)))

(defun sheet--read-curl-command (ask)
  "The curl command line for `sheet-yank-curl': the latest kill or read.
Read it in the minibuffer when ASK is non-nil or the latest kill
is not a curl command line."
  (let ((kill (ignore-errors (current-kill 0 t))))
    (if (and (not ask) (sheet--curl-command-p kill))
        (substring-no-properties kill)
      (read-string "curl command line: " nil nil
                   (and kill (substring-no-properties kill))))))

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

;;; Sending and the response buffer

(defvar sheet--body-file-min 65536
  "Bodies at least this many characters long come from the engine in a file.
Reading a file is much faster than reading and parsing a JSON-RPC
message of several megabytes (docs/protocol.md, `bodyFileMin').
nil: every body comes inside the engine's answer.")

(defvar-local sheet--response-info nil
  "In a response buffer: the engine's answer it shows (a plist).")

(defvar sheet-response-mode-map
  (let ((map (make-sparse-keymap)))
    (define-key map (kbd "q") #'quit-window)
    map)
  "Keymap of `sheet-response-mode'.")

(define-minor-mode sheet-response-mode
  "Minor mode of response buffers.
\\<sheet-response-mode-map>\\[quit-window] quits the window."
  :lighter " Sheet-Response"
  :keymap sheet-response-mode-map
  :group 'sheet)

(defun sheet--response-buffer (method url)
  "The buffer for the response to METHOD URL, emptied."
  (let ((buf (if sheet-same-buffer-response
                 (get-buffer-create sheet-buffer-response-name)
               (generate-new-buffer (format "*HTTP %s %s*" method url)))))
    (with-current-buffer buf
      (let ((inhibit-read-only t))
        (setq buffer-read-only nil)
        (buffer-disable-undo)
        (erase-buffer)
        (remove-overlays)
        ;; A reused buffer starts afresh, as a new one would.
        (unless (eq major-mode 'fundamental-mode) (fundamental-mode))))
    buf))

(defun sheet--mode-for (presentation)
  "The major mode for PRESENTATION: by content type, else the engine's hint."
  (let ((type (plist-get presentation :contentType))
        (hint (plist-get presentation :mode)))
    (or (cdr (assoc-string type sheet-content-type-modes t))
        (pcase hint
          ("json" (if (fboundp 'json-mode) #'json-mode #'js-mode))
          ("xml" #'nxml-mode)
          ("html" #'html-mode)
          ("javascript" #'js-mode)
          ("image" #'fundamental-mode)
          (_ #'text-mode)))))

(defun sheet--insert-file (file)
  "Insert FILE, UTF-8 text from the engine, at point; leave point after it.
Into an empty buffer, the bytes are inserted as they are and the
buffer then made multibyte: Emacs's internal form of text is
UTF-8, so valid UTF-8 (what the engine writes) becomes the same
characters as decoding would give, about a third faster for big
bodies."
  (let ((file-name-handler-alist nil))
    (if (and (zerop (buffer-size)) enable-multibyte-characters)
        (progn
          (set-buffer-multibyte nil)
          (unwind-protect (insert-file-contents-literally file)
            (set-buffer-multibyte t))
          (goto-char (point-max)))
      (let ((coding-system-for-read 'utf-8-unix))
        (goto-char (+ (point) (cadr (insert-file-contents file))))))))

(defun sheet--file-bytes (file)
  "The bytes of FILE, a unibyte string."
  (with-temp-buffer
    (set-buffer-multibyte nil)
    (let ((file-name-handler-alist nil))
      (insert-file-contents-literally file))
    (buffer-string)))

(defun sheet--delete-body-file (presentation)
  "Delete the file holding the body of PRESENTATION, if any, and its directory.
The engine writes each such file alone in a fresh private directory."
  (let ((file (plist-get presentation :file))
        (file-name-handler-alist nil))
    (when (stringp file)
      (ignore-errors (delete-file file))
      (ignore-errors (delete-directory (file-name-directory file))))))

(defun sheet--insert-body (presentation raw)
  "Insert the body of PRESENTATION at point.  RAW: bytes untouched.
A body the engine handed over in a file is read from it, and the
file is deleted, whatever happens."
  (let ((kind (plist-get presentation :kind))
        (type (plist-get presentation :contentType))
        (file (plist-get presentation :file)))
    (unwind-protect
        (pcase kind
          ("text" (if file
                      (sheet--insert-file file)
                    (insert (or (plist-get presentation :text) ""))))
          ((or "image" "binary")
           (let ((bytes (if file
                            (sheet--file-bytes file)
                          (base64-decode-string
                           (or (plist-get presentation :base64) "")))))
             (cond
              (raw (insert (decode-coding-string bytes 'raw-text)))
              ((and (equal kind "image") (display-images-p)
                    (image-type-from-data bytes))
               (insert-image (create-image bytes nil t) "[image]")
               (insert "\n"))
              ((equal kind "image")
               (insert (format "[image %s, %d bytes: this Emacs cannot \
display images]\n"
                               type (length bytes))))
              (t
               (insert (format "[binary body %s, %d bytes, not shown; \
C-c C-r shows it raw]\n"
                               (if (string-empty-p type)
                                   "(no content type)"
                                 type)
                               (length bytes))))))))
      (sheet--delete-body-file presentation))))

(defun sheet--trailer-lines (result)
  "The lines restclient.el puts under the body, from the engine's RESULT."
  (let* ((request (plist-get result :request))
         (response (plist-get result :response)))
    (append
     (list (format "%s %s" (plist-get request :method)
                   (plist-get request :url)))
     (mapcar (lambda (r) (format "Redirect: %s %s -> %s"
                                 (plist-get r :status) (plist-get r :url)
                                 (plist-get r :location)))
             (plist-get result :redirects))
     (list (sheet--status-line result))
     (mapcar (lambda (h) (format "%s: %s" (aref h 0) (aref h 1)))
             (plist-get response :headers))
     (sheet-run-assertion-lines result)
     (list (format "Request duration: %fs"
                   (/ (plist-get result :durationMs) 1000.0)))
     (mapcar (lambda (w) (format "warning: %s" (plist-get w :message)))
             (plist-get (plist-get result :hooks) :warnings)))))

(defun sheet--status-line (result)
  "The status line of RESULT's response."
  (let ((response (plist-get result :response)))
    (string-trim-right
     (format "HTTP/%s %s %s" (plist-get response :httpVersion)
             (plist-get response :status)
             (or (plist-get response :statusText) "")))))

(defun sheet--format-response (result)
  "Set the major mode of the current buffer for RESULT and add the trailer."
  (let* ((presentation (plist-get result :presentation))
         (mode (sheet--mode-for presentation))
         (size (buffer-size))
         (threshold sheet-response-size-threshold))
    (cond
     ((and threshold (> size (* 10 threshold)))
      (fundamental-mode))
     ((and threshold (> size threshold))
      (delay-mode-hooks (funcall mode)))
     (t (funcall mode)))
    (goto-char (point-max))
    (unless (or (bobp) (bolp)) (insert "\n"))
    (unless comment-start
      (setq-local comment-start "# "))
    (sheet--insert-comment-lines (sheet--trailer-lines result))
    (goto-char (point-min))))

(defun sheet--insert-comment-lines (lines)
  "Insert LINES (strings) at point as comments in the buffer's syntax.
What `comment-region' with the `plain' style makes of them.  For
line comments (an empty `comment-end', the default padding and the
default of the variable `comment-add') the prefix is written
directly: `comment-region' costs a third of a millisecond per
response, more than everything else in the trailer
\(docs/benchmarks.md, the Emacs section)."
  (if (and (equal comment-end "") (equal comment-padding " ")
           (eql comment-add 0))
      (let ((prefix (concat (string-trim-right comment-start) " ")))
        (dolist (line lines)
          ;; `comment-region' leaves blank lines alone
          ;; (`comment-empty-lines').
          (dolist (l (split-string line "\n"))
            (insert (if (string-match-p "\\`[ \t]*\\'" l) l (concat prefix l))
                    "\n"))))
    (let ((start (point))
          (comment-style 'plain))
      (insert (mapconcat #'identity lines "\n") "\n")
      (comment-region start (point)))))

(defun sheet--fill-raw (result)
  "Fill the current buffer with RESULT raw.
The status line, the headers, an empty line, the body."
  (let ((response (plist-get result :response)))
    (insert (sheet--status-line result) "\n")
    (seq-doseq (h (plist-get response :headers))
      (insert (format "%s: %s\n" (aref h 0) (aref h 1))))
    (insert "\n")
    (sheet--insert-body (plist-get result :presentation) t)
    (goto-char (point-min))))

(defun sheet--run-hook-forms (forms)
  "Evaluate the `run-hook' FORMS (strings) in the current buffer, in order."
  (seq-doseq (form forms)
    (condition-case err
        (eval (car (read-from-string form)) t)
      (error (message "Sheet-mode: error in run-hook %s: %s" form
                      (error-message-string err))))))

(defun sheet--log (result)
  "Log the request and response of RESULT to *Messages*."
  (let* ((request (plist-get result :request))
         (body (plist-get request :body))
         (text (and body (plist-get body :data))))
    (message "HTTP %s %s Headers:[%s] Body:[%s] -> %s (%.0f ms)"
             (plist-get request :method) (plist-get request :url)
             (mapconcat (lambda (h) (format "%s: %s" (aref h 0) (aref h 1)))
                        (plist-get request :headers) ", ")
             (if (and text (> (length text) 200))
                 (concat (substring text 0 200) "...")
               (or text ""))
             (sheet--status-line result) (plist-get result :durationMs))))

(defun sheet--insert-as-received (presentation)
  "Insert the body of PRESENTATION as received, if the engine sent it.
Return non-nil when it did: the body was pretty-printed and the
engine also sent it as received (`received' in docs/protocol.md)."
  (let ((text (plist-get presentation :received))
        (file (plist-get presentation :receivedFile)))
    (cond
     (file (unwind-protect (save-excursion (sheet--insert-file file))
             (sheet--delete-body-file (list :file file)))
           t)
     (text (save-excursion (insert text)) t))))

(defun sheet--fill (result raw)
  "Fill the current buffer with RESULT; RAW: status, headers, body untouched.
Runs `sheet-response-received-hook' with the body as received in
the buffer; a pretty-printed body replaces it afterwards."
  (let ((presentation (plist-get result :presentation)))
    (cond
     (raw (sheet--fill-raw result)
          (run-hooks 'sheet-response-received-hook))
     ((sheet--insert-as-received presentation)
      (run-hooks 'sheet-response-received-hook)
      (let ((inhibit-read-only t))
        (erase-buffer)
        (sheet--insert-body presentation nil)))
     (t (sheet--insert-body presentation nil)
        (run-hooks 'sheet-response-received-hook)))))

(defun sheet--warning-text (warnings)
  "One line naming every warning in WARNINGS (plists with :message)."
  (mapconcat (lambda (w) (plist-get w :message)) warnings "; "))

(defvar sheet--fill-chunk-bytes (* 2 1024 1024)
  "Bytes of a big body inserted at a time while its buffer fills.")

(defvar-local sheet--filling nil
  "In a response buffer filling chunk by chunk: (TIMER . FILE), or nil.")

(defun sheet--progressive-file (result raw threshold)
  "The body file of RESULT to insert chunk by chunk, or nil.
A text body in a file bigger than 10 x THRESHOLD bytes (the size
above which the buffer stays in `fundamental-mode'), not RAW and
not asked for as received."
  (let* ((presentation (plist-get result :presentation))
         (file (plist-get presentation :file)))
    (and (not raw) threshold (stringp file)
         (equal (plist-get presentation :kind) "text")
         (not (plist-get presentation :received))
         (not (plist-get presentation :receivedFile))
         (> (or (file-attribute-size (file-attributes file)) 0)
            (max (* 10 threshold) sheet--fill-chunk-bytes))
         file)))

(defun sheet--chunk-end (file beg size)
  "Where the chunk of FILE from BEG ends: a character start, at most SIZE."
  (let ((end (min size (+ beg sheet--fill-chunk-bytes))))
    (if (>= end size)
        size
      (with-temp-buffer
        (set-buffer-multibyte nil)
        (let ((file-name-handler-alist nil))
          (insert-file-contents-literally file nil end (min size (+ end 4))))
        (goto-char (point-min))
        ;; Skip UTF-8 continuation bytes (10xxxxxx): the chunk ends
        ;; after a whole character.
        (while (and (not (eobp)) (= (logand (char-after) #xC0) #x80))
          (forward-char))
        (+ end (1- (point)))))))

(defun sheet--fill-chunk (buf file beg size finish)
  "Insert the next chunk of FILE (SIZE bytes) from BEG into BUF.
Schedule the next one, or call FINISH after the last.  Between
chunks Emacs reads input: the buffer can be used while it fills,
and \\[keyboard-quit] or \\[sheet-cancel] stop the filling."
  (if (not (buffer-live-p buf))
      (sheet--delete-body-file (list :file file))
    (with-current-buffer buf
      (setq sheet--filling nil)
      (condition-case err
          (let ((end (sheet--chunk-end file beg size))
                (inhibit-read-only t)
                (coding-system-for-read 'utf-8-unix)
                (file-name-handler-alist nil))
            (save-excursion
              (goto-char (point-max))
              (insert-file-contents file nil beg end))
            (if (< end size)
                (setq sheet--filling
                      (cons (run-at-time 0 nil #'sheet--fill-chunk
                                         buf file end size finish)
                            file))
              (sheet--delete-body-file (list :file file))
              (funcall finish)))
        ((quit error)
         (sheet--delete-body-file (list :file file))
         (message "Sheet-mode: filling %s stopped (%s)" (buffer-name buf)
                  (if (eq (car err) 'quit) "quit"
                    (error-message-string err))))))))

(defun sheet--stop-filling ()
  "Stop every response buffer that is filling; return how many were."
  (let ((n 0))
    (dolist (b (buffer-list))
      (when-let ((filling (buffer-local-value 'sheet--filling b)))
        (cancel-timer (car filling))
        (sheet--delete-body-file (list :file (cdr filling)))
        (with-current-buffer b (setq sheet--filling nil))
        (setq n (1+ n))))
    n))

(defun sheet--finish-response (result raw threshold)
  "Format the current buffer, filled with RESULT, and run the hooks.
RAW: the raw layout.  THRESHOLD: the sheet's size threshold."
  (let ((sheet-response-size-threshold threshold))
    (if raw
        (progn (fundamental-mode) (goto-char (point-min)))
      (sheet--format-response result)))
  (setq sheet--response-info result)
  (sheet-response-mode 1)
  (buffer-enable-undo)
  (set-buffer-modified-p nil)
  (run-hooks 'sheet-response-loaded-hook)
  (sheet--run-hook-forms
   (plist-get (plist-get result :hooks) :runHooks)))

(defun sheet--handle-response (result raw display sheet-buffer)
  "Show the engine's RESULT for a send from SHEET-BUFFER.
RAW: show it untouched.  DISPLAY is `select', `stay' or nil.
A big text body (see `sheet--progressive-file') fills the buffer
chunk by chunk from timers; the loaded hook runs after the last."
  (let* ((request (plist-get result :request))
         (hooks (plist-get result :hooks))
         (warnings (append (plist-get hooks :warnings) nil))
         (settings-buffer (if (buffer-live-p sheet-buffer)
                              sheet-buffer
                            (current-buffer)))
         (log (buffer-local-value 'sheet-log-request settings-buffer))
         (threshold (buffer-local-value 'sheet-response-size-threshold
                                        settings-buffer))
         (file (sheet--progressive-file result raw threshold))
         (buf (with-current-buffer settings-buffer
                (setq sheet--last-warnings warnings)
                (sheet--response-buffer (plist-get request :method)
                                        (plist-get request :url)))))
    (when log (sheet--log result))
    (with-current-buffer buf
      (setq sheet--response-info result)
      (if (not file)
          (progn (sheet--fill result raw)
                 (sheet--finish-response result raw threshold))
        ;; The chunks own the file now: the caller must not delete it.
        (plist-put (plist-get result :presentation) :file nil)
        (let ((size (file-attribute-size (file-attributes file))))
          (sheet--fill-chunk
           buf file 0 size
           (lambda ()
             (with-current-buffer buf
               (let ((inhibit-read-only t))
                 (run-hooks 'sheet-response-received-hook)
                 (sheet--finish-response result raw threshold))))))))
    (when warnings
      (message "Sheet-mode: warning: %s" (sheet--warning-text warnings)))
    (sheet-run-report-assertions hooks)
    (pcase display
      ('select (pop-to-buffer buf))
      ('stay (display-buffer buf t)))
    buf))

(defun sheet--report-send-error (err line)
  "Report the error ERR of the send of the request at LINE."
  (let ((code (sheet-engine--error-code err)))
    (message
     "Sheet-mode: %s"
     (cond
      ((equal code "cancelled")
       (format "request cancelled: %s" (sheet-engine--error-text err)))
      ((eql (plist-get err :code) -1)
       (format "the engine died (%s) while sending the request at line %d; \
the next command starts a new one"
               (plist-get err :message) line))
      (t (sheet-engine--error-text err))))))

;;; Requests in flight

(defconst sheet--method-regexp
  (regexp-opt '("GET" "POST" "PUT" "DELETE" "PATCH" "HEAD" "OPTIONS" "TRACE"))
  "Request methods, for display only.")

(defvar-local sheet--sending nil
  "In a sheet buffer: its requests in flight.
A list of plists (:id ID :start POS :label \"METHOD URL\" :time TIME),
POS the start of the request line, TIME when it was sent.")

(defvar-local sheet--sending-timer nil
  "In a sheet buffer: the timer that updates the mode line while sending.")

(defun sheet--request-label ()
  "Return (START . \"METHOD URL\") of the request line at or above point.
For display only, as written in the sheet (variables unresolved);
nil when there is none."
  (save-excursion
    (end-of-line)
    (when (re-search-backward
           (concat "^\\(" sheet--method-regexp "\\)[ \t]+\\(.*\\)$") nil t)
      (cons (point) (format "%s %s" (match-string-no-properties 1)
                            (string-trim (match-string-no-properties 2)))))))

(defun sheet--mode-line-sending ()
  "The mode line text for the current buffer's requests in flight."
  (when sheet--sending
    (let* ((first (car (last sheet--sending)))
           (label (plist-get first :label))
           (secs (float-time (time-since (plist-get first :time)))))
      (format " [%s %ds%s]"
              (if (> (length label) 40)
                  (concat (substring label 0 37) "...")
                label)
              (floor secs)
              (if (cdr sheet--sending)
                  (format " +%d" (1- (length sheet--sending)))
                "")))))

(defun sheet--sending-tick (buffer)
  "Update BUFFER's mode line; stop the timer when nothing is in flight."
  (if (not (buffer-live-p buffer))
      nil
    (with-current-buffer buffer
      (if sheet--sending
          (force-mode-line-update)
        (when sheet--sending-timer
          (cancel-timer sheet--sending-timer)
          (setq sheet--sending-timer nil))
        (force-mode-line-update)))))

(defun sheet--sending-start (id start label)
  "Note the request ID at START (LABEL) as in flight in the current buffer."
  (push (list :id id :start start :label label :time (current-time))
        sheet--sending)
  (unless sheet--sending-timer
    (setq sheet--sending-timer
          (run-at-time 1 1 #'sheet--sending-tick (current-buffer))))
  (force-mode-line-update))

(defun sheet--sending-end (buffer id)
  "Note that the request ID of BUFFER is answered."
  (when (buffer-live-p buffer)
    (with-current-buffer buffer
      (setq sheet--sending
            (cl-remove-if (lambda (s) (eql (plist-get s :id) id))
                          sheet--sending))
      (sheet--sending-tick buffer))))

(defun sheet--confirm-duplicate (start label)
  "Ask before sending the request at START (LABEL) again while in flight."
  (when (and start
             (cl-find-if (lambda (s) (eql (plist-get s :start) start))
                         sheet--sending)
             (not (y-or-n-p (format "%s is still in flight; send it again? "
                                    label))))
    (user-error "Not sent")))

(defun sheet--send (raw display)
  "Send the request at point; show the response raw if RAW.
DISPLAY is `select' (show and select the response window), `stay'
\(show it, keep focus) or nil (fill the buffer only)."
  (let* ((where (sheet--request-label))
         (_ (sheet--confirm-duplicate (car where) (cdr where)))
         (prompts (sheet--prompt-answers))
         (conn (sheet-engine--ensure))
         (_ (sheet-engine--sync-jar conn))
         (sheet-buffer (current-buffer))
         (line (sheet--line))
         (context (sheet-engine--new-context sheet-buffer))
         (params (append (sheet--location-params)
                         prompts
                         (list :raw (if raw t :json-false) :context context)
                         (and sheet--body-file-min
                              (list :bodyFileMin sheet--body-file-min))
                         (and sheet-response-received-hook
                              (list :received t))))
         (id nil))
    (jsonrpc-async-request
     conn 'sheet/send params
     :timeout nil
     :success-fn
     (lambda (result)
       (setq sheet-engine--in-flight (delq id sheet-engine--in-flight))
       (sheet-engine--end-context context)
       (sheet--sending-end sheet-buffer id)
       (unwind-protect
           (progn
             (sheet-engine--log-event conn "engine-reply"
                                      (list :id id :result result))
             (condition-case-unless-debug err
                 (sheet--handle-response result raw display sheet-buffer)
               (error (message "Sheet-mode: showing the response failed: %s"
                               (error-message-string err)))))
         ;; Normally deleted as soon as they are read; this covers every
         ;; other way out.
         (let ((presentation (plist-get result :presentation)))
           (sheet--delete-body-file presentation)
           (sheet--delete-body-file
            (list :file (plist-get presentation :receivedFile))))))
     :error-fn
     (lambda (err)
       (setq sheet-engine--in-flight (delq id sheet-engine--in-flight))
       (sheet-engine--end-context context)
       (sheet--sending-end sheet-buffer id)
       (sheet-engine--log-event conn "engine-reply" (list :id id :error err))
       (sheet--report-send-error err line)))
    (setq id (sheet-engine--last-id conn))
    (push id sheet-engine--in-flight)
    (sheet--sending-start id (car where) (or (cdr where) "request"))
    (let ((message-log-max nil))
      (message "Sending %s... (%s cancels)" (or (cdr where) "request")
               ;; What `substitute-command-keys' gives, at a tenth of its
               ;; cost.
               (let ((key (where-is-internal #'sheet-cancel nil t)))
                 (if key (key-description key) "M-x sheet-cancel"))))
    id))

(defun sheet-http-send-current (&optional raw stay-in-window)
  "Send the request at point, pretty-print the response and select its window.
With RAW non-nil, show the response untouched; with STAY-IN-WINDOW
non-nil, keep focus in the sheet."
  (interactive)
  (sheet--send raw (if stay-in-window 'stay 'select)))

(defun sheet-http-send-current-raw ()
  "Send the request at point and show the raw response: status, headers, body."
  (interactive)
  (sheet--send t 'select))

(defun sheet-http-send-current-stay-in-window ()
  "Send the request at point, show the response and keep focus in the sheet."
  (interactive)
  (sheet--send nil 'stay))

(defun sheet-http-send-current-suppress-response-buffer ()
  "Send the request at point and fill the response buffer without showing it."
  (interactive)
  (sheet--send nil nil))

(defun sheet-cancel ()
  "Cancel the requests in flight, and stop response buffers filling."
  (interactive)
  (let ((stopped (sheet--stop-filling)))
    (when (> stopped 0)
      (message "Stopped filling %d response buffer%s" stopped
               (if (> stopped 1) "s" "")))
    (if (not (and sheet-engine--connection sheet-engine--in-flight))
        (when (zerop stopped) (message "No request in flight"))
      (dolist (id sheet-engine--in-flight)
        (jsonrpc-notify sheet-engine--connection '$/cancelRequest
                        (list :id id)))
      (message "Cancelling %d request%s" (length sheet-engine--in-flight)
               (if (cdr sheet-engine--in-flight) "s" "")))))

;;; Font lock

(defun sheet--match-multiline-value (limit)
  "Font-lock matcher: the value lines of a multi-line variable before LIMIT."
  (when (re-search-forward "^:[^:= \t\n]+[ \t]*:?=[ \t]*<<[ \t]*$" limit t)
    (let ((start (min (1+ (match-end 0)) (point-max))))
      (let ((end (save-excursion
                   (goto-char start)
                   (if (re-search-forward "^#" nil t)
                       (match-beginning 0)
                     (point-max)))))
        (set-match-data (list start end))
        (goto-char (max (point) (min end limit)))
        t))))

(defvar sheet-font-lock-keywords
  `(("^#.*$" . font-lock-comment-face)
    (,(concat "^\\(" sheet--method-regexp "\\)[ \t]+\\(.*\\)$")
     (1 'sheet-method) (2 'sheet-url))
    ("^\\(:[^:= \t\n]+\\)[ \t]*:=[ \t]*\\(<<\\)[ \t]*$"
     (1 'sheet-variable-name) (2 'sheet-variable-multiline-value))
    ("^\\(:[^:= \t\n]+\\)[ \t]*=[ \t]*\\(<<\\)[ \t]*$"
     (1 'sheet-variable-name) (2 'sheet-variable-multiline-value))
    ("^\\(:[^:= \t\n]+\\)[ \t]*:=[ \t]*\\(.+\\)$"
     (1 'sheet-variable-name) (2 'sheet-variable-elisp-value))
    ("^\\(:[^:= \t\n]+\\)[ \t]*=[ \t]*\\(.+\\)$"
     (1 'sheet-variable-name) (2 'sheet-variable-string-value))
    (sheet--match-multiline-value (0 'sheet-variable-multiline-value t))
    ("^\\(->\\)[ \t]+\\(.*\\)$" (1 'sheet-hook) (2 'sheet-hook))
    ("^<[ \t]+.*$" . 'sheet-file-body)
    ("^\\([^](),/:;@[\\{}= \t\n]+\\):[ \t]+\\(.*\\)$"
     (1 'sheet-header-name) (2 'sheet-header-value)))
  "Font-lock keywords of `sheet-mode'; display only, never used to parse.")

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
    (define-key map (kbd "C-c C-y") #'sheet-yank-curl)
    (define-key map (kbd "C-c C-g") #'sheet-helm)
    (define-key map (kbd "C-c n n") #'sheet-narrow-to-current)
    (define-key map (kbd "C-c C-i") #'sheet-show-info)
    (define-key map (kbd "C-c C-k") #'sheet-cancel)
    (define-key map [remap comment-dwim] #'sheet-comment-dwim)
    (define-key map (kbd "C-c C-t") #'sheet-run-buffer)
    (define-key map (kbd "C-c C-e") #'sheet-set-environment)
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
    ["Insert curl command as request" sheet-yank-curl]
    ["Variables and hooks" sheet-show-info]
    ["Environment (.http)" sheet-set-environment]
    "--"
    ["Engine events" sheet-engine-events]
    ["Restart engine" sheet-engine-restart]
    ["Stop engine" sheet-engine-shutdown]
    ["Customize" (customize-group 'sheet)]))

(defvar sheet-mode-syntax-table
  (let ((table (make-syntax-table)))
    (modify-syntax-entry ?\" "." table)
    (modify-syntax-entry ?' "." table)
    (modify-syntax-entry ?# "." table)
    (modify-syntax-entry ?\n ">" table)
    table)
  "Syntax table of `sheet-mode'.
A `#' starts a comment at the start of a line only (see
`sheet--syntax-propertize'), so that `#' in a URL fragment or a
JSON body is not taken for one; a newline ends a comment.")

(defconst sheet--syntax-propertize
  (syntax-propertize-rules ("^\\(#\\)" (1 "<")))
  "Make a `#' at the start of a line a comment starter.
restclient.el makes every `#' one in its syntax table; a sheet
treats only a line that starts with `#' as a comment, so the
syntax says the same.")

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
  (setq-local font-lock-multiline t))

;;;###autoload
(add-to-list 'auto-mode-alist '("\\.sheet\\'" . sheet-mode))

(provide 'sheet-mode)
;;; sheet-mode.el ends here
