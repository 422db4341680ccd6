;;; sheet-complete.el --- Completion at point  -*- lexical-binding: t; -*-

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

;; `sheet-completion-at-point', on `completion-at-point-functions' in
;; sheet-mode buffers, so \\[completion-at-point], company and corfu
;; offer (issue 25 item 2): variable names after `:' (sheets) and in
;; `{{' (`.http' files: file variables, the chosen environment's
;; names, system variables such as `$timestamp'), methods and header
;; names at the start of a line, common header values after `Name:',
;; hook names after `->', and on a `GRPC host:port/' request line the
;; services, then after the next `/' the service's methods (from the
;; request's proto lines, else by server reflection).  The names come
;; from the engine (`sheet/completions', `sheet/grpcMethods',
;; docs/protocol.md); Emacs only looks at the text around point to
;; know which kind is wanted.
;;
;; Typing never waits on the engine: the engine's answer is kept per
;; buffer; when the buffer has changed since, the kept answer is used
;; and a new one asked asynchronously.  Only the very first look-up
;; of a buffer waits, at most `sheet-completion-timeout' seconds, and
;; only when the engine is running (otherwise it is started when
;; Emacs is next idle).  Loaded by sheet-mode.el.

;;; Code:

(require 'jsonrpc)
(require 'seq)
(require 'subr-x)
(require 'sheet-custom)
(require 'sheet-engine)
(require 'sheet-environment)
(require 'sheet-sync)

(declare-function sheet--text "sheet-mode" ())
(declare-function sheet--line "sheet-mode" ())

(defvar-local sheet--completions nil
  "The engine's last `sheet/completions' answer for this buffer.
A plist (:tick TICK :line LINE :result RESULT), TICK the buffer's
`buffer-chars-modified-tick' when it was asked.")

(defvar-local sheet--completions-pending nil
  "Non-nil while an asynchronous `sheet/completions' is in flight.")

(defun sheet--completion-params (conn)
  "The params of `sheet/completions' at point, to send on CONN.
The text goes as its changes since the last look-up (sheet-sync.el)."
  (append (sheet--doc-params conn) (list :line (sheet--line))
          (and buffer-file-name (list :path buffer-file-name))
          (sheet-environment-params)))

(defun sheet--completions-refresh (conn)
  "Ask CONN for this buffer's completions without waiting."
  (unless sheet--completions-pending
    (let ((buf (current-buffer))
          (tick (buffer-chars-modified-tick))
          (line (sheet--line)))
      (setq sheet--completions-pending t)
      (jsonrpc-async-request
       conn 'sheet/completions (sheet--completion-params conn)
       :success-fn
       (lambda (result)
         (when (buffer-live-p buf)
           (with-current-buffer buf
             (setq sheet--completions-pending nil
                   sheet--completions
                   (list :tick tick :line line :result result)))))
       :error-fn
       (lambda (err)
         (when (buffer-live-p buf)
           (with-current-buffer buf
             (sheet--doc-stale-p err)
             (setq sheet--completions-pending nil))))
       :timeout-fn
       (lambda ()
         (when (buffer-live-p buf)
           (with-current-buffer buf
             (setq sheet--completions-pending nil))))
       :timeout sheet-request-timeout))))

(defun sheet--completion-names ()
  "The engine's `sheet/completions' answer for this buffer, or nil.
Never waits more than `sheet-completion-timeout' seconds, and only
for a buffer's first look-up; see the Commentary."
  (let ((conn (and (sheet-engine-process) sheet-engine--connection))
        (kept sheet--completions))
    (cond
     ((null conn)
      (run-with-idle-timer 0 nil (lambda () (ignore-errors
                                              (sheet-engine--ensure))))
      (plist-get kept :result))
     ((and kept (= (plist-get kept :tick) (buffer-chars-modified-tick))
           (= (plist-get kept :line) (sheet--line)))
      (plist-get kept :result))
     (kept
      (sheet--completions-refresh conn)
      (plist-get kept :result))
     (t
      (condition-case nil
          (let ((result
                 (condition-case err
                     (jsonrpc-request conn 'sheet/completions
                                      (sheet--completion-params conn)
                                      :timeout sheet-completion-timeout)
                   (jsonrpc-error
                    ;; A stale copy: once more, with the whole text.
                    (if (sheet--doc-stale-p err)
                        (jsonrpc-request conn 'sheet/completions
                                         (sheet--completion-params conn)
                                         :timeout sheet-completion-timeout)
                      (signal (car err) (cdr err)))))))
            (setq sheet--completions
                  (list :tick (buffer-chars-modified-tick)
                        :line (sheet--line) :result result))
            result)
        ((jsonrpc-error error) nil))))))

(defun sheet--completion-variables (result)
  "The variable names of RESULT, each with its annotation as a property."
  (mapcar (lambda (v)
            (propertize
             (plist-get v :name) 'sheet-annotation
             (pcase (plist-get v :source)
               ("declared" (format " line %s" (plist-get v :line)))
               ("system" (let ((args (plist-get v :args)))
                           (if args (format " system %s" args) " system")))
               (source (concat " " source)))))
          (plist-get result :variables)))

(defun sheet--completion-annotate (candidate)
  "The annotation of CANDIDATE, from its text property."
  (or (get-text-property 0 'sheet-annotation candidate) ""))

(defun sheet--completion-context ()
  "What to complete at point: (KIND START), or nil.
KIND is `http-variable', `variable', `hook', `header-value' (then
the list is (header-value START HEADER-NAME)) or `line-start'."
  (let ((pos (point))
        (bol (line-beginning-position)))
    (save-excursion
      (cond
       ((save-excursion
          (and (skip-chars-backward "$A-Za-z0-9_.-" bol)
               (>= (- (point) bol) 2)
               (equal (buffer-substring-no-properties (- (point) 2) (point))
                      "{{")))
        (list 'http-variable (progn (skip-chars-backward "$A-Za-z0-9_.-" bol)
                                    (point))))
       ((progn (skip-chars-backward "^ \t\n:=/?&#{}\"'" bol)
               (and (eq (char-before) ?:)
                    ;; Not the colon of `host:port' or `Name:'.
                    (or (= (1- (point)) bol)
                        (not (string-match-p
                              "[[:alnum:]_.-]"
                              (string (char-before (1- (point)))))))))
        (list 'variable (1- (point))))
       ((progn (goto-char bol)
               (looking-at "->[ \t]+\\([a-z-]*\\)"))
        (and (<= pos (match-end 1)) (>= pos (match-beginning 1))
             (list 'hook (match-beginning 1))))
       ((looking-at "\\([A-Za-z0-9-]+\\):[ \t]*")
        (and (>= pos (match-end 0))
             (list 'header-value (match-end 0) (match-string 1))))
       ((looking-at "[A-Za-z-]*")
        (and (<= pos (match-end 0))
             (list 'line-start bol)))))))

(defconst sheet--grpc-line-regexp
  (concat "GRPC[ \t]+\\(\\(?:grpcs?://\\)?[^ \t/]+\\)/"
          "\\([A-Za-z0-9_.]*\\)\\(?:/\\([A-Za-z0-9_]*\\)\\)?")
  "A `GRPC' request line up to point: the address, service, method.")

(defun sheet--grpc-completion-context ()
  "What to complete on a `GRPC host:port/' line at point, or nil.
A list (service START ADDRESS) after the first slash, or (method
START ADDRESS SERVICE) after the second."
  (let ((pos (point)))
    (save-excursion
      (goto-char (line-beginning-position))
      (let ((case-fold-search nil))
        (when (and (looking-at sheet--grpc-line-regexp)
                   (<= pos (match-end 0)))
          (cond
           ((and (match-beginning 3) (>= pos (match-beginning 3)))
            (list 'method (match-beginning 3) (match-string-no-properties 1)
                  (match-string-no-properties 2)))
           ((>= pos (match-beginning 2))
            (list 'service (match-beginning 2)
                  (match-string-no-properties 1)))))))))

(defun sheet--grpc-services (address)
  "The engine's `sheet/grpcMethods' services for ADDRESS, or nil.
The request's proto lines name them, else the server's reflection;
the engine keeps them per address and protos, so only the first
look-up of a target waits (on reflection at most 5 s).  A server
that cannot be reached or a proto that does not load is said in
the echo area."
  (let ((conn (sheet-engine--ensure)))
    (condition-case err
        (append (plist-get
                 (jsonrpc-request
                  conn 'sheet/grpcMethods
                  (append (sheet--completion-params conn)
                          (list :address address))
                  :timeout sheet-request-timeout)
                 :services)
                nil)
      (error
       (message "Sheet-mode: no gRPC services to complete for %s: %s"
                address (sheet-engine--error-text err))
       nil))))

(defun sheet--grpc-completion ()
  "The completion data on a `GRPC host:port/' line at point, or nil.
Services after the first slash (each followed by a slash), the
service's methods after the second."
  (let ((context (sheet--grpc-completion-context)))
    (when context
      (let* ((services (sheet--grpc-services (nth 2 context)))
             (candidates
              (if (eq (car context) 'service)
                  (mapcar (lambda (s) (propertize (plist-get s :name)
                                                  'sheet-annotation
                                                  " service"))
                          services)
                (let ((service (seq-find (lambda (s)
                                           (equal (plist-get s :name)
                                                  (nth 3 context)))
                                         services)))
                  (mapcar (lambda (m)
                            (propertize (plist-get m :name) 'sheet-annotation
                                        (concat " " (plist-get m :kind))))
                          (plist-get service :methods))))))
        (when candidates
          (list (nth 1 context) (point) candidates
                :exclusive 'no
                :annotation-function #'sheet--completion-annotate))))))

(defun sheet-completion-at-point ()
  "Complete the variable, method, header, header value or hook at point.
On a `GRPC host:port/' line, the services and methods there are.
For `completion-at-point-functions'; the names come from the
engine (`sheet/completions', `sheet/grpcMethods'), without waiting
on it while typing, except for a gRPC target's first look-up."
  (if (sheet--grpc-completion-context)
      (sheet--grpc-completion)
    (sheet--completion-data (sheet--completion-context))))

(defun sheet--completion-data (context)
  "The completion data of CONTEXT (`sheet--completion-context'), or nil."
  (when context
    (let* ((result (sheet--completion-names))
           (http (equal (plist-get result :syntax) "http"))
           (candidates
            (pcase (car context)
              ('http-variable (sheet--completion-variables result))
              ('variable (and (not http)
                              (sheet--completion-variables result)))
              ('hook (mapcar (lambda (h) (plist-get h :name))
                             (plist-get result :hooks)))
              ('header-value
               (append (plist-get (plist-get result :headerValues)
                                  (intern (concat ":" (downcase
                                                       (nth 2 context)))))
                       nil))
              ('line-start
               (append (mapcar (lambda (m) (propertize m 'sheet-annotation
                                                       " method"))
                               (plist-get result :methods))
                       (mapcar (lambda (h) (propertize h 'sheet-annotation
                                                       " header"))
                               (plist-get result :headers)))))))
      (when candidates
        (append
         (list (nth 1 context) (point) (append candidates nil)
               :exclusive 'no
               :annotation-function #'sheet--completion-annotate)
         (and (eq (car context) 'http-variable)
              (list :exit-function #'sheet--close-braces)))))))

(defun sheet--close-braces (_name status)
  "Close the `{{' of a completed `.http' variable name with `}}'.
STATUS `finished' (the name is complete), and only when `}}' does
not follow already, as VS Code REST Client's completion does."
  (when (and (eq status 'finished) (not (looking-at-p "}}")))
    (insert "}}")))

(provide 'sheet-complete)
;;; sheet-complete.el ends here
