;;; sheet-eldoc.el --- Eldoc for sheets  -*- lexical-binding: t; -*-

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

;; `sheet-eldoc-function', on `eldoc-documentation-functions' in
;; sheet-mode buffers (issue 25 item 3): on a variable (`:name', or
;; `{{name}}' in a `.http' file) its value and where it comes from
;; (its declaration line, an override set by a hook or
;; `sheet-set-var', the environment: its value from the first
;; look-up, masked when a private environment file gives it); on a
;; request line the URL after substitution.  The engine answers
;; asynchronously (`sheet/variables' and `sheet/curl' with `lookup':
;; no `:=' form is evaluated, no pre-request script runs), so Eldoc
;; never waits on it; nothing is shown while the engine is not
;; running.  Emacs only looks at the
;; text around point to know what point is on.  Loaded by
;; sheet-mode.el.

;;; Code:

(require 'jsonrpc)
(require 'seq)
(require 'subr-x)
(require 'sheet-engine)
(require 'sheet-sync)
(require 'sheet-environment)

(declare-function sheet--location-params "sheet-mode" ())
(defvar sheet--completions)

(defconst sheet--eldoc-request-line
  (concat "^" (regexp-opt '("GET" "POST" "PUT" "DELETE" "PATCH" "HEAD"
                            "OPTIONS" "TRACE"))
          "[ \t]+[^ \t\n]")
  "A request line, as font lock sees it (display only).")

(defun sheet--eldoc-variable-at-point ()
  "The variable name at point as a reference writes it, or nil.
`:name' (its colon included), or the NAME of `{{NAME}}'."
  (let ((bol (line-beginning-position))
        (eol (line-end-position)))
    (save-excursion
      (or (let ((open (save-excursion (search-backward "{{" bol t)))
                (close (save-excursion (search-forward "}}" eol t))))
            (and open close
                 (not (save-excursion (search-backward "}}" (+ open 2) t)))
                 (let ((name (string-trim
                              (buffer-substring-no-properties
                               (+ open 2) (- close 2)))))
                   (and (string-match-p "\\`[$A-Za-z0-9_.-]+\\'" name)
                        name))))
          (progn
            (skip-chars-backward "^ \t\n:=/?&#{}\"'" bol)
            (and (eq (char-before) ?:)
                 (or (= (1- (point)) bol)
                     (not (string-match-p "[[:alnum:]_.-]"
                                          (string (char-before
                                                   (1- (point)))))))
                 (let ((start (1- (point))))
                   (skip-chars-forward "^ \t\n:=/?&#{}\"'" eol)
                   (and (> (point) (1+ start))
                        (buffer-substring-no-properties start (point))))))))))

(defun sheet--eldoc-describe (name result)
  "The Eldoc line of variable NAME from RESULT, a `sheet/variables' answer."
  (let ((override (seq-find (lambda (o) (equal (plist-get o :name)
                                               (if (string-prefix-p ":" name)
                                                   name
                                                 (concat ":" name))))
                            (plist-get result :overrides)))
        (declared (seq-find (lambda (v) (equal (plist-get v :name) name))
                            (plist-get result :variables)))
        (env (seq-find (lambda (v) (equal (plist-get v :name) name))
                       (plist-get result :environment)))
        (source (seq-find (lambda (v) (equal (plist-get v :name) name))
                          (plist-get (plist-get sheet--completions :result)
                                     :variables))))
    (cond
     (override
      (format "%s = %s  (override: set by a hook or sheet-set-var)"
              name (plist-get override :value)))
     (declared
      (format "%s = %s  (line %s)" name
              (or (plist-get declared :value)
                  (format "[%s]" (plist-get declared :error)))
              (plist-get declared :line)))
     (env
      (format "%s = %s  (%sfrom the environment%s)" name
              (cond ((plist-get env :secret) "********")
                    ((plist-get env :value))
                    (t (format "[%s]" (plist-get env :error))))
              (if (plist-get env :secret) "secret, " "")
              (let ((current (sheet-environment-current)))
                (if current (format " %s" current) ", $shared"))))
     ((equal (plist-get source :source) "environment")
      (format "%s  (from the environment%s)" name
              (let ((env (sheet-environment-current)))
                (if env (format " %s" env) ", $shared"))))
     ((equal (plist-get source :source) "system")
      (format "%s  (system variable%s)" name
              (let ((args (plist-get source :args)))
                (if args (format ": {{%s %s}}" name args) ""))))
     (t (format "%s is not defined here" name)))))

(defun sheet--eldoc-ask (method params success callback &optional retried)
  "Ask the engine METHOD with PARAMS; pass SUCCESS's text to CALLBACK.
SUCCESS is called with the answer in the buffer that asked; an
error answer shows its message.  The text goes as its changes
since the last look-up (sheet-sync.el); RETRIED non-nil when the
engine's copy was out of step once.  Return non-nil when asked."
  (let ((conn (and (sheet-engine-process) sheet-engine--connection))
        (buf (current-buffer)))
    (when conn
      (jsonrpc-async-request
       conn method (append (sheet--doc-instead-of-text conn params)
                           (list :lookup t))
       :success-fn (lambda (result)
                     (when (buffer-live-p buf)
                       (with-current-buffer buf
                         (funcall callback (funcall success result)))))
       :error-fn (lambda (err)
                   (if (and (not retried) (buffer-live-p buf)
                            (with-current-buffer buf (sheet--doc-stale-p err)))
                       (with-current-buffer buf
                         (sheet--eldoc-ask method params success callback t))
                     (funcall callback (sheet-engine--error-text err))))
       :timeout-fn #'ignore
       :timeout sheet-request-timeout)
      t)))

(defun sheet-eldoc-function (callback &rest _)
  "Show the value of the variable at point or the URL of the request line.
For `eldoc-documentation-functions': CALLBACK gets the text once the
engine answers."
  (let ((name (sheet--eldoc-variable-at-point)))
    (cond
     (name
      (sheet--eldoc-ask 'sheet/variables
                        (let ((params (sheet--location-params)))
                          ;; On its declaration a variable is asked below it.
                          (if (save-excursion
                                (beginning-of-line)
                                (looking-at-p "[:@][^ \t\n=]+[ \t]*:?="))
                              (plist-put params :line
                                         (1+ (plist-get params :line)))
                            params))
                        (lambda (result) (sheet--eldoc-describe name result))
                        callback))
     ((save-excursion (beginning-of-line)
                      (looking-at-p sheet--eldoc-request-line))
      (sheet--eldoc-ask 'sheet/curl (sheet--location-params)
                        (lambda (result)
                          (format "URL: %s" (plist-get result :url)))
                        callback)))))

(provide 'sheet-eldoc)
;;; sheet-eldoc.el ends here
