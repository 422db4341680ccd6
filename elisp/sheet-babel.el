;;; sheet-babel.el --- Org Babel blocks' text  -*- lexical-binding: t; -*-

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

;; The two ends of an Org Babel `sheet' block (ob-sheet.el): the text
;; the engine is given (the block's body after its `:var' values,
;; `:name = value' lines, or `@name = value' with `:syntax http',
;; under the marker line that names the syntax), and the result made
;; from the engine's answer to `sheet/send': the body as C-c C-c shows
;; it, or the `:jq' filter's output, with restclient.el's trailer as
;; comment lines of the body's mode, wrapped in a source block as
;; ob-restclient does; the body saved to `:file'.  The header
;; arguments are ob-restclient's (github.com/alf/ob-restclient.el)
;; and the ones docs/sheet-mode.md "Org Babel" lists.

;;; Code:

(require 'seq)
(require 'subr-x)
(require 'sheet-response)     ; mode, trailer, comment lines
(require 'sheet-body)         ; `sheet--insert-body'

(declare-function org-escape-code-in-string "org-src" (s))
(declare-function org-babel-string-read "ob-core" (cell))

(defun sheet-babel--flag (params key)
  "Non-nil when the header argument KEY is in PARAMS and not \"no\".
`:raw' alone (no value) counts, as ob-restclient's `:noheaders'."
  (let ((cell (assq key params)))
    (and cell (not (member (format "%s" (or (cdr cell) ""))
                           '("no" "nil"))))))

(defun sheet-babel--syntax (params)
  "The syntax of the block from `:syntax' in PARAMS: `sheet' or `http'.
Signal an error naming the value when it is neither (`restclient'
is `sheet')."
  (let ((v (format "%s" (or (cdr (assq :syntax params)) "sheet"))))
    (pcase v
      ((or "sheet" "restclient") 'sheet)
      ("http" 'http)
      (_ (error ":syntax %s: use sheet (restclient's syntax) or http" v)))))

(defun sheet-babel-var-lines (params)
  "The declarations of the block's `:var' values in PARAMS, a string.
`:name = value' lines (a value of several lines as `:name = <<' up
to a `#' line, as ob-restclient writes them), or `@name = value'
with `:syntax http'.  Signal an error for a value of several lines
in `.http' syntax, which cannot hold one."
  (let ((http (eq (sheet-babel--syntax params) 'http)))
    (mapconcat
     (lambda (pair)
       (let ((name (car pair))
             (value (if (stringp (cdr pair)) (cdr pair)
                      (format "%S" (cdr pair)))))
         (cond
          ((and http (string-match-p "\n" value))
           (error ":var %s has several lines; .http variables hold one \
\(use :syntax sheet)" name))
          (http (format "@%s = %s\n" name value))
          ((string-match-p "\n" value)
           (format ":%s = <<\n%s\n#\n" name value))
          (t (format ":%s = %s\n" name value)))))
     (seq-filter (lambda (p) (car p))
                 (mapcar #'cdr (seq-filter (lambda (p) (eq (car p) :var))
                                           params)))
     "")))

(defun sheet-babel-text (body params)
  "The sheet text the engine is given for the block BODY with PARAMS.
Its first line names the syntax (docs/http-files.md, \"Which
parser\"), the `:var' declarations follow, then BODY.  Return
\(TEXT . N), N the number of lines before BODY."
  (let ((head (concat (format "# -*- sheet-syntax: %s -*-\n"
                              (sheet-babel--syntax params))
                      (sheet-babel-var-lines params))))
    (cons (concat head body "\n")
          (with-temp-buffer (insert head) (1- (line-number-at-pos))))))

(defun sheet-babel-jq (params)
  "The `jq' field of `sheet/send' for PARAMS' `:jq' and `:jq-args', or nil.
`:jq-args' is split as a shell would (`split-string-and-unquote')."
  (let ((filter (cdr (assq :jq params)))
        (args (cdr (assq :jq-args params))))
    (when filter
      (list :filter (format "%s" filter)
            :args (vconcat (and args (split-string-and-unquote
                                      (format "%s" args))))))))

(defun sheet-babel-pure-p (params)
  "Non-nil when PARAMS ask for the body alone, unwrapped.
As ob-restclient: `:results' holding `value' or `table'."
  (let ((results (cdr (assq :results params))))
    (and results (string-match-p "value\\|table" results))))

(defun sheet-babel--lang (mode)
  "The source block language of the major MODE, as ob-restclient names it."
  (string-remove-suffix "-mode" (symbol-name mode)))

(defun sheet-babel--wrap (lang text)
  "TEXT in a `#+begin_src LANG' block, escaped for Org."
  (require 'org-src)
  (format "#+begin_src %s\n%s%s#+end_src\n" lang
          (org-escape-code-in-string text)
          (if (or (string-empty-p text) (string-suffix-p "\n" text)) "" "\n")))

(defun sheet-babel--commented (mode text lines &optional result)
  "TEXT followed by LINES as comments in the syntax of MODE.
Then RESULT's `client.log' block, as the response buffer shows it
\(`sheet--insert-log-lines').  Made in a temporary buffer in MODE
\(its hooks delayed, not run)."
  (with-temp-buffer
    (insert text)
    (delay-mode-hooks (funcall mode))
    (unless comment-start (setq-local comment-start "# "))
    (goto-char (point-max))
    (unless (or (bobp) (bolp)) (insert "\n"))
    (sheet--insert-comment-lines lines)
    (when result (sheet--insert-log-lines result))
    (buffer-substring-no-properties (point-min) (point-max))))

(defun sheet-babel--body (result raw)
  "Return the body of the engine's RESULT as text, as a send puts it.
RAW: the raw layout (status line, headers, the body untouched)."
  (with-temp-buffer
    (if raw
        (sheet--fill-raw result)
      (sheet--insert-body (plist-get result :presentation) nil))
    (buffer-substring-no-properties (point-min) (point-max))))

(defun sheet-babel--csv-rows (text)
  "The rows of TEXT, comma-separated values as RFC 4180 writes them.
A list of rows, each a list of cells: a quoted cell (jq's `@csv'
quotes strings) is a string, its doubled quotes undoubled and its
commas and line breaks kept; an unquoted cell that reads as a
number is that number, else a string.  Org's own reader
\(`org-table-convert-region') drops the quotes of \"\"hi\"\"."
  (let ((pos 0) (len (length text)) rows row)
    (while (< pos len)
      (let (cell quoted)
        (if (eq (aref text pos) ?\")
            (let ((parts nil) (start (1+ pos)) (end nil))
              (setq quoted t pos (1+ pos))
              (while (not end)
                (let ((q (string-search "\"" text pos)))
                  (cond
                   ((null q) (push (substring text start) parts)
                    (setq end len pos len))
                   ((and (< (1+ q) len) (eq (aref text (1+ q)) ?\"))
                    (push (substring text start (1+ q)) parts)
                    (setq start (+ q 2) pos (+ q 2)))
                   (t (push (substring text start q) parts)
                      (setq end q pos (1+ q))))))
              (setq cell (apply #'concat (nreverse parts))))
          (let ((stop (or (string-match "[,\n]" text pos) len)))
            (setq cell (string-trim-right (substring text pos stop) "\r")
                  pos stop)))
        (push (if (and (not quoted)
                       (string-match-p
                        "\\`-?[0-9]+\\(?:\\.[0-9]+\\)?\\'" cell))
                  (string-to-number cell)
                cell)
              row)
        (cond
         ((>= pos len) (push (nreverse row) rows) (setq row nil))
         ((eq (aref text pos) ?,) (setq pos (1+ pos))
          (when (= pos len) (push "" row)))
         (t (push (nreverse row) rows)
            (setq row nil pos (1+ pos))))))
    (when row (push (nreverse row) rows))
    (nreverse rows)))

(defun sheet-babel--table (text)
  "Return TEXT (comma-separated lines) as a list of rows, as ob-restclient.
One row of one cell is that cell."
  (let ((rows (sheet-babel--csv-rows text)))
    (pcase rows
      ('nil nil)
      (`((,scalar)) scalar)
      (`(,scalar) scalar)
      (_ rows))))

(defun sheet-babel-save (result file)
  "Write the body of the engine's RESULT to FILE; return FILE.
The body as received (the send was raw): text written in its
charset (UTF-8 when it has none or Emacs does not know it), bytes
as they came.  Written in full or not at all (a temporary file
renamed over FILE), with FILE's modes when it exists, else those
the umask gives a new file (`default-file-modes'), as `write-region'
would: the temporary file alone is private (0600)."
  (let* ((presentation (plist-get result :presentation))
         (charset (plist-get presentation :charset))
         (coding (or (and (equal (plist-get presentation :kind) "text")
                          charset
                          (let ((c (intern (downcase charset))))
                            (and (coding-system-p c) c)))
                     (if (equal (plist-get presentation :kind) "text")
                         'utf-8-unix
                       'no-conversion)))
         (file (expand-file-name file))
         (temp (make-temp-file (expand-file-name ".sheet-" (file-name-directory
                                                           file)))))
    (condition-case err
        (progn
          (with-temp-buffer
            (sheet--insert-body presentation t)
            (let ((coding-system-for-write coding))
              (write-region nil nil temp nil 'silent)))
          (set-file-modes temp (or (file-modes file)
                                   (logand #o666 (default-file-modes))))
          (rename-file temp file t))
      (error (ignore-errors (delete-file temp))
             (signal (car err) (cdr err))))
    file))

(defun sheet-babel-result (result params)
  "Return the block's result for the engine's RESULT, given PARAMS.
A string (or rows for `:results table').  The body pretty-printed,
or the raw layout with `:raw', or the `:jq' output; then, unless
the body is asked alone (`sheet-babel-pure-p'), restclient.el's
trailer (request, status line, headers, duration) as comment lines,
only the status line with `:noheaders' or `:jq', then the
`client.log' lines of a `.http' request (none with `:raw'), the
whole in a `#+begin_src LANG' block, LANG the body's mode (js, nxml, ...).  A
jq error is the result's first comment line."
  (let* ((raw (sheet-babel-raw-p params))
         (jq (plist-get result :jq))
         (jq-error (plist-get jq :error))
         (text (cond (jq (or (plist-get jq :output) ""))
                     (t (sheet-babel--body result raw))))
         (pure (sheet-babel-pure-p params))
         (mode (cond (raw #'fundamental-mode)
                     (jq (if (fboundp 'json-mode) 'json-mode #'js-mode))
                     (t (sheet--mode-for (plist-get result :presentation))))))
    (cond
     ((and pure jq-error) (concat "Error: " jq-error))
     ((and pure (member "table" (cdr (assq :result-params params))))
      (sheet-babel--table text))
     (pure text)
     (t
      (sheet-babel--wrap
       (if (eq mode 'fundamental-mode) "text" (sheet-babel--lang mode))
       (sheet-babel--commented
        mode text
        (append (and jq-error (list (concat "jq error: " jq-error)))
                (cond (raw nil)
                      ((or jq (sheet-babel--flag params :noheaders))
                       (list (sheet--status-line result)))
                      (t (sheet--trailer-lines result))))
        (and (not raw) result)))))))

(defun sheet-babel-raw-p (params)
  "Non-nil when PARAMS ask for the body untouched.
`:raw', or `:pretty no'; `:pretty' wins over a `:raw' (from a
property, say).  `:file' saves the body as received in any case."
  (if (assq :pretty params)
      (not (sheet-babel--flag params :pretty))
    (and (sheet-babel--flag params :raw) t)))

(defun sheet-babel-error (text params)
  "Return the result for the error TEXT, given PARAMS.
Alone as `Error: TEXT' when the body is asked alone, else in an
example block."
  (let ((line (concat "Error: " text)))
    (if (sheet-babel-pure-p params)
        line
      (require 'org-src)
      (format "#+begin_example\n%s\n#+end_example\n"
              (org-escape-code-in-string line)))))

(provide 'sheet-babel)
;;; sheet-babel.el ends here
