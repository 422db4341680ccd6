;;; sheet-auth.el --- OAuth2 tokens  -*- lexical-binding: t; -*-

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

;; The tokens the engine keeps for the `Security.Auth' configurations
;; of a `.http' file's environment (issue 39; docs/http-files.md,
;; "Authentication"), as `sheet auth list|login|logout' shows and
;; clears them: `sheet-auth-list' (a buffer, *sheet auth*),
;; `sheet-auth-login' (a new token now), `sheet-auth-logout' (forget
;; one, or with a prefix argument all of them).  Over the engine's
;; `sheet/authList', `sheet/authLogin' and `sheet/authLogout'
;; (docs/protocol.md, "Token auth"), for the buffer's file and its
;; chosen environment (C-c C-e).
;;
;; A sign-in that needs the user, from these commands or from C-c C-c
;; on a request with `{{$auth.token("id")}}', reaches Emacs as the
;; engine's notifications: `auth/openUrl' opens the authorization URL
;; with `browse-url' (Authorization Code), `auth/notify' shows a line
;; in the echo area and in *sheet auth* (Device Authorization: the
;; verification URL and the user code, while the engine polls).
;; `sheet-auth-cancel' ends a login in progress.  Loaded by
;; sheet-mode.el.

;;; Code:

(require 'browse-url)
(require 'jsonrpc)
(require 'sheet-custom)
(require 'sheet-engine)
(require 'sheet-environment)

(defconst sheet-auth-buffer-name "*sheet auth*"
  "The buffer of `sheet-auth-list' and of the sign-in lines.")

(defvar sheet-auth--login nil
  "The login in progress: (CONNECTION ID AUTH-ID), or nil.")

(defun sheet-auth--params (&optional id)
  "The params of a `sheet/auth*' request for the current buffer and ID."
  (append (list :path (expand-file-name (or buffer-file-name
                                            default-directory)))
          (sheet-environment-params)
          (and id (list :id id))))

(defun sheet-auth--request (method params)
  "Ask the engine METHOD with PARAMS and wait; a `user-error' on failure."
  (condition-case err
      (jsonrpc-request (sheet-engine--ensure) method params
                       :timeout sheet-request-timeout)
    (jsonrpc-error
     (user-error "Sheet-mode: %s" (sheet-engine--error-text err)))))

(defun sheet-auth--where (result)
  "\"environment NAME\" of RESULT, or the hint that none is chosen."
  (let ((env (plist-get result :environment)))
    (if env
        (format "environment %s" env)
      (substitute-command-keys
       "no environment; \\[sheet-set-environment] chooses one"))))

(defun sheet-auth--show (text)
  "Append TEXT as a line to the *sheet auth* buffer and show it."
  (let ((buf (get-buffer-create sheet-auth-buffer-name)))
    (with-current-buffer buf
      (let ((inhibit-read-only t))
        (goto-char (point-max))
        (insert text "\n"))
      (special-mode))
    (display-buffer buf)
    buf))

(defun sheet-auth--ids ()
  "The auth ids of the current buffer's environment."
  (mapcar (lambda (e) (plist-get e :id))
          (plist-get (sheet-auth--request 'sheet/authList (sheet-auth--params))
                     :entries)))

(defun sheet-auth--read-id (prompt)
  "Read an auth id of the current buffer's environment with PROMPT."
  (let ((ids (sheet-auth--ids)))
    (unless ids
      (user-error "Sheet-mode: no auth configurations (%s)"
                  "\"Security\": {\"Auth\": ...} in http-client.env.json"))
    (completing-read prompt ids nil t nil nil (car ids))))

;;;###autoload
(defun sheet-auth-list ()
  "Show the auth configurations of this buffer's environment and their tokens.
In the buffer *sheet auth*: each id, its grant and its token's state
\(valid until when, expired, none).  Never a token or a secret."
  (interactive)
  (let* ((result (sheet-auth--request 'sheet/authList (sheet-auth--params)))
         (entries (append (plist-get result :entries) nil))
         (buf (get-buffer-create sheet-auth-buffer-name)))
    (with-current-buffer buf
      (let ((inhibit-read-only t))
        (erase-buffer)
        (insert (format "Tokens of the %s\n\n" (sheet-auth--where result)))
        (if (null entries)
            (insert "No auth configurations (\"Security\": {\"Auth\": {...}} "
                    "in http-client.env.json).\n")
          (dolist (e entries)
            (insert (format "%-20s %-22s %s\n" (plist-get e :id)
                            (plist-get e :grant) (plist-get e :state))))))
      (special-mode)
      (goto-char (point-min)))
    (display-buffer buf)
    entries))

;;;###autoload
(defun sheet-auth-login (id)
  "Ask for a new token for the auth configuration ID now, without waiting.
The grant of ID's configuration in this buffer's environment runs in
the engine: Authorization Code opens the sign-in page with
`browse-url', Device Authorization shows the URL and the user code
in *sheet auth*.  A message says when the token came, or why not.
\\[sheet-auth-cancel] ends it."
  (interactive (list (sheet-auth--read-id "Sign in with: ")))
  (let ((conn (sheet-engine--ensure))
        (params (sheet-auth--params id)))
    (when sheet-auth--login
      (user-error "Sheet-mode: a login (%s) is in progress; %s ends it"
                  (nth 2 sheet-auth--login)
                  (substitute-command-keys "\\[sheet-auth-cancel]")))
    (jsonrpc-async-request
     conn 'sheet/authLogin params
     :success-fn
     (lambda (result)
       (setq sheet-auth--login nil)
       (message "Sheet-mode: %s: token obtained (%s)%s" id
                (sheet-auth--where result)
                (let ((w (plist-get result :warning)))
                  (if w (format "; %s" w) ""))))
     :error-fn
     (lambda (err)
       (setq sheet-auth--login nil)
       (message "Sheet-mode: %s: no token: %s" id
                (sheet-engine--error-text err)))
     :timeout-fn
     (lambda ()
       (setq sheet-auth--login nil)
       (message "Sheet-mode: %s: the sign-in took too long" id))
     ;; The engine's own sign-in time limit ends it first.
     :timeout 900)
    (setq sheet-auth--login
          (list conn (sheet-engine--last-id conn) id))
    (message "Sheet-mode: signing in with %s... (%s ends it)" id
             (substitute-command-keys "\\[sheet-auth-cancel]"))))

(defun sheet-auth-cancel ()
  "End the login in progress: the engine stops listening and polling."
  (interactive)
  (if (null sheet-auth--login)
      (message "Sheet-mode: no login in progress")
    (let ((conn (nth 0 sheet-auth--login))
          (id (nth 1 sheet-auth--login)))
      (when (jsonrpc-running-p conn)
        (jsonrpc-notify conn '$/cancelRequest (list :id id)))
      (message "Sheet-mode: login with %s ended" (nth 2 sheet-auth--login))
      (setq sheet-auth--login nil))))

;;;###autoload
(defun sheet-auth-logout (id)
  "Forget the token kept for the auth configuration ID, or all with a prefix.
With a prefix argument (ID nil), the tokens of every configuration of
this buffer's environment.  The next request that needs one asks for
a new token."
  (interactive (list (unless current-prefix-arg
                       (sheet-auth--read-id "Forget the token of: "))))
  (let* ((result (sheet-auth--request 'sheet/authLogout
                                      (sheet-auth--params id)))
         (removed (append (plist-get result :removed) nil)))
    (message "Sheet-mode: %s" (if removed
                                  (format "removed the tokens of: %s"
                                          (string-join removed ", "))
                                (format "no token kept%s (%s)"
                                        (if id (format " for %s" id) "")
                                        (sheet-auth--where result))))
    removed))

;;; The engine's sign-in notifications

(defun sheet-auth--on-notify (params)
  "Show the engine's sign-in line in PARAMS (the user code and URL)."
  (let ((line (plist-get params :message)))
    (sheet-auth--show line)
    (message "Sheet-mode: %s" line)))

(defun sheet-auth--on-open-url (params)
  "Open the authorization URL in PARAMS with `browse-url'."
  (let ((url (plist-get params :url)))
    (message "Sheet-mode: signing in in the browser")
    (browse-url url)))

(setf (alist-get 'auth/notify sheet-engine-notification-handlers)
      #'sheet-auth--on-notify)
(setf (alist-get 'auth/openUrl sheet-engine-notification-handlers)
      #'sheet-auth--on-open-url)

(provide 'sheet-auth)
;;; sheet-auth.el ends here
