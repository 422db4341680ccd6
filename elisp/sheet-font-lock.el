;;; sheet-font-lock.el --- Sheet faces and syntax  -*- lexical-binding: t; -*-

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

;; How a sheet looks, for display only (Emacs never parses a sheet
;; for behaviour): the faces (group `sheet-faces'), the font-lock
;; keywords, the request methods shown in the mode line, and the
;; syntax table with its `syntax-propertize' rule (a `#' starts a
;; comment at the start of a line only).  Loaded by sheet-mode.el.

;;; Code:

;;; Faces

(defgroup sheet-faces nil
  "Faces used by `sheet-mode'."
  :group 'sheet
  :prefix "sheet-")

(defface sheet-method '((t :inherit font-lock-keyword-face))
  "Face for the method of a request line.")

(defface sheet-url '((t :inherit font-lock-function-name-face))
  "Face for the URL of a request line.")

(defface sheet-header-name '((t :inherit font-lock-variable-name-face))
  "Face for header names.")

(defface sheet-header-value '((t :inherit font-lock-string-face))
  "Face for header values.")

(defface sheet-variable-name '((t :inherit font-lock-preprocessor-face))
  "Face for the names of variable declarations.")

(defface sheet-variable-string-value '((t :inherit font-lock-string-face))
  "Face for the value of a literal variable (`:name = value').")

(defface sheet-variable-elisp-value '((t :inherit font-lock-constant-face))
  "Face for the Lisp form of a Lisp variable (`:name := form').")

(defface sheet-variable-multiline-value '((t :inherit font-lock-doc-face))
  "Face for the lines of a multi-line variable (`:name = <<').")

(defface sheet-hook '((t :inherit font-lock-builtin-face))
  "Face for hook lines (`-> jq-set-var', `-> run-hook').")

(defface sheet-file-body '((t :inherit font-lock-type-face))
  "Face for a file body line (`< path').")

;;; Font lock

(defconst sheet--request-methods
  '("GET" "POST" "PUT" "DELETE" "PATCH" "HEAD" "OPTIONS" "TRACE"
    "CONNECT"
    "PROPFIND" "PROPPATCH" "MKCOL" "COPY" "MOVE" "LOCK" "UNLOCK"
    "CHECKOUT" "CHECKIN" "REPORT" "MERGE" "MKACTIVITY" "MKWORKSPACE"
    "VERSION-CONTROL" "BASELINE-CONTROL" "ACL" "MKCALENDAR" "SEARCH"
    "GRAPHQL" "GRPC"
    "WEBSOCKET" "WS" "WSS")
  "Every method a request line may start with, for display only.
The engine's lists, which must agree with this one:
`HTTP_FILE_REQUEST_METHODS' in engine/src/http-file/parse.ts (a
`.http' file's: restclient's eight from `METHODS' in
engine/src/sheet/parse.ts, CONNECT, WebDAV's, DeltaV's, ... and
JetBrains' GRAPHQL, GRPC from engine/src/sheet/grpc-lines.ts, and the
WebSocket words of `WEBSOCKET_METHODS' in
engine/src/sheet/websocket-line.ts).  A sheet takes the eight, GRPC
and the WebSocket words only; the engine's
diagnostics say so (Flymake), font lock shows every one.
test/elisp/sheet-mode-methods-test.el reads the TypeScript and fails
when the two differ.")

(defconst sheet--method-regexp
  (regexp-opt sheet--request-methods)
  "Request methods (`sheet--request-methods'), for display only.")

(defun sheet--match-multiline-value (limit)
  "Font-lock matcher: the value lines of a multi-line variable before LIMIT."
  (when (re-search-forward "^:[^:= \t\n]+[ \t]*:?=[ \t]*<<[ \t]*$" limit t)
    (let ((start (min (1+ (match-end 0)) (point-max))))
      (let ((end (save-excursion
                   (goto-char start)
                   (if (re-search-forward "^#" nil t)
                       (match-beginning 0)
                     (point-max)))))
        (set-match-data (list start end))
        (goto-char (max (point) (min end limit)))
        t))))

(defvar sheet-font-lock-keywords
  `(("^#.*$" . font-lock-comment-face)
    (,(concat "^\\(" sheet--method-regexp "\\)[ \t]+\\(.*\\)$")
     (1 'sheet-method) (2 'sheet-url))
    ("^\\(:[^:= \t\n]+\\)[ \t]*:=[ \t]*\\(<<\\)[ \t]*$"
     (1 'sheet-variable-name) (2 'sheet-variable-multiline-value))
    ("^\\(:[^:= \t\n]+\\)[ \t]*=[ \t]*\\(<<\\)[ \t]*$"
     (1 'sheet-variable-name) (2 'sheet-variable-multiline-value))
    ("^\\(:[^:= \t\n]+\\)[ \t]*:=[ \t]*\\(.+\\)$"
     (1 'sheet-variable-name) (2 'sheet-variable-elisp-value))
    ("^\\(:[^:= \t\n]+\\)[ \t]*=[ \t]*\\(.+\\)$"
     (1 'sheet-variable-name) (2 'sheet-variable-string-value))
    (sheet--match-multiline-value (0 'sheet-variable-multiline-value t))
    ("^\\(->\\)[ \t]+\\(.*\\)$" (1 'sheet-hook) (2 'sheet-hook))
    ("^<[ \t]+.*$" . 'sheet-file-body)
    ("^\\([^](),/:;@[\\{}= \t\n]+\\):[ \t]+\\(.*\\)$"
     (1 'sheet-header-name) (2 'sheet-header-value)))
  "Font-lock keywords of `sheet-mode'; display only, never used to parse.")

;;; Syntax

(defvar sheet-mode-syntax-table
  (let ((table (make-syntax-table)))
    (modify-syntax-entry ?\" "." table)
    (modify-syntax-entry ?' "." table)
    (modify-syntax-entry ?# "." table)
    (modify-syntax-entry ?\n ">" table)
    table)
  "Syntax table of `sheet-mode'.
A `#' starts a comment at the start of a line only (see
`sheet--syntax-propertize'), so that `#' in a URL fragment or a
JSON body is not taken for one; a newline ends a comment.")

(defconst sheet--syntax-propertize
  (syntax-propertize-rules ("^\\(#\\)" (1 "<")))
  "Make a `#' at the start of a line a comment starter.
restclient.el makes every `#' one in its syntax table; a sheet
treats only a line that starts with `#' as a comment, so the
syntax says the same.")

(provide 'sheet-font-lock)
;;; sheet-font-lock.el ends here
