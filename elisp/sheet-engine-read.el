;;; sheet-engine-read.el --- Engine messages read  -*- lexical-binding: t; -*-

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

;; Emacs 28's jsonrpc.el handles the messages of one read from the
;; engine in its process filter, one after another, and a synchronous
;; `jsonrpc-request' gets its answer by a `throw' out of that filter.
;; The messages after that answer in the same read stay in the process
;; buffer until the engine writes again: the answer to a send in
;; flight (C-c C-c, an Org block) read in one piece with the answer to
;; a look-up (an Org block's outline, eldoc, the cookie jar's
;; `settings/set') waited for the next message, for ever when there
;; was none.  The filter is wrapped here: after a non-local exit, the
;; rest of the read is handled from a timer, as soon as Emacs waits.
;; Loaded by sheet-engine.el, which wraps each engine's filter.

;;; Code:

(defun sheet-engine--read-on (filter proc string)
  "Call FILTER, jsonrpc.el's process filter, with PROC and STRING.
When FILTER exits non-locally (a synchronous request's answer), the
messages after it that were read with it are handled from a timer:
the filter, called again with no new text, goes on where it stopped."
  (let ((returned nil))
    (unwind-protect
        (progn (funcall filter proc string)
               (setq returned t))
      (unless returned
        (run-at-time 0 nil #'sheet-engine--read-rest proc)))))

(defun sheet-engine--read-rest (proc)
  "Handle the messages of PROC's last read left after a `throw'.
Through the process's filter as wrapped, so a second answer to a
synchronous request among them leaves the rest for the next timer."
  (when (process-live-p proc)
    (funcall (process-filter proc) proc "")))

(provide 'sheet-engine-read)
;;; sheet-engine-read.el ends here
