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
;; requests with their lines, variable declarations), cached per
;; buffer modification, and what `sheet-mode' does with it: moving
;; between requests (C-c C-n, C-c C-p), marking (C-c C-.) and
;; narrowing (C-c n n) to the request at point, jumping to a request
;; or variable with helm or `completing-read' (C-c C-g,
;; `sheet-helm'), and hiding request bodies with TAB
;; (`sheet-outline-mode').  Loaded by sheet-mode.el, whose options
;; it reads (one group, `sheet').

;;; Code:

(require 'cl-lib)
(require 'sheet-engine)

(declare-function helm "ext:helm")
(declare-function helm-make-source "ext:helm-source")
(declare-function sheet--text "sheet-mode" ())
(declare-function sheet--line "sheet-mode" ())
(defvar sheet-use-helm)

;;; Outline (asked of the engine)

(defvar-local sheet--outline-cache nil
  "(TICK . OUTLINE): the engine's outline of this buffer at TICK.")

(defun sheet--outline ()
  "The engine's outline of the current buffer.
A plist (:requests [...] :variables [...])."
  (let ((tick (buffer-chars-modified-tick)))
    (if (eql (car sheet--outline-cache) tick)
        (cdr sheet--outline-cache)
      (let ((outline (sheet-engine--request
                      'sheet/outline
                      ;; The file name picks the syntax (.http, .rest).
                      (append (list :text (sheet--text))
                              (and buffer-file-name
                                   (list :path buffer-file-name))))))
        (setq sheet--outline-cache (cons tick outline))
        outline))))

(defun sheet--requests ()
  "The requests of the current buffer: plists (:method :url :line ...)."
  (append (plist-get (sheet--outline) :requests) nil))

(defun sheet--variables ()
  "The variable declarations of the current buffer, a list of plists."
  (append (plist-get (sheet--outline) :variables) nil))

(defun sheet--line-position (line)
  "Position of the beginning of 1-based LINE, ignoring narrowing."
  (save-restriction
    (widen)
    (save-excursion
      (goto-char (point-min))
      (forward-line (1- line))
      (point))))

(defun sheet--line-end-position (line)
  "Position of the end of 1-based LINE, ignoring narrowing."
  (save-restriction
    (widen)
    (save-excursion
      (goto-char (point-min))
      (forward-line (1- line))
      (line-end-position))))

(defun sheet--request-at (&optional line)
  "The outline entry of the request at LINE (default: point's line), or nil."
  (let ((line (or line (sheet--line))))
    (cl-find-if (lambda (r) (<= (plist-get r :startLine) line
                                (plist-get r :endLine)))
                (sheet--requests))))

(defun sheet--current-request ()
  "The request at point, or a `user-error'."
  (or (sheet--request-at)
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
  (let* ((line (sheet--line))
         (next (cl-find-if (lambda (r) (> (plist-get r :line) line))
                           (sheet--requests))))
    (if (and next (sheet--accessible-request-p next))
        (goto-char (sheet--line-position (plist-get next :line)))
      (sheet--no-request "next"))))

(defun sheet-jump-prev ()
  "Move point to the previous request line.
Within the narrowed part, as restclient.el's `restclient-jump-prev'."
  (interactive)
  (let* ((line (sheet--line))
         (here (sheet--request-at line))
         (limit (if here (plist-get here :line) line))
         (prev (cl-find-if (lambda (r) (< (plist-get r :line) limit))
                           (reverse (sheet--requests)))))
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
            (sheet--requests))
    (mapcar (lambda (v)
              (cons (format "%s %s %s  (line %d)" (plist-get v :name)
                            (if (equal (plist-get v :kind) "lisp") ":=" "=")
                            (car (split-string (plist-get v :value) "\n"))
                            (plist-get v :line))
                    (plist-get v :line)))
            (sheet--variables)))
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
                           (sheet--requests)))
         (variables (mapcar (lambda (v)
                              (cons (format "%s %s %s" (plist-get v :name)
                                            (sheet--assign v)
                                            (car (split-string
                                                  (plist-get v :value) "\n")))
                                    (plist-get v :line)))
                            (sheet--variables))))
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
         (request (cl-find-if (lambda (r) (= (plist-get r :line) line))
                              (sheet--requests))))
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
