;;; sheet-sending.el --- Requests in flight  -*- lexical-binding: t; -*-

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

;; A sheet buffer's requests in flight: the list, the mode line text
;; that names the oldest with its seconds, the timer that updates it,
;; and the question before sending a request that is still in flight.
;; Moved unchanged out of sheet-send.el (files under ~400 lines);
;; loaded by it.

;;; Code:

(require 'cl-lib)

(defvar-local sheet--sending nil
  "In a sheet buffer: its requests in flight.
A list of plists (:id ID :start POS :label \"METHOD URL\" :time TIME),
POS the start of the request line, TIME when it was sent.")

(defvar-local sheet--sending-timer nil
  "In a sheet buffer: the timer that updates the mode line while sending.")

(defun sheet--mode-line-sending ()
  "The mode line text for the current buffer's requests in flight."
  (when sheet--sending
    (let* ((first (car (last sheet--sending)))
           (label (plist-get first :label))
           (secs (float-time (time-since (plist-get first :time)))))
      (format " [%s %ds%s]"
              (if (> (length label) 40)
                  (concat (substring label 0 37) "...")
                label)
              (floor secs)
              (if (cdr sheet--sending)
                  (format " +%d" (1- (length sheet--sending)))
                "")))))

(defun sheet--sending-tick (buffer)
  "Update BUFFER's mode line; stop the timer when nothing is in flight."
  (if (not (buffer-live-p buffer))
      nil
    (with-current-buffer buffer
      (if sheet--sending
          (force-mode-line-update)
        (when sheet--sending-timer
          (cancel-timer sheet--sending-timer)
          (setq sheet--sending-timer nil))
        (force-mode-line-update)))))

(defun sheet--sending-start (id start label)
  "Note the request ID at START (LABEL) as in flight in the current buffer."
  (push (list :id id :start start :label label :time (current-time))
        sheet--sending)
  (unless sheet--sending-timer
    (setq sheet--sending-timer
          (run-at-time 1 1 #'sheet--sending-tick (current-buffer))))
  (force-mode-line-update))

(defun sheet--sending-end (buffer id)
  "Note that the request ID of BUFFER is answered."
  (when (buffer-live-p buffer)
    (with-current-buffer buffer
      (setq sheet--sending
            (cl-remove-if (lambda (s) (eql (plist-get s :id) id))
                          sheet--sending))
      (sheet--sending-tick buffer))))

(defun sheet--confirm-duplicate (start label)
  "Ask before sending the request at START (LABEL) again while in flight."
  (when (and start
             (cl-find-if (lambda (s) (eql (plist-get s :start) start))
                         sheet--sending)
             (not (y-or-n-p (format "%s is still in flight; send it again? "
                                    label))))
    (user-error "Not sent")))

(provide 'sheet-sending)
;;; sheet-sending.el ends here
