;;; sheet-mode-websocket-test.el --- WebSocket requests in sheet-mode  -*- lexical-binding: t; -*-

;;; Commentary:

;; Issue 40: `C-c C-c' on a `WEBSOCKET' request (a `.http' file) and on a
;; `WS' request (a sheet) against a real `ws' server on 127.0.0.1
;; (test/fixtures/ws-server.mjs): the response buffer holds the
;; received messages, one per line, and the trailer the handshake's
;; status; a close code other than 1000 is named with its reason.
;; Real engine, batch Emacs.

;;; Code:

(require 'test-helper)

(defmacro sheet-test-with-ws-server (var &rest body)
  "Run BODY with VAR bound to the ws fixture's ws:// base URL; stop it after."
  (declare (indent 1) (debug t))
  `(let* ((started (sheet-test--start-fixture "ws-server.mjs" "sheet-test-ws" 15))
          (,var (replace-regexp-in-string "\\`http://" "ws://" (cdr started))))
     (unwind-protect (progn ,@body)
       (delete-process (car started)))))

(ert-deftest sheet-test-websocket-http-file ()
  "A `.http' WEBSOCKET request shows the received messages and its 101."
  (sheet-test-with-ws-server ws
    (sheet-test-visiting "chat.http"
        (with-temp-file file
          (insert "WEBSOCKET " ws "/push\n\npush 2\n"
                  "=== wait-for-server\n=== wait-for-server\n=== wait-for-server\n"
                  "push 1\n"))
      (let ((buf (sheet-test-send-and-wait nil nil 30)))
        (with-current-buffer buf
          (goto-char (point-min))
          (should (looking-at-p "hello\npush 1\npush 2\npush 1"))
          (should (save-excursion (search-forward "101 Switching Protocols" nil t))))))))

(ert-deftest sheet-test-websocket-close-code ()
  "A sheet WS request closed with 4001 names the code and reason."
  (sheet-test-with-ws-server ws
    (sheet-test-with-sheet (concat "WS " ws "/close4001\n\nsubscribe\n")
      (let ((buf (sheet-test-send-and-wait nil nil 30)))
        (with-current-buffer buf
          (goto-char (point-min))
          (should (search-forward "closed with 4001 (topic not allowed)" nil t)))))))

(provide 'sheet-mode-websocket-test)
;;; sheet-mode-websocket-test.el ends here
