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

(provide 'sheet-mode-syntax-test)
;;; sheet-mode-syntax-test.el ends here
