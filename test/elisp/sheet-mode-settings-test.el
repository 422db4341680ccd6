;;; sheet-mode-settings-test.el --- One test per setting  -*- lexical-binding: t; -*-

;;; Commentary:

;; Each `sheet-' option changes what happens, against the real engine and the example API.

;;; Code:

(require 'test-helper)

(defun sheet-test--echoed-user-agent ()
  "Send the request at point to /echo; return the User-Agent the server got, or nil."
  (with-current-buffer (sheet-test-send-and-wait)
    (goto-char (point-min))
    (let ((echo (json-parse-string
                 (buffer-substring-no-properties
                  (point-min) (save-excursion (forward-sexp) (point)))
                 :object-type 'plist)))
      (plist-get (plist-get echo :headers) :user-agent))))

(ert-deftest sheet-test-setting-user-agent ()
  "Issue 37 item 10: `sheet-user-agent' sends sheet-rest/VERSION unless the request has one."
  (sheet-test-with-sheet "GET :base/echo/ua\n#\nGET :base/echo/own\nUser-Agent: mine/1\n"
    (sheet-test-goto "^GET :base/echo/ua")
    (should (equal (sheet-test--echoed-user-agent)
                   (concat "sheet-rest/" sheet-version)))
    (let ((sheet-user-agent "probe/2"))
      (should (equal (sheet-test--echoed-user-agent) "probe/2")))
    (let ((sheet-user-agent nil))
      (should-not (sheet-test--echoed-user-agent)))
    ;; The request's own header wins, written once.
    (sheet-test-goto "^GET :base/echo/own")
    (should (equal (sheet-test--echoed-user-agent) "mine/1"))
    (should (equal sheet-version
                   (with-temp-buffer
                     (insert-file-contents
                      (expand-file-name "engine/package.json" sheet-test-root))
                     (plist-get (json-parse-buffer :object-type 'plist)
                                :version))))))

(ert-deftest sheet-test-setting-log-request ()
  "`sheet-log-request': t logs each request to *Messages*, nil does not."
  (sheet-test-with-sheet "GET :base/echo/logged?x=1\n"
    (let ((mark (sheet-test-messages-mark))
          (url (regexp-quote (concat (sheet-test-api-url) "/echo/logged?x=1"))))
      (let ((sheet-log-request t)) (sheet-test-send-and-wait))
      (should (string-match-p (concat "^HTTP GET " url " .* -> HTTP/1.1 200 OK")
                              (sheet-test-messages-since mark)))
      (setq mark (sheet-test-messages-mark))
      (let ((sheet-log-request nil)) (sheet-test-send-and-wait))
      (should-not (string-match-p (concat "HTTP GET " url) (sheet-test-messages-since mark))))))

(ert-deftest sheet-test-setting-same-buffer-response-naming ()
  "`sheet-same-buffer-response' nil: *HTTP <METHOD> <URL>*, then <2>, <3>."
  (sheet-test-with-sheet "GET :base/echo/named\n"
    (let* ((sheet-same-buffer-response nil)
           (name (format "*HTTP GET %s/echo/named*" (sheet-test-api-url)))
           (first (sheet-test-send-and-wait))
           (second (sheet-test-send-and-wait))
           (third (sheet-test-send-and-wait)))
      (should (equal (buffer-name first) name))
      (should (equal (buffer-name second) (concat name "<2>")))
      (should (equal (buffer-name third) (concat name "<3>")))
      (should-not (get-buffer "*HTTP Response*"))
      (mapc #'kill-buffer (list first second third)))
    ;; t: one buffer, reused.
    (let ((sheet-same-buffer-response t))
      (should (eq (sheet-test-send-and-wait) (sheet-test-send-and-wait)))
      (should (get-buffer "*HTTP Response*")))))

(ert-deftest sheet-test-setting-buffer-response-name ()
  "`sheet-buffer-response-name' names the shared response buffer."
  (sheet-test-with-sheet "GET :base/users\n"
    (let ((sheet-buffer-response-name "*my responses*"))
      (unwind-protect
          (should (equal (buffer-name (sheet-test-send-and-wait)) "*my responses*"))
        (when (get-buffer "*my responses*") (kill-buffer "*my responses*"))))))

(ert-deftest sheet-test-setting-inhibit-cookies ()
  "`sheet-inhibit-cookies': nil sends the jar's cookies implicitly, t does not."
  (sheet-test-with-sheet "GET :base/cookies/set?inhibit=yes\n#\nGET :base/cookies\n"
    (sheet-test-send-and-wait)
    (sheet-test-goto "^GET .*/cookies$")
    (let ((sheet-inhibit-cookies nil))
      (with-current-buffer (sheet-test-send-and-wait)
        (should (string-match-p "\"inhibit\": \"yes\"" (buffer-string)))))
    (let ((sheet-inhibit-cookies t))
      (with-current-buffer (sheet-test-send-and-wait)
        (should (string-match-p "\"cookies\": {}" (buffer-string)))))))

(defvar sheet-test--js-hook-ran nil)
(defun sheet-test--note-js-hook () (setq sheet-test--js-hook-ran t))

(defun sheet-test--threshold-case (threshold)
  "Send /big.json?kb=1 with THRESHOLD; return (MODE HOOK-RAN SIZE)."
  (let ((sheet-response-size-threshold threshold)
        (js-mode-hook (list #'sheet-test--note-js-hook)))
    (setq sheet-test--js-hook-ran nil)
    (with-current-buffer (sheet-test-send-and-wait)
      (list major-mode sheet-test--js-hook-ran (buffer-size)))))

(ert-deftest sheet-test-setting-size-threshold ()
  "`sheet-response-size-threshold': below it the full mode, above it the bare mode
\(hooks delayed), above ten times it `fundamental-mode'; nil disables it."
  (sheet-test-with-sheet "GET :base/big.json?kb=1\n"
    (let ((json (if (fboundp 'json-mode) 'json-mode 'js-mode)))
      (pcase-let ((`(,mode ,hook ,size) (sheet-test--threshold-case 100000)))
        (should (eq mode json))
        (should hook)
        (should (> size 2000))
        ;; Over the threshold, under ten times it: bare mode.
        (pcase-let ((`(,mode ,hook) (sheet-test--threshold-case (/ size 2))))
          (should (eq mode json))
          (should-not hook))
        ;; Over ten times the threshold: fundamental-mode.
        (pcase-let ((`(,mode ,_) (sheet-test--threshold-case (/ size 20))))
          (should (eq mode 'fundamental-mode)))
        ;; Disabled.
        (pcase-let ((`(,mode ,hook) (sheet-test--threshold-case nil)))
          (should (eq mode json))
          (should hook))))))

(ert-deftest sheet-test-setting-vars-max-passes ()
  "`sheet-vars-max-passes' bounds the substitution passes; what is left is sent, with a warning."
  (sheet-test-with-sheet ":a = :b\n:b = :c\n:c = :d\n:d = deep\n#\nGET :base/echo/:a\n"
    (sheet-test-goto "^GET")
    (let ((sheet-vars-max-passes 10))
      (with-current-buffer (sheet-test-send-and-wait)
        (should (string-match-p "\"path\": \"/echo/deep\"" (buffer-string)))))
    ;; restclient.el's rule: after the last pass the request is sent as it is.
    (let ((sheet-vars-max-passes 2)
          (mark (sheet-test-messages-mark)))
      (with-current-buffer (sheet-test-send-and-wait)
        (should (string-match-p "\"path\": \"/echo/:c\"" (buffer-string))))
      (should (string-match-p ":c is still unsubstituted after 2 substitution passes"
                              (sheet-test-messages-since mark))))))

(ert-deftest sheet-test-setting-content-type-modes ()
  "`sheet-content-type-modes' chooses the major mode by content type."
  (sheet-test-with-sheet "GET :base/users\n"
    (let ((sheet-content-type-modes '(("application/json" . text-mode))))
      (with-current-buffer (sheet-test-send-and-wait)
        (should (eq major-mode 'text-mode))
        ;; text-mode has no comment syntax: the trailer still reads as comments.
        (should (string-match-p "^# HTTP/1.1 200 OK$" (buffer-string)))))
    (let ((sheet-content-type-modes nil))
      (with-current-buffer (sheet-test-send-and-wait)
        (should (eq major-mode (if (fboundp 'json-mode) 'json-mode 'js-mode)))))))

(ert-deftest sheet-test-setting-engine-command ()
  "`sheet-engine-command' nil finds the checkout's built engine; a missing one names `make build'."
  (should-not sheet-engine-command)
  (should (equal (car (sheet-engine-command-line)) "node"))
  (should (equal (expand-file-name (cadr (sheet-engine-command-line)))
                 (expand-file-name "engine/dist/engine.cjs" sheet-test-root)))
  (sheet-engine-shutdown)
  (sheet-test-with-sheet "GET :base/users\n"
    (let ((sheet-engine-command (list "node" (expand-file-name "no/such/engine.cjs" sheet-test-root) "--stdio")))
      (let ((err (should-error (sheet-test-key "C-c C-c") :type 'user-error)))
        (should (string-match-p "not built" (cadr err)))
        (should (string-match-p "make build" (cadr err)))))
    (let ((sheet-engine-command (list "no-such-program-for-sheet" (expand-file-name "engine/dist/engine.cjs" sheet-test-root))))
      (let ((err (should-error (sheet-test-key "C-c C-c") :type 'user-error)))
        (should (string-match-p "no-such-program-for-sheet" (cadr err)))
        (should (string-match-p "make build" (cadr err)))))
    (let ((sheet-engine-command (list "node" "-e" "process.exit(3)")))
      (let ((err (should-error (sheet-test-key "C-c C-c") :type 'user-error)))
        (should (string-match-p "did not start" (cadr err)))
        (should (string-match-p "make build" (cadr err)))))
    (should-not (sheet-engine-process))
    ;; The default command works again.
    (with-current-buffer (sheet-test-send-and-wait)
      (should (string-match-p "Ada Lovelace" (buffer-string))))))


(ert-deftest sheet-test-setting-cookie-jar-file ()
  "`sheet-cookie-jar-file': cookies are kept in that file, in the Netscape format."
  (let* ((dir (make-temp-file "sheet-jar" t))
         (jar (expand-file-name "cookies.txt" dir))
         (other (expand-file-name "other.txt" dir)))
    (unwind-protect
        (sheet-test-with-sheet "GET :base/cookies/persistent\n#\nGET :base/cookies\n"
          (let ((sheet-cookie-jar-file jar))
            (sheet-test-send-and-wait)
            (should (file-exists-p jar))
            (let ((text (with-temp-buffer (insert-file-contents jar) (buffer-string))))
              (should (string-match-p "^127\\.0\\.0\\.1\t.*\tkeep\tyes$" text))))
          ;; A new file, set while the engine runs, starts empty: no cookie is sent.
          (let ((sheet-cookie-jar-file other))
            (sheet-test-goto "^GET .*/cookies$")
            (with-current-buffer (sheet-test-send-and-wait)
              (should (string-match-p "\"cookies\": {}" (buffer-string)))))
          ;; Back to the first file: its cookie is sent again.
          (let ((sheet-cookie-jar-file jar))
            (with-current-buffer (sheet-test-send-and-wait)
              (should (string-match-p "\"keep\": \"yes\"" (buffer-string))))))
      ;; A cookie file that cannot be read (here a directory) does not stop the request: it is
      ;; sent without cookies, and a warning names the file (as curl with a bad -b file).
      (sheet-test-with-sheet "GET :base/cookies\n"
        (let ((sheet-cookie-jar-file dir)
              (mark (sheet-test-messages-mark)))
          (with-current-buffer (sheet-test-send-and-wait)
            (should (string-match-p "\"cookies\": {}" (buffer-string))))
          (should (string-match-p (concat "cookies not read from "
                                          (regexp-quote (directory-file-name dir)))
                                  (sheet-test-messages-since mark)))))
      ;; Leave the engine with its in-memory jar for the other tests.
      (sheet-test-with-sheet "GET :base/users\n" (sheet-test-send-and-wait))
      (delete-directory dir t))))

(ert-deftest sheet-test-setting-timeout ()
  "`sheet-timeout': a response slower than it fails with a message naming the URL."
  (sheet-test-with-sheet "GET :base/slow?ms=3000\n"
    (let ((sheet-timeout 0.3)
          (mark (sheet-test-messages-mark))
          (start (float-time)))
      (sheet-test-key "C-c C-c")
      (sheet-test-wait-idle)
      (should (< (- (float-time) start) 2.5))
      (let ((text (sheet-test-messages-since mark)))
        (should (string-match-p (regexp-quote (concat (sheet-test-api-url) "/slow?ms=3000")) text))
        (should (string-match-p "within 300 ms" text))))
    (let ((sheet-timeout nil))
      (goto-char (point-min))
      (forward-line 1)
      (delete-region (point) (line-end-position))
      (insert "GET :base/slow?ms=400")
      (with-current-buffer (sheet-test-send-and-wait)
        (should (string-match-p "\"waited\": 400" (buffer-string)))))))

(ert-deftest sheet-test-setting-follow-redirects ()
  "`sheet-follow-redirects': nil shows the redirect response itself."
  (sheet-test-with-sheet "GET :base/redirect\n"
    (let ((sheet-follow-redirects nil))
      (with-current-buffer (sheet-test-send-and-wait)
        (should (string-match-p "^# HTTP/1.1 302 Found$\\|^// HTTP/1.1 302 Found$" (buffer-string)))
        (should (string-match-p "Location: /users" (buffer-string)))))
    (let ((sheet-follow-redirects t))
      (with-current-buffer (sheet-test-send-and-wait)
        (should (string-match-p "HTTP/1.1 200 OK" (buffer-string)))))))

;;; sheet-mode-settings-test.el ends here
