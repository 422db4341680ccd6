;;; sheet-session.el --- What outlives an engine  -*- lexical-binding: t; -*-

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

;; The engine keeps the session's variable overrides (values set by
;; `jq-set-var' hooks and `sheet-set-var'); an engine that dies, is
;; stuck or is restarted would forget them, and the next request
;; would go out with `:token' unresolved.  Emacs keeps a copy: each
;; override the engine reports (a send's `hooks.setVars') or Emacs
;; sets is noted here, and a new engine gets them all
;; (`sheet/setVar') before it serves anything.  The environment of a
;; `.http' buffer and its `# @prompt' answers need nothing here: they
;; live in Emacs and go with every request.
;;
;; The session's cookies too: without `sheet-cookie-jar-file' the
;; engine is given a cookie file of Emacs's session
;; (`sheet-session-cookie-file', in a private directory made by Emacs
;; and deleted when it exits), which the engine writes after each
;; response that changed a cookie, so a new engine starts with the
;; cookies the last one had, as url.el keeps cookies for the Emacs
;; session.  Loaded by sheet-engine.el.

;;; Code:

(require 'jsonrpc)
(require 'seq)

(defvar sheet-session--overrides nil
  "The session's variable overrides as Emacs knows them, newest first.
An alist (NAME . VALUE), NAME with its colon; what a new engine is
given.  Shared by every sheet, as the engine's overrides are.")

(defun sheet-session-note (name value)
  "Note that the engine's override NAME (\":token\") is now VALUE."
  (setq sheet-session--overrides
        (cons (cons name value)
              (assoc-delete-all name sheet-session--overrides))))

(defun sheet-session-note-all (set-vars)
  "Note SET-VARS, the engine's list of plists (:name :value)."
  (seq-doseq (v set-vars)
    (sheet-session-note (plist-get v :name) (plist-get v :value))))

(defun sheet-session-overrides ()
  "The overrides a new engine is given, oldest first."
  (reverse sheet-session--overrides))

(defvar sheet-session--cookie-dir nil
  "The private directory of the session's cookie file, or nil before one.")

(defun sheet-session--delete-cookie-dir ()
  "Delete the session's cookie directory, and with it its cookies."
  (when sheet-session--cookie-dir
    (ignore-errors (delete-directory sheet-session--cookie-dir t))
    (setq sheet-session--cookie-dir nil)))

(defun sheet-session-cookie-file ()
  "The cookie file of Emacs's session, for an engine without another.
A file name in a directory only this user can read (mode 0700),
made on first use under the variable `temporary-file-directory' and
deleted when Emacs exits or the session ends (`sheet-session-forget').
The engine creates the file (mode 0600) with the first cookie."
  (unless (and sheet-session--cookie-dir
               (file-directory-p sheet-session--cookie-dir))
    (setq sheet-session--cookie-dir
          (with-file-modes #o700 (make-temp-file "sheet-session" t)))
    (add-hook 'kill-emacs-hook #'sheet-session--delete-cookie-dir))
  (expand-file-name "cookies.txt" sheet-session--cookie-dir))

(defun sheet-session-cookie-count ()
  "Return the number of cookies in the session's cookie file (0: none)."
  (let ((file (and sheet-session--cookie-dir
                   (expand-file-name "cookies.txt"
                                     sheet-session--cookie-dir))))
    (if (not (and file (file-readable-p file)))
        0
      (with-temp-buffer
        (insert-file-contents file)
        ;; Netscape format: `#' starts a comment, except `#HttpOnly_'.
        (how-many "^\\(?:#HttpOnly_\\|[^#\n]\\)" (point-min) (point-max))))))

(defun sheet-session-forget ()
  "Forget the session's overrides and cookies.
The engine was stopped on purpose (`sheet-engine-shutdown')."
  (setq sheet-session--overrides nil)
  (sheet-session--delete-cookie-dir))

(defun sheet-session-restore (conn timeout)
  "Give the engine of CONN the session's overrides; return how many.
Each is one `sheet/setVar', answered within TIMEOUT seconds.  One
the engine refuses (a bad name given to `sheet-set-var') is
forgotten; the others are given all the same."
  (let ((n 0))
    (pcase-dolist (`(,name . ,value) (sheet-session-overrides))
      (condition-case err
          (progn
            (jsonrpc-request conn 'sheet/setVar (list :name name :value value)
                             :timeout timeout)
            (setq n (1+ n)))
        (jsonrpc-error
         ;; -32001: the engine's own error (docs/protocol.md), here
         ;; `bad-argument'; a time-out or a dead engine is not that.
         (if (eql (alist-get 'jsonrpc-error-code (cdr err)) -32001)
             (setq sheet-session--overrides
                   (assoc-delete-all name sheet-session--overrides))
           (signal (car err) (cdr err))))))
    n))

(provide 'sheet-session)
;;; sheet-session.el ends here
