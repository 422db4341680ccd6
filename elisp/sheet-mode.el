;;; sheet-mode.el --- Run HTTP requests written in a plain-text sheet  -*- lexical-binding: t; -*-

;; Copyright (C) 2026 The sheet-rest authors

;; Author: The sheet-rest authors
;; Maintainer: The sheet-rest authors
;; Version: 0.1.0
;; URL: https://github.com/sheet-rest/sheet-rest
;; Keywords: comm, tools
;; Package-Requires: ((emacs "28.1"))

;; This file is not part of GNU Emacs.

;; Permission is hereby granted, free of charge, to any person obtaining a copy of this
;; software and associated documentation files, to deal in the software without
;; restriction, subject to the MIT license terms shipped with sheet-rest (LICENSE).

;;; Commentary:

;; `sheet-mode' is restclient.el's syntax and keys on top of one engine.  A sheet holds
;; requests (`GET http://host/path', headers, a body after an empty line), variables
;; (`:name = value', `:name := (form)', multi-line with `<<') and hooks (`-> jq-set-var',
;; `-> run-hook').  Put point on a request and press C-c C-c.
;;
;; How it works: Emacs never parses the sheet for behaviour.  A TypeScript engine, started
;; lazily as a subprocess (`sheet-engine-command'), speaks JSON-RPC over stdio through the
;; built-in jsonrpc.el, like eglot does with language servers.  Emacs sends the whole
;; buffer text and the line of point (`sheet/send'); the engine parses, substitutes
;; variables (asking Emacs to evaluate `:=' forms through `lisp/eval'), sends the request,
;; pretty-prints the response and runs the jq hooks.  Emacs then fills the response buffer
;; (`sheet-buffer-response-name') the way restclient.el does: the body, then the request
;; and the status line, headers and duration as comment lines.  Navigation, narrowing,
;; marking, outline hiding and helm ask the engine for the sheet's outline (`sheet/outline').
;;
;; Sending is asynchronous: Emacs stays responsive, and C-c C-k cancels the request in
;; flight.  If the engine dies, pending requests fail with a message and the next command
;; starts a new one.  See docs/sheet-mode.md in the checkout for the whole manual.

;;; Code:

(require 'cl-lib)
(require 'jsonrpc)
(require 'seq)
(require 'subr-x)
(require 'newcomment)
(require 'sheet-run)    ; sheet run: assertion results, `sheet-run-buffer' (elisp/sheet-run.el)

(declare-function helm "ext:helm")
(declare-function helm-make-source "ext:helm-source")
(declare-function json-mode "ext:json-mode")

;;; Customization

(defgroup sheet nil
  "Run HTTP requests written in a plain-text sheet."
  :group 'comm
  :prefix "sheet-"
  :link '(url-link :tag "Manual" "https://github.com/sheet-rest/sheet-rest"))

(defgroup sheet-faces nil
  "Faces used by `sheet-mode'."
  :group 'sheet
  :group 'faces
  :prefix "sheet-")

(defconst sheet--elisp-directory
  (file-name-directory (or load-file-name buffer-file-name default-directory))
  "Directory this file was loaded from; the checkout's elisp directory.")

(defun sheet--default-engine-command ()
  "Return the command line of the engine built in this checkout."
  (list "node"
        (expand-file-name "../engine/dist/engine.cjs" sheet--elisp-directory)
        "--stdio"))

(defcustom sheet-engine-command (sheet--default-engine-command)
  "Program and arguments that start the engine, speaking JSON-RPC on stdio.
The default runs the bundle built by `make build' in the checkout
this file belongs to: node ../engine/dist/engine.cjs --stdio."
  :type '(repeat (string :tag "Argument"))
  :group 'sheet)

(defcustom sheet-log-request t
  "When non-nil, each request is logged to the *Messages* buffer."
  :type 'boolean
  :group 'sheet)

(defcustom sheet-same-buffer-response t
  "When non-nil, one buffer is reused for every response.
Its name is `sheet-buffer-response-name'.  When nil, each response
gets its own buffer named *HTTP <METHOD> <URL>*, with <2>, <3>
appended for repeated calls."
  :type 'boolean
  :group 'sheet)

(defcustom sheet-buffer-response-name "*HTTP Response*"
  "Name of the response buffer when `sheet-same-buffer-response' is non-nil."
  :type 'string
  :group 'sheet)

(defcustom sheet-inhibit-cookies nil
  "When non-nil, cookies from the engine's cookie jar are not sent implicitly."
  :type 'boolean
  :group 'sheet)

(defcustom sheet-response-size-threshold 100000
  "Response size, in characters, above which only the bare major mode is used.
Above the threshold the response's major mode runs without its
hooks (function `delay-mode-hooks'); above ten times the threshold the
buffer stays in `fundamental-mode'.  nil disables the threshold."
  :type '(choice (const :tag "No threshold" nil)
                 (natnum :tag "Characters"))
  :group 'sheet)

(defcustom sheet-cookie-jar-file nil
  "File that keeps the engine's cookies, in the Netscape format curl uses.
nil keeps them in the engine's memory for its session.  The same
file works with curl (-b/-c) and with the shell verbs."
  :type '(choice (const :tag "In memory" nil) (file :tag "Cookie file"))
  :group 'sheet)

(defcustom sheet-timeout nil
  "Seconds to wait for a complete response; nil waits without limit."
  :type '(choice (const :tag "No limit" nil) (number :tag "Seconds"))
  :group 'sheet)

(defcustom sheet-follow-redirects t
  "When non-nil, redirects are followed; when nil, the redirect response is shown."
  :type 'boolean
  :group 'sheet)

(defcustom sheet-vars-max-passes 10
  "Maximum number of substitution passes for variables."
  :type 'natnum
  :group 'sheet)

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
                :value-type (function :tag "Major mode"))
  :group 'sheet)

(defcustom sheet-use-helm t
  "When non-nil, \\[sheet-helm] uses helm when it is installed.
When nil, or when helm is not installed, it jumps with `completing-read'."
  :type 'boolean
  :group 'sheet)

(defcustom sheet-events-buffer-size 0
  "Size limit of jsonrpc.el's own full log of engine traffic; 0 turns it off.
jsonrpc.el pretty-prints every message it logs, which takes
seconds for a response of several megabytes, so it is off by
default; `sheet-mode' always writes a one-line summary of each
message to the events buffer (`sheet-engine-events').  nil means
no limit.  Takes effect when the engine next starts."
  :type '(choice (const :tag "No limit" nil) (natnum :tag "Characters"))
  :group 'sheet)

(defcustom sheet-request-timeout 10
  "Seconds to wait for the engine's answer to a quick look-up.
Used for the outline, variables and curl look-ups; sending a
request has no timeout (cancel it with \\[sheet-cancel])."
  :type 'number
  :group 'sheet)

(defcustom sheet-mode-hook '(sheet-outline-mode)
  "Hook run when entering `sheet-mode'.
`sheet-outline-mode' is on it by default; remove it to free TAB."
  :type 'hook
  :options '(sheet-outline-mode)
  :group 'sheet)

(defcustom sheet-response-received-hook nil
  "Hook run in the response buffer right after the response data is inserted."
  :type 'hook
  :group 'sheet)

(defcustom sheet-response-loaded-hook nil
  "Hook run in the response buffer after it has been formatted."
  :type 'hook
  :group 'sheet)

;;; Faces

(defface sheet-method '((t :inherit font-lock-keyword-face))
  "Face for the method of a request line."
  :group 'sheet-faces)

(defface sheet-url '((t :inherit font-lock-function-name-face))
  "Face for the URL of a request line."
  :group 'sheet-faces)

(defface sheet-header-name '((t :inherit font-lock-variable-name-face))
  "Face for header names."
  :group 'sheet-faces)

(defface sheet-header-value '((t :inherit font-lock-string-face))
  "Face for header values."
  :group 'sheet-faces)

(defface sheet-variable-name '((t :inherit font-lock-preprocessor-face))
  "Face for the names of variable declarations."
  :group 'sheet-faces)

(defface sheet-variable-string-value '((t :inherit font-lock-string-face))
  "Face for the value of a literal variable (`:name = value')."
  :group 'sheet-faces)

(defface sheet-variable-elisp-value '((t :inherit font-lock-constant-face))
  "Face for the Lisp form of a Lisp variable (`:name := form')."
  :group 'sheet-faces)

(defface sheet-variable-multiline-value '((t :inherit font-lock-doc-face))
  "Face for the lines of a multi-line variable (`:name = <<')."
  :group 'sheet-faces)

(defface sheet-hook '((t :inherit font-lock-builtin-face))
  "Face for hook lines (`-> jq-set-var', `-> run-hook')."
  :group 'sheet-faces)

(defface sheet-file-body '((t :inherit font-lock-type-face))
  "Face for a file body line (`< path')."
  :group 'sheet-faces)

;;; Engine connection

(defvar sheet--connection nil
  "The running engine connection, or nil.  One per Emacs.")

(defvar sheet--contexts (make-hash-table)
  "Sheet buffers of the requests in flight, by the request's context (a number).
The engine echoes a request's context in each `lisp/eval' it sends
while serving it, so a `:=' form is evaluated in the buffer that
sent that request, even when several requests are in flight.")

(defvar sheet--last-context 0
  "The last context number given to a request.")

(defvar sheet--process nil
  "The engine's process, or nil.")

(defvar sheet--in-flight nil
  "Ids of the `sheet/send' requests waiting for an answer.")

(defconst sheet--name "sheet-engine"
  "Name of the engine connection; its buffers are named after it.")

(defclass sheet-engine-connection (jsonrpc-process-connection)
  ((last-id :initform nil :accessor sheet--engine-connection-last-id
            :documentation "Id of the last request sent."))
  :documentation "The connection to the sheet engine.")

(cl-defmethod jsonrpc-connection-send :before
  ((conn sheet-engine-connection) &rest args &key id method &allow-other-keys)
  "Remember the id of requests sent on CONN and log a summary of ARGS.
ID and METHOD are those of the message."
  (when (and id method)
    (setf (sheet--engine-connection-last-id conn) id))
  (sheet--log-event conn "client" args))

(defun sheet--summary (object)
  "A one-line rendering of OBJECT, with long strings cut short."
  (let ((print-length 12) (print-level 4))
    (replace-regexp-in-string
     "\n" "\\\\n"
     (prin1-to-string (sheet--shorten object)))))

(defun sheet--shorten (object)
  "OBJECT with strings longer than 200 characters cut short."
  (cond ((and (stringp object) (> (length object) 200))
         (format "%s...[%d chars]" (substring object 0 200) (length object)))
        ((consp object) (cons (sheet--shorten (car object))
                              (sheet--shorten (cdr object))))
        ((and (vectorp object) (< (length object) 50)) (vconcat (mapcar #'sheet--shorten object)))
        ((vectorp object) (format "[%d elements]" (length object)))
        (t object)))

(defun sheet--log-event (conn who message)
  "Write a summary of MESSAGE from WHO to CONN's events buffer."
  (let ((buf (jsonrpc-events-buffer conn)))
    (with-current-buffer buf
      (let ((inhibit-read-only t))
        (save-excursion
          (goto-char (point-max))
          (insert (format "[%s] %s %s\n" who (format-time-string "%T.%3N")
                          (sheet--summary message))))
        (when (> (buffer-size) 200000)
          (delete-region (point-min) (- (point-max) 100000)))))))

(defun sheet-engine-events ()
  "Show the buffer that logs the traffic with the engine."
  (interactive)
  (if sheet--connection
      (display-buffer (jsonrpc-events-buffer sheet--connection))
    (user-error "The sheet engine is not running")))

(defun sheet--engine-missing-file ()
  "The first file in `sheet-engine-command' that should exist but does not."
  (cl-find-if (lambda (arg)
                (and (string-match-p "\\.[cm]?js\\'" arg)
                     (not (file-exists-p arg))))
              (cdr sheet-engine-command)))

(defun sheet--build-hint ()
  "How to build the engine."
  (format "run `make build' in %s"
          (abbreviate-file-name
           (expand-file-name ".." sheet--elisp-directory))))

(defvar sheet--jar-file nil
  "The cookie jar file the running engine was last configured with.")

(defun sheet--jar-setting ()
  "`sheet-cookie-jar-file', expanded, or nil."
  (and sheet-cookie-jar-file (expand-file-name sheet-cookie-jar-file)))

(defun sheet--settings ()
  "The engine settings from the current buffer's values of the options."
  (list :maxPasses sheet-vars-max-passes
        :threshold sheet-response-size-threshold
        :inhibitCookies (if sheet-inhibit-cookies t :json-false)
        :timeoutMs (if sheet-timeout (max 1 (round (* 1000 sheet-timeout))) 0)
        :followRedirects (if sheet-follow-redirects t :json-false)
        :cookieJarFile (sheet--jar-setting)))

(defun sheet--initialize-params ()
  "The parameters of the `initialize' request."
  (list :clientName "sheet-mode"
        :clientVersion "0.1.0"
        :lisp t
        :settings (sheet--settings)))

(defun sheet--sync-jar (conn)
  "Tell the engine on CONN when `sheet-cookie-jar-file' changed.
`settings/set' answers once the engine has loaded the new jar, so
the request that follows uses it."
  (let ((file (sheet--jar-setting)))
    (unless (equal file sheet--jar-file)
      (condition-case err
          (progn
            (jsonrpc-request conn 'settings/set (list :cookieJarFile file)
                             :timeout sheet-request-timeout)
            (setq sheet--jar-file file))
        (jsonrpc-error
         (user-error "Sheet-mode: cannot use the cookie file %s: %s"
                     file (sheet--error-text err)))))))

(defun sheet--start-engine ()
  "Start the engine and initialize it; return the connection."
  (let ((missing (sheet--engine-missing-file))
        (program (car sheet-engine-command)))
    (cond
     ((null sheet-engine-command)
      (user-error "Sheet-mode: `sheet-engine-command' is empty; %s" (sheet--build-hint)))
     (missing
      (user-error "Sheet-mode: the engine is not built (%s is missing); %s"
                  missing (sheet--build-hint)))
     ((not (executable-find program))
      (user-error "Sheet-mode: cannot start the engine: `%s' not found (command: %s); install Node 20 and %s"
                  program (string-join sheet-engine-command " ") (sheet--build-hint)))))
  (let* ((default-directory (expand-file-name "~/"))
         (conn
          (make-instance
           'sheet-engine-connection
           :name sheet--name
           :events-buffer-scrollback-size sheet-events-buffer-size
           :request-dispatcher #'sheet--handle-request
           :notification-dispatcher #'ignore
           :on-shutdown #'sheet--on-shutdown
           :process
           (lambda ()
             (setq sheet--process
                   ;; Adaptive read buffering delays reading a process whose reads come
                   ;; back short, which adds up to tens of ms per response; it is read
                   ;; when the process is created, so binding it affects this one only.
                   (let ((process-adaptive-read-buffering nil))
                     (make-process
                      :name sheet--name
                      :command sheet-engine-command
                      :connection-type 'pipe
                      :coding 'utf-8-emacs-unix
                      :noquery t
                      :stderr (get-buffer-create (format "*%s stderr*" sheet--name)))))))))
    (condition-case err
        (jsonrpc-request conn 'initialize (sheet--initialize-params) :timeout 20)
      (:success (setq sheet--jar-file (sheet--jar-setting)))
      (error
       (ignore-errors (jsonrpc-shutdown conn))
       (user-error "Sheet-mode: the engine did not start (%s): %s; %s"
                   (string-join sheet-engine-command " ")
                   (sheet--error-text err) (sheet--build-hint))))
    (let ((stderr (get-buffer (format " *%s stderr*" sheet--name))))
      (when-let ((proc (and stderr (get-buffer-process stderr))))
        (set-process-query-on-exit-flag proc nil)))
    conn))

(defun sheet--engine ()
  "The engine connection, started on first use."
  (unless (and sheet--connection (jsonrpc-running-p sheet--connection))
    (setq sheet--connection nil
          sheet--in-flight nil)
    (clrhash sheet--contexts)
    (setq sheet--connection (sheet--start-engine)))
  sheet--connection)

(defun sheet--on-shutdown (conn)
  "Forget CONN once its process has exited."
  (when (eq conn sheet--connection)
    (setq sheet--connection nil
          sheet--in-flight nil)))

(defun sheet-engine-shutdown ()
  "Stop the engine; the next command that needs it will start a new one."
  (interactive)
  (let ((conn sheet--connection))
    (setq sheet--connection nil
          sheet--in-flight nil)
    (when (and conn (jsonrpc-running-p conn))
      (ignore-errors (jsonrpc-request conn 'shutdown nil :timeout 2))
      (ignore-errors (jsonrpc-notify conn 'exit nil))
      ;; Let the engine exit by itself before jsonrpc.el deletes the process.
      (with-timeout (1 nil)
        (while (jsonrpc-running-p conn)
          (accept-process-output nil 0.02)))
      (jsonrpc-shutdown conn))
    (when (called-interactively-p 'interactive)
      (message "Sheet engine stopped"))))

(defun sheet-engine-process ()
  "The engine's process, or nil when it is not running."
  (and sheet--connection (jsonrpc-running-p sheet--connection)
       (process-live-p sheet--process)
       sheet--process))

(defun sheet-engine-restart ()
  "Stop the engine and start a new one."
  (interactive)
  (sheet-engine-shutdown)
  (sheet--engine)
  (when (called-interactively-p 'interactive)
    (message "Sheet engine restarted")))

(defun sheet--handle-request (conn method params)
  "Answer the request METHOD with PARAMS that the engine sent on CONN."
  (sheet--log-event conn "engine-request" (list :method method :params params))
  (pcase method
    ('lisp/eval (sheet--lisp-eval params))
    (_ (jsonrpc-error :code -32601 :message (format "method not found: %s" method)))))

(defun sheet--new-context (buffer)
  "Return a new context for a request sent from BUFFER.
The context is remembered until `sheet--end-context'."
  (let ((context (setq sheet--last-context (1+ sheet--last-context))))
    (puthash context buffer sheet--contexts)
    context))

(defun sheet--end-context (context)
  "Forget CONTEXT: its request is answered."
  (remhash context sheet--contexts))

(defun sheet--lisp-eval (params)
  "Evaluate the `:=' form in PARAMS; answer (:value STRING).
The form is evaluated in the sheet buffer of the request named by
the context in PARAMS (the current buffer when there is none)."
  (let* ((form (plist-get params :form))
         (name (plist-get params :name))
         (context (plist-get params :context))
         (buf (if context (gethash context sheet--contexts) (current-buffer))))
    (condition-case err
        (progn
          (unless (buffer-live-p buf)
            (error "The sheet buffer of this request was killed"))
          (let ((value (with-current-buffer buf
                         (eval (car (read-from-string form)) t))))
            (list :value (if (stringp value) value (format "%s" value)))))
      (error
       (let ((msg (error-message-string err)))
         (message "Sheet-mode: error in Lisp variable %s: %s" name msg)
         (jsonrpc-error :code -32000 :message msg))))))

(defun sheet--error-text (err)
  "A readable message for ERR, a Lisp error or a JSON-RPC error plist."
  (cond
   ((and (consp err) (eq (car err) 'jsonrpc-error))
    (let ((msg (alist-get 'jsonrpc-error-message (cdr err)))
          (data (alist-get 'jsonrpc-error-data (cdr err))))
      (sheet--error-text (list :message (or msg (cadr err)) :data data))))
   ((and (consp err) (keywordp (car err)))
    (let* ((msg (plist-get err :message))
           (data (plist-get err :data))
           (hint (and (listp data) (plist-get data :hint))))
      (if (and (stringp hint) (not (string-empty-p hint)))
          (format "%s (%s)" msg hint)
        (format "%s" msg))))
   (t (error-message-string err))))

(defun sheet--error-code (err)
  "The engine's error code (a string) in the JSON-RPC error ERR, or nil."
  (let ((data (cond ((and (consp err) (keywordp (car err))) (plist-get err :data))
                    ((consp err) (alist-get 'jsonrpc-error-data (cdr err))))))
    (and (listp data) (plist-get data :code))))

(defun sheet--text ()
  "The whole text of the current buffer, ignoring narrowing."
  (save-restriction
    (widen)
    (buffer-substring-no-properties (point-min) (point-max))))

(defun sheet--line ()
  "The 1-based line of point, ignoring narrowing."
  (line-number-at-pos nil t))

(defun sheet--request (method params &optional lisp)
  "Ask the engine METHOD with PARAMS and wait; signal a `user-error' on failure.
LISP non-nil: the engine may ask for the values of the current
buffer's `:=' forms while serving it (a context is added to PARAMS)."
  (let* ((conn (sheet--engine))
         (context (and lisp (sheet--new-context (current-buffer)))))
    (unwind-protect
        (condition-case err
            (jsonrpc-request conn method
                             (if context (append params (list :context context)) params)
                             :timeout sheet-request-timeout)
          (jsonrpc-error
           (user-error "Sheet-mode: %s" (sheet--error-text err))))
      (when context (sheet--end-context context)))))

(defun sheet--location-params ()
  "The text, line and file of the current buffer, as the engine wants them."
  (append (list :text (sheet--text) :line (sheet--line))
          (and buffer-file-name (list :path buffer-file-name))
          (list :settings (sheet--settings))))

;;;###autoload
(defun sheet-set-var (name value)
  "Set the variable NAME (a string such as \":token\") to VALUE for later requests.
The value overrides the sheet's declarations for this engine
session.  VALUE is turned into a string with `format' when it is
not one.  Usable from `-> run-hook' forms and from user code."
  (unless (and (stringp name) (string-prefix-p ":" name))
    (user-error "Sheet-mode: variable names start with a colon, e.g. \":token\": %S" name))
  (let ((conn (sheet--engine)))
    (jsonrpc-async-request
     conn 'sheet/setVar
     (list :name name :value (if (stringp value) value (format "%s" value)))
     :success-fn #'ignore
     :error-fn (lambda (err)
                 (message "Sheet-mode: setting %s failed: %s" name (sheet--error-text err)))
     :timeout-fn #'ignore))
  value)

;;; Outline (asked of the engine)

(defvar-local sheet--outline-cache nil
  "(TICK . OUTLINE): the engine's outline of this buffer at modification TICK.")

(defun sheet--outline ()
  "The engine's outline of the current buffer: (:requests [...] :variables [...])."
  (let ((tick (buffer-chars-modified-tick)))
    (if (eql (car sheet--outline-cache) tick)
        (cdr sheet--outline-cache)
      (let ((outline (sheet--request 'sheet/outline (list :text (sheet--text)))))
        (setq sheet--outline-cache (cons tick outline))
        outline))))

(defun sheet--requests ()
  "The requests of the current buffer, a list of plists (:method :url :line ...)."
  (append (plist-get (sheet--outline) :requests) nil))

(defun sheet--variables ()
  "The variable declarations of the current buffer, a list of plists."
  (append (plist-get (sheet--outline) :variables) nil))

(defun sheet--line-position (line)
  "Position of the beginning of 1-based LINE, ignoring narrowing."
  (save-restriction
    (widen)
    (save-excursion
      (goto-char (point-min))
      (forward-line (1- line))
      (point))))

(defun sheet--line-end-position (line)
  "Position of the end of 1-based LINE, ignoring narrowing."
  (save-restriction
    (widen)
    (save-excursion
      (goto-char (point-min))
      (forward-line (1- line))
      (line-end-position))))

(defun sheet--request-at (&optional line)
  "The outline entry of the request at LINE (default: point's line), or nil."
  (let ((line (or line (sheet--line))))
    (cl-find-if (lambda (r) (<= (plist-get r :startLine) line (plist-get r :endLine)))
                (sheet--requests))))

(defun sheet--current-request ()
  "The request at point, or a `user-error'."
  (or (sheet--request-at)
      (user-error "Sheet-mode: no request at line %d" (sheet--line))))

(defun sheet--request-bounds (request)
  "Return (START . END) of REQUEST: its request line to its last line's end."
  (cons (sheet--line-position (plist-get request :line))
        (sheet--line-end-position (plist-get request :endLine))))

;;; Commands

(defun sheet-jump-next ()
  "Move point to the next request line."
  (interactive)
  (let* ((line (sheet--line))
         (next (cl-find-if (lambda (r) (> (plist-get r :line) line)) (sheet--requests))))
    (if next
        (goto-char (sheet--line-position (plist-get next :line)))
      (message "No next request"))))

(defun sheet-jump-prev ()
  "Move point to the previous request line."
  (interactive)
  (let* ((line (sheet--line))
         (here (sheet--request-at line))
         (limit (if here (plist-get here :line) line))
         (prev (cl-find-if (lambda (r) (< (plist-get r :line) limit))
                           (reverse (sheet--requests)))))
    (if prev
        (goto-char (sheet--line-position (plist-get prev :line)))
      (message "No previous request"))))

(defun sheet-mark-current ()
  "Mark the request at point: from its request line to the end of its body."
  (interactive)
  (let ((bounds (sheet--request-bounds (sheet--current-request))))
    (goto-char (car bounds))
    (push-mark (cdr bounds) nil t)))

(defun sheet-narrow-to-current ()
  "Narrow to the request at point, headers and body included."
  (interactive)
  (let ((bounds (sheet--request-bounds (sheet--current-request))))
    (narrow-to-region (car bounds) (cdr bounds))))

(defun sheet-copy-curl-command ()
  "Copy the request at point, as a curl command line, to the kill ring."
  (interactive)
  (let* ((result (sheet--request 'sheet/curl (sheet--location-params) t))
         (command (plist-get result :command)))
    (kill-new command)
    (message "curl command copied: %s" command)
    command))

(defun sheet-show-info ()
  "Show the overrides, the variables at point and the hook types."
  (interactive)
  (let* ((result (sheet--request 'sheet/variables (sheet--location-params) t))
         (buf (get-buffer-create "*Sheet Info*")))
    (with-current-buffer buf
      (let ((inhibit-read-only t))
        (erase-buffer)
        (insert (propertize "Dynamic variables (overrides)\n" 'face 'bold))
        (let ((overrides (append (plist-get result :overrides) nil)))
          (if overrides
              (dolist (o overrides)
                (insert (format "  %s = %s\n" (plist-get o :name) (plist-get o :value))))
            (insert "  (none)\n")))
        (insert (propertize "\nVariables at point\n" 'face 'bold))
        (let ((vars (append (plist-get result :variables) nil)))
          (if vars
              (dolist (v vars)
                (insert (format "  %s %s %s  (line %d)\n"
                                (plist-get v :name)
                                (if (equal (plist-get v :kind) "lisp") ":=" "=")
                                (string-trim-right (plist-get v :raw))
                                (plist-get v :line)))
                (insert (if (plist-get v :error)
                            (format "      error: %s\n" (plist-get v :error))
                          (format "      value: %s\n" (plist-get v :value)))))
            (insert "  (none)\n")))
        (insert (propertize "\nHook types\n" 'face 'bold))
        (dolist (h (append (plist-get result :hookTypes) nil))
          (insert (format "  -> %s %s\n      %s\n"
                          (plist-get h :name) (plist-get h :args) (plist-get h :doc))))
        (goto-char (point-min))
        (special-mode)))
    (display-buffer buf)
    buf))

(defun sheet--jump-candidates ()
  "Completion candidates for the requests and variables: (LABEL . LINE)."
  (append
   (mapcar (lambda (r)
             (cons (format "%s %s  (line %d)" (plist-get r :method) (plist-get r :url)
                           (plist-get r :line))
                   (plist-get r :line)))
           (sheet--requests))
   (mapcar (lambda (v)
             (cons (format "%s %s %s  (line %d)" (plist-get v :name)
                           (if (equal (plist-get v :kind) "lisp") ":=" "=")
                           (car (split-string (plist-get v :value) "\n"))
                           (plist-get v :line))
                   (plist-get v :line)))
           (sheet--variables))))

(defun sheet--goto-line (line)
  "Move point to the beginning of 1-based LINE, widening if it is outside."
  (let ((pos (sheet--line-position line)))
    (when (or (< pos (point-min)) (> pos (point-max))) (widen))
    (goto-char pos)))

(defun sheet--helm-sources ()
  "The helm sources for \\[sheet-helm]: variables and requests."
  (let ((buf (current-buffer))
        (requests (mapcar (lambda (r)
                            (cons (format "%s %s" (plist-get r :method) (plist-get r :url))
                                  (plist-get r :line)))
                          (sheet--requests)))
        (variables (mapcar (lambda (v)
                             (cons (format "%s %s %s" (plist-get v :name)
                                           (if (equal (plist-get v :kind) "lisp") ":=" "=")
                                           (car (split-string (plist-get v :value) "\n")))
                                   (plist-get v :line)))
                           (sheet--variables))))
    (list (helm-make-source "Variables" 'helm-source-sync
                            :candidates variables
                            :action (lambda (line) (with-current-buffer buf (sheet--goto-line line))))
          (helm-make-source "Requests" 'helm-source-sync
                            :candidates requests
                            :action (lambda (line) (with-current-buffer buf (sheet--goto-line line)))))))

(defun sheet-helm ()
  "Jump to a request or variable: with helm when installed, else `completing-read'."
  (interactive)
  (if (and sheet-use-helm (require 'helm nil t))
      (helm :sources (sheet--helm-sources) :buffer "*helm sheet*")
    (let* ((candidates (sheet--jump-candidates))
           (choice (completing-read "Jump to request or variable: " candidates nil t)))
      (when-let ((line (cdr (assoc choice candidates))))
        (sheet--goto-line line)))))

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
  "Minor mode of response buffers: \\<sheet-response-mode-map>\\[quit-window] quits the window."
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
  "The major mode for PRESENTATION, from its content type or the engine's hint."
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
  "Insert FILE, text the engine wrote in UTF-8, at point; leave point after it."
  (let ((coding-system-for-read 'utf-8-unix)
        (file-name-handler-alist nil))
    (goto-char (+ (point) (cadr (insert-file-contents file))))))

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
                          (base64-decode-string (or (plist-get presentation :base64) "")))))
             (cond
              (raw (insert (decode-coding-string bytes 'raw-text)))
              ((and (equal kind "image") (display-images-p)
                    (image-type-from-data bytes))
               (insert-image (create-image bytes nil t) "[image]")
               (insert "\n"))
              ((equal kind "image")
               (insert (format "[image %s, %d bytes: this Emacs cannot display images]\n"
                               type (length bytes))))
              (t
               (insert (format "[binary body %s, %d bytes, not shown; C-c C-r shows it raw]\n"
                               (if (string-empty-p type) "(no content type)" type)
                               (length bytes))))))))
      (sheet--delete-body-file presentation))))

(defun sheet--trailer-lines (result)
  "The lines restclient.el puts under the body, from the engine's RESULT."
  (let* ((request (plist-get result :request))
         (response (plist-get result :response)))
    (append
     (list (format "%s %s" (plist-get request :method) (plist-get request :url)))
     (mapcar (lambda (r) (format "Redirect: %s %s -> %s"
                                 (plist-get r :status) (plist-get r :url) (plist-get r :location)))
             (plist-get result :redirects))
     (list (string-trim-right
            (format "HTTP/%s %s %s" (plist-get response :httpVersion)
                    (plist-get response :status) (or (plist-get response :statusText) ""))))
     (mapcar (lambda (h) (format "%s: %s" (aref h 0) (aref h 1)))
             (plist-get response :headers))
     (sheet-run-assertion-lines result)
     (list (format "Request duration: %fs" (/ (plist-get result :durationMs) 1000.0))))))

(defun sheet--status-line (result)
  "The status line of RESULT's response."
  (let ((response (plist-get result :response)))
    (string-trim-right
     (format "HTTP/%s %s %s" (plist-get response :httpVersion)
             (plist-get response :status) (or (plist-get response :statusText) "")))))

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
    (let ((start (point)))
      (insert (mapconcat #'identity (sheet--trailer-lines result) "\n") "\n")
      (unless comment-start
        (setq-local comment-start "# "))
      (let ((comment-style 'plain))
        (comment-region start (point))))
    (goto-char (point-min))))

(defun sheet--fill-raw (result)
  "Fill the current buffer with RESULT raw: status line, headers, empty line, body."
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
      (error (message "Sheet-mode: error in run-hook %s: %s" form (error-message-string err))))))

(defun sheet--log (result)
  "Log the request and response of RESULT to *Messages*."
  (let* ((request (plist-get result :request))
         (body (plist-get request :body))
         (text (and body (plist-get body :data))))
    (message "HTTP %s %s Headers:[%s] Body:[%s] -> %s (%.0f ms)"
             (plist-get request :method) (plist-get request :url)
             (mapconcat (lambda (h) (format "%s: %s" (aref h 0) (aref h 1)))
                        (plist-get request :headers) ", ")
             (if (and text (> (length text) 200)) (concat (substring text 0 200) "...") (or text ""))
             (sheet--status-line result) (plist-get result :durationMs))))

(defun sheet--handle-response (result raw display sheet-buffer)
  "Show the engine's RESULT for a send from SHEET-BUFFER.
RAW: show it untouched.  DISPLAY is `select', `stay' or nil."
  (let* ((request (plist-get result :request))
         (hooks (plist-get result :hooks))
         (settings-buffer (if (buffer-live-p sheet-buffer) sheet-buffer (current-buffer)))
         (log (buffer-local-value 'sheet-log-request settings-buffer))
         (threshold (buffer-local-value 'sheet-response-size-threshold settings-buffer))
         (buf (with-current-buffer settings-buffer
                (sheet--response-buffer (plist-get request :method) (plist-get request :url)))))
    (when log (sheet--log result))
    (with-current-buffer buf
      (if raw
          (sheet--fill-raw result)
        (sheet--insert-body (plist-get result :presentation) nil))
      (setq sheet--response-info result)
      (run-hooks 'sheet-response-received-hook)
      (let ((sheet-response-size-threshold threshold))
        (if raw
            (progn (fundamental-mode) (goto-char (point-min)))
          (sheet--format-response result)))
      (setq sheet--response-info result)
      (sheet-response-mode 1)
      (buffer-enable-undo)
      (set-buffer-modified-p nil)
      (run-hooks 'sheet-response-loaded-hook)
      (sheet--run-hook-forms (plist-get hooks :runHooks)))
    (seq-doseq (w (plist-get hooks :warnings))
      (message "Sheet-mode: %s" (plist-get w :message)))
    (sheet-run-report-assertions hooks)
    (pcase display
      ('select (pop-to-buffer buf))
      ('stay (display-buffer buf t)))
    buf))

(defun sheet--report-send-error (err line)
  "Report the error ERR of the send of the request at LINE."
  (let ((code (sheet--error-code err)))
    (message "Sheet-mode: %s"
             (cond
              ((equal code "cancelled") (format "request cancelled: %s" (sheet--error-text err)))
              ((eql (plist-get err :code) -1)
               (format "the engine died (%s) while sending the request at line %d; the next command starts a new one"
                       (plist-get err :message) line))
              (t (sheet--error-text err))))))

(defun sheet--send (raw display)
  "Send the request at point; show the response raw if RAW.
DISPLAY is `select' (show and select the response window), `stay'
\(show it, keep focus) or nil (fill the buffer only)."
  (let* ((conn (sheet--engine))
         (_ (sheet--sync-jar conn))
         (sheet-buffer (current-buffer))
         (line (sheet--line))
         (context (sheet--new-context sheet-buffer))
         (params (append (sheet--location-params)
                         (list :raw (if raw t :json-false) :context context)
                         (and sheet--body-file-min
                              (list :bodyFileMin sheet--body-file-min))))
         (id nil))
    (jsonrpc-async-request
     conn 'sheet/send params
     :timeout nil
     :success-fn
     (lambda (result)
       (setq sheet--in-flight (delq id sheet--in-flight))
       (sheet--end-context context)
       (unwind-protect
           (progn
             (sheet--log-event conn "engine-reply" (list :id id :result result))
             (condition-case-unless-debug err
                 (sheet--handle-response result raw display sheet-buffer)
               (error (message "Sheet-mode: showing the response failed: %s"
                               (error-message-string err)))))
         ;; Normally deleted as soon as it is read; this covers every other way out.
         (sheet--delete-body-file (plist-get result :presentation))))
     :error-fn
     (lambda (err)
       (setq sheet--in-flight (delq id sheet--in-flight))
       (sheet--end-context context)
       (sheet--log-event conn "engine-reply" (list :id id :error err))
       (sheet--report-send-error err line)))
    (setq id (sheet--engine-connection-last-id conn))
    (push id sheet--in-flight)
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
  "Cancel the requests in flight."
  (interactive)
  (if (not (and sheet--connection sheet--in-flight))
      (message "No request in flight")
    (dolist (id sheet--in-flight)
      (jsonrpc-notify sheet--connection '$/cancelRequest (list :id id)))
    (message "Cancelling %d request%s" (length sheet--in-flight)
             (if (cdr sheet--in-flight) "s" ""))))

;;; Outline minor mode

(defun sheet--hidden-overlay (pos)
  "The hiding overlay of `sheet-outline-mode' at POS, or nil."
  (cl-find-if (lambda (o) (overlay-get o 'sheet-hidden)) (overlays-at pos)))

(defun sheet-toggle-body-visibility ()
  "On a request line, hide or show the rest of the request; return t if done."
  (let* ((line (sheet--line))
         (request (cl-find-if (lambda (r) (= (plist-get r :line) line)) (sheet--requests))))
    (when request
      (let* ((start (sheet--line-end-position line))
             (end (sheet--line-end-position (plist-get request :endLine)))
             (existing (and (< start end) (sheet--hidden-overlay (1+ start)))))
        (cond
         (existing (delete-overlay existing))
         ((< start end)
          (let ((o (make-overlay start end nil t nil)))
            (overlay-put o 'sheet-hidden t)
            (overlay-put o 'invisible 'sheet-outline)
            (overlay-put o 'isearch-open-invisible #'delete-overlay)
            (overlay-put o 'evaporate t))))
        t))))

(defun sheet-toggle-body-visibility-or-indent ()
  "On a request line, hide or show its body; elsewhere indent as usual."
  (interactive)
  (unless (sheet-toggle-body-visibility)
    (indent-for-tab-command)))

(defun sheet-show-all ()
  "Show every region hidden by `sheet-outline-mode'."
  (interactive)
  (save-restriction
    (widen)
    (dolist (o (overlays-in (point-min) (point-max)))
      (when (overlay-get o 'sheet-hidden) (delete-overlay o)))))

(defvar sheet-outline-mode-map
  (let ((map (make-sparse-keymap)))
    (define-key map (kbd "TAB") #'sheet-toggle-body-visibility-or-indent)
    (define-key map (kbd "C-c C-a") #'sheet-show-all)
    map)
  "Keymap of `sheet-outline-mode'.")

(define-minor-mode sheet-outline-mode
  "Hide and show request bodies with TAB on the request line.
\\<sheet-outline-mode-map>\\[sheet-toggle-body-visibility-or-indent] on a \
request line hides or shows everything under it;
\\[sheet-show-all] shows every hidden region.  Elsewhere TAB indents.

This mode is on `sheet-mode-hook' by default; remove it from the
hook to free TAB."
  :lighter nil
  :keymap sheet-outline-mode-map
  :group 'sheet
  (if sheet-outline-mode
      (add-to-invisibility-spec '(sheet-outline . t))
    (sheet-show-all)
    (remove-from-invisibility-spec '(sheet-outline . t))))

;;; Font lock

(defconst sheet--method-regexp
  (regexp-opt '("GET" "POST" "PUT" "DELETE" "PATCH" "HEAD" "OPTIONS" "TRACE"))
  "Request methods, for display only.")

(defun sheet--match-multiline-value (limit)
  "Font-lock matcher: the value lines of a multi-line variable before LIMIT."
  (when (re-search-forward "^:[^:= \t\n]+[ \t]*:?=[ \t]*<<[ \t]*$" limit t)
    (let ((start (min (1+ (match-end 0)) (point-max))))
      (let ((end (save-excursion
                   (goto-char start)
                   (if (re-search-forward "^#" nil t) (match-beginning 0) (point-max)))))
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
    (define-key map (kbd "C-c C-b") #'sheet-http-send-current-suppress-response-buffer)
    (define-key map (kbd "C-c C-n") #'sheet-jump-next)
    (define-key map (kbd "C-c C-p") #'sheet-jump-prev)
    (define-key map (kbd "C-c C-.") #'sheet-mark-current)
    (define-key map (kbd "C-c C-u") #'sheet-copy-curl-command)
    (define-key map (kbd "C-c C-g") #'sheet-helm)
    (define-key map (kbd "C-c n n") #'sheet-narrow-to-current)
    (define-key map (kbd "C-c C-i") #'sheet-show-info)
    (define-key map (kbd "C-c C-k") #'sheet-cancel)
    (define-key map (kbd "C-c C-t") #'sheet-run-buffer)
    map)
  "Keymap of `sheet-mode'.")

(easy-menu-define sheet-mode-menu sheet-mode-map
  "Menu of `sheet-mode'."
  '("Sheet"
    ["Send request" sheet-http-send-current]
    ["Send request, raw response" sheet-http-send-current-raw]
    ["Send request, stay in window" sheet-http-send-current-stay-in-window]
    ["Send request, don't show response" sheet-http-send-current-suppress-response-buffer]
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
    ["Variables and hooks" sheet-show-info]
    "--"
    ["Engine events" sheet-engine-events]
    ["Restart engine" sheet-engine-restart]
    ["Stop engine" sheet-engine-shutdown]
    ["Customize" (customize-group 'sheet)]))

(defvar sheet-mode-syntax-table
  (let ((table (make-syntax-table)))
    (modify-syntax-entry ?\" "." table)
    (modify-syntax-entry ?' "." table)
    table)
  "Syntax table of `sheet-mode'.
Comments are fontified by regexp, at line start only, so that a
`#' in a URL is not taken for a comment.")

;;;###autoload
(define-derived-mode sheet-mode fundamental-mode "Sheet"
  "Major mode for sheets of HTTP requests, restclient.el's syntax.

Put point on a request and press \\[sheet-http-send-current].

\\{sheet-mode-map}"
  :group 'sheet
  (setq-local comment-start "# ")
  (setq-local comment-start-skip "^#+[ \t]*")
  (setq-local comment-use-syntax nil)
  (setq-local font-lock-defaults '(sheet-font-lock-keywords t))
  (setq-local font-lock-multiline t))

;;;###autoload
(add-to-list 'auto-mode-alist '("\\.sheet\\'" . sheet-mode))

(provide 'sheet-mode)
;;; sheet-mode.el ends here
