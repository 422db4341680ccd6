;;; sheet-trailer.el --- Lines under a response  -*- lexical-binding: t; -*-

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

;; The trailer restclient.el writes under a response body, as comment
;; lines in the buffer's syntax: the request line, proxy and
;; redirects, the status line as curl prints it, the headers, the
;; assertion results, the duration, a stream's end, why a body was left
;; as received, warnings; then a `.http' request's `client.log'
;; lines.  Used by the response buffer (sheet-response.el), Org
;; blocks' results (sheet-babel.el) and the history (sheet-history.el).

;;; Code:

(require 'newcomment)
(require 'subr-x)
(require 'sheet-run)          ; assertion lines

(defun sheet--trailer-lines (result &optional long)
  "The lines restclient.el puts under the body, from the engine's RESULT.
After the duration, why a JSON or XML body was left as received (the
engine's `unformatted'), and, when LONG (the longest line, in
characters) is non-nil, that `so-long-minor-mode' is on; then the
warnings."
  (let* ((request (plist-get result :request))
         (response (plist-get result :response))
         (why (plist-get (plist-get result :presentation) :unformatted)))
    (append
     (list (format "%s %s" (plist-get request :method)
                   (plist-get request :url)))
     (and (plist-get result :proxy)
          (list (format "Proxy: %s" (plist-get result :proxy))))
     (mapcar (lambda (r) (format "Redirect: %s %s -> %s"
                                 (plist-get r :status) (plist-get r :url)
                                 (plist-get r :location)))
             (plist-get result :redirects))
     (list (sheet--status-line result))
     (mapcar (lambda (h) (format "%s: %s" (aref h 0) (aref h 1)))
             (plist-get response :headers))
     (sheet-run-assertion-lines result)
     (list (format "Request duration: %fs"
                   (/ (plist-get result :durationMs) 1000.0)))
     (let ((stream (plist-get result :stream)))
       (and stream (list (plist-get stream :summary))))
     (and why (list (format "Body not pretty-printed: %s" why)))
     (and long (list (format "Long lines: so-long-minor-mode is on (the \
longest has %d characters)" long)))
     (mapcar (lambda (w) (format "warning: %s" (plist-get w :message)))
             (plist-get (plist-get result :hooks) :warnings)))))

(defun sheet--log-lines (result)
  "The block of `client.log' lines of the engine's RESULT, or nil.
RESULT's `logs' (`.http' files: the lines its pre-request scripts
and response handlers logged, in order; absent when none) under a
blank line and the heading \"client.log:\", each as given (a
multi-line one stays several lines).  The JetBrains HTTP Client
prints `client.log' text \"to the output of the response handler
or pre-request script\" (HTTP Client reference, `client'); here
that output follows the trailer (docs/sheet-mode.md)."
  (let ((logs (append (plist-get result :logs) nil)))
    (and logs (cons "" (cons "client.log:" logs)))))

(defun sheet--insert-log-lines (result)
  "Insert the `client.log' block of RESULT at point, as comment lines.
Every line is commented, a blank one too, so the block stays one
block (`sheet--log-lines').  The response buffer and an Org
block's result (sheet-babel.el) insert it so."
  (when-let ((lines (sheet--log-lines result)))
    (sheet--insert-comment-lines lines t)))

(defun sheet--status-line (result)
  "The status line of RESULT's response, as curl prints it.
The engine's `statusLine' (`HTTP/1.0 200 OK', `HTTP/2 200'); made
from the version, status and reason of an engine older than it."
  (let ((response (plist-get result :response)))
    (or (plist-get response :statusLine)
        (string-trim-right
         (format "HTTP/%s %s %s" (plist-get response :httpVersion)
                 (plist-get response :status)
                 (or (plist-get response :statusText) ""))))))

(defun sheet--insert-comment-lines (lines &optional blank)
  "Insert LINES (strings) at point as comments in the buffer's syntax.
What `comment-region' with the `plain' style makes of them: a blank
line is left alone unless BLANK is non-nil (`comment-empty-lines').
For
line comments (an empty `comment-end', the default padding and the
default of the variable `comment-add') the prefix is written
directly: `comment-region' costs a third of a millisecond per
response, more than everything else in the trailer
\(docs/benchmarks.md, the Emacs section)."
  (if (and (equal comment-end "") (equal comment-padding " ")
           (eql comment-add 0))
      (let ((prefix (concat (string-trim-right comment-start) " ")))
        (dolist (line lines)
          ;; `comment-region' leaves blank lines alone
          ;; (`comment-empty-lines').
          (dolist (l (split-string line "\n"))
            (insert (cond ((not (string-match-p "\\`[ \t]*\\'" l))
                           (concat prefix l))
                          (blank (concat (string-trim-right prefix) l))
                          (t l))
                    "\n"))))
    (let ((start (point))
          (comment-style 'plain)
          (comment-empty-lines (or blank comment-empty-lines)))
      (insert (mapconcat #'identity lines "\n") "\n")
      (comment-region start (point)))))

(provide 'sheet-trailer)
;;; sheet-trailer.el ends here
