;;; sheet-mode-stream-test.el --- Streamed responses shown as they arrive  -*- lexical-binding: t; -*-

;;; Commentary:

;; Issue 40, item 2: a Server-Sent Events response fills the response
;; buffer while it arrives.  The server (test/fixtures/streams.mjs)
;; writes event 1 at once and event 2 only when GET /release asks, so
;; "event 1 is shown while the server still waits before event 2" is
;; checked by the server's own answer ("released 1": a stream was
;; waiting), never by sleeping.

;;; Code:

(require 'ert)
(require 'test-helper)
(require 'sheet-mode)
(require 'ob-sheet-helper)

(defvar sheet-test--streams-process nil "The streams fixture process.")
(defvar sheet-test--streams-url nil "The streams fixture's base URL.")

(defun sheet-test-streams-url ()
  "The base URL of test/fixtures/streams.mjs, started on first use."
  (unless (and sheet-test--streams-process
               (process-live-p sheet-test--streams-process))
    (let ((started (sheet-test--start-fixture "streams.mjs" "sheet-test-streams" 15)))
      (setq sheet-test--streams-process (car started)
            sheet-test--streams-url (cdr started))))
  sheet-test--streams-url)

(defun sheet-test-streams-release ()
  "Release the next event of the fixture's waiting streams; its answer."
  (with-temp-buffer
    (call-process "curl" nil t nil "-sS" (concat (sheet-test-streams-url) "/release"))
    (string-trim (buffer-string))))

(defun sheet-test-response-holding (regexp)
  "The response buffer once its text matches REGEXP (waits at most 15 s)."
  (sheet-test-wait-until
   (lambda ()
     (let ((b (get-buffer sheet-buffer-response-name)))
       (and b (with-current-buffer b
                (string-match-p regexp (buffer-string)))
            b)))
   15 (format "the response buffer to hold %s" regexp)))

(ert-deftest sheet-test-stream-event-shown-before-the-next-is-sent ()
  "Event 1 is in the buffer while the server waits before event 2."
  (sheet-test-with-sheet (format "GET %s/sse/gated?n=2\n" (sheet-test-streams-url))
    (sheet-http-send-current-stay-in-window)
    (let ((buf (sheet-test-response-holding "\"n\": 1")))
      (should-not (string-match-p "\"n\": 2" (with-current-buffer buf (buffer-string))))
      (should (string-match-p "1 event" (with-current-buffer buf
                                          (format "%s" mode-line-process))))
      ;; The server was still holding event 2 back.
      (should (string-match-p "\\`released [1-9]" (sheet-test-streams-release)))
      (sheet-test-response-holding "stream: 2 events, server closed")
      (with-current-buffer buf
        (should (string-match-p "\"n\": 1[^z-a]*\"n\": 2" (buffer-string)))))))

(ert-deftest sheet-test-stream-cancel-keeps-what-arrived ()
  "C-c C-k after event 1 keeps it, with a trailer saying the stream was cancelled."
  (sheet-test-with-sheet (format "GET %s/sse/gated?n=3\n" (sheet-test-streams-url))
    (sheet-http-send-current-stay-in-window)
    (let ((buf (sheet-test-response-holding "\"n\": 1")))
      (sheet-test-key "C-c C-k")
      (with-current-buffer buf
        (should (string-match-p "\"n\": 1" (buffer-string)))
        (should (string-match-p "stream: 1 event, cancelled after" (buffer-string))))
      (sheet-test-wait-idle)
      ;; Nothing the engine says afterwards empties it.
      (sheet-test-streams-release)
      (with-current-buffer buf
        (should (string-match-p "\"n\": 1" (buffer-string)))))))

(ert-deftest sheet-test-stream-timeout-keeps-events ()
  "A stream that stalls ends at `sheet-timeout' with its events and how it ended."
  (let ((sheet-timeout 1))
    (sheet-test-with-sheet (format "GET %s/sse/stall\n" (sheet-test-streams-url))
      (sheet-http-send-current-stay-in-window)
      (let ((buf (sheet-test-response-holding "stream: 1 event, timed out")))
        (with-current-buffer buf
          (should (string-match-p "\"n\": 1" (buffer-string))))))))

(ert-deftest sheet-test-stream-buffer-bounded ()
  "Past `sheet-stream-max-chars' the head is cut and the first line says so."
  (let ((sheet-stream-max-chars 300)
        (sheet-stream-flush-interval 0))
    (sheet-test-with-sheet (format "GET %s/sse/gated?n=40\n" (sheet-test-streams-url))
      (sheet-http-send-current-stay-in-window)
      (let ((buf (sheet-test-response-holding "\"n\": 1")))
        (dotimes (i 38)
          (sheet-test-streams-release)
          (sheet-test-response-holding (format "\"n\": %d\n" (+ i 2))))
        (with-current-buffer buf
          (should (<= (buffer-size) 400))
          (goto-char (point-min))
          (should (looking-at "\\[[0-9]+ characters of older events cut")))
        (sheet-test-streams-release)
        (sheet-test-response-holding "stream: 40 events, server closed")))))

;; The window whose point follows the end stays at the end; another stays put.
(ert-deftest sheet-test-stream-point-follows-the-end ()
  "A window at the end of the stream buffer follows new events; one elsewhere does not."
  (sheet-test-with-sheet (format "GET %s/sse/gated?n=3\n" (sheet-test-streams-url))
    (sheet-http-send-current-stay-in-window)
    (let* ((buf (sheet-test-response-holding "\"n\": 1"))
           (win (get-buffer-window buf t)))
      (should win)
      (set-window-point win (with-current-buffer buf (point-max)))
      (with-current-buffer buf (goto-char (point-min)))
      (sheet-test-streams-release)
      (sheet-test-response-holding "\"n\": 2")
      (with-current-buffer buf
        (should (= (window-point win) (point-max)))
        (should (= (point) (point-min))))
      (sheet-test-streams-release)
      (sheet-test-response-holding "stream: 3 events, server closed"))))

(ert-deftest sheet-test-stream-org-block-gets-the-events ()
  "An Org block's result is the collected events of a stream."
  (ob-sheet-test-with-org (format "#+name: s\n#+begin_src sheet\nGET %s/sse/malformed\n#+end_src\n"
                                  (sheet-test-streams-url))
    (let ((text (ob-sheet-test-run "s")))
      (should (string-match-p "\"n\": 1" text))
      (should (string-match-p "this line is not SSE" text))
      (should (string-match-p "\"n\": 2" text)))))

(ert-deftest sheet-test-stream-raises-gc-threshold-while-shown ()
  "A shown stream raises `gc-cons-threshold'; once idle after it, it comes back.
The full-speed stream's long busy stretches were garbage collections
\(docs/benchmarks.md, \"Streams\")."
  (when sheet-stream--gc-timer (cancel-timer sheet-stream--gc-timer))
  (let ((gc-cons-threshold 800000)
        (sheet-stream-gc-cons-threshold (* 32 1024 1024))
        (sheet-stream--gc-saved nil)
        (sheet-stream--gc-timer nil))
    (sheet-test-with-sheet (format "GET %s/sse/gated?n=2\n" (sheet-test-streams-url))
      (sheet-http-send-current-stay-in-window)
      (sheet-test-response-holding "\"n\": 1")
      (should (= gc-cons-threshold (* 32 1024 1024)))
      (sheet-test-streams-release)
      (sheet-test-response-holding "stream: 2 events, server closed")
      ;; Given back by an idle timer (batch Emacs is never idle: run it).
      (should (= gc-cons-threshold (* 32 1024 1024)))
      (should (timerp sheet-stream--gc-timer))
      (let ((gcs gcs-done))
        (funcall (timer--function sheet-stream--gc-timer))
        (should (> gcs-done gcs)))
      (should (= gc-cons-threshold 800000))
      (should-not sheet-stream--gc-timer))))

;;; sheet-mode-stream-test.el ends here
