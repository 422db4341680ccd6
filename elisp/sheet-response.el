;;; sheet-response.el --- Sheet response buffer  -*- lexical-binding: t; -*-

;; Copyright (C) 2026 The sheet-rest authors

;; Author: The sheet-rest authors
;; Maintainer: The sheet-rest authors
;; Version: 0.1.0
;; URL: https://github.com/sheet-rest/sheet-rest
;; Keywords: comm, tools

;; This file is not part of GNU Emacs.

;; Permission is hereby granted, free of charge, to any person
;; obtaining a copy of this software and associated documentation
;; files, to deal in the software without restriction, subject to the
;; MIT license terms shipped with sheet-rest (LICENSE).

;;; Commentary:

;; The response buffer the way restclient.el fills it: the buffer
;; (`sheet-same-buffer-response'), its major mode by content type
;; (bare above `sheet-response-size-threshold'), the body, then the
;; request, status line, headers, assertions, duration and warnings
;; as comment lines (the trailer), then a `.http' request's
;; `client.log' lines, or the raw layout (C-c C-r); the
;; hooks in order (`sheet-response-received-hook', then
;; `sheet-response-loaded-hook', then the sheet's `run-hook' forms);
;; `sheet-response-mode'.  The buffer is read-only while it is filled,
;; then editable as restclient.el's (q still quits), and a line longer
;; than `sheet-response-long-line-threshold' turns on
;; `so-long-minor-mode'.  Called by sheet-send.el with the engine's
;; answer to `sheet/send'.

;;; Code:

(require 'newcomment)
(require 'seq)
(require 'subr-x)
(require 'sheet-custom)
(require 'sheet-body)
(require 'sheet-run)          ; assertion lines and results
(require 'sheet-trailer)      ; the comment lines under the body

(declare-function json-mode "ext:json-mode")
(declare-function so-long-minor-mode "so-long")
(defvar so-long-minor-mode)
(defvar isearch-lax-whitespace)
(declare-function sheet--mask-secrets "sheet-prompt" (text))
(declare-function sheet-history-record "sheet-history" (key result raw))

(defvar-local sheet--last-warnings nil
  "In a sheet buffer: the warnings of its last response, a list of plists.
Each has :message, :code and :line, as the engine's `hooks.warnings'.")

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

(defvar sheet--stream-buffer nil
  "The buffer a stream was shown in while it arrived, or nil.
Its answer fills it again (sheet-stream.el), whatever
`sheet-same-buffer-response' says.")

(defun sheet--response-buffer (method url)
  "The buffer for the response to METHOD URL, emptied."
  (let ((buf (cond ((buffer-live-p sheet--stream-buffer) sheet--stream-buffer)
                   (sheet-same-buffer-response
                    (get-buffer-create sheet-buffer-response-name))
                   (t (generate-new-buffer
                       (format "*HTTP %s %s*" method url))))))
    (with-current-buffer buf
      (let ((inhibit-read-only t))
        ;; Its overrides are for the last response's long lines.
        (when (bound-and-true-p so-long-minor-mode) (so-long-minor-mode -1))
        (buffer-disable-undo)
        (erase-buffer)
        (remove-overlays)
        ;; A reused buffer starts afresh, as a new one would.
        (unless (eq major-mode 'fundamental-mode) (fundamental-mode))
        ;; Read-only from the start: only the mode fills it.
        (setq buffer-read-only t)))
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

(defun sheet--long-line (result)
  "The longest line of RESULT's response when it is too long, else nil.
Too long: over `sheet-response-long-line-threshold' characters.  The
body's longest line is the engine's count (`longestLine'); the other
lines are the trailer's (the raw layout's status and headers are
among them)."
  (let ((limit sheet-response-long-line-threshold))
    (when limit
      (let ((longest (or (plist-get (plist-get result :presentation)
                                    :longestLine)
                         0)))
        (dolist (line (append (sheet--trailer-lines result)
                              (sheet--log-lines result)))
          (dolist (l (split-string line "\n"))
            (setq longest (max longest (+ 3 (length l))))))
        (and (> longest limit) longest)))))

(defun sheet--protect-long-lines (long)
  "Turn on `so-long-minor-mode' in the current buffer when LONG is non-nil."
  (when long
    (require 'so-long)
    (so-long-minor-mode 1)))

(defun sheet--format-response (result)
  "Set the major mode of the current buffer for RESULT and add the trailer."
  (let* ((presentation (plist-get result :presentation))
         (mode (sheet--mode-for presentation))
         (size (buffer-size))
         (threshold sheet-response-size-threshold)
         (long (sheet--long-line result)))
    (cond
     ((and threshold (> size (* 10 threshold)))
      (fundamental-mode)
      ;; Lax whitespace makes every isearch a regexp search, which
      ;; crosses 80 MB in a quarter second; a string search takes 35 ms
      ;; (docs/benchmarks.md, "a 50 MB JSON response").  M-s SPC in
      ;; isearch turns it back on.
      (setq-local isearch-lax-whitespace nil))
     ((and threshold (> size threshold))
      (delay-mode-hooks (funcall mode)))
     (t (funcall mode)))
    (goto-char (point-max))
    (unless (or (bobp) (bolp)) (insert "\n"))
    (unless comment-start
      (setq-local comment-start "# "))
    (sheet--insert-comment-lines (sheet--trailer-lines result long))
    (sheet--insert-log-lines result)
    (sheet--protect-long-lines long)
    (goto-char (point-min))))

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

(defvar sheet--run-hook-errors nil
  "The errors of the `run-hook' forms of the response being shown.
Messages, newest first; `sheet--announce' shows them after the
request's log line, which would hide them, and clears them.")

(defun sheet--run-hook-forms (forms)
  "Evaluate the `run-hook' FORMS (strings) in the current buffer, in order."
  (seq-doseq (form forms)
    (condition-case err
        (eval (car (read-from-string form)) t)
      (error (push (message "Sheet-mode: error in run-hook %s: %s" form
                            (error-message-string err))
                   sheet--run-hook-errors)))))

(defun sheet--log (result)
  "Log the request and response of RESULT to *Messages*."
  (let* ((request (plist-get result :request))
         (body (plist-get request :body))
         (text (and body (plist-get body :data))))
    ;; A `# @prompt' secret stays out of *Messages*.
    (message "%s" (sheet--mask-secrets (format
     "HTTP %s %s Headers:[%s] Body:[%s] -> %s (%.0f ms)"
             (plist-get request :method) (plist-get request :url)
             (mapconcat (lambda (h) (format "%s: %s" (aref h 0) (aref h 1)))
                        (plist-get request :headers) ", ")
             (if (and text (> (length text) 200))
                 (concat (substring text 0 200) "...")
               (or text ""))
             (sheet--status-line result) (plist-get result :durationMs))))))

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

(defun sheet--announce (result log)
  "Report the engine's RESULT for a send, besides its buffer.
LOG non-nil (`sheet-log-request'): the request and its response in
*Messages* (`sheet--log').  Then the hooks' warnings, where `.http'
`>> FILE' lines saved the body (the engine's `saved', absolute files),
and the assertions' summary with the first `client.log' line (sheet-run.el)
in the echo area.
`sheet-http-send-current' and an Org block (ob-sheet.el) both
report them so."
  (let* ((hooks (plist-get result :hooks))
         (warnings (append (plist-get hooks :warnings) nil)))
    (when log (sheet--log result))
    (when warnings
      (message "Sheet-mode: warning: %s" (sheet--warning-text warnings)))
    (when sheet--run-hook-errors
      (message "%s" (string-join (reverse sheet--run-hook-errors) "; "))
      (setq sheet--run-hook-errors nil))
    (dolist (saved (append (plist-get result :saved) nil))
      (message "Sheet-mode: response saved to %s"
               (abbreviate-file-name (plist-get saved :file))))
    (sheet-run-report-assertions hooks (append (plist-get result :logs)
                                               nil))))

(defun sheet--finish-response (result raw threshold long-lines &optional key)
  "Format the current buffer, filled with RESULT, and run the hooks.
RAW: the raw layout.  THRESHOLD: the sheet's size threshold;
LONG-LINES: its `sheet-response-long-line-threshold'.  KEY: the
request's key in the response history (sheet-history.el).  The buffer,
read-only while it is filled, is left editable with undo, as
restclient.el's (`sheet-response-mode' keeps q for `quit-window');
the loaded hook and the `run-hook' forms run with `inhibit-read-only'
bound, so that they may edit it whatever they do with it."
  (let ((inhibit-read-only t)
        (sheet-response-size-threshold threshold)
        (sheet-response-long-line-threshold long-lines))
    (sheet-history-record key result raw)
    (if raw
        (progn (fundamental-mode)
               (sheet--protect-long-lines (sheet--long-line result))
               (goto-char (point-min)))
      (sheet--format-response result))
    (setq sheet--response-info result)
    (sheet-response-mode 1)
    (buffer-enable-undo)
    (set-buffer-modified-p nil)
    (setq buffer-read-only nil)
    (run-hooks 'sheet-response-loaded-hook)
    (sheet--run-hook-forms
     (plist-get (plist-get result :hooks) :runHooks))))

(defun sheet--handle-response (result raw display sheet-buffer &optional key)
  "Show the engine's RESULT for a send from SHEET-BUFFER.
RAW: show it untouched.  DISPLAY is `select', `stay' or nil.
KEY: the request's key in the response history.
A big text body (see `sheet--progressive-file') fills the buffer
chunk by chunk from timers; the loaded hook runs after the last."
  (setq sheet--run-hook-errors nil)
  (let* ((request (plist-get result :request))
         (warnings (append (plist-get (plist-get result :hooks) :warnings)
                           nil))
         (settings-buffer (if (buffer-live-p sheet-buffer)
                              sheet-buffer
                            (current-buffer)))
         (log (buffer-local-value 'sheet-log-request settings-buffer))
         (threshold (buffer-local-value 'sheet-response-size-threshold
                                        settings-buffer))
         (long-lines (buffer-local-value 'sheet-response-long-line-threshold
                                         settings-buffer))
         (file (sheet--progressive-file result raw threshold))
         (buf (with-current-buffer settings-buffer
                (setq sheet--last-warnings warnings)
                (sheet--response-buffer (plist-get request :method)
                                        (plist-get request :url)))))
    (with-current-buffer buf
      (setq sheet--response-info result)
      (if (not file)
          (let ((inhibit-read-only t))
            (sheet--fill result raw)
            (sheet--finish-response result raw threshold long-lines key))
        ;; The chunks own the file now: the caller must not delete it.
        (plist-put (plist-get result :presentation) :file nil)
        (let ((size (file-attribute-size (file-attributes file))))
          (sheet--fill-chunk
           buf file 0 size
           (lambda ()
             (with-current-buffer buf
               (let ((inhibit-read-only t))
                 (run-hooks 'sheet-response-received-hook)
                 (sheet--finish-response result raw threshold
                                         long-lines key))))))))
    (sheet--announce result log)
    (pcase display
      ('select (pop-to-buffer buf))
      ('stay (display-buffer buf t)))
    buf))

(provide 'sheet-response)
;;; sheet-response.el ends here
