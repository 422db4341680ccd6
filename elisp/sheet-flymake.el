;;; sheet-flymake.el --- Flymake for sheets  -*- lexical-binding: t; -*-

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

;; `sheet-flymake', a Flymake backend on `flymake-diagnostic-functions'
;; in sheet-mode buffers (issue 25 item 4): the engine's diagnostics
;; (`sheet/diagnostics', engine/src/lint/): the parser's (unterminated
;; multi-line variables, unknown methods, lines ignored in a request,
;; unsupported `.http' constructs, ...), undefined variables (in
;; `.http' buffers with the chosen environment), malformed assertions,
;; unknown hooks, JSON bodies that do not parse, duplicate `.http'
;; request names, as Flymake errors and warnings at their exact line
;; and column, with the engine's hint.  Flymake debounces the checks
;; (`flymake-no-changes-timeout'); the engine answers asynchronously,
;; so typing never waits, and an answer for an older text is dropped.
;; Turn it on with `flymake-mode'.  Loaded by sheet-mode.el.

;;; Code:

(require 'flymake)
(require 'jsonrpc)
(require 'sheet-engine)
(require 'sheet-environment)
(require 'sheet-sync)

(declare-function sheet--text "sheet-mode" ())

(defvar-local sheet--flymake-tick nil
  "The `buffer-chars-modified-tick' of the last check asked of the engine.")

(defvar sheet--flymake-line 1
  "While diagnostics are placed: the line of point.")

(defun sheet--flymake-position (line column)
  "The position of 1-based LINE and COLUMN (characters), ignoring narrowing.
A column past the line's end is its end.  Point moves there from
the line `sheet--flymake-line' (which it was on), by the lines in
between: the engine's diagnostics come in line order, so placing
them all reads the buffer once, not once per diagnostic."
  (forward-line (- line sheet--flymake-line))
  (setq sheet--flymake-line line)
  (min (+ (line-beginning-position) (max 0 (1- column))) (line-end-position)))

(defun sheet--flymake-diagnostic (buf diagnostic)
  "The Flymake diagnostic in BUF of the engine's DIAGNOSTIC (a plist).
Its span is the engine's line and column to its end line and
column; an empty span covers one character.  Called in BUF, widened,
by `sheet--flymake-diagnostics'."
  (let* ((start (sheet--flymake-position (plist-get diagnostic :line)
                                         (plist-get diagnostic :column)))
         (end (max (sheet--flymake-position
                    (plist-get diagnostic :endLine)
                    (plist-get diagnostic :endColumn))
                   (min (1+ start) (point-max))))
         (hint (plist-get diagnostic :hint)))
    (flymake-make-diagnostic
     buf start end
     (if (equal (plist-get diagnostic :severity) "warning")
         :warning
       :error)
     (concat (plist-get diagnostic :message)
             (if (and (stringp hint) (not (string-empty-p hint)))
                 (format " (%s)" hint)
               "")))))

(defun sheet--flymake-diagnostics (buf diagnostics)
  "The Flymake diagnostics in BUF of the engine's DIAGNOSTICS (a vector).
In one pass over BUF, whatever its narrowing: 5,000 diagnostics in
a 35,000-line sheet took 24 s when each was placed from the top."
  (with-current-buffer buf
    (save-excursion
      (save-restriction
        (widen)
        (goto-char (point-min))
        (let ((sheet--flymake-line 1))
          (mapcar (lambda (d) (sheet--flymake-diagnostic buf d))
                  diagnostics))))))

(defun sheet-flymake (report-fn &rest args)
  "Report the engine's diagnostics of this buffer to REPORT-FN.
A Flymake backend; the engine answers `sheet/diagnostics'
asynchronously, and an answer for an older text is dropped.  The
text goes as its changes since the last look-up (sheet-sync.el);
ARGS holds `:retried' t when the engine's copy was out of step."
  (let ((conn (sheet-engine--ensure))
        (buf (current-buffer))
        (tick (buffer-chars-modified-tick)))
    (setq sheet--flymake-tick tick)
    (jsonrpc-async-request
     conn 'sheet/diagnostics
     (append (sheet--doc-params conn)
             (and buffer-file-name (list :path buffer-file-name))
             (sheet-environment-params))
     :success-fn
     (lambda (result)
       (when (and (buffer-live-p buf)
                  (eql tick (buffer-local-value 'sheet--flymake-tick buf)))
         (funcall report-fn
                  (sheet--flymake-diagnostics
                   buf (plist-get result :diagnostics)))))
     :error-fn
     (lambda (err)
       (if (and (buffer-live-p buf)
                (not (plist-get args :retried))
                (with-current-buffer buf (sheet--doc-stale-p err)))
           (with-current-buffer buf (sheet-flymake report-fn :retried t))
         (funcall report-fn :panic
                  :explanation (sheet-engine--error-text err))))
     :timeout-fn
     (lambda ()
       (funcall report-fn :panic :explanation "the engine did not answer"))
     :timeout sheet-request-timeout)))

(provide 'sheet-flymake)
;;; sheet-flymake.el ends here
