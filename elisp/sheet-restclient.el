;;; sheet-restclient.el --- restclient.el's names  -*- lexical-binding: t; -*-

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

;; Sheets, hooks and init files written for restclient.el call its
;; public functions by name.  Each is an alias of its sheet-mode
;; command here, defined only when restclient.el has not defined it
;; (restclient.el's own definitions win when it is loaded), and
;; `sheet-set-var-from-header', restclient.el's
;; `restclient-set-var-from-header', for `run-hook' forms.  The two
;; autoloaded names, `restclient-get-var' and `restclient-set-var',
;; are in sheet-mode.el with the functions they stand for.  When
;; restclient.el is not installed, its options and hooks
;; (`restclient-log-request', `restclient-response-loaded-hook', ...)
;; are aliases of sheet-mode's, so an init file written for it keeps
;; working.  Loaded by sheet-mode.el.
;;
;; Beside restclient.el (loaded before or after sheet-mode), its own
;; definitions stand, and each of the names a sheet's Lisp or an init
;; file calls (`restclient-set-var', `restclient-get-var' through
;; `restclient-get-var-at-point', `restclient-set-var-from-header',
;; the send, jump and mark commands) gets an `:around' advice that
;; dispatches on where it runs: in a `sheet-mode' buffer, in a
;; `:=' form evaluated for the engine and in a sheet-mode response
;; buffer (its `run-hook' forms and hooks) it calls sheet-mode's
;; function; anywhere else, restclient.el's own, unchanged.  The
;; advice is installed by `sheet-restclient-share-names' when
;; restclient.el is loaded (at once when it already is, else from
;; `after-load-functions'); sheet-mode calls that when a buffer enters
;; the mode and when an engine starts, never merely by being loaded.

;;; Code:

(require 'seq)
(require 'sheet-response)     ; `sheet--response-info'

(declare-function sheet-set-var "sheet-mode" (name value))
(declare-function sheet-get-var "sheet-mode" (name))
(declare-function sheet-http-send-current "sheet-send" (&optional raw stay))
(declare-function sheet-http-send-current-suppress-response-buffer
                  "sheet-send" ())
(defvar sheet-engine--evaluating)

(defun sheet-set-var-from-header (name header)
  "Set the variable NAME to the value of the response header HEADER.
For `run-hook' forms, which run in the response buffer: as
restclient.el's `restclient-set-var-from-header'.  HEADER is
matched without regard to case; the first such header counts.
Return the value; signal an error when the response has no such
header or the current buffer is not a response buffer."
  (unless sheet--response-info
    (user-error "Sheet-mode: not in a response buffer"))
  (let ((found (seq-find
                (lambda (h)
                  (eq t (compare-strings (aref h 0) nil nil header nil nil t)))
                (plist-get (plist-get sheet--response-info :response)
                           :headers))))
    (unless found
      (user-error "Sheet-mode: the response has no header %s" header))
    (sheet-set-var name (aref found 1))))

(dolist (names '((restclient-set-var-from-header . sheet-set-var-from-header)
                 (restclient-http-send-current . sheet-http-send-current)
                 (restclient-http-send-current-raw
                  . sheet-http-send-current-raw)
                 (restclient-http-send-current-stay-in-window
                  . sheet-http-send-current-stay-in-window)
                 (restclient-http-send-current-suppress-response-buffer
                  . sheet-http-send-current-suppress-response-buffer)
                 (restclient-jump-next . sheet-jump-next)
                 (restclient-jump-prev . sheet-jump-prev)
                 (restclient-mark-current . sheet-mark-current)
                 (restclient-narrow-to-current . sheet-narrow-to-current)
                 (restclient-copy-curl-command . sheet-copy-curl-command)
                 (restclient-show-info . sheet-show-info)
                 (restclient-toggle-body-visibility
                  . sheet-toggle-body-visibility)))
  (unless (fboundp (car names))
    (defalias (car names) (cdr names))))

;;; restclient.el's options and hooks

(defconst sheet-restclient--variables
  '((restclient-log-request . sheet-log-request)
    (restclient-same-buffer-response . sheet-same-buffer-response)
    (restclient-same-buffer-response-name . sheet-buffer-response-name)
    (restclient-response-size-threshold . sheet-response-size-threshold)
    (restclient-inhibit-cookies . sheet-inhibit-cookies)
    (restclient-content-type-modes . sheet-content-type-modes)
    (restclient-vars-max-passes . sheet-vars-max-passes)
    (restclient-mode-hook . sheet-mode-hook)
    (restclient-response-received-hook . sheet-response-received-hook)
    (restclient-response-loaded-hook . sheet-response-loaded-hook))
  "Pairs (RESTCLIENT-NAME . SHEET-NAME) of variables of the same meaning.
restclient.el's options and hooks (restclient.el, `defcustom' and
`defvar'), each with sheet-mode's option or hook that does what it
does.")

(defun sheet-restclient--absent-p ()
  "Whether restclient.el is neither loaded nor installed."
  (not (or (featurep 'restclient) (fboundp 'restclient-mode)
           (locate-library "restclient"))))

(defun sheet-restclient--alias-variables ()
  "Make restclient.el's option and hook names aliases of sheet-mode's.
So an init file written for restclient.el (`setq', `add-hook',
Customize) sets sheet-mode's.  Called only when restclient.el is
neither loaded nor installed: beside restclient.el each mode keeps
its own.
A value set before sheet-mode was loaded is kept: an option's
becomes sheet-mode's, a hook's functions join sheet-mode's."
  (pcase-dolist (`(,old . ,new) sheet-restclient--variables)
    (unless (eq (indirect-variable old) new)
      (let* ((set (default-boundp old))
             (value (and set (default-value old))))
        (makunbound old)
        (defvaralias old new)
        (when set
          (if (not (string-suffix-p "-hook" (symbol-name old)))
              (set-default new value)
            (dolist (f (reverse (if (functionp value) (list value) value)))
              (unless (eq f t) (add-hook new f)))))))))

(when (sheet-restclient--absent-p)
  (sheet-restclient--alias-variables)
  ;; A `-*- mode: restclient -*-' line (restclient.el's examples/httpbin,
  ;; a file without extension) opens the file in sheet-mode.
  (defalias 'restclient-mode #'sheet-mode))

;;; Beside restclient.el

(defun sheet-restclient--sheet-lisp-p ()
  "Whether the Lisp running now is a sheet-mode sheet's.
A `:=' form evaluated for the engine, code run in a sheet-mode
response buffer (its `run-hook' forms and hooks), or code run in a
`sheet-mode' buffer."
  (or sheet-engine--evaluating
      sheet--response-info
      (derived-mode-p 'sheet-mode)))

(defun sheet-restclient--get-var-at-point (name &rest _)
  "`sheet-get-var' of NAME, for `restclient-get-var-at-point'.
restclient.el's macro `restclient-get-var' expands to that function
with the buffer and point of the expansion; sheet-mode's answer
already depends on where it runs."
  (sheet-get-var name))

(defun sheet-restclient--send-current (&optional raw stay-in-window
                                                 suppress-response-buffer)
  "Send the request at point as restclient.el's `restclient-http-send-current'.
RAW, STAY-IN-WINDOW and SUPPRESS-RESPONSE-BUFFER as there."
  (if suppress-response-buffer
      (sheet-http-send-current-suppress-response-buffer)
    (sheet-http-send-current raw stay-in-window)))

(defconst sheet-restclient--dispatched
  '((restclient-set-var . sheet-set-var)
    (restclient-get-var-at-point . sheet-restclient--get-var-at-point)
    (restclient-set-var-from-header . sheet-set-var-from-header)
    (restclient-http-send-current . sheet-restclient--send-current)
    (restclient-http-send-current-raw . sheet-http-send-current-raw)
    (restclient-http-send-current-stay-in-window
     . sheet-http-send-current-stay-in-window)
    (restclient-http-send-current-suppress-response-buffer
     . sheet-http-send-current-suppress-response-buffer)
    (restclient-jump-next . sheet-jump-next)
    (restclient-jump-prev . sheet-jump-prev)
    (restclient-mark-current . sheet-mark-current)
    (restclient-narrow-to-current . sheet-narrow-to-current)
    (restclient-copy-curl-command . sheet-copy-curl-command)
    (restclient-show-info . sheet-show-info)
    (restclient-toggle-body-visibility . sheet-toggle-body-visibility))
  "Pairs (RESTCLIENT-FUNCTION . SHEET-FUNCTION) dispatched on context.
Beside restclient.el, for a sheet's Lisp.  Each SHEET-FUNCTION takes
RESTCLIENT-FUNCTION's arguments.  Not `restclient-remove-var':
sheet-mode has no way to drop an override.")

(defun sheet-restclient--dispatcher (ours)
  "An `:around' advice calling OURS for a sheet's Lisp, else the original."
  (lambda (original &rest args)
    (apply (if (sheet-restclient--sheet-lisp-p) ours original) args)))

(defun sheet-restclient--advise ()
  "Advise restclient.el's functions of `sheet-restclient--dispatched'.
Named advice, so installing it again replaces it."
  (pcase-dolist (`(,name . ,ours) sheet-restclient--dispatched)
    (when (fboundp name)
      (advice-add name :around (sheet-restclient--dispatcher ours)
                  '((name . sheet-restclient))))))

(defun sheet-restclient--after-load (_file)
  "Advise restclient.el's functions once it has been loaded.
On `after-load-functions'; removes itself then."
  (when (featurep 'restclient)
    (remove-hook 'after-load-functions #'sheet-restclient--after-load)
    (sheet-restclient--advise)))

(defun sheet-restclient-share-names ()
  "Make restclient.el's public names reach sheet-mode in a sheet's Lisp.
Installs `sheet-restclient--advise' once restclient.el is loaded:
now if it is, else when it is (`after-load-functions'; package-lint
rules `with-eval-after-load' out of packages).  Idempotent.  Called
by `sheet-mode' and when an engine starts."
  (if (featurep 'restclient)
      (sheet-restclient--advise)
    (add-hook 'after-load-functions #'sheet-restclient--after-load)))

(provide 'sheet-restclient)
;;; sheet-restclient.el ends here
