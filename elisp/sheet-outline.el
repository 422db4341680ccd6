;;; sheet-outline.el --- Sheet outline and jumps  -*- lexical-binding: t; -*-

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

;; The structure of a sheet as the engine sees it (`sheet/outline':
;; requests with their lines, variable declarations), kept in step
;; with edits (sheet-outline-kept.el), and what `sheet-mode' does
;; with it: moving
;; between requests (C-c C-n, C-c C-p), marking (C-c C-.) and
;; narrowing (C-c n n) to the request at point, jumping to a request
;; or variable with helm or `completing-read' (C-c C-g,
;; `sheet-helm'), and hiding request bodies with TAB
;; (`sheet-outline-mode').  Loaded by sheet-mode.el, whose options
;; it reads (one group, `sheet').

;;; Code:

(require 'cl-lib)
(require 'sheet-engine)
(require 'sheet-outline-kept)

(declare-function helm "ext:helm")
(declare-function helm-make-source "ext:helm-source")
(declare-function sheet--text "sheet-mode" ())
(declare-function sheet--line "sheet-mode" ())
(defvar sheet-use-helm)

;;; Outline (the engine's, kept: sheet-outline-kept.el)

(defun sheet--requests ()
  "The requests of the current buffer: plists (:method :url :line ...).
Exact: waits for the engine after an edit (sending, prompts)."
  (plist-get (sheet--outline) :requests))

(defun sheet--variables ()
  "The variable declarations of the current buffer, a list of plists.
Exact, as `sheet--requests'."
  (plist-get (sheet--outline) :variables))

(defun sheet--kept-requests ()
  "The requests of the kept outline, at their current lines.
Never waits after the buffer's first look-up (`sheet--outline-kept');
moves every entry by the edits since, so for the jump lists only:
the keys translate a line or two instead."
  (sheet--outline-kept-entries :requests))

(defun sheet--kept-variables ()
  "The variable declarations of the kept outline, at their current lines."
  (sheet--outline-kept-entries :variables))

(defun sheet--kept-find (test line)
  "The request of the kept outline that TEST names, relative to LINE.
TEST is `after' (the first request whose request line is past
LINE), `before' (the last one whose request line is before it),
`on' (the one whose request line is LINE) or `within' (the one
whose lines hold LINE).  LINE is a line of the buffer; it is
translated to the kept outline's numbers (`sheet--outline-to-kept').
Return a copy at its current lines, or nil.  A plain loop over the
requests (in sheet order): no call per request, so even uncompiled
a key allocates next to nothing on a 5,000-request sheet."
  (let* ((requests (plist-get (sheet--outline-kept) :requests))
         (kept (sheet--outline-to-kept line))
         (found nil)
         (r nil))
    (while requests
      (setq r (car requests)
            requests (cdr requests))
      (cond ((eq test 'after)
             (when (> (plist-get r :line) kept)
               (setq found r requests nil)))
            ((eq test 'before)
             (if (< (plist-get r :line) kept)
                 (setq found r)
               (setq requests nil)))
            ((eq test 'on)
             (when (>= (plist-get r :line) kept)
               (when (= (plist-get r :line) kept) (setq found r))
               (setq requests nil)))
            ((> (plist-get r :startLine) kept) (setq requests nil))
            ((<= kept (plist-get r :endLine))
             (setq found r requests nil))))
    (sheet--outline-moved found)))

(defun sheet--within-request-p (request line)
  "Whether LINE is among REQUEST's lines."
  (<= (plist-get request :startLine) line (plist-get request :endLine)))

(defun sheet--line-position (line)
  "Position of the beginning of 1-based LINE, ignoring narrowing.
Counted from point's line: `forward-line' from the top costs about
3 ms per 40,000 lines, a key's whole budget on a big sheet."
  (save-restriction
    (widen)
    (save-excursion
      (forward-line (- line (line-number-at-pos nil t)))
      (point))))

(defun sheet--line-end-position (line)
  "Position of the end of 1-based LINE, ignoring narrowing."
  (save-excursion
    (goto-char (sheet--line-position line))
    (line-end-position)))

(defun sheet--request-at (&optional line kept)
  "The outline entry of the request at LINE (default: point's line), or nil.
From the exact outline (`sheet--requests'), or the kept one when
KEPT is non-nil (`sheet--kept-find')."
  (let ((line (or line (sheet--line))))
    (if kept
        (sheet--kept-find 'within line)
      (cl-find-if (lambda (r) (sheet--within-request-p r line))
                  (sheet--requests)))))

(defun sheet--current-request ()
  "The request at point in the kept outline, or a `user-error'."
  (or (sheet--request-at nil t)
      (user-error "Sheet-mode: no request at line %d" (sheet--line))))

(defun sheet--request-bounds (request)
  "Return (START . END) of REQUEST: its request line to its last line's end."
  (cons (sheet--line-position (plist-get request :line))
        (sheet--line-end-position (plist-get request :endLine))))

;;; Moving, marking, narrowing

(defun sheet--accessible-request-p (request)
  "Whether REQUEST's line is in the accessible part of the buffer.
Outside it when the buffer is narrowed (C-c n n) to another part."
  (let ((pos (sheet--line-position (plist-get request :line))))
    (<= (point-min) pos (point-max))))

(defun sheet--no-request (what)
  "Say there is no WHAT request (\"next\", \"previous\") to move to."
  (message "No %s request%s" what
           (if (buffer-narrowed-p)
               (substitute-command-keys
                " (the buffer is narrowed; \\[widen] widens it)")
             "")))

(defun sheet-jump-next ()
  "Move point to the next request line.
Within the narrowed part, as restclient.el's `restclient-jump-next'."
  (interactive)
  (let ((next (sheet--kept-find 'after (sheet--line))))
    (if (and next (sheet--accessible-request-p next))
        (goto-char (sheet--line-position (plist-get next :line)))
      (sheet--no-request "next"))))

(defun sheet-jump-prev ()
  "Move point to the previous request line.
Within the narrowed part, as restclient.el's `restclient-jump-prev'."
  (interactive)
  (let* ((line (sheet--line))
         (here (sheet--request-at line t))
         (limit (if here (plist-get here :line) line))
         (prev (sheet--kept-find 'before limit)))
    (if (and prev (sheet--accessible-request-p prev))
        (goto-char (sheet--line-position (plist-get prev :line)))
      (sheet--no-request "previous"))))

(defun sheet-mark-current ()
  "Mark the request at point: from its request line to the end of its body."
  (interactive)
  (let ((bounds (sheet--request-bounds (sheet--current-request))))
    (goto-char (car bounds))
    (push-mark (cdr bounds) nil t)))

(defun sheet-narrow-to-current ()
  "Narrow to the request at point, headers and body included."
  (interactive)
  (let ((bounds (sheet--request-bounds (sheet--current-request))))
    (narrow-to-region (car bounds) (cdr bounds))))

;;; Jumping to a request or variable

(defun sheet--assign (variable)
  "The assignment operator of VARIABLE, an outline plist: \":=\" or \"=\"."
  (if (equal (plist-get variable :kind) "lisp") ":=" "="))

(defun sheet--outline-label (request)
  "METHOD URL of the outline plist REQUEST, and why if it was refused."
  (concat (format "%s %s" (plist-get request :method) (plist-get request :url))
          (if (plist-get request :refused)
              (format " (refused: %s)" (plist-get request :refused))
            "")))

(defun sheet--jump-candidates ()
  "Completion candidates for the requests and variables: (LABEL . LINE).
In sheet order (by line), requests the engine refuses included."
  (sort
   (append
    (mapcar (lambda (r)
              (cons (format "%s  (line %d)" (sheet--outline-label r)
                            (plist-get r :line))
                    (plist-get r :line)))
            (sheet--kept-requests))
    (mapcar (lambda (v)
              (cons (format "%s %s %s  (line %d)" (plist-get v :name)
                            (if (equal (plist-get v :kind) "lisp") ":=" "=")
                            (car (split-string (plist-get v :value) "\n"))
                            (plist-get v :line))
                    (plist-get v :line)))
            (sheet--kept-variables)))
   (lambda (a b) (< (cdr a) (cdr b)))))

(defun sheet--in-order-table (candidates)
  "Return a completion table of CANDIDATES keeping their order.
`completing-read' would otherwise sort them alphabetically."
  (lambda (string pred action)
    (if (eq action 'metadata)
        '(metadata (display-sort-function . identity)
                   (cycle-sort-function . identity))
      (complete-with-action action candidates string pred))))

(defun sheet--goto-line (line)
  "Move point to the beginning of 1-based LINE, widening if it is outside."
  (let ((pos (sheet--line-position line)))
    (when (or (< pos (point-min)) (> pos (point-max))) (widen))
    (goto-char pos)))

(defun sheet--helm-sources ()
  "The helm sources for \\[sheet-helm]: variables and requests."
  (let* ((buf (current-buffer))
         (jump (lambda (line)
                 (with-current-buffer buf (sheet--goto-line line))))
         (requests (mapcar (lambda (r)
                             (cons (sheet--outline-label r)
                                   (plist-get r :line)))
                           (sheet--kept-requests)))
         (variables (mapcar (lambda (v)
                              (cons (format "%s %s %s" (plist-get v :name)
                                            (sheet--assign v)
                                            (car (split-string
                                                  (plist-get v :value) "\n")))
                                    (plist-get v :line)))
                            (sheet--kept-variables))))
    (list (helm-make-source "Variables" 'helm-source-sync
                            :candidates variables
                            :action jump)
          (helm-make-source "Requests" 'helm-source-sync
                            :candidates requests
                            :action jump))))

(defun sheet-helm ()
  "Jump to a request or variable, with helm or with `completing-read'.
Helm is used when it is installed and `sheet-use-helm' is non-nil."
  (interactive)
  (if (and sheet-use-helm (require 'helm nil t))
      (helm :sources (sheet--helm-sources) :buffer "*helm sheet*")
    (let* ((candidates (sheet--jump-candidates))
           (choice (completing-read "Jump to request or variable: "
                                    (sheet--in-order-table candidates)
                                    nil t)))
      (when-let ((line (cdr (assoc choice candidates))))
        (sheet--goto-line line)))))

;;; Outline minor mode

(defun sheet--hidden-overlay (pos)
  "The hiding overlay of `sheet-outline-mode' at POS, or nil."
  (cl-find-if (lambda (o) (overlay-get o 'sheet-hidden)) (overlays-at pos)))

(defun sheet-toggle-body-visibility ()
  "On a request line, hide or show the rest of the request; return t if done."
  (let* ((line (sheet--line))
         (request (sheet--kept-find 'on line)))
    (when request
      (let* ((start (sheet--line-end-position line))
             (end (sheet--line-end-position (plist-get request :endLine)))
             (existing (and (< start end) (sheet--hidden-overlay (1+ start)))))
        (cond
         (existing (delete-overlay existing))
         ((< start end)
          (let ((o (make-overlay start end nil t nil)))
            (overlay-put o 'sheet-hidden t)
            (overlay-put o 'invisible 'sheet-outline)
            (overlay-put o 'isearch-open-invisible #'delete-overlay)
            (overlay-put o 'evaporate t))))
        t))))

(defun sheet-toggle-body-visibility-or-indent ()
  "On a request line, hide or show its body; elsewhere indent as usual."
  (interactive)
  (unless (sheet-toggle-body-visibility)
    (indent-for-tab-command)))

(defun sheet-show-all ()
  "Show every region hidden by `sheet-outline-mode'."
  (interactive)
  (save-restriction
    (widen)
    (dolist (o (overlays-in (point-min) (point-max)))
      (when (overlay-get o 'sheet-hidden) (delete-overlay o)))))

(defvar sheet-outline-mode-map
  (let ((map (make-sparse-keymap)))
    (define-key map (kbd "TAB") #'sheet-toggle-body-visibility-or-indent)
    (define-key map (kbd "C-c C-a") #'sheet-show-all)
    map)
  "Keymap of `sheet-outline-mode'.")

(define-minor-mode sheet-outline-mode
  "Hide and show request bodies with TAB on the request line.
\\<sheet-outline-mode-map>\\[sheet-toggle-body-visibility-or-indent] on a \
request line hides or shows everything under it;
\\[sheet-show-all] shows every hidden region.  Elsewhere TAB indents.

This mode is on `sheet-mode-hook' by default; remove it from the
hook to free TAB."
  :lighter nil
  :keymap sheet-outline-mode-map
  :group 'sheet
  (if sheet-outline-mode
      (add-to-invisibility-spec '(sheet-outline . t))
    (sheet-show-all)
    (remove-from-invisibility-spec '(sheet-outline . t))))

(provide 'sheet-outline)
;;; sheet-outline.el ends here
