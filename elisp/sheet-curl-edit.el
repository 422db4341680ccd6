;;; sheet-curl-edit.el --- Curl for C-c C-y  -*- lexical-binding: t; -*-

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

;; Where `sheet-yank-curl' (C-c C-y, in sheet-curl.el) gets its curl
;; command line: the latest kill when it is one, else the minibuffer;
;; with a prefix argument a small edit buffer, `*sheet curl*', where a
;; command pasted over several lines stays whole (a terminal's
;; minibuffer submits at the first newline; issue 22 item 7).  C-c C-c
;; there inserts the command's request in the sheet, where point was;
;; C-c C-k abandons it.  Nothing waits in a recursive edit: the sheet
;; stays usable meanwhile.  Loaded by sheet-mode.el.

;;; Code:

(require 'subr-x)

(declare-function sheet-yank-curl "sheet-curl" (command))

(defvar sheet-curl-edit-buffer-name "*sheet curl*"
  "The buffer where `sheet-yank-curl' with a prefix reads a command.")

(defun sheet--curl-command-p (text)
  "Return non-nil when TEXT is a curl command line (`curl ...', `$ curl ...')."
  (and (stringp text)
       (string-match-p "\\`[ \t\n]*\\(\\$[ \t]+\\)?curl\\(\\.exe\\)?[ \t\n]"
                       text)))

(defun sheet--read-curl-command (ask)
  "The curl command line for `sheet-yank-curl', or nil when it comes later.
The latest kill when it is a curl command line and ASK is nil;
otherwise, ASK nil, read in the minibuffer with the kill as default.
ASK non-nil: open the edit buffer (`sheet-curl-edit') and return nil;
its \\<sheet-curl-edit-mode-map>\\[sheet-curl-edit-accept] yanks the command."
  (let ((kill (ignore-errors (current-kill 0 t))))
    (cond
     (ask (sheet-curl-edit (and (sheet--curl-command-p kill)
                                (substring-no-properties kill)))
          nil)
     ((sheet--curl-command-p kill) (substring-no-properties kill))
     (t (read-string "curl command line: " nil nil
                     (and kill (substring-no-properties kill)))))))

(defvar-local sheet-curl-edit--target nil
  "The marker in the sheet where the accepted command's request goes.")

(defvar sheet-curl-edit-mode-map
  (let ((map (make-sparse-keymap)))
    (define-key map (kbd "C-c C-c") #'sheet-curl-edit-accept)
    (define-key map (kbd "C-c C-k") #'sheet-curl-edit-abort)
    map)
  "Keymap of `sheet-curl-edit-mode'.")

(define-derived-mode sheet-curl-edit-mode text-mode "Sheet-curl"
  "Edit a curl command line, then insert its request in the sheet.
\\<sheet-curl-edit-mode-map>\\[sheet-curl-edit-accept] inserts it \
where point was in the sheet, \\[sheet-curl-edit-abort] abandons it.

\\{sheet-curl-edit-mode-map}"
  (setq-local header-line-format
              (substitute-command-keys
               "\\<sheet-curl-edit-mode-map>curl command line: \
\\[sheet-curl-edit-accept] inserts its request, \
\\[sheet-curl-edit-abort] abandons it")))

(defun sheet-curl-edit (&optional initial)
  "Read a curl command line in a small edit buffer, INITIAL its text.
The request goes at point in the current buffer when the command is
accepted.  Return the edit buffer."
  (let ((target (point-marker))
        (buf (get-buffer-create sheet-curl-edit-buffer-name)))
    (with-current-buffer buf
      (erase-buffer)
      (sheet-curl-edit-mode)
      (when initial (insert initial))
      (setq sheet-curl-edit--target target))
    (pop-to-buffer buf '((display-buffer-below-selected)
                         (window-height . 8)))
    buf))

(defun sheet-curl-edit-accept ()
  "Insert the request of this buffer's command where point was in the sheet."
  (interactive)
  (let ((command (string-trim (buffer-string)))
        (target sheet-curl-edit--target)
        (edit (current-buffer)))
    (unless (sheet--curl-command-p command)
      (user-error "Sheet-mode: not a curl command line (it starts with curl)"))
    (unless (buffer-live-p (marker-buffer target))
      (user-error "Sheet-mode: the sheet's buffer was killed"))
    (quit-window nil (get-buffer-window edit))
    (with-current-buffer (marker-buffer target)
      (goto-char target)
      (prog1 (sheet-yank-curl command)
        (set-marker target nil)
        (kill-buffer edit)))))

(defun sheet-curl-edit-abort ()
  "Abandon the curl command line: nothing is inserted."
  (interactive)
  (let ((edit (current-buffer)))
    (quit-window nil (get-buffer-window edit))
    (when (markerp sheet-curl-edit--target)
      (set-marker sheet-curl-edit--target nil))
    (kill-buffer edit)
    (message "Sheet-mode: no curl command inserted")))

(provide 'sheet-curl-edit)
;;; sheet-curl-edit.el ends here
