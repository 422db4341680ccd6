;;; sheet-import.el --- Import Postman and OpenAPI  -*- lexical-binding: t; -*-

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

;; M-x sheet-import: a Postman collection or environment, an OpenAPI or
;; Swagger spec, or a HAR file (or a directory of them) as `.http' files,
;; through the engine's `sheet import' (docs/import.md), run in the
;; background.  When it is done, the first file it wrote is opened; the
;; warnings (one per thing not carried, with where it was) are shown in
;; the buffer `*sheet-import*'.  Nothing is written when a source is bad:
;; the engine's message, with the file and line, is the error.

;;; Code:

(require 'seq)
(require 'subr-x)
(require 'sheet-run)

(declare-function sheet-mode "sheet-mode")

(defcustom sheet-import-buffer-name "*sheet-import*"
  "Name of the buffer that shows what `sheet-import' wrote and warned about."
  :type 'string
  :group 'sheet)

(defun sheet-import--written (output)
  "The files named by the \"wrote FILE (...)\" lines of OUTPUT, in order."
  (let (files (start 0))
    (while (string-match "^wrote \\(.+?\\)\\(?: ([0-9]+ requests?)\\)?$"
                         output start)
      (push (match-string 1 output) files)
      (setq start (match-end 0)))
    (nreverse files)))

(defun sheet-import--finish (status out err outdir callback)
  "Report the end of an import: exit STATUS, stdout OUT, stderr ERR.
Files are relative to OUTDIR.  CALLBACK gets the files written."
  (let* ((files (mapcar (lambda (f) (expand-file-name f outdir))
                        (sheet-import--written out)))
         (requests (seq-filter
                    (lambda (f) (string-match-p "\\.\\(http\\|sheet\\)\\'" f))
                    files)))
    (with-current-buffer (get-buffer-create sheet-import-buffer-name)
      (let ((inhibit-read-only t))
        (erase-buffer)
        (insert out err)
        (goto-char (point-min))
        (special-mode)))
    (cond
     ((eq status 2)
      (message "sheet import: %s"
               (string-trim (car (split-string err "\n" t)) "sheet import: ")))
     ((memq status '(0 1))
      (when (eq status 1) (display-buffer sheet-import-buffer-name))
      (when requests
        (find-file (car requests))
        ;; What was imported is for sending: sheet-mode, even where `.http'
        ;; files are not in `auto-mode-alist' (the user's opt-in).
        (unless (derived-mode-p 'sheet-mode) (sheet-mode)))
      (message "sheet import: wrote %d file%s%s" (length files)
               (if (= (length files) 1) "" "s")
               (if (eq status 1) "; warnings in *sheet-import*" ""))
      (when callback (funcall callback files)))
     (t (display-buffer sheet-import-buffer-name)
        (message "sheet import failed (exit %s); see %s"
                 status sheet-import-buffer-name)))))

;;;###autoload
(defun sheet-import (source outdir &optional to-sheet callback)
  "Import SOURCE (a file or a directory) into OUTDIR with `sheet import'.
SOURCE is a Postman collection or environment, an OpenAPI or Swagger
spec, a HAR file, or a Bruno collection folder (with bruno.json);
OUTDIR receives `.http' files and
http-client.env.json (secrets in http-client.private.env.json).
With a prefix argument TO-SHEET, sheets are written instead.  The
import runs in the background; then the first file written is
visited, and warnings are shown in `sheet-import-buffer-name'.
CALLBACK, when non-nil, is called with the list of files written.
An existing `.http' file of the same name is an error (nothing is
written)."
  (interactive
   (let* ((src (read-file-name
                "Import (Postman, OpenAPI, HAR, Bruno folder): " nil nil t))
          (dir (read-directory-name
                "Write the .http files into: "
                (file-name-directory
                 (directory-file-name (expand-file-name src))))))
     (list src dir current-prefix-arg)))
  (let* ((outdir (file-name-as-directory (expand-file-name outdir)))
         (command (append (sheet-run--command)
                          (list "import" (expand-file-name source) "-o" ".")
                          (when to-sheet (list "--to" "sheet"))))
         (out (generate-new-buffer " *sheet-import-out*"))
         (err (generate-new-buffer " *sheet-import-err*")))
    (make-directory outdir t)
    (let ((default-directory outdir))
      (make-process
       :name "sheet-import" :buffer out :stderr err :command command
       :noquery t :connection-type 'pipe
       :sentinel
       (lambda (proc _event)
         (unless (process-live-p proc)
           ;; The stderr pipe may still hold output: let it drain first.
           (accept-process-output nil 0.05)
           (let ((o (with-current-buffer out (buffer-string)))
                 (e (with-current-buffer err (buffer-string))))
             (kill-buffer out)
             (kill-buffer err)
             (sheet-import--finish (process-exit-status proc)
                                   o e outdir callback))))))))

(provide 'sheet-import)
;;; sheet-import.el ends here
