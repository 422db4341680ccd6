;;; sheet-mode-grpc-test.el --- gRPC requests in sheet-mode (issue 41)  -*- lexical-binding: t; -*-

;;; Commentary:

;; A `GRPC host:port/package.Service/Method' request sent with C-c C-c
;; against a real @grpc/grpc-js server on 127.0.0.1
;; (test/fixtures/grpc-server.mjs): the response message as pretty
;; JSON in the response buffer, the gRPC status in the trailer (OK, or
;; the status name and message), server streaming as the array of the
;; messages, and a bad request message as an error naming the field.
;; Real engine, batch Emacs.

;;; Code:

(require 'test-helper)

(defvar sheet-test--grpc nil "The gRPC fixture: (PROCESS . URL), or nil.")

(defun sheet-test--grpc-address ()
  "The gRPC fixture's host:port, starting it on first use."
  (unless (and sheet-test--grpc (process-live-p (car sheet-test--grpc)))
    (setq sheet-test--grpc
          (sheet-test--start-fixture "grpc-server.mjs" "sheet-test-grpc" 20)))
  (string-remove-prefix "http://" (cdr sheet-test--grpc)))

(add-hook 'kill-emacs-hook
          (lambda ()
            (when (and sheet-test--grpc (process-live-p (car sheet-test--grpc)))
              (delete-process (car sheet-test--grpc)))))

(defun sheet-test--grpc-sheet (method body)
  "A sheet calling demo.Echo's METHOD with BODY, its proto named by tags."
  (let ((protos (expand-file-name "test/fixtures/grpc" sheet-test-root)))
    (format "# @grpc-proto %s/demo.proto\n# @grpc-import-path %s/include\nGRPC %s/demo.Echo/%s\nx-token: t1\n\n%s\n"
            protos protos (sheet-test--grpc-address) method body)))

(ert-deftest sheet-test-grpc-unary ()
  "C-c C-c on a unary call: the message as pretty JSON, OK in the trailer."
  (sheet-test-visiting "calls.sheet"
      (with-temp-file file
        (insert (sheet-test--grpc-sheet "Say" "{\"name\": \"Ada\"}")))
    (sheet-test-goto "^GRPC")
    (with-current-buffer (sheet-test-send-and-wait)
      (let ((text (buffer-substring-no-properties (point-min) (point-max))))
        (should (string-match-p "^{\n  \"message\": \"hello Ada\"\n}" text))
        (should (string-match-p "^// GRPC 0 OK$" text))
        (should (string-match-p "x-echo-token: t1" text))))))

(ert-deftest sheet-test-grpc-status-and-stream ()
  "A non-OK status is named in the trailer; a stream is the array of its messages."
  (sheet-test-visiting "calls.sheet"
      (with-temp-file file
        (insert (sheet-test--grpc-sheet "Fail" "{\"name\": \"x\"}")
                "#\n"
                (sheet-test--grpc-sheet "Count" "{\"upto\": 2}")))
    (sheet-test-goto "^GRPC .*/Fail")
    (with-current-buffer (sheet-test-send-and-wait)
      (should (string-match-p "^// GRPC 5 NOT_FOUND: no user x$"
                              (buffer-substring-no-properties (point-min) (point-max)))))
    (sheet-test-goto "^GRPC .*/Count")
    (with-current-buffer (sheet-test-send-and-wait)
      (should (string-match-p
               "^\\[\n  {\n    \"message\": \"n 1\"\n  },\n  {\n    \"message\": \"n 2\"\n  }\n\\]"
               (buffer-substring-no-properties (point-min) (point-max)))))))

(ert-deftest sheet-test-grpc-bad-message ()
  "A field the message type does not have is an error naming it and the line."
  (sheet-test-visiting "calls.sheet"
      (with-temp-file file
        (insert (sheet-test--grpc-sheet "Say" "{\"nmae\": \"Ada\"}")))
    (sheet-test-goto "^GRPC")
    (let ((mark (sheet-test-messages-mark)))
      (sheet-http-send-current-stay-in-window)
      (sheet-test-wait-message "Hello has no field nmae" mark)
      (should (string-match-p "line 6" (sheet-test-messages-since mark))))))

(provide 'sheet-mode-grpc-test)
;;; sheet-mode-grpc-test.el ends here
