;;; sheet-mode-prompt-test.el --- `# @prompt name' in .http files  -*- lexical-binding: t; -*-

;;; Commentary:

;; Issue 14: a `# @prompt name [description]' line of a `.http' request makes C-c C-c (and
;; C-c C-u) ask for the value in the minibuffer, with `read-passwd' for secret-looking names
;; (password, passwd, token, secret), as VS Code REST Client does; the answers go to the
;; engine as `prompts' and are sent.  Real engine, real example API; the answers are given by
;; let-bound `read-string' / `read-passwd'.

;;; Code:

(require 'test-helper)

(defmacro sheet-test-with-prompt-file (&rest body)
  "Run BODY in a `sheet-mode' buffer visiting a fresh `.http' file with prompts."
  (declare (indent 0) (debug t))
  `(sheet-test-visiting "login.http"
       (with-temp-file file
         (insert (format "GET %s/echo/open\n\n###\n# @prompt user The user name\n# @prompt apiToken\nGET %s/echo/{{user}}?t={{apiToken}}\n"
                         (sheet-test-api-url) (sheet-test-api-url))))
     ,@body))

(ert-deftest sheet-test-prompt-asks-and-sends ()
  "C-c C-c asks each prompt (secret names without echo) and sends the answers."
  (sheet-test-with-prompt-file
    (let (asked)
      (cl-letf (((symbol-function 'read-string)
                 (lambda (prompt &rest _) (push (list 'read-string prompt) asked) "ada"))
                ((symbol-function 'read-passwd)
                 (lambda (prompt &rest _) (push (list 'read-passwd prompt) asked) "t0k en")))
        (sheet-test-goto "^GET .*{{user}}")
        (with-current-buffer (sheet-test-key-and-wait "C-c C-c")
          (should (string-match-p "\"path\": \"/echo/ada\"" (buffer-string)))
          (should (string-match-p "\"t\": \"t0k en\"" (buffer-string))))
        (should (equal (reverse asked)
                       '((read-string "The user name (user): ")
                         (read-passwd "apiToken: "))))
        ;; C-c C-u asks too, and writes the answers.
        (setq asked nil)
        (sheet-test-key "C-c C-u")
        (should (= (length asked) 2))
        (should (string-match-p "/echo/ada\\?t=t0k%20en'" (car kill-ring)))
        ;; A request without prompts asks nothing.
        (setq asked nil)
        (sheet-test-goto "^GET .*/echo/open")
        (with-current-buffer (sheet-test-key-and-wait "C-c C-c")
          (should (string-match-p "\"path\": \"/echo/open\"" (buffer-string))))
        (should-not asked)))))

(ert-deftest sheet-test-prompt-secret-not-in-messages ()
  "Issue 22 item 7: the request log in *Messages* masks the answers to secret prompts."
  (sheet-test-visiting "secret.http"
      (with-temp-file file
        (insert (format "# @prompt user\n# @prompt password\nPOST %s/echo/{{user}}?pw={{password}}\nContent-Type: application/json\n\n{\"user\": \"{{user}}\", \"password\": \"{{password}}\"}\n"
                        (sheet-test-api-url))))
    (let ((sheet-log-request t)
          (mark (sheet-test-messages-mark)))
      (cl-letf (((symbol-function 'read-string) (lambda (&rest _) "ada"))
                ((symbol-function 'read-passwd) (lambda (&rest _) "s3cr3t p@ss")))
        (sheet-test-goto "^POST")
        (with-current-buffer (sheet-test-key-and-wait "C-c C-c")
          ;; Sent as typed ...
          (should (string-match-p "s3cr3t p@ss" (buffer-string)))))
      ;; ... logged masked, as written and as percent-encoded in the URL.
      (let ((log (sheet-test-wait-message "^HTTP POST" mark)))
        (should (string-match-p "/echo/ada\\?pw=\\*\\*\\*\\*" log))
        (should (string-match-p "\"password\": \"\\*\\*\\*\\*\"" log))
        (should-not (string-match-p "s3cr3t" log))))))

(ert-deftest sheet-test-prompt-quit-sends-nothing ()
  "Quitting a prompt sends nothing."
  (sheet-test-with-prompt-file
    (sheet-test-goto "^GET .*{{user}}")
    (cl-letf (((symbol-function 'read-string) (lambda (&rest _) (signal 'quit nil))))
      (should (eq (condition-case nil
                      (progn (sheet-test-key "C-c C-c") 'sent)
                    (quit 'quit))
                  'quit)))
    (should-not sheet-engine--in-flight)
    (should-not (get-buffer "*HTTP Response*"))))

(ert-deftest sheet-test-prompt-secret-names ()
  "Which names are read without echo: password, passwd, token, secret, any case."
  (dolist (case '(("password" . t) ("dbPassword" . t) ("passwd" . t) ("TOKEN" . t)
                  ("client_secret" . t) ("user" . nil) ("code" . nil)))
    (let (how)
      (cl-letf (((symbol-function 'read-string) (lambda (&rest _) (setq how 'plain) "x"))
                ((symbol-function 'read-passwd) (lambda (&rest _) (setq how 'secret) "x")))
        (sheet--read-prompt (list :name (car case) :description "" :line 1)))
      (should (equal (list (car case) how) (list (car case) (if (cdr case) 'secret 'plain)))))))

(provide 'sheet-mode-prompt-test)
;;; sheet-mode-prompt-test.el ends here
