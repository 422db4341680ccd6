;;; sheet-send.el --- Sending sheet requests  -*- lexical-binding: t; -*-

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

;; Sending the request at point (`sheet/send', asynchronous) and the
;; commands that do it: C-c C-c, C-c C-r, C-c C-v, C-c C-b, and C-c
;; C-k to cancel.  Before sending, the answers to the request's
;; `# @prompt' lines are read (sheet-prompt.el); while it is in flight
;; the mode line shows it, and sending it again asks first.  Emacs
;; keeps its own deadline and ends a request whose engine is stuck.
;; The answer goes to sheet-response.el; an error is reported in the
;; echo area.  Loaded by sheet-mode.el.

;;; Code:

(require 'cl-lib)
(require 'jsonrpc)
(require 'seq)
(require 'subr-x)
(require 'sheet-custom)
(require 'sheet-engine)
(require 'sheet-outline)      ; `sheet--request-at'
(require 'sheet-font-lock)    ; `sheet--method-regexp'
(require 'sheet-body)
(require 'sheet-response)
(require 'sheet-prompt)       ; `# @prompt' answers, secrets masked
(require 'sheet-history)      ; the responses kept per request
(require 'sheet-sending)      ; the requests in flight in the mode line
(require 'sheet-stream)       ; streamed responses shown as they arrive
(require 'sheet-websocket)    ; WebSocket requests' session buffers

(declare-function sheet--line "sheet-mode" ())
(declare-function sheet--location-params "sheet-mode" ())
(declare-function sheet-babel-edit-location "ob-sheet" (location))

;;; Request lines

(defun sheet--request-line-regexp ()
  "The regexp of a request line: the method is group 1, the rest group 2."
  (concat "^\\(" sheet--method-regexp "\\)[ \t]+\\(.*\\)$"))

(defun sheet--matched-label ()
  "The label \"METHOD URL\" of the request line the last search matched."
  (format "%s %s" (match-string-no-properties 1)
          (string-trim (match-string-no-properties 2))))

(defun sheet--request-label ()
  "Return (START . \"METHOD URL\") of the request the engine sends for point.
As written in the sheet (variables unresolved); nil when there is
none.  The request is the one the engine sends, from its outline
\(`sheet--requests'): a line above the request line in its block (a
`:=' declaration) or a separator line (`### name') belongs to the
request below, as restclient.el and VS Code REST Client read it.
Past the last request, or without the outline, the request line at
or above point.  On a request line the outline is not asked for (on
a 5,000-request sheet it costs 150 to 300 ms after each edit).  The
label names the send in the mode line and messages, and keys the
response history."
  (save-excursion
    (beginning-of-line)
    ;; On a request line (the common case) the outline is not needed.
    (unless (looking-at (sheet--request-line-regexp))
      (let* ((line (sheet--line))
             ;; The engine's rule (requestAt, engine/src/sheet/parse.ts):
             ;; the block holding the line, else (a comment or separator
             ;; line) the next one.
             (request (cl-find-if
                       (lambda (r) (>= (plist-get r :endLine) line))
                       (ignore-errors (sheet--requests)))))
        (when request
          (goto-char (sheet--line-position (plist-get request :line))))))
    (end-of-line)
    (when (re-search-backward (sheet--request-line-regexp) nil t)
      (cons (point) (sheet--matched-label)))))

(defun sheet--first-request-label (text)
  "The label \"METHOD URL\" of the first request line of TEXT, or nil.
As `sheet--request-label' makes it, indentation aside (an Org
block's body may be indented)."
  (with-temp-buffer
    (insert text)
    (goto-char (point-min))
    (while (re-search-forward "^[ \t]+" nil t) (replace-match ""))
    (goto-char (point-min))
    (and (re-search-forward (sheet--request-line-regexp) nil t)
         (sheet--matched-label))))

;;; Sending

(defvar sheet--body-file-min 65536
  "Bodies at least this many characters long come from the engine in a file.
Reading a file is much faster than reading and parsing a JSON-RPC
message of several megabytes (docs/protocol.md, `bodyFileMin').
nil: every body comes inside the engine's answer.")

(defun sheet--died-text (err what)
  "The message for ERR, jsonrpc.el's code -1 (\"Server died\"), sending WHAT.
For a send (\"the request at line 12\") and Org blocks (\"the block\")."
  (format "the engine died (%s) while sending %s; the next command \
starts a new one" (plist-get err :message) what))

(defun sheet--report-send-error (err line)
  "Report the error ERR of the send of the request at LINE.
The answers to secret prompts are masked (`sheet--mask-secrets')."
  (let ((code (sheet-engine--error-code err))
        (text (sheet-engine--error-text err)))
    (message
     "Sheet-mode: %s"
     (cond
      ((equal code "cancelled")
       (sheet--mask-secrets
        (if (string-prefix-p "request cancelled" text)
            text
          (format "request cancelled: %s" text))))
      ((eql (plist-get err :code) -1)
       (sheet--died-text err (format "the request at line %d" line)))
      (t (sheet--mask-secrets text))))))

(defvar sheet--sends (make-hash-table)
  "The sends Emacs still waits for, by request id.
Each value is a plist (:buffer :context :label :timer), TIMER the
send's deadline or nil.  A send leaves the table when its answer
comes, when it is cancelled and when its deadline passes: an answer
that comes after that is dropped.")

(defvar sheet--abandoned (make-hash-table)
  "Sends ended in Emacs that the engine has not answered yet, by id.
Each value is the timer that restarts the engine if it never does.")

(defun sheet--forget-send (id)
  "End the send ID in Emacs; return its plist, or nil if already ended.
The request is no longer in flight: the mode line, the contexts
and the deadline forget it."
  (let ((send (gethash id sheet--sends)))
    (when send
      (remhash id sheet--sends)
      (setq sheet-engine--in-flight (delq id sheet-engine--in-flight))
      (sheet-engine--end-context (plist-get send :context))
      (when (plist-get send :timer) (cancel-timer (plist-get send :timer)))
      (sheet--sending-end (plist-get send :buffer) id))
    send))

(defun sheet--answered (id)
  "Note that the engine answered ID; return non-nil if Emacs still waits.
The answer of a send already ended in Emacs only stops the timer
that would restart the engine for want of it."
  (let ((watchdog (gethash id sheet--abandoned)))
    (when watchdog
      (cancel-timer watchdog)
      (remhash id sheet--abandoned)))
  (sheet--forget-send id))

(defun sheet--abandon (id conn why)
  "End the send ID on CONN in Emacs now; WHY names the reason in messages.
The engine has `sheet-timeout-grace' seconds to answer it;
otherwise it is stuck, and restarted."
  (when (sheet--forget-send id)
    (puthash id (run-at-time sheet-timeout-grace nil
                             #'sheet--unanswered id conn why)
             sheet--abandoned)))

(defun sheet--unanswered (id conn why)
  "Restart the engine of CONN, which has not answered ID (WHY it ended)."
  (when (gethash id sheet--abandoned)
    (remhash id sheet--abandoned)
    (when (jsonrpc-running-p conn)
      (message "Sheet-mode: the engine did not answer (%s); restarting it"
               why)
      (sheet-engine--kill-stuck conn))))

(defun sheet--quit-context (context name)
  "End the send whose `:=' form NAME, for CONTEXT, the user quit.
As `sheet-cancel' does for one send; the message names NAME."
  (let ((conn sheet-engine--connection))
    (maphash
     (lambda (id send)
       (when (eql (plist-get send :context) context)
         (when (and conn (jsonrpc-running-p conn))
           (ignore-errors
             (jsonrpc-notify conn '$/cancelRequest (list :id id)))
           (sheet--abandon id conn "a request quit at its := form"))
         (sheet--forget-send id)
         (message "Sheet-mode: quit while evaluating %s; %s not sent"
                  name (or (plist-get send :label) "the request"))))
     (copy-hash-table sheet--sends))))

(setq sheet-engine--eval-quit-function #'sheet--quit-context)

(defun sheet--end-all-sends ()
  "End every send in flight in Emacs; return their labels, oldest first.
For an engine that was stopped (SIGSTOP): it cannot answer them."
  (let (labels)
    (maphash (lambda (id send)
               (push (cons id (or (plist-get send :label) "a request"))
                     labels))
             sheet--sends)
    (setq labels (sort labels (lambda (a b) (< (car a) (car b)))))
    (dolist (l labels) (sheet--forget-send (car l)))
    (mapcar #'cdr labels)))

(setq sheet-engine--stopped-function #'sheet--end-all-sends)

(defun sheet--deadline (id conn seconds)
  "The deadline of the send ID on CONN: SECONDS have passed without answer.
Waits while a `:=' form is being evaluated (it may ask the user)."
  (let ((send (gethash id sheet--sends)))
    (cond
     ((not send))
     (sheet-engine--evaluating
      (plist-put send :timer
                 (run-at-time 1 nil #'sheet--deadline id conn seconds)))
     (t
      (sheet--forget-send id)
      (message "Sheet-mode: no answer from the engine within %gs for %s; \
restarting the engine" seconds (plist-get send :label))
      (sheet-engine--kill-stuck conn)))))

(defun sheet--send (raw display)
  "Send the request at point; show the response raw if RAW.
DISPLAY is `select' (show and select the response window), `stay'
\(show it, keep focus) or nil (fill the buffer only)."
  (if (member (car (split-string (or (cdr (sheet--request-label)) "")))
              sheet-websocket-methods)
      ;; A WebSocket request opens a session buffer (issue 40).  Its
      ;; label is the line as written (the outline costs on a big sheet).
      (progn (sheet-websocket-open (append (sheet--location-params)
                                           (sheet--prompt-answers)))
             nil)
    (sheet--send-http raw display)))

(defun sheet--send-http (raw display)
  "Send the HTTP request at point; RAW and DISPLAY as `sheet--send'."
  (let* ((where (sheet--request-label))
         (_ (sheet--confirm-duplicate (car where) (cdr where)))
         (prompts (sheet--prompt-answers))
         (conn (sheet-engine--ensure))
         (_ (sheet-engine--sync-jar conn))
         (sheet-buffer (current-buffer))
         (line (sheet--line))
         (label (or (cdr where) "request"))
         (key (and where (sheet-history-key sheet-buffer
                                             (sheet-history-identity where))))
         (context (sheet-engine--new-context sheet-buffer))
         (params (append (if (fboundp 'sheet-babel-edit-location)
                             (sheet-babel-edit-location
                              (sheet--location-params))
                           (sheet--location-params))
                         prompts
                         (list :raw (if raw t :json-false) :context context)
                         (and sheet--body-file-min
                              (list :bodyFileMin sheet--body-file-min))
                         (and sheet-response-received-hook
                              (list :received t))))
         (secrets (sheet--secret-answers prompts))
         (deadline (and sheet-timeout (+ sheet-timeout sheet-timeout-grace)))
         (id nil))
    (jsonrpc-async-request
     conn 'sheet/send params
     :timeout nil
     :success-fn
     (lambda (result)
       (unwind-protect
           (progn
             ;; The engine keeps these whether or not Emacs still waits.
             (sheet-session-note-all
              (plist-get (plist-get result :hooks) :setVars))
             (when (sheet--answered id)
               (sheet-engine--log-event conn "engine-reply"
                                        (list :id id :result result))
               (condition-case-unless-debug err
                   (let ((sheet--log-secrets secrets)
                         (sheet--stream-buffer (sheet-stream-end context t)))
                     (sheet-stream-finish
                      sheet--stream-buffer
                      (sheet--handle-response result raw display
                                              sheet-buffer key)))
                 (error
                  (message "Sheet-mode: showing the response failed: %s"
                           (error-message-string err))))))
         ;; Normally deleted as soon as they are read; this covers every
         ;; other way out, an answer nobody waits for included.
         (let ((presentation (plist-get result :presentation)))
           (sheet--delete-body-file presentation)
           (sheet--delete-body-file
            (list :file (plist-get presentation :receivedFile))))))
     :error-fn
     (lambda (err)
       (sheet-stream-end context)
       (when (sheet--answered id)
         (sheet-engine--log-event conn "engine-reply" (list :id id :error err))
         (let ((sheet--log-secrets secrets))
           (sheet--report-send-error err line)))))
    (setq id (sheet-engine--last-id conn))
    (puthash id (list :buffer sheet-buffer :context context :label label
                      :display display
                      :timer (and deadline
                                  (run-at-time deadline nil #'sheet--deadline
                                               id conn deadline)))
             sheet--sends)
    (push id sheet-engine--in-flight)
    (sheet--sending-start id (car where) label)
    (let ((message-log-max nil))
      (message "Sending %s... (%s cancels)" label
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
  "Cancel the requests in flight, and stop response buffers filling.
A request ends in Emacs at once, whatever the engine does; the
engine is told (`$/cancelRequest'), and restarted if it has not
answered within `sheet-timeout-grace' seconds."
  (interactive)
  (let ((stopped (sheet--stop-filling))
        (conn sheet-engine--connection)
        (labels nil))
    (when (> stopped 0)
      (message "Stopped filling %d response buffer%s" stopped
               (if (> stopped 1) "s" "")))
    (dolist (id (copy-sequence sheet-engine--in-flight))
      (push (plist-get (gethash id sheet--sends) :label) labels)
      ;; A stream keeps what arrived, with a trailer line (sheet-stream.el).
      (sheet-stream-cancelled (plist-get (gethash id sheet--sends) :context))
      (when (and conn (jsonrpc-running-p conn))
        (ignore-errors
          (jsonrpc-notify conn '$/cancelRequest (list :id id)))
        (sheet--abandon id conn "a cancelled request"))
      (sheet--forget-send id))
    (cond
     (labels
      (message "Sheet-mode: request%s cancelled: %s"
               (if (cdr labels) "s" "")
               (mapconcat (lambda (l) (or l "request")) labels ", ")))
     ((zerop stopped) (message "No request in flight")))))

(provide 'sheet-send)
;;; sheet-send.el ends here
