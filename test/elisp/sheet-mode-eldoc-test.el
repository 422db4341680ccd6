;;; sheet-mode-eldoc-test.el --- Eldoc in sheet-mode  -*- lexical-binding: t; -*-

;;; Commentary:

;; Issue 25 item 3: Eldoc on a variable shows its value and where it comes from (declaration
;; line, an override, the environment); on a request line the URL after substitution.  The
;; engine answers asynchronously, evaluating no `:=' form.  Real engine, batch Emacs.

;;; Code:

(require 'test-helper)

(defun sheet-test-eldoc--at (regexp)
  "Put point after the first match of REGEXP; return what Eldoc shows there."
  (goto-char (point-min))
  (re-search-forward regexp)
  (let ((shown nil))
    (should (sheet-eldoc-function (lambda (text &rest _) (setq shown (or text 'none)))))
    (sheet-test-wait-until (lambda () shown) 10 "the Eldoc answer")))

(ert-deftest sheet-test-eldoc-variables-and-url ()
  "A variable's value and its line or override; a request line's final URL."
  (sheet-test-with-sheet ":id = 7\n:who := (error \"never evaluated\")\n#\nGET :base/users/:id\n"
    (sheet-test-send-and-wait-ready)
    (should (memq #'sheet-eldoc-function eldoc-documentation-functions))
    (should (equal (sheet-test-eldoc--at "users/:i") ":id = 7  (line 2)"))
    (should (equal (sheet-test-eldoc--at "^GET ")
                   (format "URL: %s/users/7" (sheet-test-api-url))))
    (should (string-match-p "\\`:who = \\[Lisp value"
                            (sheet-test-eldoc--at "^:wh")))
    (sheet-set-var ":id" "42")
    (should (equal (sheet-test-eldoc--at "users/:i")
                   ":id = 42  (override: set by a hook or sheet-set-var)"))
    (should (equal (sheet-test-eldoc--at "^GET ")
                   (format "URL: %s/users/42" (sheet-test-api-url))))
    (sheet-set-var ":id" nil)
    ;; Elsewhere: nothing asked.
    (goto-char (point-max))
    (insert "\nAccept: text/plain")
    (should-not (sheet-eldoc-function #'ignore))))

(ert-deftest sheet-test-eldoc-http-environment ()
  "`.http': `{{name}}' from the environment, a system variable, the URL with the environment."
  (sheet-test-visiting "api.http"
      (progn
        (with-temp-file (expand-file-name "http-client.env.json" dir)
          (insert "{\"dev\": {\"who\": \"ada\"}}"))
        (with-temp-file file
          (insert "@path = /a\nGET http://h{{path}}?w={{who}}&t={{$timestamp}}\n")))
    (sheet-test-send-and-wait-ready)
    (sheet-set-environment "dev")
    ;; The environment's names come with completion's answer.
    (goto-char (point-max))
    (insert "X-A: {{w")
    (sheet-completion-at-point)
    (should (equal (sheet-test-eldoc--at "{{pa") "path = /a  (line 1)"))
    (should (equal (sheet-test-eldoc--at "w={{w") "who = ada  (from the environment dev)"))
    (should (equal (sheet-test-eldoc--at "{{\\$time")
                   "$timestamp  (system variable: {{$timestamp [offset unit]}})"))
    (should (string-match-p "\\`URL: http://h/a\\?w=ada&t=[0-9]+\\'"
                            (sheet-test-eldoc--at "^GET ")))))

(ert-deftest sheet-test-eldoc-http-environment-first-request ()
  "Issue 37 item 8: `{{host}}' shows its value and source at once, a secret masked.
No completion used first; a private environment file's value is a secret."
  (sheet-test-visiting "api.http"
      (progn
        (with-temp-file (expand-file-name "http-client.env.json" dir)
          (insert "{\"dev\": {\"host\": \"api.example.org\"}}"))
        (with-temp-file (expand-file-name "http-client.private.env.json" dir)
          (insert "{\"dev\": {\"eldocSecret\": \"s3cr3t\"}}"))
        (with-temp-file file
          (insert "GET https://{{host}}/x\nAuthorization: Bearer {{eldocSecret}}\n")))
    (sheet-test-send-and-wait-ready)
    (sheet-set-environment "dev")
    (should (equal (sheet-test-eldoc--at "{{ho")
                   "host = api.example.org  (from the environment dev)"))
    (let ((shown (sheet-test-eldoc--at "{{eldocSec")))
      (should (equal shown "eldocSecret = ********  (secret, from the environment dev)"))
      (should-not (string-match-p "s3cr3t" shown)))))

(provide 'sheet-mode-eldoc-test)
;;; sheet-mode-eldoc-test.el ends here
