;;; sheet-code.el --- Copy the request as code  -*- lexical-binding: t; -*-

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

;; `sheet-copy-as-code' (C-c C-S-u, or C-u C-c C-u): the request at
;; point as code in another language or tool, copied to the kill ring
;; (issue 25 item 7): Python requests, JavaScript fetch, Go net/http,
;; HTTPie, PowerShell and the other targets of the engine's snippet
;; library (`sheet/code', engine/src/snippet/; the same resolved
;; request as C-c C-u's curl command).  The target is read with
;; completion, the last one offered first (`sheet-code-target').
;; `sheet export --to TARGET FILE:LINE' prints the same from a shell.
;; Loaded by sheet-mode.el.

;;; Code:

(require 'sheet-custom)
(require 'sheet-engine)

(declare-function sheet--location-params "sheet-mode" ())
(declare-function sheet--prompt-answers "sheet-prompt" ())

(defvar sheet--code-targets nil
  "The engine's `sheet/codeTargets': a list of (NAME . TITLE).")

(defvar sheet--code-history nil
  "Targets picked by `sheet-copy-as-code', most recent first.")

(defun sheet--code-targets ()
  "The targets the engine knows, asked once a session."
  (or sheet--code-targets
      (setq sheet--code-targets
            (mapcar (lambda (target)
                      (cons (plist-get target :name)
                            (plist-get target :title)))
                    (plist-get
                     (sheet-engine--request 'sheet/codeTargets nil)
                     :targets)))))

(defun sheet--read-code-target ()
  "Read a code target with completion, `sheet-code-target' first."
  (let* ((targets (sheet--code-targets))
         (completion-extra-properties
          (list :annotation-function
                (lambda (name)
                  (let ((title (cdr (assoc name targets))))
                    (if title (concat "  " title) ""))))))
    (completing-read (format-prompt "Copy request as" sheet-code-target)
                     targets nil t nil 'sheet--code-history
                     sheet-code-target)))

(defun sheet-copy-as-code (target)
  "Copy the request at point, as code for TARGET, to the kill ring.
TARGET is a name the engine knows: \"python\" (Requests),
\"javascript\" (fetch), \"go\", \"httpie\", \"powershell\",
\"curl\", ... (`sheet export --list').  Interactively it is read
with completion.  Variables are substituted as for sending, `:='
forms evaluated.  Return the code."
  (interactive (list (sheet--read-code-target)))
  (let* ((result (sheet-engine--request
                  'sheet/code
                  (append (sheet--location-params)
                          (sheet--prompt-answers)
                          (list :target target))
                  t))
         (code (plist-get result :code)))
    (setq sheet-code-target target)
    (kill-new code)
    (message "Request copied as %s (%d lines)" target
             (length (split-string code "\n" t)))
    code))

(provide 'sheet-code)
;;; sheet-code.el ends here
