;;; sheet-mode-save-response-test.el --- JetBrains >> FILE from C-c C-c  -*- lexical-binding: t; -*-

;;; Commentary:

;; Issue 37 item 5: a `.http' request with `>> ./out/user.json' below
;; it is sent by C-c C-c (before, it was refused: "Remove the line"),
;; its body lands in out/user.json beside the file (the folder
;; created), the next C-c C-c writes out/user-1.json, and the echo area
;; names each file.  Real engine, example API, real curl for the
;; expected body, batch Emacs.

;;; Code:

(require 'test-helper)

(ert-deftest sheet-test-save-response-from-http-file ()
  "C-c C-c saves the body as `>>' asks, a -1 suffix the second time."
  (sheet-test-visiting "api.http"
      (with-temp-file file
        (insert (format "GET %s/users/1\n\n>> ./out/user.json\n"
                        (sheet-test-api-url))))
    (let ((served (shell-command-to-string
                   (format "curl -s %s/users/1" (sheet-test-api-url))))
          (out (expand-file-name "out" dir)))
      (dolist (name '("user.json" "user-1.json"))
        (let ((mark (sheet-test-messages-mark))
              (want (expand-file-name name out)))
          (sheet-test-goto "^GET")
          (with-current-buffer (sheet-test-key-and-wait "C-c C-c")
            (should (string-match-p "^// HTTP/1.1 200 OK$" (buffer-string))))
          (sheet-test-wait-until
           (lambda ()
             (string-match-p
              (concat "^Sheet-mode: response saved to "
                      (regexp-quote (abbreviate-file-name want)) "$")
              (sheet-test-messages-since mark)))
           15 (format "the message naming %s" name))
          (should (equal (with-temp-buffer
                           (insert-file-contents-literally want)
                           (buffer-string))
                         served))))
      (should (equal (directory-files out nil "\\.json\\'")
                     '("user-1.json" "user.json"))))))

(provide 'sheet-mode-save-response-test)
;;; sheet-mode-save-response-test.el ends here
