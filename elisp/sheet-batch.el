;;; sheet-batch.el --- Lisp of sheet run, in batch  -*- lexical-binding: t; -*-

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

;; Evaluate sheet Lisp forms for `sheet run' in batch mode.
;;
;; `sheet run' (engine/src/sheet-command/) starts one
;;   `emacs --batch -Q -L elisp -l sheet-batch -f sheet-batch-loop'
;; per run and hands it the sheet's Lisp: the forms of `:=' variables and of
;; `-> run-hook' hooks.  The protocol is one JSON object a line each way:
;;   in:  {"id": 1, "form": "(+ 1 2)", "body": "...",
;;         "vars": {":a": "x"}}
;;   out: SHEET-BATCH {"id": 1, "ok": t, "value": "3",
;;                     "setVars": [[":n", "1"]]}
;; (each object on one line).  A form with a "body" (a run-hook) is
;; evaluated in a buffer holding the response body, point at its start,
;; as sheet-mode does in the response buffer; there `sheet-set-var'
;; records a variable for the requests below and `sheet-get-var' reads
;; the run's variables.  Anything else printed on stdout is not a
;; protocol line.  sheet-mode is loaded first when it is on the
;; `load-path', so the user's forms see its functions.

;;; Code:

(require 'cl-lib)
(require 'json)
(require 'sheet-mode nil t)

(defvar sheet-batch--set-vars nil
  "Variables set by `sheet-set-var' during the current form, newest first.")

(defvar sheet-batch--vars nil
  "The run's variables for the current form, an alist of (NAME . VALUE).")

(defun sheet-batch--name (name)
  "NAME (\":token\") with its colon; restclient.el accepts \"token\" too."
  (unless (and (stringp name) (not (string-empty-p name)))
    (error "A variable name is a string such as \":token\": %S" name))
  (if (string-prefix-p ":" name) name (concat ":" name)))

(defun sheet-batch--set-var (name value)
  "Record NAME (\":token\") as VALUE for the requests below.
The batch `sheet-set-var'."
  (push (list (sheet-batch--name name)
              (if (stringp value) value (format "%s" value)))
        sheet-batch--set-vars)
  value)

(defun sheet-batch--get-var (name)
  "The run's value of the variable NAME, or nil (batch `sheet-get-var').
In a `:=' form, the variables above it; in a `run-hook' form, the
values its request used and what its hooks set: what
`sheet-get-var' answers in Emacs."
  (let ((name (sheet-batch--name name)))
    (or (cadr (assoc name sheet-batch--set-vars))
        (cdr (assoc name sheet-batch--vars)))))

;; restclient.el's names, for sheets written for it, as sheet-mode.el
;; defines them: `sheet run' loads this file alone, without
;; sheet-mode.el, so here.  They call `sheet-get-var'
;; and `sheet-set-var', which `sheet-batch-eval' binds to the run's.
(dolist (names '((restclient-get-var . sheet-get-var)
                 (restclient-set-var . sheet-set-var)))
  (unless (fboundp (car names))
    (defalias (car names) (cdr names))))

(defun sheet-batch-eval (form body vars)
  "Evaluate the Lisp FORM (a string) and return its value as a string.
BODY, when non-nil, is the response body: FORM runs in a buffer
holding it, point at the start.  VARS is an alist (NAME . VALUE) of
the run's variables.  Returns (VALUE . SET-VARS), SET-VARS the list of
\(NAME VALUE) given to `sheet-set-var', in order."
  (let ((sheet-batch--set-vars nil)
        (sheet-batch--vars vars))
    (cl-letf (((symbol-function 'sheet-set-var) #'sheet-batch--set-var)
              ((symbol-function 'sheet-get-var) #'sheet-batch--get-var))
      (let ((value (with-temp-buffer
                     (when body (insert body) (goto-char (point-min)))
                     (eval (car (read-from-string form)) t))))
        (cons (if (stringp value) value (format "%s" value))
              (nreverse sheet-batch--set-vars))))))

(defun sheet-batch--answer (alist)
  "Print ALIST as one protocol line on stdout."
  (princ (concat "SHEET-BATCH " (json-encode alist) "\n")))

(defun sheet-batch-loop ()
  "Answer evaluation requests from stdin, one JSON object a line, to its end."
  (let ((coding-system-for-write 'utf-8))
    (while t
      (let ((line (condition-case nil
                      (read-from-minibuffer "")
                    (error (kill-emacs 0)))))
        (unless (string-empty-p (string-trim line))
          (let* ((req (json-parse-string line :object-type 'alist
                                         :null-object nil))
                 (id (alist-get 'id req)))
            (condition-case err
                (let ((r (sheet-batch-eval
                          (alist-get 'form req) (alist-get 'body req)
                          (mapcar (lambda (c)
                                    (cons (symbol-name (car c)) (cdr c)))
                                  (alist-get 'vars req)))))
                  (sheet-batch--answer
                   `((id . ,id) (ok . t) (value . ,(car r))
                     (setVars . ,(vconcat (mapcar #'vconcat (cdr r)))))))
              (error (sheet-batch--answer
                      `((id . ,id) (ok . :json-false)
                        (error . ,(error-message-string err))))))))))))

(provide 'sheet-batch)
;;; sheet-batch.el ends here
