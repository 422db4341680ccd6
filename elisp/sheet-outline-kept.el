;;; sheet-outline-kept.el --- Outline kept in step  -*- lexical-binding: t; -*-

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

;; The engine's outline of a buffer (`sheet/outline': requests with
;; their lines, variable declarations), kept so that navigation and
;; folding (C-c C-n, C-c C-p, TAB, C-c C-., C-c n n, C-c C-g) never
;; wait on a round trip (issue 37 item 9: 400-800 ms per key after
;; an edit of a 5,000-request sheet when every key asked the engine).
;;
;; The outline is asked once, waiting (a buffer's first look-up).
;; From then on each edit notes the lines it added or removed
;; (`before-change-functions' counts the newlines replaced,
;; `after-change-functions' the newlines put in), the kept line
;; numbers are translated by them when a key reads the outline (a
;; few numbers per key, not the 5,000 entries of a big sheet), and a
;; fresh outline is asked in the background once Emacs has been idle
;; for `sheet-outline-refresh-delay' seconds, with the buffer's
;; changes, not its whole text (sheet-sync.el), and answered with the
;; outline's changes since the version kept here (`since').  An answer that
;; arrives after further edits is dropped and asked again.  Until
;; it arrives, a request line typed since is not in the kept outline
;; yet, and one whose line was deleted keeps a line number next to
;; where it was.
;;
;; `sheet--outline' is the exact outline (it waits when the buffer
;; changed since the last answer): sending, `sheet run' and prompts
;; use it.  `sheet--outline-kept' is the kept one, for navigation.

;;; Code:

(require 'cl-lib)
(require 'sheet-custom)
(require 'sheet-engine)
(require 'sheet-sync)

(defvar-local sheet--outline-cache nil
  "(TICK . OUTLINE): the engine's outline of this buffer at TICK.
OUTLINE's line numbers are moved by later edits, so it is exact
only while TICK is the buffer's `buffer-chars-modified-tick'.")

(defvar-local sheet--outline-version nil
  "The engine's version of the kept outline, named as `since' when asking.
The engine then answers with the changes only
\(engine/src/emacs/outline-diff.ts).")

(defvar-local sheet--outline-replaced-newlines 0
  "Newlines in the text the change under way replaces.")

(defvar-local sheet--outline-shifts nil
  "Edits not yet applied to the kept outline: (AFTER . DELTA), newest first.
DELTA lines were added (or removed, when negative) after line AFTER.")

(defvar-local sheet--outline-timer nil
  "The idle timer of the next background refresh, or nil.")

(defvar-local sheet--outline-pending nil
  "Non-nil while a background `sheet/outline' is in flight.")

(defun sheet--outline-exact-p ()
  "Whether the kept outline is the engine's answer for the current text."
  (eql (car sheet--outline-cache) (buffer-chars-modified-tick)))

(defun sheet--outline-params (conn)
  "The params of `sheet/outline' for the current buffer, sent on CONN.
The text goes as its changes since the last look-up (sheet-sync.el)."
  (append (sheet--doc-params conn)
          ;; The file name picks the syntax (.http, .rest).
          (and buffer-file-name (list :path buffer-file-name))
          ;; The answer as its changes since the outline kept here.
          (and sheet--outline-cache sheet--outline-version
               (list :since sheet--outline-version))))

(defun sheet--outline-keep (tick outline)
  "Keep OUTLINE, the engine's answer for the text at TICK; return it.
Its arrays become lists once here, not at every key."
  (dolist (key '(:requests :variables :diagnostics))
    (setq outline
          (plist-put outline key (append (plist-get outline key) nil))))
  (add-hook 'before-change-functions #'sheet--outline-before-change nil t)
  (add-hook 'after-change-functions #'sheet--outline-after-change nil t)
  (setq sheet--outline-cache (cons tick outline)
        sheet--outline-version (plist-get outline :version)
        sheet--outline-shifts nil)
  outline)

(defun sheet--outline-entry-move (entry delta)
  "Shift every line number in the outline ENTRY, nested ones too, by DELTA."
  (let ((tail entry))
    (while tail
      (when (memq (car tail) '(:line :startLine :endLine :bodyLine))
        (setcar (cdr tail) (+ (cadr tail) delta)))
      (setq tail (cddr tail))))
  (mapc (lambda (p) (plist-put p :line (+ (plist-get p :line) delta)))
        (plist-get entry :prompts)))

(defun sheet--outline-patched (old change)
  "Return the list OLD with CHANGE, a plist (:keep :drop :insert :delta)."
  (let* ((keep (plist-get change :keep))
         (delta (plist-get change :delta))
         (tail (nthcdr (+ keep (plist-get change :drop)) old)))
    (unless (zerop delta)
      (dolist (e tail) (sheet--outline-entry-move e delta)))
    (append (cl-subseq old 0 keep) (plist-get change :insert) tail)))

(defun sheet--outline-receive (tick result)
  "Keep the engine's `sheet/outline' RESULT for the text at TICK.
RESULT is a whole outline, or its changes since the kept one (`:diff');
changes to another base than the kept outline are not kept.  Return
the outline kept, or nil."
  (let ((diff (plist-get result :diff)))
    (cond
     ((null diff) (sheet--outline-keep tick result))
     ((and sheet--outline-cache
           (eql (plist-get result :base) sheet--outline-version))
      (let ((old (cdr sheet--outline-cache))
            (new (list :version (plist-get result :version))))
        (dolist (key '(:requests :variables :diagnostics))
          (setq new (plist-put new key
                               (sheet--outline-patched (plist-get old key)
                                                       (plist-get diff key)))))
        (sheet--outline-keep tick new)))
     (t (setq sheet--outline-version nil)))))

(defun sheet--outline-fetch ()
  "Ask the engine for the outline of the current buffer and wait.
Return the outline, a plist (:requests [...] :variables [...]
:diagnostics [...]), and keep it.  Signal a `user-error' when the
engine refuses."
  (let* ((conn (sheet-engine--ensure))
         (tick (buffer-chars-modified-tick))
         (ask (lambda ()
                (jsonrpc-request conn 'sheet/outline
                                 (sheet--outline-params conn)
                                 :timeout sheet-request-timeout))))
    (condition-case err
        (or (sheet--outline-receive
             tick
             (condition-case err
                 (funcall ask)
               (jsonrpc-error
                ;; A stale copy of the text: once more, with the whole text.
                (if (sheet--doc-stale-p err)
                    (funcall ask)
                  (signal (car err) (cdr err))))))
            ;; Changes to an outline not kept here: the whole one.
            (sheet--outline-receive tick (funcall ask)))
      (jsonrpc-error
       (user-error "Sheet-mode: %s" (sheet-engine--error-text err))))))

(defun sheet--outline ()
  "The engine's outline of the current buffer, exact.
A plist (:requests [...] :variables [...]).  Waits for the engine
when the buffer changed since its last answer."
  (if (sheet--outline-exact-p)
      (cdr sheet--outline-cache)
    (sheet--outline-fetch)))

(defun sheet--outline-kept ()
  "The kept outline of the current buffer: never waits after the first.
The engine's last answer; its line numbers are those of the text it
was given, `sheet--outline-to-kept' and `sheet--outline-from-kept'
translate.  A fresh one is asked in the background when it is not
exact.  Only a buffer's first look-up waits for the engine."
  (cond ((null sheet--outline-cache) (sheet--outline-fetch))
        (t (unless (sheet--outline-exact-p) (sheet--outline-schedule-refresh))
           (cdr sheet--outline-cache))))

;;; Following edits

(defun sheet--outline-newlines (beg end)
  "The number of newlines between BEG and END."
  (save-excursion
    (goto-char beg)
    (let ((n 0))
      (while (search-forward "\n" end t) (setq n (1+ n)))
      n)))

(defun sheet--outline-before-change (beg end)
  "Count the newlines of BEG..END, the text a change is to replace."
  (setq sheet--outline-replaced-newlines
        (if sheet--outline-cache (sheet--outline-newlines beg end) 0)))

(defun sheet--outline-after-change (beg end _old-len)
  "Note the lines the change of BEG..END added or removed.
Only noted (typing stays cheap): the keys translate line numbers
with `sheet--outline-to-kept' and `sheet--outline-from-kept'."
  (when sheet--outline-cache
    (let ((delta (- (sheet--outline-newlines beg end)
                    sheet--outline-replaced-newlines)))
      (unless (zerop delta)
        (let ((line (save-excursion
                      (goto-char beg)
                      (line-number-at-pos nil t))))
          ;; A change from the start of a line moves that line too: lines
          ;; put before it push it down, whole lines deleted bring the
          ;; next one up to it.
          (push (cons (if (save-excursion (goto-char beg) (bolp))
                          (1- line)
                        line)
                      delta)
                sheet--outline-shifts))))
    (sheet--outline-schedule-refresh)))

(defun sheet--outline-from-kept (n)
  "The current line of line N of the kept outline.
Moved by the edits noted since (`sheet--outline-shifts'), oldest
first: a line past AFTER moves by DELTA; one in deleted lines
becomes AFTER."
  (dolist (s (reverse sheet--outline-shifts) n)
    (when (> n (car s))
      (setq n (max (car s) (+ n (cdr s)))))))

(defun sheet--outline-to-kept (n)
  "Line N of the buffer as a line number of the kept outline.
The edits noted since undone, newest first; a line an edit added
becomes a number between the kept outline's lines around it."
  (dolist (s sheet--outline-shifts n)
    (let ((after (car s)) (delta (cdr s)))
      (cond ((<= n after))
            ((< delta 0) (setq n (- n delta)))
            ((> n (+ after delta)) (setq n (- n delta)))
            (t (setq n (+ after 0.5)))))))

(defun sheet--outline-moved (entry)
  "A copy of the outline ENTRY with its lines moved to the current text."
  (when entry
    (let ((copy (copy-sequence entry)))
      (dolist (key '(:line :startLine :endLine :bodyLine) copy)
        (let ((n (plist-get copy key)))
          (when n (plist-put copy key (sheet--outline-from-kept n))))))))

(defun sheet--outline-kept-entries (key)
  "The KEY list of the kept outline (`:requests', ...), at current lines.
Copies moved by the edits since, one pass over every entry: for the
commands that list them all (`sheet-helm'); the keys ask
`sheet--outline-to-kept' instead.  The kept entries stay as the
engine gave them, the base of its next answer's changes."
  (let ((entries (plist-get (sheet--outline-kept) key)))
    (if sheet--outline-shifts
        (mapcar #'sheet--outline-moved entries)
      entries)))

;;; Background refresh

(defun sheet--outline-schedule-refresh ()
  "Ask for a fresh outline once Emacs is idle, unless that is planned."
  (unless sheet--outline-timer
    (setq sheet--outline-timer
          (run-with-idle-timer sheet-outline-refresh-delay nil
                               #'sheet--outline-refresh (current-buffer)))))

(defun sheet--outline-refresh (buf)
  "Ask the engine for BUF's outline without waiting; keep the answer.
An answer for a text edited since is dropped and asked again."
  (when (buffer-live-p buf)
    (with-current-buffer buf
      (setq sheet--outline-timer nil)
      (let ((conn (and (sheet-engine-process) sheet-engine--connection))
            (tick (buffer-chars-modified-tick))
            (again (lambda ()
                     (when (buffer-live-p buf)
                       (with-current-buffer buf
                         (setq sheet--outline-pending nil)
                         (unless (sheet--outline-exact-p)
                           (sheet--outline-schedule-refresh)))))))
        (when (and conn (not sheet--outline-pending)
                   (not (sheet--outline-exact-p)))
          (setq sheet--outline-pending t)
          (jsonrpc-async-request
           conn 'sheet/outline (sheet--outline-params conn)
           :success-fn
           (lambda (outline)
             (when (buffer-live-p buf)
               (with-current-buffer buf
                 (when (eql tick (buffer-chars-modified-tick))
                   (sheet--outline-receive tick outline))))
             (funcall again))
           :error-fn
           (lambda (err)
             (when (buffer-live-p buf)
               (with-current-buffer buf
                 (if (sheet--doc-stale-p err)
                     ;; The next ask sends the whole text.
                     (funcall again)
                   ;; A refusal is asked again after the next edit or key.
                   (setq sheet--outline-pending nil)))))
           :timeout-fn
           (lambda ()
             (when (buffer-live-p buf)
               (with-current-buffer buf (setq sheet--outline-pending nil))))
           :timeout sheet-request-timeout))))))

(provide 'sheet-outline-kept)
;;; sheet-outline-kept.el ends here
