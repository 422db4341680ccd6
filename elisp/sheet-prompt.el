;;; sheet-prompt.el --- Answers to # @prompt lines  -*- lexical-binding: t; -*-

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

;; The answers to the `# @prompt name' lines of `.http' requests:
;; read in the minibuffer before a send, a C-c C-u or a C-c C-t
;; (secret-looking names with `read-passwd'), and kept out of
;; *Messages* in clear (`sheet--mask-secrets').  Loaded by
;; sheet-send.el.

;;; Code:

(require 'seq)
(require 'subr-x)
(require 'sheet-custom)
(require 'jsonrpc)
(require 'sheet-engine)
(require 'sheet-outline)      ; `sheet--request-at'

(declare-function sheet--location-params "sheet-mode" ())

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
  (when (sheet--mentions-prompt-p)
    (let ((prompts (plist-get (sheet--request-at) :prompts)))
      (when (> (length prompts) 0)
        (sheet--check-before-prompts prompts))
      (let ((answers (sheet--ask-prompts prompts)))
        (and answers (list :prompts answers))))))

(defconst sheet--errors-before-prompts '("unknown-variable" "bad-environment")
  "Engine error codes that stop a send before its prompts are asked.
They cannot come from the answers: a variable no source defines, an
environment that is not there (issue 22 item 6).")

(defun sheet--check-before-prompts (prompts &optional location)
  "Signal a `user-error' when the request at point fails whatever the answers.
PROMPTS are its `# @prompt' lines (outline plists).  LOCATION: the
engine's text, line and file of the request, the buffer's at point
when nil (`sheet--location-params').  The engine
resolves the request (`sheet/curl') with each prompt answered by its
own name; an error in `sheet--errors-before-prompts' is reported
before any question is asked.  Other errors may come from the
placeholder answers, and are left to the send."
  (let ((conn (sheet-engine--ensure))
        (placeholders
         (seq-mapcat (lambda (p)
                       (list (intern (concat ":" (plist-get p :name)))
                             (plist-get p :name)))
                     prompts)))
    (condition-case err
        (jsonrpc-request conn 'sheet/curl
                         (append (or location (sheet--location-params))
                                 (list :prompts placeholders))
                         :timeout sheet-request-timeout)
      (jsonrpc-error
       (when (member (sheet-engine--error-code err)
                     sheet--errors-before-prompts)
         (user-error "Sheet-mode: %s" (sheet-engine--error-text err)))))))

(defvar sheet--log-secrets nil
  "While a send's answer is reported: the answers to its secret prompts.
`sheet--mask-secrets' hides them in what goes to *Messages*.")

(defun sheet--secret-answers (given)
  "List the non-empty secret answers in GIVEN.
GIVEN is what `sheet--prompt-answers' returns; an answer is secret
when `sheet-prompt-secret-regexp' matches its name."
  (let ((answers (plist-get given :prompts))
        (case-fold-search t)
        secrets)
    (while answers
      (when (and (string-match-p sheet-prompt-secret-regexp
                                 (substring (symbol-name (car answers)) 1))
                 (not (string-empty-p (cadr answers))))
        (push (cadr answers) secrets))
      (setq answers (cddr answers)))
    secrets))

(defun sheet--secret-regexp (secret)
  "A regexp matching SECRET with any of its characters percent-encoded.
A URL holds a secret with some characters encoded (a space as %20)
and others not (@), whichever encoder made it."
  (mapconcat (lambda (c)
               (concat "\\(?:" (regexp-quote (string c)) "\\|"
                       (mapconcat (lambda (b) (format "%%%02X" b))
                                  (encode-coding-string (string c) 'utf-8)
                                  "")
                       "\\)"))
             secret ""))

(defun sheet--mask-secrets (text)
  "TEXT with each of `sheet--log-secrets' replaced by ****.
A secret is replaced as written and with any of its characters
percent-encoded (as in a URL), in any case."
  (let ((case-fold-search t))
    (dolist (secret sheet--log-secrets text)
      (setq text (replace-regexp-in-string (sheet--secret-regexp secret)
                                           "****" text t t)))))

(defun sheet--mentions-prompt-p ()
  "Non-nil when the buffer mentions `@prompt' anywhere (narrowing aside)."
  (save-excursion
    (save-restriction
      (widen)
      (goto-char (point-min))
      (search-forward "@prompt" nil t))))

(defun sheet--ask-prompts (prompt-list &optional answers)
  "Read an answer to each of PROMPT-LIST (outline plists) ANSWERS lacks.
Return ANSWERS, a plist (:NAME ANSWER ...), with the new answers
appended in order; each name is asked once."
  (seq-doseq (prompt prompt-list)
    (let ((key (intern (concat ":" (plist-get prompt :name)))))
      (unless (plist-member answers key)
        (setq answers
              (append answers (list key (sheet--read-prompt prompt)))))))
  answers)

(provide 'sheet-prompt)
;;; sheet-prompt.el ends here
