;;; sheet-websocket.el --- WebSocket sessions  -*- lexical-binding: t; -*-

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

;; Issue 40: \\[sheet-http-send-current] on a WebSocket request
;; (`WEBSOCKET ws://...', `WS', `WSS') opens a session buffer: the
;; engine connects (`ws/open'), sends the request's messages and keeps
;; the connection open; every message either way is shown as it goes,
;; with the time it was shown (`ws/message' notifications), and the
;; close with its code and reason (`ws/closed').  Text typed after the
;; prompt is sent with RET (`ws/send'); \\[sheet-websocket-close]
;; closes (`ws/close').  Loaded by sheet-send.el.

;;; Code:

(require 'jsonrpc)
(require 'subr-x)
(require 'sheet-engine)

(defconst sheet-websocket-methods '("WEBSOCKET" "WS" "WSS")
  "The words of a WebSocket request line, the engine's `WEBSOCKET_METHODS'.
In engine/src/sheet/websocket-line.ts; `sheet--request-methods'
shows them, and the methods test checks that list against it.")

(defvar sheet-websocket--buffers (make-hash-table)
  "Session id -> its buffer.")

(defvar sheet-websocket--early (make-hash-table)
  "Session id -> notifications that came before `ws/open' answered.
Newest first.")

(defvar-local sheet-websocket--id nil "This buffer's session id.")
(defvar-local sheet-websocket--output nil
  "Marker where the next message is inserted (the prompt's start).")
(defvar-local sheet-websocket--input nil
  "Marker where the typed input starts.")
(defvar-local sheet-websocket--closed nil "Non-nil once the session closed.")

(defvar sheet-websocket-mode-map
  (let ((map (make-sparse-keymap)))
    (define-key map (kbd "RET") #'sheet-websocket-send-input)
    (define-key map (kbd "C-c C-c") #'sheet-websocket-close)
    (define-key map (kbd "C-c C-k") #'sheet-websocket-close)
    map)
  "Keys of `sheet-websocket-mode'.")

(define-derived-mode sheet-websocket-mode text-mode "Sheet-WS"
  "A WebSocket session: messages both ways above, the prompt below.
Type a message after the prompt and press RET to send it;
\\[sheet-websocket-close] closes the connection.

\\{sheet-websocket-mode-map}"
  (setq-local sheet-websocket--output (point-min-marker))
  (setq-local sheet-websocket--input (point-min-marker)))

(defun sheet-websocket--insert (buffer text)
  "Insert TEXT and a newline above the prompt of BUFFER."
  (when (buffer-live-p buffer)
    (with-current-buffer buffer
      (let ((inhibit-read-only t)
            (at-end (>= (point) sheet-websocket--input)))
        (save-excursion
          (goto-char sheet-websocket--output)
          (insert (propertize (concat text "\n") 'read-only t
                              'front-sticky t 'rear-nonsticky t))
          ;; The input marker, after the prompt, moved with the insertion.
          (set-marker sheet-websocket--output (point)))
        (when at-end (goto-char (point-max)))))))

(defun sheet-websocket--message-line (params)
  "The line shown for a `ws/message' PARAMS."
  (format "%s %s %s"
          (format-time-string "%T.%3N")
          (if (equal (plist-get params :direction) "sent") "-->" "<--")
          (if (eq (plist-get params :binary) t)
              (format "(binary, %s bytes, base64) %s"
                      (plist-get params :bytes) (plist-get params :text))
            (plist-get params :text))))

(defun sheet-websocket--closed-line (params)
  "The line shown for a `ws/closed' PARAMS."
  (let ((reason (plist-get params :reason)))
    (format "%s -- closed by %s with %s%s"
            (format-time-string "%T.%3N")
            (if (equal (plist-get params :by) "server") "the server" "us")
            (plist-get params :code)
            (if (and reason (not (string-empty-p reason)))
                (format " (%s)" reason)
              ""))))

(defun sheet-websocket--show (method params)
  "Show a notification METHOD with PARAMS in its session's buffer."
  (let* ((id (plist-get params :id))
         (buffer (gethash id sheet-websocket--buffers)))
    (if (not buffer)
        (push (cons method params)
              (gethash id sheet-websocket--early))
      (pcase method
        ('ws/message
         (sheet-websocket--insert buffer
                                  (sheet-websocket--message-line params)))
        ('ws/closed
         (remhash id sheet-websocket--buffers)
         (sheet-websocket--insert buffer (sheet-websocket--closed-line params))
         (when (buffer-live-p buffer)
           (with-current-buffer buffer (setq sheet-websocket--closed t))))))))

(defun sheet-websocket-handle-notification (method params)
  "Handle the engine's WebSocket notification METHOD with PARAMS.
Return non-nil when METHOD is one of them."
  (when (memq method '(ws/message ws/closed))
    (sheet-websocket--show method params)
    t))

(dolist (method '(ws/message ws/closed))
  (setf (alist-get method sheet-engine-notification-handlers)
        (lambda (params) (sheet-websocket-handle-notification method params))))

(defun sheet-websocket--buffer (id url)
  "Make the session buffer of session ID to URL and return it."
  (let ((buffer (generate-new-buffer (format "*sheet-ws %s*" url))))
    (with-current-buffer buffer
      (sheet-websocket-mode)
      (setq sheet-websocket--id id)
      (let ((inhibit-read-only t))
        (insert (propertize "> " 'read-only t 'rear-nonsticky t
                            'front-sticky t))
        (set-marker sheet-websocket--output (point-min))
        (set-marker sheet-websocket--input (point-max))))
    (puthash id buffer sheet-websocket--buffers)
    buffer))

(defun sheet-websocket-open (params)
  "Open the WebSocket request of PARAMS (`sheet/send''s) in a session buffer."
  (let ((conn (sheet-engine--ensure)))
    (jsonrpc-async-request
     conn 'ws/open params
     :timeout nil
     :success-fn
     (lambda (result)
       (let ((id (plist-get result :id))
             (url (plist-get result :url)))
         (if (plist-get result :refusedBody)
             (message "Sheet-mode: %s refused the WebSocket handshake: %s %s%s"
                      url (plist-get result :status)
                      (plist-get result :statusText)
                      (let ((body (string-trim
                                   (plist-get result :refusedBody))))
                        (if (string-empty-p body) "" (format ": %s" body))))
           (let ((buffer (sheet-websocket--buffer id url)))
             (sheet-websocket--insert
              buffer (format "-- %s: %s %s" url (plist-get result :status)
                             (plist-get result :statusText)))
             (dolist (n (reverse (gethash id sheet-websocket--early)))
               (sheet-websocket--show (car n) (cdr n)))
             (remhash id sheet-websocket--early)
             (with-current-buffer buffer (goto-char (point-max)))
             (display-buffer buffer)))))
     :error-fn
     (lambda (err)
       (message "Sheet-mode: %s" (plist-get err :message))))))

(defun sheet-websocket-send-input ()
  "Send the text after the prompt as one message."
  (interactive)
  (when sheet-websocket--closed
    (user-error "Sheet-mode: this WebSocket session is closed"))
  (let ((text (buffer-substring-no-properties sheet-websocket--input
                                              (point-max))))
    (when (string-empty-p text)
      (user-error "Sheet-mode: type a message after the prompt"))
    (let ((inhibit-read-only t))
      (delete-region sheet-websocket--input (point-max)))
    (jsonrpc-async-request (sheet-engine--ensure) 'ws/send
                           (list :id sheet-websocket--id :text text)
                           :success-fn #'ignore
                           :error-fn (lambda (err)
                                       (message "Sheet-mode: %s"
                                                (plist-get err :message))))))

(defun sheet-websocket-close ()
  "Close this buffer's WebSocket session (code 1000)."
  (interactive)
  (unless sheet-websocket--closed
    (jsonrpc-async-request (sheet-engine--ensure) 'ws/close
                           (list :id sheet-websocket--id)
                           :success-fn #'ignore
                           :error-fn #'ignore)))

(provide 'sheet-websocket)
;;; sheet-websocket.el ends here
