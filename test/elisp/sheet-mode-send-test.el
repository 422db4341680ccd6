;;; sheet-mode-send-test.el --- Sending requests and the response buffer  -*- lexical-binding: t; -*-

;;; Commentary:

;; C-c C-c, C-c C-r, C-c C-v, C-c C-b against the real engine and the example API; the
;; response buffer's layout, modes, hooks and naming.

;;; Code:

(require 'test-helper)

(ert-deftest sheet-test-send-current-fills-response-buffer ()
  "C-c C-c: body first, then the request, status line, headers and duration as comments."
  (sheet-test-with-sheet "# users\nGET :base/users\nAccept: application/json\n"
    (switch-to-buffer (current-buffer))
    (sheet-test-goto "^GET")
    (let ((buf (sheet-test-key-and-wait "C-c C-c"))
          (url (concat (sheet-test-api-url) "/users")))
      (should (equal (buffer-name buf) "*HTTP Response*"))
      (with-current-buffer buf
        (should (eq major-mode (if (fboundp 'json-mode) 'json-mode 'js-mode)))
        (should sheet-response-mode)
        (goto-char (point-min))
        ;; The body, pretty-printed by the engine, comes first.
        (should (looking-at-p "\\[\n  {\n    \"id\": 1,"))
        (let ((text (buffer-string)))
          (should (string-match-p (concat "^// GET " (regexp-quote url) "\n// HTTP/1.1 200 OK\n") text))
          (should (string-match-p "^// Content-Type: application/json; charset=utf-8$" text))
          (should (string-match-p "^// Request duration: [0-9]+\\.[0-9]\\{6\\}s\n\\'" text))
          ;; The trailer lines are comments in the buffer's comment syntax.
          (should (string-match-p "^]\n// GET" text)))
        (goto-char (point-max))
        (forward-line -1)
        (should (nth 4 (syntax-ppss (line-end-position)))))
      ;; C-c C-c shows the response in another window and selects it.
      (should (eq (window-buffer (selected-window)) buf)))))

(ert-deftest sheet-test-send-raw ()
  "C-c C-r: status line and headers first, then the body untouched."
  (sheet-test-with-sheet "GET :base/users\n"
    (let ((buf (sheet-test-key-and-wait "C-c C-r")))
      (with-current-buffer buf
        (goto-char (point-min))
        (should (looking-at-p "HTTP/1.1 200 OK\n"))
        (should (re-search-forward "^Content-Type: application/json; charset=utf-8\n" nil t))
        (should (re-search-forward "^\n\\[{\"id\":1,\"name\":\"Ada Lovelace\"" nil t))
        (should-not (string-match-p "Request duration" (buffer-string)))))))

(ert-deftest sheet-test-send-stay-in-window ()
  "C-c C-v: the response is shown, focus stays in the sheet."
  (sheet-test-with-sheet "GET :base/users\n"
    (delete-other-windows)
    (switch-to-buffer (current-buffer))
    (let ((sheet (current-buffer))
          (buf (sheet-test-key-and-wait "C-c C-v")))
      (should (eq (window-buffer (selected-window)) sheet))
      (should (get-buffer-window buf))
      (with-current-buffer buf (should (string-match-p "Ada Lovelace" (buffer-string)))))))

(ert-deftest sheet-test-send-suppress-response-buffer ()
  "C-c C-b: the response buffer is filled but not shown."
  (sheet-test-with-sheet "GET :base/users\n"
    (delete-other-windows)
    (switch-to-buffer (current-buffer))
    (let ((buf (sheet-test-key-and-wait "C-c C-b")))
      (should-not (get-buffer-window buf t))
      (should (eq (window-buffer (selected-window)) (get-buffer "test.sheet")))
      (with-current-buffer buf (should (string-match-p "Grace Hopper" (buffer-string)))))))

(ert-deftest sheet-test-response-quit-with-q ()
  "q in the response buffer quits its window."
  (sheet-test-with-sheet "GET :base/users\n"
    (delete-other-windows)
    (switch-to-buffer (current-buffer))
    (let ((buf (sheet-test-key-and-wait "C-c C-c")))
      (should (eq (window-buffer (selected-window)) buf))
      (with-current-buffer buf
        (should (eq (key-binding (kbd "q")) #'quit-window))
        (call-interactively (key-binding (kbd "q"))))
      (should-not (get-buffer-window buf)))))

(ert-deftest sheet-test-response-modes-by-content-type ()
  "XML in nxml-mode, HTML in html-mode, an image as a placeholder without image support."
  (sheet-test-with-sheet "GET :base/xml\n#\nGET :base/html\n#\nGET :base/image.png\n"
    (with-current-buffer (sheet-test-send-and-wait)
      (should (eq major-mode 'nxml-mode))
      (should (string-match-p "^<!-- HTTP/1.1 200 OK -->$" (buffer-string))))
    (sheet-test-goto "^GET .*/html")
    (with-current-buffer (sheet-test-send-and-wait)
      (should (eq major-mode 'html-mode)))
    (sheet-test-goto "^GET .*/image")
    (with-current-buffer (sheet-test-send-and-wait)
      (goto-char (point-min))
      (should (looking-at-p "\\[image image/png, [0-9]+ bytes: this Emacs cannot display images\\]")))))

(ert-deftest sheet-test-hook-order ()
  "Data inserted -> received hook -> formatting -> loaded hook -> run-hook forms, once."
  (let ((order nil))
    (defvar sheet-test--order nil)
    (setq sheet-test--order nil)
    (sheet-test-with-sheet "GET :base/users\n-> run-hook (push (list 'run-hook major-mode) sheet-test--order)\n"
      (let ((sheet-response-received-hook
             (list (lambda ()
                     (push (list 'received major-mode
                                 (and (string-match-p "Ada Lovelace" (buffer-string)) t)
                                 (and (string-match-p "Request duration" (buffer-string)) t))
                           sheet-test--order))))
            (sheet-response-loaded-hook
             (list (lambda ()
                     (push (list 'loaded major-mode
                                 (and (string-match-p "Request duration" (buffer-string)) t))
                           sheet-test--order)))))
        ;; The second time in the same (reused) buffer, which was in the JSON mode.
        (sheet-test-send-and-wait)
        (setq sheet-test--order nil)
        (sheet-test-send-and-wait)
        ;; Let any stray second run show up.
        (accept-process-output nil 0.2)
        (setq order (reverse sheet-test--order))
        (should (equal (mapcar #'car order) '(received loaded run-hook)))
        ;; Received: the data is there, not yet formatted.
        (should (equal (cdr (nth 0 order)) '(fundamental-mode t nil)))
        (should (equal (nth 1 order) (list 'loaded (if (fboundp 'json-mode) 'json-mode 'js-mode) t)))
        (should (equal (nth 2 order) (list 'run-hook (if (fboundp 'json-mode) 'json-mode 'js-mode))))))))

(ert-deftest sheet-test-jq-set-var-token-used-by-next-request ()
  "A login's token captured with jq-set-var is sent by the next request."
  (sheet-test-with-sheet
      "POST :base/login\nContent-Type: application/json\n-> jq-set-var :tok .token\n\n{\"user\": \"grace\", \"password\": \"secret\"}\n#\nGET :base/me\nAuthorization: Bearer :tok\n"
    (sheet-test-goto "^POST")
    (with-current-buffer (sheet-test-send-and-wait)
      (should (string-match-p "\"token\": \"token-grace\"" (buffer-string))))
    (sheet-test-goto "^GET")
    (with-current-buffer (sheet-test-send-and-wait)
      (should (string-match-p "HTTP/1.1 200 OK" (buffer-string)))
      (should (string-match-p "\"user\": \"grace\"" (buffer-string))))))

(ert-deftest sheet-test-send-at-end-of-buffer ()
  "Issue 22 item 5: C-c C-c after M-> sends the last request above point, as restclient.el."
  (sheet-test-with-sheet "GET :base/users/1\n#\nGET :base/echo/last\nAccept: */*\n\n"
    (goto-char (point-max))
    (with-current-buffer (sheet-test-key-and-wait "C-c C-c")
      (should (string-match-p "\"path\": \"/echo/last\"" (buffer-string))))))

(ert-deftest sheet-test-post-body-and-error-status ()
  "A POST sends its body; an error status is displayed as a response."
  (sheet-test-with-sheet
      "POST :base/echo/x\nContent-Type: text/plain\n\nhello body\n#\nDELETE :base/users/999\n"
    (with-current-buffer (sheet-test-send-and-wait)
      (should (string-match-p "\"body\": \"hello body\"" (buffer-string))))
    (sheet-test-goto "^DELETE")
    (with-current-buffer (sheet-test-send-and-wait)
      (should (string-match-p "^// HTTP/1.1 404 Not Found$" (buffer-string)))
      (should (string-match-p "no user 999" (buffer-string))))))

;;; sheet-mode-send-test.el ends here

(ert-deftest sheet-test-hook-warnings-keep-the-response ()
  "An unknown hook or a failing jq expression is reported; the response is shown anyway."
  (sheet-test-with-sheet "GET :base/users\n-> no-such-hook x\n-> jq-set-var :broken .[\n"
    (let ((mark (sheet-test-messages-mark)))
      (with-current-buffer (sheet-test-send-and-wait)
        (should (string-match-p "Ada Lovelace" (buffer-string))))
      (let ((text (sheet-test-messages-since mark)))
        (should (string-match-p "line 3: unknown hook no-such-hook" text))
        (should (string-match-p "line 4: jq expression" text))))))

(ert-deftest sheet-test-redirect-in-trailer ()
  "A followed redirect is named in the trailer, before the final status line."
  (sheet-test-with-sheet "GET :base/redirect\n"
    (with-current-buffer (sheet-test-send-and-wait)
      (should (string-match-p
               (concat "^// GET " (regexp-quote (sheet-test-api-url)) "/users\n"
                       "// Redirect: 302 " (regexp-quote (sheet-test-api-url)) "/redirect -> .*/users\n"
                       "// HTTP/1.1 200 OK$")
               (buffer-string))))))

(require 'url-vars)

(ert-deftest sheet-test-url-max-redirections ()
  "Issue 22 item 5: restclient.el's `url-max-redirections' is the redirect limit when a sheet sets it.
0 (a file-local value, as restclient.el's example has, or a `setq' in a `:=' form, which
applies to that very request) shows the redirect response; N follows at most N."
  (sheet-test-with-sheet "GET :base/redirect\n#\nGET :base/redirect/2\n#\nGET :base/redirect/3\n"
    (setq-local url-max-redirections 0)
    (with-current-buffer (sheet-test-send-and-wait)
      (should (string-match-p "^[#/]+ HTTP/1.1 302 Found$" (buffer-string))))
    (setq-local url-max-redirections 2)
    (sheet-test-goto "^GET :base/redirect/2")
    (with-current-buffer (sheet-test-send-and-wait)
      (should (string-match-p "^// HTTP/1.1 200 OK$" (buffer-string))))
    (sheet-test-goto "^GET :base/redirect/3")
    (let ((mark (sheet-test-messages-mark)))
      (sheet-test-key "C-c C-c")
      (sheet-test-wait-message "more than 2 redirects" mark))
    (kill-local-variable 'url-max-redirections)
    (with-current-buffer (sheet-test-send-and-wait)
      (should (string-match-p "^// HTTP/1.1 200 OK$" (buffer-string)))))
  (let ((url-max-redirections url-max-redirections))
    (sheet-test-with-sheet ":no-redirects := (progn (setq url-max-redirections 0) \"\")\nGET :base/redirect?x=:no-redirects\n"
      (sheet-test-goto "^GET")
      (with-current-buffer (sheet-test-send-and-wait)
        (should (string-match-p "^[#/]+ HTTP/1.1 302 Found$" (buffer-string)))))))

(ert-deftest sheet-test-file-body-relative-to-sheet ()
  "A `< path' body is read relative to the sheet's file."
  (let* ((dir (make-temp-file "sheet-test-dir" t))
         (sheet-file (expand-file-name "api.sheet" dir)))
    (unwind-protect
        (progn
          (with-temp-file (expand-file-name "body.json" dir)
            (insert "{\"from\": \"file\"}"))
          (with-temp-file sheet-file
            (insert ":base = " (sheet-test-api-url) "\n#\nPOST :base/echo/file\nContent-Type: application/json\n\n< ./body.json\n"))
          (let ((buf (find-file-noselect sheet-file))
                (sheet-same-buffer-response t)
                (sheet-buffer-response-name "*HTTP Response*"))
            (unwind-protect
                (with-current-buffer buf
                  (should (eq major-mode 'sheet-mode))
                  (sheet-test-goto "^POST")
                  (with-current-buffer (sheet-test-send-and-wait)
                    (should (string-match-p (regexp-quote "\"body\": \"{\\\"from\\\": \\\"file\\\"}\"")
                                            (buffer-string)))))
              (kill-buffer buf))))
      (delete-directory dir t))))
