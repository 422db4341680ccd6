;;; sheet-mode-ca-file-test.el --- sheet-ca-file  -*- lexical-binding: t; -*-

;;; Commentary:

;; `sheet-ca-file' (docs/networks.md): a request to an HTTPS server signed by a private CA
;; (test/fixtures/private-ca.mjs, made with openssl) fails without it and succeeds with it.

;;; Code:

(require 'test-helper)

(ert-deftest sheet-test-ca-file-setting ()
  "`sheet-ca-file' goes to the engine expanded, and nil goes as nil."
  (let ((sheet-ca-file "~/ca.pem"))
    (should (equal (plist-get (sheet-engine--settings) :caFile)
                   (expand-file-name "~/ca.pem"))))
  (let ((sheet-ca-file nil))
    (should (plist-member (sheet-engine--settings) :caFile))
    (should-not (plist-get (sheet-engine--settings) :caFile))))

(ert-deftest sheet-test-ca-file-trusts-a-private-ca ()
  "Without `sheet-ca-file' the certificate fails; with the CA's file it is trusted."
  (let* ((dir (make-temp-file "sheet-test-ca" t))
         (proc (make-process :name "sheet-test-private-ca"
                             :command (list "node" (expand-file-name "test/fixtures/private-ca.mjs" sheet-test-root)
                                            "--dir" dir)
                             :buffer (get-buffer-create " *sheet-test-private-ca*")
                             :connection-type 'pipe :noquery t))
         (port-file (expand-file-name "port" dir)))
    (unwind-protect
        (progn
          (sheet-test-wait-until (lambda () (file-exists-p port-file)) 30 "the private CA server")
          (let ((url (format "https://127.0.0.1:%s"
                             (with-temp-buffer (insert-file-contents port-file) (buffer-string)))))
            (sheet-test-with-sheet (format "GET %s/emacs-ca\n" url)
              (let ((sheet-ca-file nil)
                    (mark (sheet-test-messages-mark)))
                (sheet-http-send-current-stay-in-window)
                (sheet-test-wait-idle)
                (should (string-match-p "TLS error" (sheet-test-messages-since mark))))
              (let ((sheet-ca-file (expand-file-name "ca.pem" dir)))
                (with-current-buffer (sheet-test-send-and-wait)
                  (should (string-match-p "\"path\": \"/emacs-ca\"" (buffer-string))))))))
      (when (process-live-p proc) (interrupt-process proc) (sleep-for 0.2) (delete-process proc))
      (delete-directory dir t))))

(provide 'sheet-mode-ca-file-test)

;;; sheet-mode-ca-file-test.el ends here
