;;; sheet-engine.el --- Engine of sheet-mode  -*- lexical-binding: t; -*-

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

;; The connection between `sheet-mode' and its engine: a TypeScript
;; subprocess (`sheet-engine-command') speaking JSON-RPC over stdio
;; through the built-in jsonrpc.el, the way eglot talks to a language
;; server.  One engine per Emacs, started on first use, restarted by
;; the next command when it dies.
;;
;; This file holds the process, the `initialize' handshake, the
;; requests to the engine, and restarting an engine that died or
;; stopped answering.  The engine's requests to Emacs (`lisp/eval' of
;; `:=' forms, evaluated in the sheet buffer that sent the request)
;; are sheet-engine-eval.el; the one-line log of the traffic,
;; sheet-engine-log.el; what a new engine is given, sheet-session.el.
;; The options it reads are `sheet-mode's (one group, `sheet');
;; docs/protocol.md describes the messages.

;;; Code:

(require 'cl-lib)
(require 'jsonrpc)
(require 'subr-x)
;; The options of `sheet-mode' read here.
(require 'sheet-custom)
;; Finding the engine's command line, and the hints when there is none.
(require 'sheet-install)
;; The session's overrides, handed to each new engine.
(require 'sheet-session)
;; The one-line log of the traffic (`sheet-engine-events').
(require 'sheet-engine-log)
;; The engine settings from the options (`sheet-engine--settings').
(require 'sheet-settings)
;; The engine's requests to Emacs (`lisp/eval') and the contexts of
;; the requests in flight.
(require 'sheet-engine-eval)
;; Every message of a read handled, a synchronous answer among them.
(require 'sheet-engine-read)

;;; State

(defvar sheet-engine--connection nil
  "The running engine connection, or nil.  One per Emacs.")

(defvar sheet-engine--process nil
  "The engine's process, or nil.")

(defvar sheet-engine--in-flight nil
  "Ids of the `sheet/send' requests waiting for an answer.")

(defvar sheet-engine--started nil
  "Non-nil once an engine was started in this Emacs.")

(defconst sheet-engine--name "sheet-engine"
  "Name of the engine connection; its buffers are named after it.")

;;; The connection class

(defclass sheet-engine-connection (jsonrpc-process-connection)
  ((last-id :initform nil :accessor sheet-engine--last-id
            :documentation "Id of the last request sent."))
  :documentation "The connection to the sheet engine.")

;; Emacs 28's jsonrpc.el: `jsonrpc-async-request' returns nil, not the
;; id of the request it sent (later versions return it), and C-c C-k
;; needs the id to send `$/cancelRequest'.  Every message goes through
;; `jsonrpc-connection-send', so the id is taken there.
(cl-defmethod jsonrpc-connection-send :before
  ((conn sheet-engine-connection) &rest args &key id method
   &allow-other-keys)
  "Remember the id of requests sent on CONN and log a summary of ARGS.
ID and METHOD are those of the message."
  (when (and id method)
    (setf (sheet-engine--last-id conn) id))
  (sheet-engine--log-event conn "client" args))

;;; Notifications from the engine

(defvar sheet-engine-notification-handlers nil
  "Alist of (METHOD . FUNCTION): the engine's notifications handled.
METHOD is a symbol such as `auth/notify'; FUNCTION gets the params
plist.  Others are ignored.  Filled by the files that handle them
\(sheet-auth.el, sheet-stream.el's `sheet/streamEvents' below,
sheet-websocket.el's `ws/message' and `ws/closed').")

(defun sheet-engine--handle-notification (_conn method params)
  "Hand the engine's notification METHOD with PARAMS to its handler."
  (let ((handler (alist-get method sheet-engine-notification-handlers)))
    (when handler
      (condition-case err
          (funcall handler params)
        (error (message "Sheet-mode: %s failed: %s" method
                        (error-message-string err)))))))

;;; Settings

(defvar sheet-engine--jar-file nil
  "The cookie jar file the running engine was last configured with.")

(defun sheet-engine--initialize-params ()
  "The parameters of the `initialize' request."
  (list :clientName "sheet-mode"
        :clientVersion "0.1.0"
        :lisp t
        :settings (sheet-engine--settings)))

(defun sheet-engine--sync-jar (conn)
  "Tell the engine on CONN when `sheet-cookie-jar-file' changed.
`settings/set' answers once the engine has loaded the new jar, so
the request that follows uses it."
  (let ((file (sheet-engine--jar-setting)))
    (unless (equal file sheet-engine--jar-file)
      (condition-case err
          (progn
            (jsonrpc-request conn 'settings/set (list :cookieJarFile file)
                             :timeout sheet-request-timeout)
            (setq sheet-engine--jar-file file))
        (jsonrpc-error
         (user-error "Sheet-mode: cannot use the cookie file %s: %s"
                     file (sheet-engine--error-text err)))))))

;;; Starting and stopping

(defun sheet-engine--check-command (command)
  "Signal a `user-error' saying what to do if COMMAND cannot start."
  (let ((missing (sheet-engine--missing-file command))
        (program (car command)))
    (cond
     (missing
      (user-error "Sheet-mode: the engine is not built (%s is missing); %s"
                  missing (sheet-engine--build-hint)))
     ((not (executable-find program))
      (user-error "Sheet-mode: cannot start the engine: `%s' not found \
\(command: %s); install Node 20 and %s"
                  program (string-join command " ")
                  (sheet-engine--build-hint))))))

(defvar sheet-engine--stream-function #'ignore
  "Called with the params of each `sheet/streamEvents' notification.
sheet-stream.el sets it: a streamed response's events as they
arrive (docs/protocol.md).")

(setf (alist-get 'sheet/streamEvents sheet-engine-notification-handlers)
      (lambda (params) (funcall sheet-engine--stream-function params)))

(defvar sheet-engine--stopped-function nil
  "Called with no argument when the engine was stopped (SIGSTOP).
Returns the labels of the sends it ended in Emacs.  Set by
sheet-send.el.")

(defun sheet-engine--watch-stop (proc _event)
  "Replace the engine when its process PROC is stopped (SIGSTOP).
A stopped engine reads nothing and answers nothing: the requests in
flight end in Emacs now, with a message, rather than at their
deadline, and a new engine is started (from a timer: this runs in
the process's sentinel)."
  (when (and (eq (process-status proc) 'stop)
             (eq proc sheet-engine--process)
             sheet-engine--connection)
    (let ((conn sheet-engine--connection)
          (ended (and sheet-engine--stopped-function
                      (funcall sheet-engine--stopped-function))))
      (message "Sheet-mode: the engine was stopped (SIGSTOP); %srestarting it"
               (if ended
                   (concat (string-join ended ", ")
                           (if (cdr ended) " were" "") " ended; ")
                 ""))
      (run-at-time 0 nil #'sheet-engine--kill-stuck conn))))

(defun sheet-engine--make-process (command)
  "Start the engine's process with COMMAND; return it."
  (setq sheet-engine--process
        ;; Adaptive read buffering delays reading a process whose reads
        ;; come back short, which adds up to tens of ms per response;
        ;; it is read when the process is created, so binding it
        ;; affects this one only.
        (let ((process-adaptive-read-buffering nil))
          (make-process
           :name sheet-engine--name
           :command command
           :connection-type 'pipe
           :coding 'utf-8-emacs-unix
           :noquery t
           ;; Emacs 28's jsonrpc.el finds the stderr buffer by this
           ;; exact name (see its `initialize-instance'), then renames
           ;; it; `jsonrpc-stderr-buffer' returns it afterwards.
           :stderr (get-buffer-create
                    (format "*%s stderr*" sheet-engine--name))))))

(declare-function sheet-restclient-share-names "sheet-restclient" ())

(defun sheet-engine--start ()
  "Start the engine and initialize it; return the connection."
  ;; Every sheet's Lisp (`:=' forms, `run-hook') comes through an
  ;; engine, Org blocks' too: restclient.el's names must reach ours.
  (when (fboundp 'sheet-restclient-share-names)
    (sheet-restclient-share-names))
  (let* ((command (sheet-engine-command-line))
         (_ (sheet-engine--check-command command))
         (default-directory (expand-file-name "~/"))
         (conn
          (make-instance
           'sheet-engine-connection
           :name sheet-engine--name
           :events-buffer-scrollback-size sheet-events-buffer-size
           :request-dispatcher #'sheet-engine--handle-request
           :notification-dispatcher #'sheet-engine--handle-notification
           :on-shutdown #'sheet-engine--on-shutdown
           :process (lambda () (sheet-engine--make-process command)))))
    ;; After jsonrpc.el's own sentinel, which ignores a stop.
    (add-function :after (process-sentinel sheet-engine--process)
                  #'sheet-engine--watch-stop)
    (add-function :around (process-filter sheet-engine--process)
                  #'sheet-engine--read-on)
    (condition-case err
        (jsonrpc-request conn 'initialize (sheet-engine--initialize-params)
                         :timeout 20)
      (:success (setq sheet-engine--jar-file (sheet-engine--jar-setting)))
      (error
       (ignore-errors (jsonrpc-shutdown conn))
       (user-error "Sheet-mode: the engine did not start (%s): %s; %s"
                   (string-join command " ")
                   (sheet-engine--error-text err)
                   (sheet-engine--build-hint))))
    (sheet-engine--restore conn)
    (let ((stderr (jsonrpc-stderr-buffer conn)))
      (when-let ((proc (and (buffer-live-p stderr)
                            (get-buffer-process stderr))))
        (set-process-query-on-exit-flag proc nil)))
    conn))

(defun sheet-engine--restore (conn)
  "Give the new engine of CONN the session's overrides; say it restarted."
  (let ((n (condition-case err
               (sheet-session-restore conn sheet-request-timeout)
             (error (message "Sheet-mode: restoring the session's variables \
failed: %s" (sheet-engine--error-text err))
                    nil))))
    (when sheet-engine--started
      (message "Sheet-mode: the engine restarted%s%s"
               (if (and n (> n 0))
                   (format "; %d session variable%s restored (%s)" n
                           (if (= n 1) "" "s")
                           (mapconcat #'car (sheet-session-overrides) " "))
                 "")
               (let ((c (if sheet-cookie-jar-file 0
                          (sheet-session-cookie-count))))
                 (if (> c 0)
                     (format "; the session's %d cookie%s kept" c
                             (if (= c 1) "" "s"))
                   ""))))
    (setq sheet-engine--started t)))

(defun sheet-engine--ensure ()
  "The engine connection, started on first use.
An engine whose process is stopped (SIGSTOP) cannot be written to:
it is replaced, with a message."
  (when (and sheet-engine--connection
             (processp sheet-engine--process)
             (eq (process-status sheet-engine--process) 'stop))
    (message "Sheet-mode: the engine is stopped; restarting it")
    (let ((conn sheet-engine--connection))
      (setq sheet-engine--connection nil)
      (jsonrpc-shutdown conn)))
  (unless (and sheet-engine--connection
               (jsonrpc-running-p sheet-engine--connection))
    (setq sheet-engine--connection nil
          sheet-engine--in-flight nil)
    (clrhash sheet-engine--contexts)
    (setq sheet-engine--connection (sheet-engine--start)))
  sheet-engine--connection)

(defun sheet-engine--on-shutdown (conn)
  "Forget CONN once its process has exited.
An engine that exited by itself (not stopped by Emacs) is named in
the echo area."
  (when (eq conn sheet-engine--connection)
    (setq sheet-engine--connection nil
          sheet-engine--in-flight nil)
    (message "Sheet-mode: the engine exited (status %s); the next command \
starts a new one, given the variables set so far"
             (and sheet-engine--process
                  (process-exit-status sheet-engine--process)))))

(defun sheet-engine-shutdown ()
  "Stop the engine and end its session.
The next command that needs it will start a new one, without the
session's overrides (`sheet-set-var', `jq-set-var') and cookies;
`sheet-engine-restart' keeps them."
  (interactive)
  (sheet-session-forget)
  (sheet-engine--stop)
  (when (called-interactively-p 'interactive)
    (message "Sheet engine stopped")))

(defun sheet-engine--stop ()
  "Stop the engine, leaving the session's overrides and cookies."
  (let ((conn sheet-engine--connection))
    (setq sheet-engine--connection nil
          sheet-engine--in-flight nil)
    (when (and conn (jsonrpc-running-p conn))
      (ignore-errors (jsonrpc-request conn 'shutdown nil :timeout 2))
      (ignore-errors (jsonrpc-notify conn 'exit nil))
      ;; Let the engine exit by itself before jsonrpc.el deletes the
      ;; process.
      (with-timeout (1 nil)
        (while (jsonrpc-running-p conn)
          (accept-process-output nil 0.02)))
      (jsonrpc-shutdown conn))))

(defun sheet-engine--kill-stuck (conn)
  "Kill the engine of CONN, which stopped answering, and start a new one.
Its pending requests fail (\"Server died\"); the new engine is
started at once so the next command does not wait for it."
  (when (eq conn sheet-engine--connection)
    (setq sheet-engine--connection nil))
  (when (jsonrpc-running-p conn)
    (jsonrpc-shutdown conn))
  (condition-case err
      (sheet-engine--ensure)
    (error (message "Sheet-mode: starting a new engine failed: %s"
                    (error-message-string err)))))

(defun sheet-engine-process ()
  "The engine's process, or nil when it is not running."
  (and sheet-engine--connection
       (jsonrpc-running-p sheet-engine--connection)
       (process-live-p sheet-engine--process)
       sheet-engine--process))

(defun sheet-engine-restart ()
  "Stop the engine and start a new one, with the session's overrides.
And its cookies (`sheet-session-cookie-file')."
  (interactive)
  (sheet-engine--stop)
  (sheet-engine--ensure))

;;; Requests to the engine

(defun sheet-engine--error-text (err)
  "A readable message for ERR, a Lisp error or a JSON-RPC error plist."
  (cond
   ((and (consp err) (eq (car err) 'jsonrpc-error))
    (let ((msg (alist-get 'jsonrpc-error-message (cdr err)))
          (data (alist-get 'jsonrpc-error-data (cdr err))))
      (sheet-engine--error-text (list :message (or msg (cadr err))
                                      :data data))))
   ((and (consp err) (keywordp (car err)))
    (let* ((msg (plist-get err :message))
           (data (plist-get err :data))
           (hint (and (listp data) (plist-get data :hint))))
      (if (and (stringp hint) (not (string-empty-p hint)))
          (format "%s (%s)" msg hint)
        (format "%s" msg))))
   (t (error-message-string err))))

(defun sheet-engine--error-code (err)
  "The engine's error code (a string) in the JSON-RPC error ERR, or nil."
  (let ((data (cond ((and (consp err) (keywordp (car err)))
                     (plist-get err :data))
                    ((consp err)
                     (alist-get 'jsonrpc-error-data (cdr err))))))
    (and (listp data) (plist-get data :code))))

(defun sheet-engine--request (method params &optional lisp)
  "Ask the engine METHOD with PARAMS and wait.
Signal a `user-error' on failure.  LISP non-nil: the engine may
ask for the values of the current buffer's `:=' forms while
serving it (a context is added to PARAMS)."
  (let* ((conn (sheet-engine--ensure))
         (context (and lisp (sheet-engine--new-context (current-buffer)))))
    (unwind-protect
        (condition-case err
            (jsonrpc-request conn method
                             (if context
                                 (append params (list :context context))
                               params)
                             :timeout sheet-request-timeout)
          (jsonrpc-error
           (user-error "Sheet-mode: %s" (sheet-engine--error-text err))))
      (when context (sheet-engine--end-context context)))))

(provide 'sheet-engine)
;;; sheet-engine.el ends here
