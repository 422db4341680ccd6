;;; sheet-mode-restclient-test.el --- restclient.el's behaviours kept  -*- lexical-binding: t; -*-

;;; Commentary:

;; Issue 9: `#' comments in the syntax table, the received/loaded hook order, warnings in the
;; trailer, the request in flight in the mode line, `sheet-get-var' and restclient.el's
;; names, and restclient.el's own example sheet run against a local httpbin.

;;; Code:

(require 'test-helper)

(ert-deftest sheet-test-hash-comments-in-syntax ()
  "A line starting with # is a comment in the syntax table; # elsewhere is not; M-; toggles."
  (with-temp-buffer
    (insert "# users\nGET http://h/x#frag\n\n{\"a\": \"#b\"}\n")
    (sheet-mode)
    (should (equal comment-start "# "))
    (goto-char (point-min))
    (forward-char 4)
    (should (nth 4 (syntax-ppss)))
    (search-forward "#fr")
    (should-not (nth 4 (syntax-ppss)))
    (search-forward "#b")
    (should-not (nth 4 (syntax-ppss)))
    ;; M-; on a line without a region comments it, and again uncomments it.
    (goto-char (point-min))
    (forward-line 1)
    (end-of-line)
    (let ((transient-mark-mode t))
      (deactivate-mark)
      (call-interactively (key-binding (kbd "M-;")))
      (should (equal (buffer-substring (line-beginning-position) (line-end-position))
                     "# GET http://h/x#frag"))
      (should (nth 4 (syntax-ppss (line-end-position))))
      (call-interactively (key-binding (kbd "M-;")))
      (should (equal (buffer-substring (line-beginning-position) (line-end-position))
                     "GET http://h/x#frag"))
      ;; With a region: every line of it.
      (goto-char (point-min))
      (push-mark (point) t t)
      (forward-line 2)
      (call-interactively (key-binding (kbd "M-;")))
      (should (string-prefix-p "# # users\n# GET http://h/x#frag\n" (buffer-string)))
      (goto-char (point-min))
      (push-mark (point) t t)
      (forward-line 2)
      (call-interactively (key-binding (kbd "M-;")))
      (should (string-prefix-p "# users\nGET http://h/x#frag\n" (buffer-string))))))

(ert-deftest sheet-test-received-hook-sees-body-as-received ()
  "The received hook sees the body as the server sent it; the loaded hook the formatted one."
  (sheet-test-with-sheet "GET :base/users\n"
    (let* ((received nil) (loaded nil) (order nil)
           (sheet-response-received-hook
            (list (lambda () (push 'received order)
                    (setq received (buffer-string)))))
           (buf (let ((sheet-response-loaded-hook
                       (list (lambda () (push 'loaded order)
                               (setq loaded (buffer-string))))))
                  (sheet-test-send-and-wait))))
      (should (bufferp buf))
      (should (equal (reverse order) '(received loaded)))
      ;; As received: the example API's compact JSON, nothing else.
      (should (string-prefix-p "[{\"id\":1,\"name\":\"Ada Lovelace\"" received))
      (should-not (string-match-p "// GET" received))
      ;; Formatted: pretty-printed, with the trailer.
      (should (string-prefix-p "[\n  {\n    \"id\": 1," loaded))
      (should (string-match-p "^// HTTP/1.1 200 OK$" loaded)))))

(ert-deftest sheet-test-received-hook-unformatted-body ()
  "A body that is not pretty-printed is in the buffer once, for both hooks."
  (sheet-test-with-sheet "GET :base/text\n"
    (let* ((received nil)
           (sheet-response-received-hook
            (list (lambda () (setq received (buffer-string))))))
      (with-current-buffer (sheet-test-send-and-wait)
        (should received)
        (should (string-prefix-p received (buffer-string)))))))

(ert-deftest sheet-test-warnings-in-trailer-echo-area-and-info ()
  "The engine's warnings: in the echo area, as `// warning:' trailer lines, in C-c C-i."
  (sheet-test-with-sheet "GET :base/users\n-> no-such-hook x\n"
    (let ((mark (sheet-test-messages-mark))
          (sheet (current-buffer)))
      (with-current-buffer (sheet-test-send-and-wait)
        (let ((text (buffer-string)))
          (should (string-match-p "^// warning: .*no-such-hook" text))
          ;; After the duration line, like the rest of the trailer.
          (should (string-match-p "^// Request duration: .*\n// warning: " text))))
      (should (string-match-p "Sheet-mode: warning: .*no-such-hook"
                              (sheet-test-messages-since mark)))
      (with-current-buffer sheet
        (let ((info (sheet-show-info)))
          (with-current-buffer info
            (should (string-match-p "Warnings of the last request\n.*no-such-hook"
                                    (buffer-string)))))))))

(ert-deftest sheet-test-request-in-flight-in-mode-line ()
  "A slow request shows in the mode line; a second send of it asks first."
  (sheet-test-with-sheet "GET :base/slow?ms=1500\n"
    (let* ((done nil) (asked nil)
           (sheet-response-loaded-hook (list (lambda () (setq done t)))))
      (should (member '(:eval (sheet--mode-line-sending)) mode-line-process))
      (sheet-http-send-current-suppress-response-buffer)
      (should (string-match-p "\\[GET :base/slow\\?ms=1500 0s\\]"
                              (sheet--mode-line-sending)))
      (should (timerp sheet--sending-timer))
      ;; A second C-c C-c on it asks; answering no sends nothing.
      (cl-letf (((symbol-function 'y-or-n-p)
                 (lambda (prompt) (setq asked prompt) nil)))
        (should-error (sheet-http-send-current) :type 'user-error))
      (should (string-match-p "still in flight" asked))
      (should (= 1 (length sheet--sending)))
      (sheet-test-wait-until (lambda () (string-match-p " 1s\\]" (sheet--mode-line-sending)))
                             5 "the elapsed seconds")
      (sheet-test-wait-until (lambda () done) 10 "the response")
      (should-not sheet--sending)
      (should-not sheet--sending-timer)
      (should-not (sheet--mode-line-sending)))))

(ert-deftest sheet-test-get-var-and-restclient-names ()
  "`sheet-get-var' in a := form and at point; restclient.el's names are aliases."
  (should (eq (symbol-function 'restclient-get-var) #'sheet-get-var))
  (should (eq (symbol-function 'restclient-set-var) #'sheet-set-var))
  (sheet-test-with-sheet
      ":a = one\n:b := (concat (restclient-get-var \":a\") \"-two\")\nGET :base/echo/:b\n"
    (with-current-buffer (sheet-test-send-and-wait)
      (should (string-match-p "/echo/one-two" (buffer-string))))
    (sheet-test-goto "^GET")
    (should (equal (sheet-get-var ":b") "one-two"))
    (should (equal (sheet-get-var "a") "one"))
    (should-not (sheet-get-var ":nope"))
    (restclient-set-var "a" "over")
    (sheet-test-wait-until (lambda () (equal (sheet-get-var ":a") "over")) 5 "the override")))

(defvar sheet-test--hook-saw nil "What the `run-hook' forms of a test read.")

(ert-deftest sheet-test-hooks-read-the-request-variables ()
  "Issue 22 item 3: `run-hook' forms read the values the request used, and what its hooks set."
  (setq sheet-test--hook-saw nil)
  ;; A fresh session: no override from an earlier test hides the sheet's values.
  (sheet-engine-shutdown)
  (sheet-test-with-sheet
      (concat ":auth-token = abcd1234\n"
              ":user := (concat \"ja\" \"ck\")\n"
              ":plain := (format \"[%s]\" (sheet-get-var \":user\"))\n"
              "GET :base/echo/login?token=s3cret&p=:plain\n"
              "-> jq-set-var :token .query.token\n"
              "-> run-hook (setq sheet-test--hook-saw (list (restclient-get-var \":auth-token\") (sheet-get-var \":user\") (sheet-get-var \":token\") (sheet-get-var \":plain\")))\n"
              "-> run-hook (restclient-set-var-from-header \":ctype\" \"content-type\")\n"
              "-> run-hook (sheet-set-var \":late\" \"now\")\n"
              "-> run-hook (push (sheet-get-var \":late\") sheet-test--hook-saw)\n"
              "#\n"
              "GET :base/echo/next?c=:ctype\n")
    (with-current-buffer (sheet-test-send-and-wait)
      (should (string-match-p "\"p\": \"\\[jack\\]\"" (buffer-string))))
    (should (equal sheet-test--hook-saw '("now" "abcd1234" "jack" "s3cret" "[jack]")))
    (sheet-test-goto "^GET :base/echo/next")
    (with-current-buffer (sheet-test-send-and-wait)
      (should (string-match-p "\"c\": \"application/json" (buffer-string))))))

(ert-deftest sheet-test-restclient-public-names ()
  "restclient.el's public commands are aliases of sheet-mode's."
  (dolist (pair '((restclient-get-var . sheet-get-var)
                  (restclient-set-var . sheet-set-var)
                  (restclient-set-var-from-header . sheet-set-var-from-header)
                  (restclient-http-send-current . sheet-http-send-current)
                  (restclient-http-send-current-raw . sheet-http-send-current-raw)
                  (restclient-http-send-current-stay-in-window . sheet-http-send-current-stay-in-window)
                  (restclient-jump-next . sheet-jump-next)
                  (restclient-jump-prev . sheet-jump-prev)
                  (restclient-copy-curl-command . sheet-copy-curl-command)
                  (restclient-mark-current . sheet-mark-current)
                  (restclient-narrow-to-current . sheet-narrow-to-current)))
    (should (equal (list (car pair) (indirect-function (car pair)))
                   (list (car pair) (indirect-function (cdr pair)))))))

;;; restclient.el's example sheet against httpbin

(ert-deftest sheet-test-restclient-example-sheet-against-httpbin ()
  "Every request of restclient.el's examples/httpbin runs; the answers are httpbin's."
  (let* ((url (sheet-test-httpbin-url))
         (text (with-temp-buffer
                 (insert-file-contents
                  (expand-file-name "test/fixtures/restclient-httpbin.sheet" sheet-test-root))
                 (buffer-string)))
         (text (replace-regexp-in-string
                "http://localhost:3000" "http://127.0.0.1:1"
                (replace-regexp-in-string "http://httpbin\\.org" url text t t) t t))
         (sheet-follow-redirects nil)
         (sheet-log-request nil)
         (sheet-response-received-hook nil)
         (results nil))
    (with-temp-buffer
      (insert text)
      (sheet-mode)
      (goto-char (point-min))
      (let ((lines (mapcar (lambda (r) (plist-get r :line)) (sheet--requests))))
        (should (= (length lines) 29))
        (dolist (line lines)
          (goto-char (sheet--line-position line))
          (let* ((request-line (buffer-substring-no-properties
                                (line-beginning-position) (line-end-position)))
                 (mark (sheet-test-messages-mark))
                 (done nil)
                 (sheet-response-loaded-hook
                  (list (lambda () (setq done (buffer-string))))))
            (sheet-http-send-current-suppress-response-buffer)
            (sheet-test-wait-until
             (lambda () (or done (string-match-p "Sheet-mode: "
                                                 (sheet-test-messages-since mark))))
             20 request-line)
            (push (cons request-line (or done (sheet-test-messages-since mark)))
                  results)))))
    (setq results (nreverse results))
    (cl-flet ((answer (prefix) (cdr (cl-find-if (lambda (r) (string-prefix-p prefix (car r)))
                                                results))))
      ;; Every request but the closed port got an HTTP answer.
      (dolist (r results)
        (if (string-match-p "127\\.0\\.0\\.1:1\\'" (car r))
            (should (string-match-p "Sheet-mode: .*\\(refused\\|connect\\)" (cdr r)))
          (should (string-match-p "HTTP/1\\.1 [0-9]\\{3\\}" (cdr r)))))
      (should (string-match-p "\"authenticated\": true"
                              (answer (concat "GET " url "/basic-auth/"))))
      (should (string-match-p "HTTP/1\\.1 404" (answer (concat "GET " url "/status/404"))))
      (should (cl-some (lambda (r) (string-match-p "\"text\": \"привет\"" (cdr r))) results))
      (let ((q1 (answer (concat "POST " url "/post?q=1"))))
        (should (string-match-p "\"Authentication\": \"abcd1234\"" q1))
        (should (string-match-p "\"number\": 10" q1))
        (should (string-match-p "\"text\": \"This is 10\"" q1)))
      (should (string-match-p "HTTP/1\\.1 302"
                              (answer (concat "GET " url "/redirect-to")))))))

;;; sheet-mode-restclient-test.el ends here

(ert-deftest sheet-test-readme-first-snippet-in-plain-emacs ()
  "The README's first two install snippets work in a plain Emacs (no use-package needed).
The npm one (`sheet elisp-path', with the checkout's launcher on PATH:
in a checkout it prints this elisp/), then the checkout one."
  (let* ((readme (with-temp-buffer
                   (insert-file-contents (expand-file-name "README.md" sheet-test-root))
                   (buffer-string)))
         (start 0)
         (process-environment
          (cons (concat "PATH=" (expand-file-name "engine/bin" sheet-test-root)
                        ":" (getenv "PATH"))
                process-environment)))
    (dotimes (_ 2)
      (let* ((snippet (progn (string-match "```elisp\n\\(\\(?:.\\|\n\\)*?\\)```" readme start)
                             (setq start (match-end 0))
                             (match-string 1 readme)))
             (snippet (replace-regexp-in-string
                       (regexp-quote "~/src/sheet-rest/elisp")
                       (expand-file-name "elisp" sheet-test-root) snippet t t))
             (form (format "(progn %s (princ (list (featurep 'sheet-mode) (assoc-default \"a.sheet\" auto-mode-alist #'string-match) (locate-library \"sheet-mode\"))))"
                           snippet)))
        (should-not (string-match-p "use-package" snippet))
        (with-temp-buffer
          (should (eql 0 (call-process "emacs" nil t nil "--batch" "-Q" "--eval" form)))
          (should (string-match-p "(t sheet-mode " (buffer-string)))
          (should (string-match-p (regexp-quote (expand-file-name "elisp/sheet-mode.el" sheet-test-root))
                                  (buffer-string))))))))

(defun sheet-test--body-of (buffer)
  "BUFFER's text up to its trailer (its first comment line naming GET)."
  (with-current-buffer buffer
    (goto-char (point-min))
    (buffer-substring-no-properties
     (point-min) (if (re-search-forward "^\\(// \\|# \\)GET" nil t) (match-beginning 0) (point-max)))))

(ert-deftest sheet-test-big-body-fills-chunk-by-chunk ()
  "Above 10 x the threshold a body file fills the buffer in chunks, from timers."
  (sheet-test-with-sheet "GET :base/big.json?kb=256\n"
    (let* ((whole (let ((sheet-response-size-threshold nil))
                    (sheet-test--body-of (sheet-test-send-and-wait))))
           (chunks 0)
           (count (lambda (&rest _) (setq chunks (1+ chunks))))
           (sheet-response-size-threshold 1000)
           (sheet--fill-chunk-bytes 30000))
      (should (> (length whole) 300000))
      (advice-add 'sheet--fill-chunk :before count)
      (unwind-protect
          (let ((buf (sheet-test-send-and-wait)))
            ;; Many chunks, each a whole number of characters: the same text.
            (should (> chunks 10))
            (let ((got (sheet-test--body-of buf)))
              (should (equal (length got) (length whole)))
              (should (equal (substring got -40) (substring whole -40)))
              (should (string= got whole)))
            (with-current-buffer buf
              (should (eq major-mode 'fundamental-mode))
              ;; fundamental-mode has no comment syntax: the trailer uses "# ".
              (should (string-match-p "^# Request duration" (buffer-string)))))
        (advice-remove 'sheet--fill-chunk count)))))

(ert-deftest sheet-test-cancel-stops-filling ()
  "C-c C-k while a big body fills: the filling stops, its file is deleted, no loaded hook."
  (sheet-test-with-sheet "GET :base/big.json?kb=256\n"
    (let* ((loaded nil) (file nil)
           (sheet-response-loaded-hook (list (lambda () (setq loaded t))))
           (sheet-response-size-threshold 1000)
           (sheet--fill-chunk-bytes 2000))
      (sheet-http-send-current-suppress-response-buffer)
      (setq file (sheet-test-wait-until
                  (lambda () (let ((b (get-buffer "*HTTP Response*")))
                               (and b (cdr (buffer-local-value 'sheet--filling b)))))
                  15 "the filling"))
      (should (file-exists-p file))
      (sheet-test-key "C-c C-k")
      (should-not (buffer-local-value 'sheet--filling (get-buffer "*HTTP Response*")))
      (should-not (file-exists-p file))
      (sleep-for 0.2)
      (should-not loaded))))
