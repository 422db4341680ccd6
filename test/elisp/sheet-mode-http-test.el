;;; sheet-mode-http-test.el --- sheet-mode on .http files  -*- lexical-binding: t; -*-

;;; Commentary:

;; sheet-mode on a VS Code REST Client / JetBrains `.http' file (docs/http-files.md, "In each
;; front end"), against the real engine and the example API: the environment chosen with
;; C-c C-e (names from the engine's `sheet/environments'), shown in the mode line and sent with
;; C-c C-c, C-c C-u and C-c C-i; JetBrains handler tests as assertions in the response buffer;
;; `client.global.set' and named requests carried to the next request; outline and jumps
;; (C-c C-n, C-c C-p) parsed as `.http' because the buffer's file name goes with `sheet/outline'.
;; Fixture: test/fixtures/http/emacs/ (copied, with a generated private environment file).

;;; Code:

(require 'test-helper)

(defmacro sheet-test-with-http-file (&rest body)
  "Run BODY in a `sheet-mode' buffer visiting a copy of the .http fixture.
The copy's directory also holds http-client.private.env.json giving
`host' (the example API) to every environment.  Response buffers are
reset around BODY; the copy is deleted after it."
  (declare (indent 0) (debug t))
  `(sheet-test-visiting "requests.http"
       (progn
         (dolist (f '("requests.http" "http-client.env.json"))
           (copy-file (expand-file-name (concat "test/fixtures/http/emacs/" f) sheet-test-root)
                      (expand-file-name f dir)))
         (with-temp-file (expand-file-name "http-client.private.env.json" dir)
           (insert (format "{\"$shared\": {\"host\": %S}}" (sheet-test-api-url)))))
     ,@body))

(defun sheet-test-http-mode-line ()
  "The text of the current buffer's `mode-line-process'.
Its `:eval' form evaluated (`format-mode-line' skips `:eval' in batch)."
  (mapconcat (lambda (spec)
               (if (eq (car-safe spec) :eval) (or (eval (cadr spec) t) "") (format "%s" spec)))
             mode-line-process ""))

(ert-deftest sheet-test-http-environment-choice ()
  "C-c C-e: completion over the engine's names; the choice is in the mode line."
  (sheet-test-with-http-file
    (should (equal (sheet-environment-names) '("dev" "prod")))
    (let (offered)
      (cl-letf (((symbol-function 'completing-read)
                 (lambda (_prompt collection &rest _)
                   (setq offered (append collection nil))
                   "prod")))
        (sheet-test-key "C-c C-e"))
      (should (equal offered '("dev" "prod"))))
    (should (equal sheet-environment "prod"))
    (should (string-match-p "env:prod" (sheet-test-http-mode-line)))
    ;; An empty answer clears it.
    (cl-letf (((symbol-function 'completing-read) (lambda (&rest _) "")))
      (sheet-test-key "C-c C-e"))
    (should-not sheet-environment)
    (should-not (string-match-p "env:" (sheet-test-http-mode-line)))))

(ert-deftest sheet-test-http-send-with-environment ()
  "C-c C-c sends with the chosen environment; handler tests are assertions; globals carry."
  (sheet-test-with-http-file
    (sheet-set-environment "dev")
    (sheet-test-goto "^GET")
    (let ((buf (sheet-test-key-and-wait "C-c C-c")))
      (with-current-buffer buf
        (let ((text (buffer-string)))
          (should (string-match-p "\"who\": \"ada\"" text))
          (should (string-match-p "\"x-env\": \"ada\"" text))
          (should (string-match-p "^// PASS line 11: who is ada: ok$" text)))))
    ;; The next request: client.global's token and the named request's body.
    (with-current-buffer (get-file-buffer file)
      (sheet-test-goto "^POST")
      (let ((buf (sheet-test-key-and-wait "C-c C-c")))
        (with-current-buffer buf
          (let ((text (buffer-string)))
            (should (string-match-p "\"authorization\": \"Bearer abc123\"" text))
            (should (string-match-p "^    \"from\": \"/hf/emacs\"$" text))))))
    ;; Another environment: the handler's test fails, and says why.
    (with-current-buffer (get-file-buffer file)
      (sheet-set-environment "prod")
      (sheet-test-goto "^GET")
      (let ((buf (sheet-test-key-and-wait "C-c C-c")))
        (with-current-buffer buf
          (should (string-match-p "^// FAIL line 11: who is ada: failed: got bob$" (buffer-string))))))))

(ert-deftest sheet-test-http-unknown-environment ()
  "A name the files do not define is an error naming the known ones, nothing sent."
  (sheet-test-with-http-file
    (setq sheet-environment "staging")
    (sheet-test-goto "^GET")
    (let ((err (should-error (sheet-copy-curl-command) :type 'user-error)))
      (should (string-match-p "staging" (cadr err)))
      (should (string-match-p "dev, prod" (cadr err))))))

(ert-deftest sheet-test-http-outline-and-jumps ()
  "C-c C-n / C-c C-p move over the .http requests; the outline is the .http one."
  (sheet-test-with-http-file
    (should (equal (mapcar (lambda (r) (plist-get r :method)) (sheet--requests)) '("GET" "POST")))
    (should (equal (mapcar (lambda (v) (plist-get v :name)) (sheet--variables)) '("path")))
    (sheet-test-key "C-c C-n")
    (should (looking-at-p "GET {{host}}{{path}}"))
    (sheet-test-key "C-c C-n")
    (should (looking-at-p "POST {{host}}{{path}}/items"))
    (sheet-test-key "C-c C-p")
    (should (looking-at-p "GET "))))

(ert-deftest sheet-test-http-copy-curl-and-info ()
  "C-c C-u resolves with the environment; C-c C-i shows the file variables."
  (sheet-test-with-http-file
    (sheet-set-environment "dev")
    (sheet-test-goto "^GET")
    (sheet-test-key "C-c C-u")
    (should (equal (car kill-ring)
                   (format "curl -X GET -H 'X-Env: ada' '%s/hf/emacs?who=ada'" (sheet-test-api-url))))
    (sheet-test-key "C-c C-i")
    (with-current-buffer "*Sheet Info*"
      (should (string-match-p "path" (buffer-string))))))

(ert-deftest sheet-test-http-environment-remembered-per-project ()
  "Issue 22 item 6: a new buffer of the same project takes the chosen environment.
The project is the directory of the environment file; nothing is asked."
  (let ((sheet-environment--by-project (make-hash-table :test #'equal)))
    (sheet-test-with-http-file
      (sheet-set-environment "dev")
      (let ((other (expand-file-name "other.http" dir))
            (asked nil))
        (with-temp-file other
          (insert "GET {{host}}/hf/other?who={{who}}\n"))
        (let ((buf (find-file-noselect other)))
          (unwind-protect
              (with-current-buffer buf
                (sheet-mode)
                (should-not (local-variable-p 'sheet-environment))
                (cl-letf (((symbol-function 'completing-read)
                           (lambda (&rest _) (setq asked t) "prod")))
                  (sheet-test-key "C-c C-u"))
                (should-not asked)
                (should (equal sheet-environment "dev"))
                (should (string-match-p "who=ada'" (car kill-ring)))
                (should (string-match-p "env:dev" (sheet-test-http-mode-line))))
            (kill-buffer buf))))
      ;; "None" is remembered too.
      (sheet-set-environment nil)
      (let ((buf (find-file-noselect (expand-file-name "third.http" dir))))
        (unwind-protect
            (with-current-buffer buf
              (insert "GET {{host}}/hf/third\n")
              (sheet-mode)
              (should-not (sheet-environment-current))
              (should (local-variable-p 'sheet-environment)))
          (with-current-buffer buf (set-buffer-modified-p nil))
          (kill-buffer buf))))))

(ert-deftest sheet-test-http-undefined-without-environment ()
  "Issue 22 item 6: `{{who}} is not defined' with no environment says so, offers C-c C-e.
The request's `# @prompt' questions are not asked when it fails anyway."
  (let ((sheet-environment--by-project (make-hash-table :test #'equal)))
    (sheet-test-visiting "ask.http"
        (progn
          (with-temp-file (expand-file-name "http-client.env.json" dir)
            (insert "{\"dev\": {\"who\": \"ada\"}, \"prod\": {\"who\": \"bob\"}}"))
          (with-temp-file file
            (insert (format "# @prompt code\n# @prompt password\nGET %s/echo/{{who}}?c={{code}}\n"
                            (sheet-test-api-url)))))
      (let ((asked nil))
        (cl-letf (((symbol-function 'read-string) (lambda (&rest _) (push 'string asked) "1"))
                  ((symbol-function 'read-passwd) (lambda (&rest _) (push 'passwd asked) "p")))
          (sheet-test-goto "^GET")
          (let ((err (should-error (sheet-test-key "C-c C-c") :type 'user-error)))
            (should (string-match-p "line 3: {{who}} is not defined, and no environment is chosen (dev, prod)"
                                    (cadr err)))
            (should (string-match-p "C-c C-e" (cadr err))))
          (should-not asked)
          (should-not sheet-engine--in-flight)
          ;; With an environment the questions come, and the request goes.
          (sheet-set-environment "dev")
          (with-current-buffer (sheet-test-key-and-wait "C-c C-c")
            (should (string-match-p "\"path\": \"/echo/ada\"" (buffer-string))))
          (should (equal (reverse asked) '(string passwd))))))))

(provide 'sheet-mode-http-test)
;;; sheet-mode-http-test.el ends here
