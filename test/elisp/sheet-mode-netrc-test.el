;;; sheet-mode-netrc-test.el --- sheet-netrc and the Digest line  -*- lexical-binding: t; -*-

;;; Commentary:

;; `sheet-netrc' (docs/networks.md, "Credentials"): httpbin's /basic-auth answers 401 without
;; it and 200 with a .netrc file that has the credentials; C-c C-u's command carries it; an
;; `Authorization: Digest USER PASSWORD' line answers httpbin's Digest challenge.

;;; Code:

(require 'test-helper)

(ert-deftest sheet-test-netrc-setting ()
  "`sheet-netrc' goes to the engine: t as curl's ~/.netrc, a file expanded, nil as nil."
  (let ((sheet-netrc t))
    (should (equal (plist-get (sheet-engine--settings) :netrc) "~/.netrc")))
  (let ((sheet-netrc "~/n"))
    (should (equal (plist-get (sheet-engine--settings) :netrc) (expand-file-name "~/n"))))
  (let ((sheet-netrc nil))
    (should (plist-member (sheet-engine--settings) :netrc))
    (should-not (plist-get (sheet-engine--settings) :netrc))))

(ert-deftest sheet-test-netrc-sends-the-credentials ()
  "Without `sheet-netrc' httpbin says 401; with a file holding the credentials, 200."
  (let* ((dir (make-temp-file "sheet-test-netrc" t))
         (file (expand-file-name "netrc" dir)))
    (unwind-protect
        (progn
          (with-temp-file file (insert "machine 127.0.0.1 login user password \"pa ss\"\n"))
          (sheet-test-with-sheet (format "GET %s/basic-auth/user/pa%%20ss\n" (sheet-test-httpbin-url))
            (let ((sheet-netrc nil))
              (with-current-buffer (sheet-test-send-and-wait)
                (should (string-match-p "401" (buffer-string)))))
            (let ((sheet-netrc file))
              (with-current-buffer (sheet-test-send-and-wait)
                (should (string-match-p "\"authenticated\": true" (buffer-string))))
              (should (string-match-p (concat " --netrc-file " (regexp-quote file) " ")
                                      (sheet-copy-curl-command))))))
      (delete-directory dir t))))

(ert-deftest sheet-test-digest-line-is-answered ()
  "`Authorization: Digest user passwd' answers httpbin's SHA-256 challenge."
  (sheet-test-with-sheet (format "GET %s/digest-auth/auth/user/passwd/SHA-256\nAuthorization: Digest user passwd\n"
                                 (sheet-test-httpbin-url))
    (with-current-buffer (sheet-test-send-and-wait)
      (should (string-match-p "\"authenticated\": true" (buffer-string))))
    (should (string-match-p "--digest -u user:passwd" (sheet-copy-curl-command)))))

(provide 'sheet-mode-netrc-test)

;;; sheet-mode-netrc-test.el ends here
