;;; sheet-mode-websocket-test.el --- WebSocket requests in sheet-mode  -*- lexical-binding: t; -*-

;;; Commentary:

;; Issue 40: `C-c C-c' on a `WEBSOCKET' request (a `.http' file) and on a
;; `WS' request (a sheet) against a real `ws' server on 127.0.0.1
;; (test/fixtures/ws-server.mjs) opens a session buffer: messages both
;; ways with their times as they come, a typed message sent with RET,
;; the close with its code and reason.  Real engine, batch Emacs.

;;; Code:

(require 'test-helper)

(defmacro sheet-test-with-ws-server (var &rest body)
  "Run BODY with VAR bound to the ws fixture's ws:// base URL; stop it after."
  (declare (indent 1) (debug t))
  `(let* ((started (sheet-test--start-fixture "ws-server.mjs" "sheet-test-ws" 15))
          (,var (replace-regexp-in-string "\\`http://" "ws://" (cdr started))))
     (unwind-protect (progn ,@body)
       (delete-process (car started)))))

(defun sheet-test-websocket--buffer-text (prefix)
  "The text of the session buffer whose name starts with PREFIX, or nil."
  (let ((b (seq-find (lambda (b) (string-prefix-p prefix (buffer-name b)))
                     (buffer-list))))
    (and b (with-current-buffer b (buffer-string)))))

(defun sheet-test-websocket--wait-for (prefix regexp)
  "Wait until the session buffer named PREFIX... matches REGEXP."
  (sheet-test-wait-until
   (lambda () (let ((text (sheet-test-websocket--buffer-text prefix)))
                (and text (string-match-p regexp text))))
   20 regexp))

(ert-deftest sheet-test-websocket-session-buffer ()
  "C-c C-c on WEBSOCKET opens a session: messages both ways, typing, close."
  (sheet-test-with-ws-server ws
    (sheet-test-visiting "chat.http"
        (with-temp-file file
          (insert "WEBSOCKET " ws "/push\n\npush 2 300\n"))
      (let ((name (format "*sheet-ws %s/push" ws))
            (time "[0-9][0-9]:[0-9][0-9]:[0-9][0-9]\\.[0-9][0-9][0-9]"))
        (sheet-http-send-current-stay-in-window)
        ;; The first pushed message shows while the server still waits 300 ms before the second.
        (sheet-test-websocket--wait-for name (concat time " <-- push 1"))
        (should-not (string-match-p "push 2\n" (sheet-test-websocket--buffer-text name)))
        (sheet-test-websocket--wait-for name (concat time " <-- push 2"))
        (let ((text (sheet-test-websocket--buffer-text name)))
          (should (string-match-p "101 Switching Protocols" text))
          (should (string-match-p (concat time " <-- hello\n") text))
          (should (string-match-p (concat time " --> push 2 300\n") text)))
        ;; Type a message and send it.
        (with-current-buffer (seq-find (lambda (b) (string-prefix-p name (buffer-name b)))
                                       (buffer-list))
          (goto-char (point-max))
          (insert "push 1")
          (sheet-websocket-send-input)
          (sheet-test-websocket--wait-for name "--> push 1\n")
          (sheet-test-websocket--wait-for name "<-- push 1\n\\(.*\n\\)*.*<-- push 1\n")
          (sheet-websocket-close)
          (sheet-test-websocket--wait-for name "closed by us with 1000")
          (kill-buffer))))))

(ert-deftest sheet-test-websocket-close-code ()
  "A sheet WS session closed with 4001 shows the code and reason."
  (sheet-test-with-ws-server ws
    (sheet-test-with-sheet (concat "WS " ws "/close4001\n\nsubscribe\n")
      (let ((name (format "*sheet-ws %s/close4001" ws)))
        (sheet-http-send-current-stay-in-window)
        (sheet-test-websocket--wait-for
         name "closed by the server with 4001 (topic not allowed)")
        (kill-buffer (seq-find (lambda (b) (string-prefix-p name (buffer-name b)))
                               (buffer-list)))))))

(provide 'sheet-mode-websocket-test)
;;; sheet-mode-websocket-test.el ends here
