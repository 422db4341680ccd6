;;; sheet-sync.el --- Text kept in step  -*- lexical-binding: t; -*-

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

;; The look-ups made while the user types (completion, Flymake, Eldoc) send
;; the engine the buffer's changes since the last one instead of the
;; whole text, as LSP's incremental sync does (issue 25's speed
;; target: a 5,000-request sheet is about 800 KB, and sending it
;; whole cost more than the 50 ms the answer may take).  The first
;; look-up of a buffer (and of each new engine) sends the whole text;
;; `after-change-functions' then records each change, in characters,
;; and the next look-up carries them (`doc' in docs/protocol.md,
;; "Texts kept in step").  The engine checks the resulting size; a
;; copy out of step is refused as stale and the whole text is sent
;; again.  Loaded by sheet-complete.el, sheet-flymake.el and
;; sheet-eldoc.el.

;;; Code:

(require 'cl-lib)
(require 'sheet-engine)

(declare-function sheet--text "sheet-mode" ())

(defconst sheet--doc-max-changes 200
  "Past this many recorded changes the whole text is sent instead.")

(defvar sheet--doc-counter 0
  "The last document id given out.")

(defvar-local sheet--doc-id nil
  "This buffer's document id with the engine.")

(defvar-local sheet--doc-conn nil
  "The connection whose copy of this buffer is `sheet--doc-version'.")

(defvar-local sheet--doc-version 0
  "The version of this buffer's text the engine was last given.")

(defvar-local sheet--doc-changes nil
  "Changes since that version, most recent first: (START END TEXT).
START and END are 0-based character offsets in the text as the
previous change left it; TEXT replaces what was between them.")

(defun sheet--doc-after-change (beg end old-len)
  "Record the change of BEG..END, which replaced OLD-LEN characters."
  (when sheet--doc-conn
    (if (>= (length sheet--doc-changes) sheet--doc-max-changes)
        (setq sheet--doc-conn nil sheet--doc-changes nil)
      (push (list (1- beg) (+ (1- beg) old-len)
                  (buffer-substring-no-properties beg end))
            sheet--doc-changes))))

(defun sheet--doc-params (conn)
  "The `doc' param of a look-up of this buffer sent on CONN.
The changes since the copy CONN has, or the whole text when it has
none.  The copy is taken as given from here on."
  (unless sheet--doc-id
    (setq sheet--doc-id (format "%s#%d" (buffer-name)
                                (cl-incf sheet--doc-counter))))
  (add-hook 'after-change-functions #'sheet--doc-after-change nil t)
  (let* ((base sheet--doc-version)
         (version (1+ base))
         (doc (if (eq sheet--doc-conn conn)
                  (list :id sheet--doc-id :version version :base base
                        :changes (vconcat
                                  (mapcar (lambda (c)
                                            (list :start (nth 0 c)
                                                  :end (nth 1 c)
                                                  :text (nth 2 c)))
                                          (reverse sheet--doc-changes)))
                        :size (buffer-size))
                (list :id sheet--doc-id :version version
                      :text (sheet--text) :size (buffer-size)))))
    (setq sheet--doc-conn conn
          sheet--doc-version version
          sheet--doc-changes nil)
    (list :doc doc)))

(defun sheet--doc-instead-of-text (conn params)
  "Return a copy of the plist PARAMS with `:text' left out and `:doc' in.
For a look-up sent on CONN: the text goes as its changes (see
`sheet--doc-params')."
  (let ((out nil))
    (while params
      (unless (eq (car params) :text)
        (setq out (cons (cadr params) (cons (car params) out))))
      (setq params (cddr params)))
    (append (nreverse out) (sheet--doc-params conn))))

(defun sheet--doc-stale-p (err)
  "Return non-nil when the engine's error ERR is a stale copy.
Then the next look-up sends the whole text."
  (let ((data (cond ((and (consp err) (keywordp (car err)))
                     (plist-get err :data))
                    ((and (consp err) (eq (car err) 'jsonrpc-error))
                     (alist-get 'jsonrpc-error-data (cdr err))))))
    (when (eq (plist-get (plist-get data :details) :stale) t)
      (setq sheet--doc-conn nil)
      t)))

(provide 'sheet-sync)
;;; sheet-sync.el ends here
