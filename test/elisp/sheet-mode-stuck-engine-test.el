;;; sheet-mode-stuck-engine-test.el --- An engine that does not answer  -*- lexical-binding: t; -*-

;;; Commentary:

;; Issue 30 item 9: the real engine stopped with `kill -STOP' never answers.  Emacs keeps its own
;; deadline for a send (`sheet-timeout' plus `sheet-timeout-grace'), C-c C-k ends a request in
;; Emacs at once, and an engine that does not answer is killed and a new one started, with a
;; message.  The example API on 127.0.0.1 answers the requests afterwards.

;;; Code:

(require 'test-helper)

(defun sheet-test-kill-signal (signal process)
  "Send SIGNAL (\"-STOP\", \"-CONT\") to PROCESS with kill(1)."
  (should (zerop (call-process "kill" nil nil nil signal (number-to-string (process-id process))))))

(defmacro sheet-test-with-engine (&rest body)
  "Run BODY with `engine' bound to the real engine's process.
The process is continued if stopped, and the engine stopped, afterwards."
  (declare (indent 0) (debug t))
  `(let ((engine (progn (sheet-test-send-and-wait-ready) (sheet-engine-process))))
     (unwind-protect
         (progn ,@body)
       (when (process-live-p engine)
         (sheet-test-kill-signal "-CONT" engine))
       (sheet-engine-shutdown))))

(defun sheet-test--count-matches (regexp text)
  "How many times REGEXP matches in TEXT."
  (let ((n 0) (start 0))
    (while (string-match regexp text start)
      (setq n (1+ n) start (match-end 0)))
    n))

(defmacro sheet-test-stuck-not-stopped (&rest body)
  "Run BODY with Emacs blind to a stopped engine (issue 37 item 11's watch off).
A stopped engine then stands for one that is stuck otherwise (a
busy loop): only the deadline or the cancel's grace can end its
requests."
  (declare (indent 0) (debug t))
  `(cl-letf (((symbol-function 'sheet-engine--watch-stop) #'ignore))
     ,@body))

(ert-deftest sheet-test-stuck-engine-deadline ()
  "A send the stuck engine never answers ends at `sheet-timeout' plus the grace; a new engine serves."
  (sheet-test-stuck-not-stopped
    (sheet-test--stuck-engine-deadline)))

(defun sheet-test--stuck-engine-deadline ()
  "The body of `sheet-test-stuck-engine-deadline'."
  (let ((sheet-timeout 1)
        (sheet-timeout-grace 1))
    (sheet-test-with-sheet "GET :base/slow?ms=8000\n#\nGET :base/users\n"
      (sheet-test-with-engine
        (let ((mark (sheet-test-messages-mark))
              (start (float-time)))
          (sheet-test-key "C-c C-c")
          (should sheet-engine--in-flight)
          (sheet-test-kill-signal "-STOP" engine)
          (sheet-test-wait-message "no answer from the engine within 2s for GET :base/slow\\?ms=8000; restarting" mark)
          (should (< (- (float-time) start) 6))
          (should-not sheet-engine--in-flight)
          (sheet-test-wait-until (lambda () (not (process-live-p engine))) 5 "the stuck engine killed")
          (should (sheet-engine-process))
          (should-not (eq engine (sheet-engine-process)))
          (sheet-test-goto "^GET :base/users")
          (with-current-buffer (sheet-test-send-and-wait)
            (should (string-match-p "Ada Lovelace" (buffer-string)))))))))

(ert-deftest sheet-test-engine-stopped-mid-request ()
  "Issue 37 item 11: an engine stopped (SIGSTOP) mid-request ends the request at once.
Not at `sheet-timeout' plus the grace: Emacs sees the stop, says so
and starts a new engine, which serves the next request."
  (let ((sheet-timeout 3)
        (sheet-timeout-grace 10))
    (sheet-test-with-sheet "GET :base/slow?ms=8000\n#\nGET :base/users\n"
      (sheet-test-with-engine
        (let ((mark (sheet-test-messages-mark))
              (start (float-time)))
          (sheet-test-key "C-c C-c")
          (should sheet-engine--in-flight)
          (accept-process-output nil 0.2)
          (sheet-test-kill-signal "-STOP" engine)
          (sheet-test-wait-message
           "the engine was stopped (SIGSTOP); GET :base/slow\\?ms=8000 ended; \
restarting it" mark)
          (should (< (- (float-time) start) 3))
          (should-not sheet--sending)
          (sheet-test-wait-until (lambda () (not (process-live-p engine)))
                                 5 "the stopped engine killed")
          (sheet-test-wait-until #'sheet-engine-process 10 "a new engine")
          (should-not (eq engine (sheet-engine-process)))
          (should-not sheet-engine--in-flight)
          (sheet-test-goto "^GET :base/users")
          (with-current-buffer (sheet-test-send-and-wait)
            (should (string-match-p "Ada Lovelace" (buffer-string)))))))))

(ert-deftest sheet-test-stuck-engine-cancel ()
  "C-c C-k ends a request at once whatever the engine does, says so once, and a stuck engine is restarted."
  (sheet-test-stuck-not-stopped
    (sheet-test--stuck-engine-cancel)))

(defun sheet-test--stuck-engine-cancel ()
  "The body of `sheet-test-stuck-engine-cancel'."
  (let ((sheet-timeout nil)
        (sheet-timeout-grace 1))
    (sheet-test-with-sheet "GET :base/slow?ms=8000\n#\nGET :base/users\n"
      (sheet-test-with-engine
        (let ((mark (sheet-test-messages-mark)))
          (sheet-test-key "C-c C-c")
          (should sheet-engine--in-flight)
          (accept-process-output nil 0.2)
          (sheet-test-kill-signal "-STOP" engine)
          (accept-process-output nil 0.2)
          (sheet-test-key "C-c C-k")
          ;; Ended in Emacs at once: no waiting for the engine.
          (should-not sheet-engine--in-flight)
          (should-not sheet--sending)
          (should (= 1 (sheet-test--count-matches "cancelled" (sheet-test-messages-since mark))))
          (should (string-match-p "request cancelled: GET :base/slow\\?ms=8000$" (sheet-test-messages-since mark)))
          (sheet-test-wait-message "the engine did not answer (a cancelled request); restarting it" mark)
          (sheet-test-wait-until (lambda () (not (process-live-p engine))) 5 "the stuck engine killed")
          (should (sheet-engine-process))
          (sheet-test-goto "^GET :base/users")
          (with-current-buffer (sheet-test-send-and-wait)
            (should (string-match-p "Ada Lovelace" (buffer-string)))))))))

(ert-deftest sheet-test-stopped-engine-replaced-before-send ()
  "An engine stopped before the send is replaced, with a message, and the request answered.
With the stop watch off: the check before a send, for a stop Emacs
has not seen yet."
  (sheet-test-stuck-not-stopped
    (sheet-test--stopped-engine-replaced-before-send)))

(defun sheet-test--stopped-engine-replaced-before-send ()
  "The body of `sheet-test-stopped-engine-replaced-before-send'."
  (sheet-test-with-sheet "GET :base/users\n"
    (sheet-test-with-engine
      (let ((mark (sheet-test-messages-mark)))
        (sheet-test-kill-signal "-STOP" engine)
        (sheet-test-wait-until (lambda () (eq (process-status engine) 'stop)) 5 "the engine stopped")
        (with-current-buffer (sheet-test-send-and-wait)
          (should (string-match-p "Ada Lovelace" (buffer-string))))
        (should (string-match-p "the engine is stopped; restarting it" (sheet-test-messages-since mark)))
        (should-not (eq engine (sheet-engine-process)))
        (should-not (process-live-p engine))))))

(ert-deftest sheet-test-cancel-says-it-once ()
  "Cancelling a request the engine does answer: one message, no engine restart."
  (let ((sheet-timeout-grace 2))
    (sheet-test-with-sheet "GET :base/slow?ms=8000\n"
      (sheet-test-send-and-wait-ready)
      (let ((engine (sheet-engine-process))
            (mark (sheet-test-messages-mark)))
        (sheet-test-key "C-c C-c")
        (accept-process-output nil 0.2)
        (sheet-test-key "C-c C-k")
        (should-not sheet-engine--in-flight)
        ;; Give the engine's own `cancelled' answer time to come, and the grace to pass.
        (sleep-for 2.5)
        (let ((text (sheet-test-messages-since mark)))
          (should (= 1 (sheet-test--count-matches "cancelled" text)))
          (should-not (string-match-p "restarting" text)))
        (should (eq engine (sheet-engine-process)))
        (should (= 0 (hash-table-count sheet--abandoned)))))))

(provide 'sheet-mode-stuck-engine-test)
;;; sheet-mode-stuck-engine-test.el ends here
