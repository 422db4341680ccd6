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
;; in sheet-mode buffers (issue 25 item 4, first part): the engine's
;; parser diagnostics (`sheet/outline': unterminated multi-line
;; variables, unknown methods, lines ignored in a request, unsupported
;; `.http' constructs, ...) as Flymake errors and warnings on their
;; lines, with the engine's hint.  Flymake debounces the checks
;; (`flymake-no-changes-timeout'); the engine answers asynchronously,
;; and an answer for an older text is dropped.  Turn it on with
;; `flymake-mode'.  Loaded by sheet-mode.el.

;;; Code:

(require 'flymake)
(require 'jsonrpc)
(require 'sheet-engine)

(declare-function sheet--text "sheet-mode" ())

(defvar-local sheet--flymake-tick nil
  "The `buffer-chars-modified-tick' of the last check asked of the engine.")

(defun sheet--flymake-diagnostic (buf diagnostic)
  "The Flymake diagnostic in BUF of the engine's DIAGNOSTIC (a plist)."
  (with-current-buffer buf
    (save-excursion
      (save-restriction
        (widen)
        (goto-char (point-min))
        (forward-line (1- (plist-get diagnostic :line)))
        (let* ((start (progn (skip-chars-forward " \t" (line-end-position))
                             (point)))
               (end (max (line-end-position) (min (1+ start) (point-max))))
               (hint (plist-get diagnostic :hint)))
          (flymake-make-diagnostic
           buf start end
           (if (equal (plist-get diagnostic :severity) "warning")
               :warning
             :error)
           (concat (plist-get diagnostic :message)
                   (if (and (stringp hint) (not (string-empty-p hint)))
                       (format " (%s)" hint)
                     ""))))))))

(defun sheet-flymake (report-fn &rest _)
  "Report the engine's parser diagnostics of this buffer to REPORT-FN.
A Flymake backend; the engine answers `sheet/outline' asynchronously."
  (let ((conn (sheet-engine--ensure))
        (buf (current-buffer))
        (tick (buffer-chars-modified-tick)))
    (setq sheet--flymake-tick tick)
    (jsonrpc-async-request
     conn 'sheet/outline
     (append (list :text (sheet--text))
             (and buffer-file-name (list :path buffer-file-name)))
     :success-fn
     (lambda (outline)
       (when (and (buffer-live-p buf)
                  (eql tick (buffer-local-value 'sheet--flymake-tick buf)))
         (funcall report-fn
                  (mapcar (lambda (d) (sheet--flymake-diagnostic buf d))
                          (plist-get outline :diagnostics)))))
     :error-fn
     (lambda (err)
       (funcall report-fn :panic
                :explanation (sheet-engine--error-text err)))
     :timeout-fn
     (lambda ()
       (funcall report-fn :panic :explanation "the engine did not answer"))
     :timeout sheet-request-timeout)))

(provide 'sheet-flymake)
;;; sheet-flymake.el ends here
