;;; sheet-mode-oauth2-test.el --- sheet-mode and {{$auth.token}}  -*- lexical-binding: t; -*-

;;; Commentary:

;; Issue 39 in sheet-mode: a `.http' request with `{{$auth.token("id")}}' and a JetBrains
;; `Security.Auth' block in its environment gets its token from a real OAuth2 provider
;; (test/fixtures/oauth2-idp.mjs, oauth2-mock-server on 127.0.0.1) once for two C-c C-c, the
;; API receives it, and the token is kept in the state directory, not the environment files.

;;; Code:

(require 'test-helper)

(ert-deftest sheet-test-oauth2-token-in-http-file ()
  "C-c C-c twice: one token request, the token sent, kept in the state directory."
  (let* ((idp (sheet-test--start-fixture "oauth2-idp.mjs" "sheet-test-idp" 20))
         (state (make-temp-file "sheet-test-tokens" t))
         (process-environment (cons (concat "SHEET_STATE_DIR=" state) process-environment))
         (sheet-environment--by-project (make-hash-table :test #'equal)))
    (unwind-protect
        (progn
          ;; A new engine, started with the token directory above.
          (ignore-errors (sheet-engine-shutdown))
          (sheet-test-visiting "api.http"
              (progn
                (with-temp-file (expand-file-name "http-client.env.json" dir)
                  (insert (format "{\"dev\": {\"base\": %S, \"Security\": {\"Auth\": {\"svc\": {\"Type\": \"OAuth2\", \"Grant Type\": \"Client Credentials\", \"Token URL\": %S, \"Client ID\": \"cli\"}}}}}"
                                  (sheet-test-api-url) (concat (cdr idp) "/token"))))
                (with-temp-file (expand-file-name "http-client.private.env.json" dir)
                  (insert "{\"dev\": {\"Security\": {\"Auth\": {\"svc\": {\"Client Secret\": \"s3cret\"}}}}}"))
                (with-temp-file file
                  (insert "GET {{base}}/echo/oauth\nAuthorization: Bearer {{$auth.token(\"svc\")}}\n")))
            (sheet-set-environment "dev")
            (let ((response (sheet-test-send-and-wait)))
              (sheet-test-send-and-wait)
              (with-current-buffer response
                (let ((text (buffer-string)))
                  ;; /echo answers the headers it received: the token the provider issued.
                  (should (string-match-p "\"authorization\": \"Bearer ey" text)))))
            (let ((log (with-current-buffer (process-buffer (car idp)) (buffer-string))))
              (should (equal (split-string log "\n" t)
                             '("token grant=client_credentials client=cli:s3cret")))))
          (should (= 1 (length (directory-files (expand-file-name "tokens" state) nil "\\.json\\'")))))
      (ignore-errors (sheet-engine-shutdown))
      (delete-process (car idp))
      (delete-directory state t))))

(provide 'sheet-mode-oauth2-test)
;;; sheet-mode-oauth2-test.el ends here
