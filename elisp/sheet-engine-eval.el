;;; sheet-engine-eval.el --- Lisp for the engine  -*- lexical-binding: t; -*-

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

;; What the engine asks of Emacs while it serves a request: the value
;; of a `:=' form (`lisp/eval', docs/protocol.md), evaluated in the
;; sheet buffer that sent the request.  Each request that may need
;; Lisp carries a context, a number naming that buffer, which the
;; engine echoes in its `lisp/eval'; several requests can be in flight.
;; A form that sets `url-max-redirections' applies to its own request,
;; as in restclient.el.  Loaded by sheet-engine.el, whose connection
;; dispatches the engine's requests to `sheet-engine--handle-request'.

;;; Code:

(require 'jsonrpc)
;; The one-line log of the traffic (`sheet-engine--log-event').
(require 'sheet-engine-log)
;; The redirect settings a form may change
;; (`sheet-engine--redirect-settings').
(require 'sheet-settings)

;;; Contexts

(defvar sheet-engine--contexts (make-hash-table)
  "Sheet buffers of the requests in flight, by the request's context.
The context is a number.  The engine echoes a request's context in
each `lisp/eval' it sends while serving it, so a `:=' form is
evaluated in the buffer that sent that request, even when several
requests are in flight.")

(defvar sheet-engine--last-context 0
  "The last context number given to a request.")

(defun sheet-engine--new-context (buffer)
  "Return a new context for a request sent from BUFFER.
The context is remembered until `sheet-engine--end-context'."
  (let ((context (setq sheet-engine--last-context
                       (1+ sheet-engine--last-context))))
    (puthash context buffer sheet-engine--contexts)
    context))

(defun sheet-engine--end-context (context)
  "Forget CONTEXT: its request is answered."
  (remhash context sheet-engine--contexts))

;;; Requests from the engine

(defun sheet-engine--handle-request (conn method params)
  "Answer the request METHOD with PARAMS that the engine sent on CONN."
  (sheet-engine--log-event conn "engine-request"
                           (list :method method :params params))
  (pcase method
    ('lisp/eval (sheet-engine--lisp-eval params))
    (_ (jsonrpc-error :code -32601
                      :message (format "method not found: %s" method)))))

(defvar sheet-engine--eval-quit-function nil
  "Called with a context when the user quits its `:=' form (a quit).
Set by sheet-send.el, which ends that send in Emacs at once (as
`sheet-cancel' does) with a message naming the variable.")

(defvar sheet-engine--evaluating nil
  "Non-nil while a `:=' form is evaluated for the engine.
A send's deadline waits for it: the form may ask the user.")

(defvar sheet-engine--eval-vars nil
  "While a `:=' form is evaluated for the engine: the variables it sees.
An alist (NAME . VALUE), NAME with its colon, from the `vars' of
`lisp/eval' (docs/protocol.md); `sheet-get-var' reads it.")

(defun sheet-engine--vars-alist (vars)
  "The alist (NAME . VALUE) of VARS, a JSON object parsed as a plist."
  (let (alist)
    (while vars
      ;; The key ":a" arrives as the keyword `::a'.
      (push (cons (substring (symbol-name (car vars)) 1) (cadr vars)) alist)
      (setq vars (cddr vars)))
    (nreverse alist)))

(defun sheet-engine--lisp-eval (params)
  "Evaluate the `:=' form in PARAMS; answer (:value STRING).
The form is evaluated in the sheet buffer of the request named by
the context in PARAMS (the current buffer when there is none)."
  (let* ((form (plist-get params :form))
         (name (plist-get params :name))
         (context (plist-get params :context))
         (buf (if context
                  (gethash context sheet-engine--contexts)
                (current-buffer))))
    (condition-case err
        (progn
          (unless (buffer-live-p buf)
            (error "The sheet buffer of this request was killed"))
          (let* ((before (with-current-buffer buf
                           (sheet-engine--redirect-settings)))
                 (value (with-current-buffer buf
                          (let ((sheet-engine--evaluating t)
                                (sheet-engine--eval-vars
                                 (sheet-engine--vars-alist
                                  (plist-get params :vars))))
                            (eval (car (read-from-string form)) t))))
                 ;; `(setq url-max-redirections 0)' in a form applies
                 ;; to this very request, as in restclient.el.
                 (after (if (buffer-live-p buf)
                            (with-current-buffer buf
                              (sheet-engine--redirect-settings))
                          before)))
            (append
             (list :value (if (stringp value) value (format "%s" value)))
             (and (not (equal before after)) (list :settings after)))))
      ;; C-g in the form (at a `read-string' or `read-passwd' prompt):
      ;; restclient.el then sends nothing.  The engine is answered so it
      ;; does not wait forever, and the send ends in Emacs now.
      (quit
       (when sheet-engine--eval-quit-function
         (funcall sheet-engine--eval-quit-function context name))
       ;; The engine says "evaluating NAME: quit (C-g)".
       (jsonrpc-error :code -32000 :message "quit (C-g)"))
      (error
       (let ((msg (error-message-string err)))
         (message "Sheet-mode: error in Lisp variable %s: %s" name msg)
         (jsonrpc-error :code -32000 :message msg))))))

(provide 'sheet-engine-eval)
;;; sheet-engine-eval.el ends here
