;;; sheet-mode-restart-test.el --- An engine restart keeps the session  -*- lexical-binding: t; -*-

;;; Commentary:

;; Issue 22 item 4: the values hooks set (`jq-set-var', `sheet-set-var' in a `run-hook' form)
;; are kept by Emacs and handed to the next engine, whether the engine was killed (SIGTERM,
;; SIGKILL) or restarted; the echo area says the engine restarted.  Real engine, example API.

;;; Code:

(require 'test-helper)

(defconst sheet-test--login-sheet
  "GET :base/echo/login?token=s3cret
-> jq-set-var :token .query.token
-> run-hook (sheet-set-var \":user\" \"ada\")
#
GET :base/echo/me?t=:token&u=:user
"
  "A login that sets `:token' (jq-set-var) and `:user' (a run-hook), then a request using them.")

(ert-deftest sheet-test-restart-keeps-hook-variables ()
  "Vars set by hooks survive the engine's death by SIGTERM and SIGKILL; the echo area says it restarted."
  (sheet-engine-shutdown)
  (unwind-protect
      (sheet-test--restart-keeps-hook-variables)
    ;; End the session: its overrides must not reach later tests.
    (sheet-engine-shutdown)))

(defun sheet-test--restart-keeps-hook-variables ()
  "The body of `sheet-test-restart-keeps-hook-variables'."
  (dolist (sig '(term kill))
    (sheet-test-with-sheet sheet-test--login-sheet
      (sheet-test-send-and-wait)
      (let ((old (sheet-engine-process))
            (mark (sheet-test-messages-mark)))
        (signal-process old sig)
        (sheet-test-wait-until (lambda () (not (process-live-p old))) 5 "the engine gone")
        (sheet-test-wait-message "the engine exited" mark)
        (sheet-test-goto "^GET :base/echo/me")
        (with-current-buffer (sheet-test-send-and-wait)
          (should (string-match-p "\"t\": \"s3cret\"" (buffer-string)))
          (should (string-match-p "\"u\": \"ada\"" (buffer-string))))
        (should-not (eq old (sheet-engine-process)))
        (should (string-match-p
                 "the engine restarted; 2 session variables restored (:token :user)"
                 (sheet-test-messages-since mark)))
        ;; C-c C-i shows them as the new engine's overrides.
        (with-current-buffer (sheet-show-info)
          (should (string-match-p ":token = s3cret" (buffer-string))))))))

(ert-deftest sheet-test-restart-command-keeps-and-shutdown-forgets ()
  "`sheet-engine-restart' keeps the session's variables; `sheet-engine-shutdown' ends the session."
  (sheet-engine-shutdown)
  (sheet-test-with-sheet "GET :base/echo/me?t=:token\n"
    (sheet-set-var ":token" "kept")
    (sheet-engine-restart)
    (with-current-buffer (sheet-test-send-and-wait)
      (should (string-match-p "\"t\": \"kept\"" (buffer-string))))
    (sheet-engine-shutdown)
    (with-current-buffer (sheet-test-send-and-wait)
      (should (string-match-p "\"t\": \":token\"" (buffer-string))))))

(ert-deftest sheet-test-restart-skips-a-refused-override ()
  "A value the engine refuses (a bad name) is forgotten on restart; the others are given."
  (sheet-engine-shutdown)
  (unwind-protect
      (sheet-test-with-sheet "GET :base/echo/me?t=:token\n"
        (sheet-set-var ":bad name" "x")
        (sheet-set-var ":token" "kept")
        (sheet-engine-restart)
        (should (equal (sheet-session-overrides) '((":token" . "kept"))))
        (with-current-buffer (sheet-test-send-and-wait)
          (should (string-match-p "\"t\": \"kept\"" (buffer-string)))))
    (sheet-engine-shutdown)))

(ert-deftest sheet-test-restart-keeps-session-cookies ()
  "Issue 37 item 3: the session's cookies survive SIGKILL and `sheet-engine-restart'.
`sheet-engine-shutdown' ends the session: its cookies go too."
  (sheet-engine-shutdown)
  (unwind-protect
      (sheet-test-with-sheet "GET :base/cookies/set?sid=one\n#\nGET :base/cookies\n"
        (sheet-test-send-and-wait)
        (let ((old (sheet-engine-process))
              (mark (sheet-test-messages-mark)))
          (signal-process old 'kill)
          (sheet-test-wait-until (lambda () (not (process-live-p old)))
                                 5 "the engine gone")
          (sheet-test-goto "^GET :base/cookies$")
          (with-current-buffer (sheet-test-send-and-wait)
            (should (string-match-p "\"sid\": \"one\"" (buffer-string))))
          (should-not (eq old (sheet-engine-process)))
          (should (string-match-p "the engine restarted; the session's 1 cookie kept"
                                  (sheet-test-messages-since mark))))
        (sheet-engine-restart)
        (with-current-buffer (sheet-test-send-and-wait)
          (should (string-match-p "\"sid\": \"one\"" (buffer-string))))
        (sheet-engine-shutdown)
        (with-current-buffer (sheet-test-send-and-wait)
          (should (string-match-p "\"cookies\": {}" (buffer-string)))))
    (sheet-engine-shutdown)))

(provide 'sheet-mode-restart-test)
;;; sheet-mode-restart-test.el ends here
