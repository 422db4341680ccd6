;;; ob-sheet-send-test.el --- An Org block sends as C-c C-c does  -*- lexical-binding: t; -*-

;;; Commentary:

;; An Org `sheet' block behaves as the same request sent from a sheet
;; (C-c C-c): its `# @prompt' questions are asked (a `:var' of the
;; prompt's name answers it; quitting sends nothing; secret answers are
;; kept out of the results' errors), its responses go to the response
;; history (sheet-history.el: `sheet-response-history' and
;; `sheet-response-diff' in the block), and the assertions' summary goes
;; to the echo area.  Real Org, real engine, real example API; the
;; answers are given by let-bound `read-string' / `read-passwd'.

;;; Code:

(require 'ob-sheet-helper)

(defconst ob-sheet-send-test-prompt-block
  "#+name: who
#+begin_src sheet :syntax http :var base=\"%s\" :noheaders
# @prompt user The user name
# @prompt apiToken
GET {{base}}/echo/{{user}}?t={{apiToken}}
#+end_src
"
  "A `.http' block with two prompts, the second a secret.")

(defmacro ob-sheet-send-test-answering (asked user token &rest body)
  "Run BODY with `read-string' answering USER and `read-passwd' TOKEN.
Each question is pushed on ASKED, (FUNCTION PROMPT)."
  (declare (indent 3) (debug t))
  `(cl-letf (((symbol-function 'read-string)
              (lambda (prompt &rest _) (push (list 'read-string prompt) ,asked)
                ,user))
             ((symbol-function 'read-passwd)
              (lambda (prompt &rest _) (push (list 'read-passwd prompt) ,asked)
                ,token)))
     ,@body))

(ert-deftest sheet-test-babel-prompts-asked ()
  "A block's `# @prompt' lines are asked as C-c C-c asks them; sent."
  (ob-sheet-test-with-org ob-sheet-send-test-prompt-block
    (let (asked)
      (ob-sheet-send-test-answering asked "ada" "t0k en"
        (let ((text (ob-sheet-test-run "who")))
          (should (string-match-p "\"path\": \"/echo/ada\"" text))
          (should (string-match-p "\"t\": \"t0k en\"" text))))
      (should (equal (reverse asked)
                     '((read-string "The user name (user): ")
                       (read-passwd "apiToken: ")))))))

(ert-deftest sheet-test-babel-prompts-async ()
  "Async too: the questions come at once, the answers are sent later."
  (let ((sheet-babel-async t))
    (ob-sheet-test-with-org ob-sheet-send-test-prompt-block
      (let (asked)
        (ob-sheet-send-test-answering asked "grace" "x"
          (goto-char (org-babel-find-named-block "who"))
          (org-babel-execute-src-block)
          (should (= (length asked) 2)))
        (should (string-match-p "\"path\": \"/echo/grace\""
                                (ob-sheet-test-run-wait "who")))))))

(ert-deftest sheet-test-babel-var-answers-prompt ()
  "A `:var' of the prompt's name answers it: only the others are asked."
  (ob-sheet-test-with-org
      (replace-regexp-in-string ":noheaders" ":noheaders :var user=\"hedy\""
                                ob-sheet-send-test-prompt-block t t)
    (let (asked)
      (ob-sheet-send-test-answering asked "not asked" "secret"
        (let ((text (ob-sheet-test-run "who")))
          (should (string-match-p "\"path\": \"/echo/hedy\"" text))
          (should (string-match-p "\"t\": \"secret\"" text))))
      (should (equal asked '((read-passwd "apiToken: ")))))
    ;; Every prompt answered by `:var': nothing is asked.
    (goto-char (point-min))
    (while (search-forward ":var user=\"hedy\"" nil t)
      (replace-match ":var user=\"hedy\" :var apiToken=\"k\"" t t))
    (let (asked)
      (ob-sheet-send-test-answering asked "no" "no"
        (should (string-match-p "\"t\": \"k\"" (ob-sheet-test-run "who"))))
      (should-not asked))))

(ert-deftest sheet-test-babel-prompt-quit-sends-nothing ()
  "Quitting a block's prompt sends nothing and leaves no result."
  (ob-sheet-test-with-org ob-sheet-send-test-prompt-block
    (goto-char (org-babel-find-named-block "who"))
    (cl-letf (((symbol-function 'read-string)
               (lambda (&rest _) (signal 'quit nil))))
      (should (eq (condition-case nil
                      (progn (org-babel-execute-src-block) 'sent)
                    (quit 'quit))
                  'quit)))
    (should-not sheet-engine--in-flight)
    (should-not sheet-babel--busy)
    (should-not (ob-sheet-test-result))))

(ert-deftest sheet-test-babel-secret-prompt-masked-in-error ()
  "An error result does not show the answer to a secret prompt."
  (ob-sheet-test-with-org "#+name: refused
#+begin_src sheet :syntax http
# @prompt password
GET http://127.0.0.1:1/login?pw={{password}}
#+end_src
"
    (cl-letf (((symbol-function 'read-passwd) (lambda (&rest _) "hunter2")))
      (let ((text (ob-sheet-test-run "refused")))
        (should (string-match-p "\\`#\\+begin_example\nError: " text))
        (should (string-match-p "login\\?pw=\\*\\*\\*\\*: connection refused"
                                text))
        (should-not (string-match-p "hunter2" text))))))

(ert-deftest sheet-test-babel-response-history ()
  "A block's responses are kept as C-c C-c keeps a sheet's; shown, diffed."
  (clrhash sheet-history--table)
  (ob-sheet-test-with-org "#+name: users
#+begin_src sheet :var base=\"%s\" :var id=1 :results value
GET :base/users/:id
#+end_src
"
    (ob-sheet-test-run "users")
    (should-error (sheet-response-diff) :type 'user-error)
    ;; The same request line, another user: the second response.
    (goto-char (point-min))
    (search-forward "id=1")
    (replace-match "id=2" t t)
    (ob-sheet-test-run "users")
    (let ((entries (gethash (cons buffer-file-name "GET :base/users/:id")
                            sheet-history--table)))
      (should (= (length entries) 2))
      (should (string-match-p "Alan Turing"
                              (plist-get (car entries) :body)))
      (should (numberp (plist-get (plist-get (car entries) :result)
                                  :durationMs))))
    ;; In the block, the history commands find them.
    (goto-char (org-babel-find-named-block "users"))
    (forward-line)
    (let (offered)
      (cl-letf (((symbol-function 'completing-read)
                 (lambda (_prompt table &rest _)
                   (setq offered (all-completions "" table))
                   (car (last offered)))))
        (with-current-buffer (sheet-response-history)
          (should (= (length offered) 2))
          ;; The older one, with the trailer made again.
          (should (string-match-p "Ada Lovelace" (buffer-string)))
          (should (string-match-p "^// HTTP/1.1 200 OK$" (buffer-string)))
          (should (string-match-p "From the history" (buffer-string))))))
    (with-current-buffer (sheet-response-diff)
      (sheet-test-wait-until
       (lambda () (string-match-p "Diff finished" (buffer-string)))
       10 "the diff")
      (should (string-match-p "^\\+.*Alan Turing" (buffer-string))))))

(ert-deftest sheet-test-babel-edit-buffer-uses-block-vars ()
  "Issue 37 item 10: C-c C-c in a block's edit buffer (C-c ') sends with the block's `:var's."
  (ob-sheet-test-with-org "#+name: two
#+begin_src sheet :var base=\"%s\" :var who=\"ada\"
GET :base/echo/:who
Accept: text/plain
#+end_src
"
    (goto-char (org-babel-find-named-block "two"))
    (forward-line)
    (org-edit-special)
    (unwind-protect
        (progn
          (should (derived-mode-p 'sheet-mode))
          (goto-char (point-min))
          (forward-line)                ; on the header line: still the request
          (with-current-buffer (sheet-test-send-and-wait)
            (should (string-match-p "\"path\": \"/echo/ada\"" (buffer-string)))))
      (org-edit-src-exit))))

(ert-deftest sheet-test-babel-history-shared-with-edit-buffer ()
  "A block sent from Org's edit buffer (C-c ') goes to the block's history."
  (clrhash sheet-history--table)
  (ob-sheet-test-with-org "#+name: one
#+begin_src sheet
GET %s/users/1
#+end_src
"
    (ob-sheet-test-run "one")
    (goto-char (org-babel-find-named-block "one"))
    (forward-line)
    (org-edit-special)
    (unwind-protect
        (progn
          (should (derived-mode-p 'sheet-mode))
          (goto-char (point-min))
          (sheet-test-send-and-wait))
      (org-edit-src-exit))
    (let ((key (cons buffer-file-name
                     (format "GET %s/users/1" (sheet-test-api-url)))))
      (should (= (length (gethash key sheet-history--table)) 2)))))

(ert-deftest sheet-test-babel-engine-died-says-so ()
  "Issue 37 item 10: a block whose engine dies reads our message, not jsonrpc.el's \"Server died\"."
  (ob-sheet-test-with-org "#+name: slow
#+begin_src sheet :var base=\"%s\"
GET :base/slow?ms=8000
#+end_src
"
    (sheet-test-send-and-wait-ready)
    (let* ((engine (sheet-engine-process))
           (killer (run-at-time 0.5 nil (lambda () (signal-process engine 'kill)))))
      (unwind-protect
          (let ((text (ob-sheet-test-run "slow")))
            (should (string-match-p "Error: the engine died (Server died) while \
sending the block; the next command starts a new one" text)))
        (cancel-timer killer)))))

(ert-deftest sheet-test-babel-assertions-in-echo-area ()
  "The assertions' summary goes to the echo area, as after C-c C-c."
  (ob-sheet-test-with-org "#+name: checked
#+begin_src sheet :var base=\"%s\"
GET :base/users/1
-> expect-status 200
-> expect-status 404
#+end_src
"
    (let ((mark (sheet-test-messages-mark)))
      (let ((text (ob-sheet-test-run "checked")))
        ;; The trailer holds them, as the response buffer's does.
        (should (string-match-p "expect-status 404" text)))
      (should (string-match-p
               "Sheet-mode: 1 of 2 assertions failed"
               (sheet-test-wait-message "assertions failed" mark))))))

(provide 'ob-sheet-send-test)
;;; ob-sheet-send-test.el ends here
