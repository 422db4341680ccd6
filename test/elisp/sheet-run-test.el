;;; sheet-run-test.el --- Assertions in C-c C-c and sheet-run-buffer  -*- lexical-binding: t; -*-

;;; Commentary:

;; elisp/sheet-run.el against the real engine, the real `sheet run' and the example API:
;; assertion results in the response trailer and the echo area, and C-c C-t's results
;; buffer with links back to the sheet's lines.

;;; Code:

(require 'test-helper)

(ert-deftest sheet-run-test-assertion-lines-and-summary ()
  "The trailer lines and the echo-area summary from a result's assertions."
  (let* ((pass (list :line 2 :name "expect-status" :args "200" :passed t
                     :message "line 2: expect-status 200: ok (200 OK)"))
         (fail (list :line 3 :name "expect-body" :args "x" :passed :json-false
                     :message "line 3: expect-body x: failed, got body []"))
         (result (list :hooks (list :assertions (vector pass fail)))))
    (should (equal (sheet-run-assertion-lines result)
                   '("PASS line 2: expect-status 200: ok (200 OK)"
                     "FAIL line 3: expect-body x: failed, got body []")))
    (should (equal (sheet-run-assertion-summary (plist-get result :hooks))
                   "1 of 2 assertions failed: line 3: expect-body x: failed, got body []"))
    (should (equal (sheet-run-assertion-summary (list :assertions (vector pass)))
                   "1 assertion passed"))
    (should-not (sheet-run-assertion-summary (list :assertions [])))
    (should-not (sheet-run-assertion-lines (list :hooks (list :assertions []))))))

(ert-deftest sheet-run-test-send-shows-assertions ()
  "C-c C-c: each assertion in the trailer, a one-line summary in the echo area."
  (sheet-test-with-sheet "GET :base/users/1\n-> expect-status 2xx\n-> expect-jq '.name == \"Nobody\"'\n"
    (switch-to-buffer (current-buffer))
    (sheet-test-goto "^GET")
    (let* ((mark (sheet-test-messages-mark))
           (buf (sheet-test-key-and-wait "C-c C-c")))
      (with-current-buffer buf
        (let ((text (buffer-string)))
          (should (string-match-p "^// PASS line 3: expect-status 2xx: ok (200 OK)$" text))
          (should (string-match-p "^// FAIL line 4: expect-jq '.name == \"Nobody\"': failed, got \"false\" on body " text))))
      (should (string-match-p "Sheet-mode: 1 of 2 assertions failed: line 4: expect-jq"
                              (sheet-test-wait-message "assertions failed" mark))))))

(ert-deftest sheet-run-test-run-buffer ()
  "C-c C-t runs the whole sheet into a results buffer whose lines link to the sheet."
  (let* ((dir (make-temp-file "sheet-run-test" t))
         (file (expand-file-name "suite.sheet" dir))
         (sheet-run-buffer-name "*sheet-run-test*"))
    (unwind-protect
        (progn
          (with-temp-file file
            (insert ":base = " (sheet-test-api-url) "\n#\n"
                    "POST :base/login\n-> jq-set-var :token .token\n\n{\"user\": \"ada\", \"password\": \"secret\"}\n#\n"
                    "GET :base/me\nAuthorization: Bearer :token\n-> expect-status 200\n#\n"
                    "GET :base/users/999\n-> expect-status 200\n"))
          (with-current-buffer (find-file-noselect file)
            (should (eq major-mode 'sheet-mode))
            (let ((results (sheet-test-key "C-c C-t")))
              (ignore results)
              (let ((buf (get-buffer sheet-run-buffer-name)))
                (with-current-buffer buf
                  (sheet-test-wait-until (lambda () (string-match-p ":exit" (format "%s" mode-line-process)))
                                         60 "the end of the run")
                  (should (equal mode-line-process ":exit 1"))
                  (let ((text (buffer-string)))
                    (should (string-match-p "✓ 200 POST .*/login" text))
                    (should (string-match-p "✓ 200 GET .*/me" text))
                    (should (string-match-p "✗ 404 GET .*/users/999" text))
                    (should (string-match-p "FAIL line 13: expect-status 200: failed, got 404" text))
                    (should (string-match-p "3 of 3 requests, 1 assertions passed, 1 failed" text)))
                  ;; The failed assertion's link visits its sheet line.
                  (goto-char (point-min))
                  (re-search-forward "line 13: expect-status")
                  (push-button (point))
                  (should (equal (buffer-file-name) file))
                  (should (= (line-number-at-pos) 13))))))
          (kill-buffer (get-file-buffer file)))
      (when (get-buffer sheet-run-buffer-name) (kill-buffer sheet-run-buffer-name))
      (delete-directory dir t))))

(ert-deftest sheet-run-test-run-buffer-prompts ()
  "C-c C-t asks the prompts of every request, each name once, then passes the answers on stdin."
  (let* ((dir (make-temp-file "sheet-run-test" t))
         (file (expand-file-name "prompts.http" dir))
         (sheet-run-buffer-name "*sheet-run-test*")
         (make-process-orig (symbol-function 'make-process))
         asked command)
    (unwind-protect
        (progn
          (with-temp-file file
            (insert (format "# @prompt user The user name\n# @prompt apiToken\nGET %s/echo/{{user}}\nX-Token: {{apiToken}}\n\n> {%%\n  client.test(\"token sent\", function () { client.assert(response.body.headers[\"x-token\"] === \"t0k en\", response.body.headers[\"x-token\"]); });\n%%}\n\n###\n# @prompt user\nGET %s/echo/again/{{user}}\n"
                            (sheet-test-api-url) (sheet-test-api-url))))
          (with-current-buffer (find-file-noselect file)
            (sheet-mode)
            (cl-letf (((symbol-function 'read-string)
                       (lambda (prompt &rest _) (push (list 'read-string prompt) asked) "ada"))
                      ((symbol-function 'read-passwd)
                       (lambda (prompt &rest _) (push (list 'read-passwd prompt) asked) "t0k en"))
                      ((symbol-function 'make-process)
                       (lambda (&rest args)
                         (setq command (plist-get args :command))
                         (apply make-process-orig args))))
              (sheet-test-key "C-c C-t"))
            ;; Each name once, secret names without echo.
            (should (equal (reverse asked)
                           '((read-string "The user name (user): ")
                             (read-passwd "apiToken: "))))
            ;; The answers go on stdin, never on the command line.
            (should (equal (last command 2) '("--prompts-from" "-")))
            (should-not (seq-some (lambda (a) (string-match-p "t0k\\|ada" a)) command))
            (with-current-buffer (get-buffer sheet-run-buffer-name)
              (sheet-test-wait-until (lambda () (string-match-p ":exit" (format "%s" mode-line-process)))
                                     60 "the end of the run")
              (let ((text (buffer-string)))
                (should (equal mode-line-process ":exit 0"))
                (should (string-match-p "✓ 200 GET .*/echo/ada [0-9]+ ms$" text))
                (should (string-match-p "PASS .*token sent" text))
                (should (string-match-p "✓ 200 GET .*/echo/again/ada [0-9]+ ms$" text))))
            ;; Quitting a question runs nothing.
            (kill-buffer sheet-run-buffer-name)
            (cl-letf (((symbol-function 'read-string) (lambda (&rest _) (signal 'quit nil))))
              (should (eq (condition-case nil (progn (sheet-test-key "C-c C-t") 'ran) (quit 'quit))
                          'quit)))
            (should-not (get-buffer sheet-run-buffer-name)))
          (kill-buffer (get-file-buffer file)))
      (when (get-buffer sheet-run-buffer-name) (kill-buffer sheet-run-buffer-name))
      (delete-directory dir t))))

(defconst sheet-run-test--record
  "-> run-hook (progn (require 'json) (let ((r (json-read))) (write-region (format \"%S\\n\" (list (alist-get 'method r) (alist-get 'rawPath r) (alist-get 'body r) (alist-get 'authorization (alist-get 'headers r)))) nil (sheet-get-var \":out\") t)))\n"
  "A hook that appends what the echo route saw (method, path, body, Authorization) to `:out'.")

(ert-deftest sheet-test-run-buffer-sends-what-send-sends ()
  "Issue 22 item 2: C-c C-t and C-c C-c send the same requests from one sheet.
Its `:=' forms call `restclient-get-var' and `sheet-get-var', its hooks
read and set variables; the echo route's view of each request is
recorded by a `run-hook' form both ways, and the records are equal."
  (let* ((dir (make-temp-file "sheet-run-test" t))
         (file (expand-file-name "same.sheet" dir))
         (by-send (expand-file-name "send.out" dir))
         (by-run (expand-file-name "run.out" dir))
         (sheet-run-buffer-name "*sheet-run-test*"))
    ;; A fresh session: no override from an earlier test hides the sheet's values.
    (sheet-engine-shutdown)
    (unwind-protect
        (progn
          (with-temp-file file
            (insert ":base = " (sheet-test-api-url) "\n"
                    ":out := (getenv \"SHEET_TEST_OUT\")\n"
                    ":user = jack\n"
                    ":auth-token := (format \"tok-%s\" (restclient-get-var \":user\"))\n"
                    ":plain := (format \"[%s]\" (sheet-get-var \":user\"))\n"
                    "#\n"
                    "POST :base/echo/login?p=:plain\n"
                    "-> jq-set-var :sid .query.p\n"
                    "-> run-hook (sheet-set-var \":seen\" (format \"%s/%s\" (restclient-get-var \":auth-token\") (sheet-get-var \":sid\")))\n"
                    sheet-run-test--record
                    "Authorization: Bearer :auth-token\n"
                    "\n"
                    "{\"user\": \":user\"}\n"
                    "#\n"
                    "GET :base/echo/next?s=:seen\n"
                    sheet-run-test--record))
          (with-current-buffer (find-file-noselect file)
            ;; C-c C-c on each request, in order.
            (let ((process-environment (cons (concat "SHEET_TEST_OUT=" by-send) process-environment)))
              (sheet-test-goto "^POST")
              (sheet-test-send-and-wait)
              (sheet-test-goto "^GET :base/echo/next")
              (sheet-test-send-and-wait))
            ;; C-c C-t on the whole sheet.
            (let ((process-environment (cons (concat "SHEET_TEST_OUT=" by-run) process-environment)))
              (sheet-test-key "C-c C-t"))
            (with-current-buffer sheet-run-buffer-name
              (sheet-test-wait-until (lambda () (string-match-p ":exit" (format "%s" mode-line-process)))
                                     60 "the end of the run")
              (should (equal mode-line-process ":exit 0")))
            (kill-buffer (current-buffer)))
          (let ((sent (with-temp-buffer (insert-file-contents by-send) (buffer-string)))
                (ran (with-temp-buffer (insert-file-contents by-run) (buffer-string))))
            (should (equal sent (concat "(\"POST\" \"/echo/login?p=[jack]\" \"{\\\"user\\\": \\\"jack\\\"}\" \"Bearer tok-jack\")\n"
                                        "(\"GET\" \"/echo/next?s=tok-jack/[jack]\" \"\" nil)\n")))
            (should (equal ran sent))))
      (when (get-buffer sheet-run-buffer-name) (kill-buffer sheet-run-buffer-name))
      (delete-directory dir t))))

(provide 'sheet-run-test)
;;; sheet-run-test.el ends here
