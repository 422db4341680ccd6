;;; sheet-environment.el --- .http environments  -*- lexical-binding: t; -*-

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

;; The environment of a `.http' buffer in `sheet-mode' (docs/http-files.md
;; "Environments"), loaded by sheet-mode: `sheet-set-environment' (C-c C-e,
;; in sheet-mode.el) chooses one of the names the engine finds in the
;; environment files above the buffer's file (JetBrains
;; `http-client.env.json' and its private file, VS Code's
;; `rest-client.environmentVariables' in `.vscode/settings.json'; method
;; `sheet/environments', docs/protocol.md).  The choice is sent as `env'
;; with each `sheet/send', `sheet/curl' and `sheet/variables' of the
;; buffer (`sheet-environment-params'), given to `sheet run' as `--env'
;; (C-c C-t), and shown in the mode line.  The choice is remembered per
;; project (the directory of the nearest environment file) for the
;; Emacs session: a buffer of the same project that has not chosen
;; takes it at its first command (issue 22 item 6).

;;; Code:

(require 'subr-x)

(declare-function sheet-engine--request "sheet-engine"
                  (method params &optional lisp))

(defvar-local sheet-environment nil
  "The environment of this `.http' buffer's requests, a name or nil.
nil: only the `$shared' values of the environment files apply.
Set it with \\[sheet-set-environment]; it may also be a file-local
variable (`-*- sheet-environment: \"dev\" -*-').")
;;;###autoload
(put 'sheet-environment 'safe-local-variable #'string-or-null-p)

(defvar sheet-environment--by-project (make-hash-table :test #'equal)
  "The environment chosen in each project in this Emacs session.
A project is the directory of the nearest environment file; the value
is the name, or `none' when no environment was chosen there.")

(defvar-local sheet-environment--project nil
  "This buffer's project (a directory), `none' when it has none.
nil: not known yet.  Set from the engine's `sheet/environments'.")

(defun sheet-environment--note-project (result)
  "Note this buffer's project from RESULT, a `sheet/environments' answer."
  (let ((files (append (plist-get result :files) nil)))
    (setq sheet-environment--project
          (if files (file-name-directory (car files)) 'none))))

(defun sheet-environment-names ()
  "The environment names defined for the current buffer's file, sorted.
Asked of the engine (`sheet/environments'); an empty list when
there are no environment files.  Signal a `user-error' naming the
file and line when an environment file is not valid JSON."
  (let ((result (sheet-engine--request
                 'sheet/environments
                 (and buffer-file-name (list :path buffer-file-name)))))
    (sheet-environment--note-project result)
    (append (plist-get result :names) nil)))

(defun sheet-environment--adopt ()
  "Take the project's environment when this buffer has not chosen one.
Only `.http' and `.rest' buffers, and only once some buffer chose an
environment in this session: otherwise nothing is asked of the engine.
A buffer has chosen when `sheet-environment' is set in it (by
\[sheet-set-environment] or as a file-local variable)."
  (when (and buffer-file-name
             (not (local-variable-p 'sheet-environment))
             (> (hash-table-count sheet-environment--by-project) 0)
             (string-match-p "\\.\\(?:http\\|rest\\)\\'" buffer-file-name))
    (unless sheet-environment--project
      (ignore-errors (sheet-environment-names)))
    (let ((name (and (stringp sheet-environment--project)
                     (gethash sheet-environment--project
                              sheet-environment--by-project))))
      (when name
        (setq sheet-environment (and (stringp name) name))
        (force-mode-line-update)))))

(defun sheet-environment-current ()
  "This buffer's environment, a name or nil, the project's when not chosen."
  (sheet-environment--adopt)
  sheet-environment)

(defun sheet-environment-params ()
  "The `env' parameter of this buffer's engine requests, as a plist."
  (let ((name (sheet-environment-current)))
    (and name (list :env name))))

(defun sheet-environment-mode-line ()
  "The mode line text naming this buffer's environment, or nil."
  (and sheet-environment (format " env:%s" sheet-environment)))

;; The command `sheet-set-environment' is in sheet-mode.el (its prefix).
(defun sheet-environment-read ()
  "Read an environment name for the current buffer, or nil for none.
Complete over `sheet-environment-names'; an empty answer is nil."
  (let ((names (sheet-environment-names)))
    (unless names
      (user-error "Sheet-mode: no environment file above %s \
\(http-client.env.json, or rest-client.environmentVariables in \
.vscode/settings.json)"
                  (or buffer-file-name default-directory)))
    (let ((name (completing-read
                 (format "Environment%s: "
                         (if sheet-environment
                             (format " (now %s; empty: none)"
                                     sheet-environment)
                           " (empty: none)"))
                 names nil t)))
      (and (not (string-empty-p name)) name))))

(defun sheet-environment-set (name)
  "Make NAME (a string, or nil for none) this buffer's environment.
Remembered for the buffer's project for the session."
  (setq sheet-environment (and name (not (string-empty-p name)) name))
  (unless sheet-environment--project
    (ignore-errors (sheet-environment-names)))
  (when (stringp sheet-environment--project)
    (puthash sheet-environment--project (or sheet-environment 'none)
             sheet-environment--by-project))
  (force-mode-line-update)
  (message "Sheet-mode: %s" (if sheet-environment
                                (format "environment %s" sheet-environment)
                              "no environment ($shared values only)"))
  sheet-environment)

(provide 'sheet-environment)
;;; sheet-environment.el ends here
