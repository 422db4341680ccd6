;;; sheet-mode-field-test.el --- What a field trial as a restclient.el user found  -*- lexical-binding: t; -*-

;;; Commentary:

;; Each test is a wall a restclient.el user hit in the field trial of sheet-mode
;; (docs/sheet-mode.md, "Field trial"), against the real engine and the example API.

;;; Code:

(require 'test-helper)
(require 'ob-sheet-helper)

(defmacro sheet-test-field--no-quit (&rest body)
  "Run BODY; a quit that escapes it (out of a process filter) fails the test.
ERT counts a quit as neither passed nor failed."
  (declare (indent 0) (debug t))
  `(condition-case nil
       (progn ,@body)
     (quit (ert-fail "a quit escaped the engine's process filter"))))

(ert-deftest sheet-test-quit-in-lisp-variable-ends-the-send ()
  "C-g at a `:=' form's prompt ends the send at once, as restclient.el sends nothing.
Before, the quit left the engine waiting for the form's value: the send
stayed in flight, the mode line counting, until C-c C-k."
  (sheet-test-with-sheet
      "GET :base/echo/after\n#\n:who := (signal 'quit nil)\nGET :base/echo/:who\n"
    (let ((mark (sheet-test-messages-mark))
          (engine (sheet-engine--ensure)))
      (sheet-test-goto "^GET .*:who")
      (sheet-test-field--no-quit
        (sheet-test-key "C-c C-v")
        (sheet-test-wait-idle))
      (should (string-match-p
               "quit while evaluating :who; GET :base/echo/:who not sent"
               (sheet-test-messages-since mark)))
      (should-not sheet--sending)
      (should-not (get-buffer "*HTTP Response*"))
      ;; The engine was answered: it ends the request without a restart,
      ;; and the next send works on the same engine.
      (sheet-test-wait-until (lambda () (zerop (hash-table-count sheet--abandoned)))
                             15 "the engine's answer to the quit send")
      (sheet-test-goto "^GET .*after")
      (with-current-buffer (sheet-test-send-and-wait)
        (should (string-match-p "\"path\": \"/echo/after\"" (buffer-string))))
      (should (eq engine sheet-engine--connection)))))

(ert-deftest sheet-test-label-of-a-line-above-the-request ()
  "C-c C-c on a `### name' line: the send, its label and its history are the POST below.
Before, the request line above point named the send (the GET of the
block before): the mode line said GET, and the POST's response was
kept in the GET's history, so C-c C-h showed it there."
  (sheet-test-visiting "api.http"
      (with-temp-file file
        (insert (format "### one\nGET %s/echo/one\n\n### two\nPOST %s/echo/two\n"
                        (sheet-test-api-url) (sheet-test-api-url))))
    (clrhash sheet-history--table)
    (sheet-test-goto "^### two")
    (sheet-test-key "C-c C-v")
    (should (string-match-p "\\`POST .*/echo/two\\'" (plist-get (car sheet--sending) :label)))
    (sheet-test-wait-idle)
    (with-current-buffer "*HTTP Response*"
      (should (string-match-p "\"path\": \"/echo/two\"" (buffer-string))))
    (should (gethash (sheet-history-key (current-buffer)
                                        (format "POST %s/echo/two" (sheet-test-api-url)))
                     sheet-history--table))
    (should-not (gethash (sheet-history-key (current-buffer)
                                            (format "GET %s/echo/one" (sheet-test-api-url)))
                         sheet-history--table))))

(ert-deftest sheet-test-label-of-a-declaration-above-the-request ()
  "In a sheet, C-c C-c on a declaration between `#' and a request: that request, as restclient.el."
  (sheet-test-with-sheet "GET :base/echo/one\n#\n:who = two\nGET :base/echo/:who\n"
    (clrhash sheet-history--table)
    (sheet-test-goto "^:who")
    (with-current-buffer (sheet-test-send-and-wait)
      (should (string-match-p "\"path\": \"/echo/two\"" (buffer-string))))
    (should (gethash (sheet-history-key (current-buffer) "GET :base/echo/:who")
                     sheet-history--table))
    (should-not (gethash (sheet-history-key (current-buffer) "GET :base/echo/one")
                         sheet-history--table))))

(ert-deftest sheet-test-quit-in-lisp-variable-of-an-org-block ()
  "C-g at a `:=' form's prompt in an Org block: the block's result says so, nothing waits."
  (ob-sheet-test-with-org "#+name: quit
#+begin_src sheet
:who := (signal 'quit nil)
GET %s/echo/:who
#+end_src
"
    (let ((text (sheet-test-field--no-quit (ob-sheet-test-run "quit"))))
      (should (string-match-p "evaluating :who: quit (C-g)" text))
      (should (string-match-p "not sent" text)))
    (sheet-test-wait-idle)))

(defvar sheet-test-field--hook-size nil "The response size a `run-hook' form saw.")

(ert-deftest sheet-test-run-hook-of-a-body-over-16-mib ()
  "A `run-hook' form sees a body over 16 MiB, and no warning says it saw none.
The engine keeps such a body in a file only; its hooks (`jq-set-var')
see none, but Emacs evaluates `run-hook' in the response buffer, which
holds it.  Before, the warning named `run-hook' among the hooks that saw
an empty body."
  (sheet-test-with-sheet
      "GET :base/big.json?kb=17408\n-> run-hook (setq sheet-test-field--hook-size (buffer-size))\n"
    (setq sheet-test-field--hook-size nil)
    (let ((mark (sheet-test-messages-mark)))
      (sheet-test-goto "^GET")
      (with-current-buffer (sheet-test-send-and-wait nil nil 60)
        (should (> sheet-test-field--hook-size (* 17 1024 1024))))
      (should-not (string-match-p "saw an empty body"
                                  (sheet-test-messages-since mark))))))

(ert-deftest sheet-test-named-request-not-sent-names-no-environment ()
  "A `{{login.response...}}' before `login' was sent: the hint is to send it, not an environment.
Before, with environments defined and none chosen, the message led with
\"Choose an environment (C-c C-e ...)\", which cannot supply it."
  (sheet-test-visiting "api.http"
      (progn
        (with-temp-file (expand-file-name "http-client.env.json" dir)
          (insert "{\"dev\": {\"x\": \"1\"}, \"prod\": {\"x\": \"2\"}}"))
        (with-temp-file file
          (insert (format "# @name login\nPOST %s/echo/login\n\n###\nGET %s/echo/me
Authorization: Bearer {{login.response.body.$.token}}\n"
                          (sheet-test-api-url) (sheet-test-api-url)))))
    (let ((mark (sheet-test-messages-mark)))
      (sheet-test-goto "^GET")
      (sheet-test-key "C-c C-c")
      (let ((text (sheet-test-wait-message "no request named login" mark)))
        (should (string-match-p "Send the request marked # @name login first" text))
        (should-not (string-match-p "environment" text))))))

(ert-deftest sheet-test-jq-set-var-on-html-says-not-json ()
  "`jq-set-var' on an HTML response: the warning says the body is not JSON and its type.
Before, only jq's \"parse error: Invalid numeric literal at line 1\"."
  (sheet-test-with-sheet "GET :base/html\n-> jq-set-var :title .title\n"
    (let ((mark (sheet-test-messages-mark)))
      (sheet-test-goto "^GET")
      (sheet-test-send-and-wait)
      (should (string-match-p
               "failed: the response body is not JSON (Content-Type: text/html"
               (sheet-test-wait-message "jq expression" mark))))))

(ert-deftest sheet-test-restclient-init-file-options ()
  "An init file written for restclient.el sets sheet-mode's options and hooks.
A fresh Emacs (restclient.el is not installed here) runs `setq' and
`add-hook' on restclient.el's names before loading sheet-mode, then
sends: the response buffer has restclient.el's name, the loaded hook
runs, and `setq' after loading counts too.  Before, they were ignored."
  (should-not (locate-library "restclient"))
  (let* ((script
          (format "%S"
                  `(progn
                     (setq restclient-same-buffer-response-name "*R*")
                     (add-hook 'restclient-response-loaded-hook
                               (lambda () (princ (format "loaded-in=%s\n" (buffer-name)))))
                     (require 'sheet-mode)
                     (setq restclient-log-request nil)
                     (princ (format "log=%s\n" sheet-log-request))
                     (with-temp-buffer
                       (insert ,(format "GET %s/users\n" (sheet-test-api-url)))
                       (sheet-mode)
                       (goto-char (point-min))
                       (sheet-http-send-current-suppress-response-buffer)
                       (let ((deadline (+ (float-time) 15)))
                         (while (and (not (get-buffer "*R*")) (< (float-time) deadline))
                           (accept-process-output nil 0.05))
                         (accept-process-output nil 0.2)))
                     (sheet-engine-shutdown))))
         (out (with-temp-buffer
                (call-process "emacs" nil t nil "--batch" "-Q"
                              "-L" (expand-file-name "elisp" sheet-test-root)
                              "--eval" script)
                (buffer-string))))
    (should (string-match-p "^log=nil$" out))
    (should (string-match-p "^loaded-in=\\*R\\*$" out))))

(ert-deftest sheet-test-jump-stays-in-the-narrowed-request ()
  "C-c C-n / C-c C-p after C-c n n: point stays, a message says why.
Before, point went to the end (or start) of the narrowed part, as if
it had moved to the next request."
  (sheet-test-with-sheet "GET :base/one\n#\nGET :base/two\nAccept: a/b\n#\nGET :base/three\n"
    (sheet-test-goto "^GET :base/two")
    (sheet-test-key "C-c n n")
    (should (buffer-narrowed-p))
    (let ((mark (sheet-test-messages-mark))
          (start (point)))
      (sheet-test-key "C-c C-n")
      (should (= (point) start))
      (sheet-test-key "C-c C-p")
      (should (= (point) start))
      (should (string-match-p "No next request (the buffer is narrowed"
                              (sheet-test-messages-since mark))))
    (widen)
    (sheet-test-key "C-c C-n")
    (should (looking-at "GET :base/three"))))

(ert-deftest sheet-test-run-hook-error-is-the-last-message ()
  "A `run-hook' form's error is the echo area's last word, after the request's log line.
Before, the log line (`sheet-log-request') came after it and hid it:
the send looked fine."
  (sheet-test-with-sheet "GET :base/users\n-> run-hook (car 1)\n"
    (let ((sheet-log-request t)
          (mark (sheet-test-messages-mark)))
      (sheet-test-goto "^GET")
      (sheet-test-send-and-wait)
      (let ((lines (split-string (sheet-test-messages-since mark) "\n" t)))
        (should (cl-some (lambda (l) (string-prefix-p "HTTP GET" l)) lines))
        (should (string-match-p "\\`Sheet-mode: error in run-hook (car 1): Wrong type"
                                (car (last lines))))))))

(ert-deftest sheet-test-mode-restclient-line-opens-sheet-mode ()
  "restclient.el's examples/httpbin (no extension, `-*- mode: restclient -*-') opens in sheet-mode.
Before, Emacs ignored the unknown `restclient-mode' and left the file in
`fundamental-mode', where C-c C-c does nothing of the kind."
  (should-not (locate-library "restclient"))
  (let* ((dir (make-temp-file "sheet-test" t))
         (file (expand-file-name "httpbin" dir))
         (enable-local-variables :all)
         (buf nil))
    (unwind-protect
        (progn
          (with-temp-file file
            (insert "# -*- mode: restclient; url-max-redirections: 0 -*-\n"
                    (format "GET %s/echo/example\n" (sheet-test-api-url))))
          (setq buf (find-file-noselect file))
          (with-current-buffer buf
            (should (eq major-mode 'sheet-mode))
            (sheet-test-goto "^GET")
            (with-current-buffer (sheet-test-key-and-wait "C-c C-c")
              (should (string-match-p "\"path\": \"/echo/example\""
                                      (buffer-string))))))
      (when (buffer-live-p buf) (kill-buffer buf))
      (sheet-test-kill-response-buffers)
      (delete-directory dir t))))

(provide 'sheet-mode-field-test)
;;; sheet-mode-field-test.el ends here
