;;; sheet-mode-syntax-test.el --- Restclient sheets saved as .http files  -*- lexical-binding: t; -*-

;;; Commentary:

;; Issue 14: a restclient-syntax sheet saved as `.http' works without a marker when it is
;; plainly a sheet (the engine's guess, docs/http-files.md "Which parser"), and with the
;; first-line marker `# -*- sheet-syntax: sheet -*-' where the guess cannot tell; the marker
;; is a safe file-local variable, so Emacs does not ask about it.  Real engine, example API.

;;; Code:

(require 'test-helper)

(defun sheet-test-syntax--visit (name text fn)
  "Visit a fresh file NAME holding TEXT in `sheet-mode', call FN there, clean up."
  (let ((enable-local-variables :safe))
    (sheet-test-visiting name
        (with-temp-file file (insert text))
      (hack-local-variables)
      (goto-char (point-min))
      (funcall fn))))

(ert-deftest sheet-test-syntax-restclient-sheet-as-http ()
  "A restclient sheet saved as `.http', no marker: read and sent as a sheet."
  (sheet-test-syntax--visit
   "old.http"
   (format ":base = %s\n:id = 1\n#\nGET :base/users\n#\nGET :base/users/:id\n" (sheet-test-api-url))
   (lambda ()
     (should (equal (mapcar (lambda (r) (plist-get r :url)) (sheet--requests))
                    '(":base/users" ":base/users/:id")))
     (sheet-test-goto "^GET :base/users/:id")
     (with-current-buffer (sheet-test-key-and-wait "C-c C-c")
       (should (string-match-p "Ada Lovelace" (buffer-string)))
       (should (string-match-p (regexp-quote (format "GET %s/users/1" (sheet-test-api-url)))
                               (buffer-string)))))))

(ert-deftest sheet-test-syntax-marker ()
  "`# -*- sheet-syntax: sheet -*-' decides where the guess cannot; Emacs takes it as safe."
  (should (safe-local-variable-p 'sheet-syntax 'sheet))
  (should (safe-local-variable-p 'sheet-syntax 'http))
  (should-not (safe-local-variable-p 'sheet-syntax "rm -rf"))
  ;; `###' lines and no declaration: without the marker this is a `.http' file.
  (let ((text (format "GET %s/users/1\n-> jq-set-var :who .name\n###\nGET %s/users\n"
                      (sheet-test-api-url) (sheet-test-api-url))))
    (sheet-test-syntax--visit
     "marked.http" (concat "# -*- sheet-syntax: sheet -*-\n" text)
     (lambda ()
       (should (eq sheet-syntax 'sheet))
       (sheet-test-goto "^GET .*/users/1")
       (sheet-test-key "C-c C-u")
       (should (equal (car kill-ring)
                      (format "curl -X GET %s/users/1" (sheet-test-api-url))))
       (sheet-test-key-and-wait "C-c C-c")
       (should (equal (sheet-get-var ":who") "Ada Lovelace"))))
    (sheet-test-syntax--visit
     "unmarked.http" text
     (lambda ()
       (should-not sheet-syntax)
       ;; Read as .http: the hook line is the body of the first request.
       (should (= (length (sheet--requests)) 2))
       (sheet-test-goto "^GET .*/users/1")
       (sheet-test-key "C-c C-u")
       (should (string-match-p "--data-binary '-> jq-set-var :who .name'"
                               (car kill-ring)))))))

(ert-deftest sheet-test-syntax-banner-and-body-after-headers ()
  "Issue 22 item 5: a `#####' banner is a restclient comment, not a separator.
A restclient sheet saved as `.http' with a banner and a JSON body right
after its headers is read as a sheet: two requests, the body sent as one."
  (sheet-test-syntax--visit
   "banner.http"
   (format (concat "#####################\n# The users API\n#####################\n"
                   "GET %s/users\n#\nPOST %s/users\nContent-Type: application/json\n"
                   "{\"name\": \"Banner\"}\n")
           (sheet-test-api-url) (sheet-test-api-url))
   (lambda ()
     (should (equal (mapcar (lambda (r) (plist-get r :method)) (sheet--requests))
                    '("GET" "POST")))
     (sheet-test-goto "^POST")
     (with-current-buffer (sheet-test-key-and-wait "C-c C-c")
       (should (string-match-p "\"name\": \"Banner\"" (buffer-string)))
       (should (string-match-p "HTTP/1.1 201" (buffer-string)))))))

(ert-deftest sheet-test-syntax-guess-named-in-errors ()
  "An error in a `.http' file whose syntax was guessed names the line and the marker.
The `restclient' value of the marker pins the sheet syntax."
  (should (safe-local-variable-p 'sheet-syntax 'restclient))
  (sheet-test-syntax--visit
   "guessed.http" "# one\nGET http://127.0.0.1:1/nothing\n"
   (lambda ()
     (let ((mark (sheet-test-messages-mark)))
       (sheet-test-goto "^GET")
       (sheet-test-key "C-c C-c")
       (let ((text (sheet-test-wait-message "Sheet-mode: line 2: " mark)))
         (should (string-match-p "read as a VS Code / JetBrains \\.http file \
(guessed from its text)" text))
         (should (string-match-p "sheet-syntax: restclient" text))))))
  (sheet-test-syntax--visit
   "pinned.http" (format "# -*- sheet-syntax: restclient -*-\nGET %s/users\n###\nGET %s/small\n"
                         (sheet-test-api-url) (sheet-test-api-url))
   (lambda ()
     (should (eq sheet-syntax 'restclient))
     ;; As a sheet, `###' is a comment line between two requests.
     (should (= (length (sheet--requests)) 2))
     (sheet-test-goto "^GET .*/small")
     (with-current-buffer (sheet-test-key-and-wait "C-c C-c")
       (should (string-match-p "\"small\"" (buffer-string)))))))

(provide 'sheet-mode-syntax-test)
;;; sheet-mode-syntax-test.el ends here
