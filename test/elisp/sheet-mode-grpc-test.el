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

;; A server stream shown as it arrives: the fixture's Count with the
;; x-gate metadata sends "n 2" only when a line `release' reaches its
;; stdin (it answers "released N": N calls were waiting), so "message 1
;; is shown while the server holds message 2 back" is checked by the
;; server's own answer, never by sleeping.

(defun sheet-test--grpc-release ()
  "Release the next message of the fixture's gated streams; its answer."
  (let ((buf (process-buffer (car sheet-test--grpc))))
    (with-current-buffer buf (erase-buffer))
    (process-send-string (car sheet-test--grpc) "release\n")
    (sheet-test-wait-until
     (lambda ()
       (with-current-buffer buf
         (and (string-match "released [0-9]+" (buffer-string))
              (match-string 0 (buffer-string)))))
     10 "the gRPC fixture's answer to release")))

(defun sheet-test--grpc-response-holding (regexp)
  "The response buffer once its text matches REGEXP (waits at most 15 s)."
  (sheet-test-wait-until
   (lambda ()
     (let ((b (get-buffer sheet-buffer-response-name)))
       (and b (with-current-buffer b
                (string-match-p regexp (buffer-string)))
            b)))
   15 (format "the response buffer to hold %s" regexp)))

(defun sheet-test--grpc-gated-sheet (upto)
  "A sheet calling demo.Echo/Count up to UPTO, its messages gated."
  (let ((protos (expand-file-name "test/fixtures/grpc" sheet-test-root)))
    (format "# @grpc-proto %s/demo.proto\n# @grpc-import-path %s/include\nGRPC %s/demo.Echo/Count\nx-gate: 1\n\n{\"upto\": %d}\n"
            protos protos (sheet-test--grpc-address) upto)))

(ert-deftest sheet-test-grpc-stream-shown-as-it-arrives ()
  "Message 1 is in the buffer, pretty, while the server holds message 2 back."
  (sheet-test-visiting "calls.sheet"
      (with-temp-file file
        (insert (sheet-test--grpc-gated-sheet 2)))
    (sheet-test-goto "^GRPC")
    (sheet-http-send-current-stay-in-window)
    (let ((buf (sheet-test--grpc-response-holding "\"message\": \"n 1\"")))
      (with-current-buffer buf
        (should (string-match-p "^{\n  \"message\": \"n 1\"\n}" (buffer-string)))
        (should-not (string-match-p "n 2" (buffer-string)))
        (should (string-match-p "\\[1 message, " (format "%s" mode-line-process))))
      ;; The server was still holding message 2 back.
      (should (equal (sheet-test--grpc-release) "released 1"))
      (sheet-test--grpc-response-holding "stream: 2 messages, server closed")
      (with-current-buffer buf
        (should (string-match-p "^// GRPC 0 OK$" (buffer-string)))
        (should (string-match-p "\"n 1\"[^z-a]*\"n 2\"" (buffer-string)))))))

(ert-deftest sheet-test-grpc-stream-cancel-keeps-what-arrived ()
  "C-c C-k after message 1 keeps it, with a trailer saying the call was cancelled."
  (sheet-test-visiting "calls.sheet"
      (with-temp-file file
        (insert (sheet-test--grpc-gated-sheet 3)))
    (sheet-test-goto "^GRPC")
    (sheet-http-send-current-stay-in-window)
    (let ((buf (sheet-test--grpc-response-holding "\"n 1\"")))
      (sheet-test-key "C-c C-k")
      (with-current-buffer buf
        (should (string-match-p "\"message\": \"n 1\"" (buffer-string)))
        (should (string-match-p "stream: 1 message, cancelled after"
                                (buffer-string))))
      (sheet-test-wait-idle)
      ;; Whatever the server sends now does not reach the buffer.
      (sheet-test--grpc-release)
      (with-current-buffer buf
        (should (string-match-p "\"n 1\"" (buffer-string)))))))

;; Completion after `GRPC host:port/': services, then a service's
;; methods, by reflection from the fixture, or from the request's
;; proto lines; a server that cannot be reached is said.

(defun sheet-test--grpc-complete-at (regexp)
  "The completion data with point after REGEXP on the GRPC line."
  (goto-char (point-min))
  (re-search-forward regexp)
  (sheet-completion-at-point))

(ert-deftest sheet-test-grpc-complete-by-reflection ()
  "The services after the address, the methods after the service."
  (sheet-test-visiting "calls.sheet"
      (with-temp-file file
        (insert (format "GRPC %s/demo.E\n\n{}\n#\nGRPC %s/demo.Echo/Co\n"
                        (sheet-test--grpc-address) (sheet-test--grpc-address))))
    (let ((data (sheet-test--grpc-complete-at "/demo\\.E$")))
      (should (equal (nth 2 data) '("demo.Echo")))
      (should (equal (buffer-substring (nth 0 data) (nth 1 data)) "demo.E")))
    (let ((data (sheet-test--grpc-complete-at "/demo\\.Echo/Co$")))
      (should (equal (nth 2 data) '("Say" "Count" "Collect" "Chat" "Fail" "Hang")))
      (should (equal (buffer-substring (nth 0 data) (nth 1 data)) "Co"))
      (should (equal (funcall (plist-get (nthcdr 3 data) :annotation-function)
                              (nth 1 (nth 2 data)))
                     " server-streaming")))
    ;; As a user gets it: C-M-i completes the unique prefix.
    (goto-char (point-min))
    (re-search-forward "/demo\\.E$")
    (completion-at-point)
    (should (looking-back "/demo\\.Echo" (line-beginning-position)))))

(ert-deftest sheet-test-grpc-complete-from-protos-and-unreachable ()
  "The request's proto lines answer without a server; no proto, no server: said."
  (let ((protos (expand-file-name "test/fixtures/grpc" sheet-test-root)))
    (sheet-test-visiting "calls.sheet"
        (with-temp-file file
          (insert (format "# @grpc-proto %s/demo.proto\n# @grpc-import-path %s/include\nGRPC 127.0.0.1:1/demo.Echo/\n\n{}\n#\nGRPC 127.0.0.1:1/\n"
                          protos protos)))
      (should (member "Chat" (nth 2 (sheet-test--grpc-complete-at "demo.Echo/$"))))
      (let ((mark (sheet-test-messages-mark)))
        (should-not (sheet-test--grpc-complete-at "127.0.0.1:1/$"))
        (should (string-match-p
                 "no gRPC services to complete for 127.0.0.1:1: nothing listens on 127.0.0.1:1"
                 (sheet-test-messages-since mark)))))))

(provide 'sheet-mode-grpc-test)
;;; sheet-mode-grpc-test.el ends here
