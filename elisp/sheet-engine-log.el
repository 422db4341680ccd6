;;; sheet-engine-log.el --- Engine traffic log  -*- lexical-binding: t; -*-

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

;; A one-line summary of every message between Emacs and the engine,
;; in the connection's events buffer (`sheet-engine-events'), written
;; when Emacs is next idle.  jsonrpc.el's own full log is off by
;; default (`sheet-events-buffer-size').  Loaded by sheet-engine.el.

;;; Code:

(require 'jsonrpc)

(defvar sheet-engine--connection)

(defun sheet-engine--summary (object)
  "A one-line rendering of OBJECT, with long strings cut short."
  (let ((print-length 12) (print-level 4))
    (replace-regexp-in-string
     "\n" "\\\\n"
     (prin1-to-string (sheet-engine--shorten object)))))

(defun sheet-engine--shorten (object)
  "OBJECT with strings longer than 200 characters cut short."
  (cond ((and (stringp object) (> (length object) 200))
         (format "%s...[%d chars]" (substring object 0 200)
                 (length object)))
        ((consp object) (cons (sheet-engine--shorten (car object))
                              (sheet-engine--shorten (cdr object))))
        ((and (vectorp object) (< (length object) 50))
         (vconcat (mapcar #'sheet-engine--shorten object)))
        ((vectorp object) (format "[%d elements]" (length object)))
        (t object)))

(defvar sheet-engine--log-queue nil
  "Events not yet written to the events buffer, newest first.
Each is (CONN WHO TIME MESSAGE).")

(defvar sheet-engine--log-timer nil
  "The timer that writes `sheet-engine--log-queue' out, or nil.")

(defun sheet-engine--log-event (conn who message)
  "Log a summary of MESSAGE from WHO to CONN's events buffer.
The summary is written when Emacs is next idle: rendering it costs
about as much as the rest of a small request, so it stays out of
the time between the key press and the response."
  (push (list conn who (current-time) message) sheet-engine--log-queue)
  (unless sheet-engine--log-timer
    (setq sheet-engine--log-timer
          (run-with-idle-timer 0.1 nil #'sheet-engine--log-flush))))

(defun sheet-engine--log-flush ()
  "Write the queued events to their events buffers."
  (let ((events (nreverse sheet-engine--log-queue)))
    (setq sheet-engine--log-queue nil
          sheet-engine--log-timer nil)
    (pcase-dolist (`(,conn ,who ,time ,message) events)
      (let ((buf (jsonrpc-events-buffer conn)))
        (with-current-buffer buf
          (let ((inhibit-read-only t))
            (save-excursion
              (goto-char (point-max))
              (insert (format "[%s] %s %s\n" who
                              (format-time-string "%T.%3N" time)
                              (sheet-engine--summary message))))
            (when (> (buffer-size) 200000)
              (delete-region (point-min) (- (point-max) 100000)))))))))

(defun sheet-engine-events ()
  "Show the buffer that logs the traffic with the engine."
  (interactive)
  (sheet-engine--log-flush)
  (if sheet-engine--connection
      (display-buffer (jsonrpc-events-buffer sheet-engine--connection))
    (user-error "The sheet engine is not running")))

(provide 'sheet-engine-log)
;;; sheet-engine-log.el ends here
