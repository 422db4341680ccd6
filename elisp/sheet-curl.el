;;; sheet-curl.el --- curl both ways  -*- lexical-binding: t; -*-

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

;; The request at point as a curl command line (`sheet-copy-curl-command',
;; C-c C-u; with a prefix, as code in another language through
;; sheet-code.el) and a curl command line as a request
;; (`sheet-yank-curl', C-c C-y; where the command comes from is
;; sheet-curl-edit.el).  Both directions are the engine's
;; (`sheet/curl', `sheet/fromCurl'); this file only asks and inserts.
;; Loaded by sheet-mode.el.

;;; Code:

(require 'sheet-engine)
(require 'sheet-curl-edit)

(declare-function sheet--text "sheet-mode" ())
(declare-function sheet--location-params "sheet-mode" ())
(declare-function sheet--prompt-answers "sheet-prompt" ())
(declare-function sheet--warning-text "sheet-response" (warnings))
(declare-function sheet-copy-as-code "sheet-code" (target))

(defun sheet-copy-curl-command (&optional as-code)
  "Copy the request at point, as a curl command line, to the kill ring.
With a prefix argument AS-CODE, copy it as code in another
language instead (`sheet-copy-as-code')."
  (interactive "P")
  (if as-code
      (call-interactively #'sheet-copy-as-code)
    (sheet--copy-curl-command)))

(defun sheet--copy-curl-command ()
  "Copy the request at point as a curl command line; return it."
  (let* ((result (sheet-engine--request 'sheet/curl
                                        (append (sheet--location-params)
                                                (sheet--prompt-answers))
                                        t))
         (command (plist-get result :command)))
    (kill-new command)
    (message "curl command copied: %s" command)
    command))

;;;###autoload
(defun sheet-yank-curl (command)
  "Insert the request of the curl command line COMMAND at point.
Interactively, COMMAND is the latest kill when it is a curl
command line; otherwise it is read in the minibuffer, the latest
kill as the default.  With a prefix argument it is read in a small
edit buffer that keeps a command of several lines whole (C-c C-c
there inserts the request, C-c C-k abandons it;
`sheet-curl-edit.el').  The engine
converts it (`sheet/fromCurl', the converter of `sheet
import-curl'; docs/sheet-format.md, \"Importing curl command
lines\"): the URL, -X, -H, -d and its variants, --json, -u, -b,
-A, -e; -x, --cacert, --cert, -k and the other connection
options become the request's `# @proxy URL', ... lines.  The
request goes on its own lines, separated from the requests around
it by the file's separator line (`#', or `###' in a `.http'
file).  What the request does not carry (--max-time, -o, ...) is
named in a warning in the echo area; a command it cannot
write is a `user-error' naming the option.  Return the inserted
request's text (nil when the edit buffer takes the command).  This
is restclient.el's issue #290."
  (interactive (list (sheet--read-curl-command current-prefix-arg)))
  (barf-if-buffer-read-only)
  (when command
    (sheet--yank-curl command)))

(defun sheet--yank-curl (command)
  "Insert the request of the curl command line COMMAND; see `sheet-yank-curl'."
  (let* ((result (sheet-engine--request
                  'sheet/fromCurl
                  (append (list :command command :text (sheet--text))
                          (and buffer-file-name
                               (list :path buffer-file-name)))))
         (text (plist-get result :text))
         (separator (plist-get result :separator))
         (warnings (append (plist-get result :warnings) nil)))
    (unless (bolp) (end-of-line) (insert "\n"))
    ;; A line starting with `#' separates sheet requests, `###' .http
    ;; ones: regexp-quote of the separator matches both rules.
    (unless (or (bobp)
                (save-excursion
                  (forward-line -1)
                  (looking-at-p (regexp-quote separator))))
      (insert separator "\n"))
    (let ((start (point)))
      (insert text)
      (unless (or (eobp) (looking-at-p (regexp-quote separator)))
        (insert separator "\n"))
      (goto-char start))
    (if warnings
        (message "Sheet-mode: curl command inserted; warning: %s"
                 (sheet--warning-text warnings))
      (message "Sheet-mode: curl command inserted"))
    text))

(provide 'sheet-curl)

;;; sheet-curl.el ends here
