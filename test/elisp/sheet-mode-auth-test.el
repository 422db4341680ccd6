;;; sheet-mode-auth-test.el --- M-x sheet-auth-list/login/logout and sign-ins  -*- lexical-binding: t; -*-

;;; Commentary:

;; Issue 39 item 4 in sheet-mode: the tokens of a `.http' file's `Security.Auth' configurations
;; listed, asked for and forgotten from Emacs (`sheet/authList', `sheet/authLogin',
;; `sheet/authLogout'), against real OAuth2 providers on 127.0.0.1: oauth2-mock-server
;; (test/fixtures/oauth2-idp.mjs) for Client Credentials and Authorization Code, and
;; test/fixtures/oauth2-device-idp.mjs for Device Authorization.  The browser of the
;; Authorization Code sign-in is `browse-url', played by test/fixtures/oauth2-browser.mjs; the
;; device's user code is shown in *sheet auth* while the engine polls.  Real engine.

;;; Code:

(require 'test-helper)
(require 'url-util)

(defmacro sheet-test-with-auth (auth &rest body)
  "Run BODY visiting api.http whose environment dev has the `Security.Auth' AUTH.
AUTH is a JSON string; `state' is the engine's token directory (new,
deleted after), `idp' and `device' the providers, (PROCESS . URL),
each started for BODY.  AUTH may name them with %1$s and %2$s."
  (declare (indent 1) (debug t))
  `(let* ((_ (dolist (name '(" *sheet-test-idp*" " *sheet-test-device*"))
              (when (get-buffer name) (kill-buffer name))))
          (idp (sheet-test--start-fixture "oauth2-idp.mjs" "sheet-test-idp" 20))
          (device (sheet-test--start-fixture "oauth2-device-idp.mjs" "sheet-test-device" 20))
          (state (make-temp-file "sheet-test-tokens" t))
          ;; A person at Emacs signs in; a CI variable of the machine running the tests
          ;; (CI=true on CI systems) would make the engine refuse interactive grants.
          (process-environment (append (list (concat "SHEET_STATE_DIR=" state) "CI") process-environment))
          (sheet-environment--by-project (make-hash-table :test #'equal)))
     (unwind-protect
         (progn
           ;; A new engine, started with the token directory above.
           (ignore-errors (sheet-engine-shutdown))
           (sheet-test-visiting "api.http"
               (progn
                 (with-temp-file (expand-file-name "http-client.env.json" dir)
                   (insert (format "{\"dev\": {\"base\": %S, \"Security\": {\"Auth\": %s}}}"
                                   (sheet-test-api-url)
                                   (format ,auth (cdr idp) (cdr device)))))
                 (with-temp-file file
                   (insert "GET {{base}}/echo/oauth\nAuthorization: Bearer {{$auth.token(\"svc\")}}\n")))
             (sheet-set-environment "dev")
             ,@body))
       (ignore-errors (sheet-engine-shutdown))
       (delete-process (car idp))
       (delete-process (car device))
       (delete-directory state t))))

(defun sheet-test--provider-log (provider)
  "The lines PROVIDER, (PROCESS . URL), printed: one per token request."
  (seq-filter (lambda (l) (string-prefix-p "token " l))
              (split-string (with-current-buffer (process-buffer (car provider)) (buffer-string))
                            "\n" t)))

(defun sheet-test--auth-states ()
  "Each auth id of the buffer's environment and its token's state, from `sheet-auth-list'."
  (mapcar (lambda (e) (cons (plist-get e :id) (plist-get e :state))) (sheet-auth-list)))

(ert-deftest sheet-test-auth-list-login-logout ()
  "M-x sheet-auth-list, -login and -logout: as `sheet auth', one token request, none shown."
  (sheet-test-with-auth
      "{\"svc\": {\"Type\": \"OAuth2\", \"Grant Type\": \"Client Credentials\", \"Token URL\": \"%1$s/token\", \"Client ID\": \"cli\", \"Client Secret\": \"s3cret\"}}"
    (should (equal (sheet-test--auth-states) '(("svc" . "no token"))))
    (with-current-buffer sheet-auth-buffer-name
      (should (string-match-p "Tokens of the environment dev" (buffer-string)))
      (should (string-match-p "^svc +Client Credentials +no token$" (buffer-string))))
    (let ((mark (sheet-test-messages-mark)))
      (sheet-auth-login "svc")
      (sheet-test-wait-message "svc: token obtained (environment dev)" mark))
    (should (equal (sheet-test--provider-log idp) '("token grant=client_credentials client=cli:s3cret")))
    (should (string-match-p "\\`token valid, expires in " (cdr (assoc "svc" (sheet-test--auth-states)))))
    ;; The kept token serves C-c C-c: no second token request.
    (with-current-buffer (sheet-test-send-and-wait)
      (should (string-match-p "\"authorization\": \"Bearer ey" (buffer-string))))
    (should (= 1 (length (sheet-test--provider-log idp))))
    (with-current-buffer sheet-auth-buffer-name
      (should-not (string-match-p "s3cret\\|Bearer" (buffer-string))))
    (should (equal (sheet-auth-logout "svc") '("svc")))
    (should (equal (sheet-test--auth-states) '(("svc" . "no token"))))
    (should (equal (sheet-auth-logout nil) nil))
    ;; Forgotten in the engine's memory too: the next send asks the provider again.
    (sheet-test-send-and-wait)
    (should (= 2 (length (sheet-test--provider-log idp))))
    ;; An unknown id is an error naming the known ones, not "nothing removed".
    (should-error (sheet-auth-logout "nope") :type 'user-error)))

(ert-deftest sheet-test-auth-login-authorization-code-browse-url ()
  "Authorization Code: the sign-in page opens with `browse-url'; the code comes back to the engine."
  (sheet-test-with-auth
      "{\"svc\": {\"Type\": \"OAuth2\", \"Grant Type\": \"Authorization Code\", \"Auth URL\": \"%1$s/authorize\", \"Token URL\": \"%1$s/token\", \"Redirect URL\": \"http://127.0.0.1:0/callback\", \"Client ID\": \"spa\", \"Client Secret\": \"s3cret\", \"Scope\": \"openid\"}}"
    (let* ((opened nil)
           (browse-url-browser-function
            (lambda (url &rest _)
              (push url opened)
              (make-process :name "sheet-test-browser" :noquery t
                            :command (list "node" (expand-file-name "test/fixtures/oauth2-browser.mjs"
                                                                    sheet-test-root)
                                           url))))
           (mark (sheet-test-messages-mark)))
      (sheet-auth-login "svc")
      (sheet-test-wait-message "svc: token obtained" mark)
      (should (= 1 (length opened)))
      (should (string-prefix-p (concat (cdr idp) "/authorize?") (car opened)))
      (should (string-match-p "code_challenge_method=S256" (car opened)))
      (should (equal (sheet-test--provider-log idp)
                     '("token grant=authorization_code client=spa:s3cret"))))))

(ert-deftest sheet-test-auth-login-cancel-closes-listener ()
  "M-x sheet-auth-cancel ends a sign-in: the engine's loopback listener is closed."
  (sheet-test-with-auth
      "{\"svc\": {\"Type\": \"OAuth2\", \"Grant Type\": \"Authorization Code\", \"Auth URL\": \"%1$s/authorize\", \"Token URL\": \"%1$s/token\", \"Redirect URL\": \"http://127.0.0.1:0/callback\", \"Client ID\": \"spa\"}}"
    (let* ((opened nil)
           ;; A browser nobody signs in with.
           (browse-url-browser-function (lambda (url &rest _) (push url opened)))
           (mark (sheet-test-messages-mark)))
      (sheet-auth-login "svc")
      (sheet-test-wait-until (lambda () opened) 15 "the sign-in page opened")
      (let* ((redirect (url-unhex-string
                        (progn (string-match "redirect_uri=\\([^&]+\\)" (car opened))
                               (match-string 1 (car opened)))))
             (port (string-to-number (progn (string-match ":\\([0-9]+\\)/" redirect)
                                            (match-string 1 redirect))))
             (listening (lambda ()
                          (condition-case nil
                              (progn (delete-process
                                      (make-network-process :name "sheet-test-probe" :host "127.0.0.1"
                                                            :service port :noquery t))
                                     t)
                            (file-error nil)))))
        (should (funcall listening))
        (sheet-auth-cancel)
        (sheet-test-wait-message "login with svc ended" mark)
        (sheet-test-wait-until (lambda () (not (funcall listening))) 10 "the listener closed")
        (should-not (sheet-test--provider-log idp))))))

(ert-deftest sheet-test-auth-device-code-shown-while-polling ()
  "Device Authorization from C-c C-c: the URL and user code in *sheet auth* while polling, then the token."
  (sheet-test-with-auth
      "{\"svc\": {\"Type\": \"OAuth2\", \"Grant Type\": \"Device Authorization\", \"Device Auth URL\": \"%2$s/device\", \"Token URL\": \"%2$s/token\", \"Client ID\": \"tv\"}}"
    (let* ((loaded (list nil))
           (sheet-response-loaded-hook (list (lambda () (setcar loaded (current-buffer))))))
      (when (get-buffer "*sheet auth*") (kill-buffer "*sheet auth*"))
      (sheet-test-key "C-c C-c")
      (sheet-test-wait-until
       (lambda () (and (get-buffer "*sheet auth*")
                       (with-current-buffer "*sheet auth*"
                         (string-match-p (regexp-quote (format "open %s/activate and enter the code WDJB-MJHT" (cdr device)))
                                         (buffer-string)))))
       15 "the user code in *sheet auth*")
      ;; Polling meanwhile, refused as pending; the user signs in with the code.
      (sheet-test-wait-until (lambda () (sheet-test--provider-log device)) 10 "a poll")
      (should-not (car loaded))
      (with-temp-buffer
        (call-process "curl" nil t nil "-s" "--noproxy" "*" (format "%s/activate?user_code=WDJB-MJHT" (cdr device))))
      (sheet-test-wait-until (lambda () (car loaded)) 15 "the response")
      (with-current-buffer (car loaded)
        (should (string-match-p "\"authorization\": \"Bearer AT-device-1\"" (buffer-string))))
      (should (cl-every (lambda (l) (equal l "token grant=urn:ietf:params:oauth:grant-type:device_code client=tv"))
                        (sheet-test--provider-log device))))))

(ert-deftest sheet-test-auth-in-restclient-sheet ()
  "A sheet's `# @auth ID': the request goes with a Bearer token of the env file's `Security.Auth'."
  (let* ((idp (sheet-test--start-fixture "oauth2-idp.mjs" "sheet-test-idp-sheet" 20))
         (state (make-temp-file "sheet-test-tokens" t))
         (process-environment (cons (concat "SHEET_STATE_DIR=" state) process-environment))
         (sheet-environment--by-project (make-hash-table :test #'equal)))
    (unwind-protect
        (progn
          (ignore-errors (sheet-engine-shutdown))
          (sheet-test-visiting "api.sheet"
              (progn
                (with-temp-file (expand-file-name "http-client.env.json" dir)
                  (insert (format "{\"dev\": {\"Security\": {\"Auth\": {\"svc\": {\"Type\": \"OAuth2\", \"Grant Type\": \"Client Credentials\", \"Token URL\": \"%s/token\", \"Client ID\": \"cli\"}}}}}"
                                  (cdr idp))))
                (with-temp-file (expand-file-name "http-client.private.env.json" dir)
                  (insert "{\"dev\": {\"Security\": {\"Auth\": {\"svc\": {\"Client Secret\": \"s3cret\"}}}}}"))
                (with-temp-file file
                  (insert (format ":base = %s\n# @auth svc\nGET :base/echo/oauth\n#\n# @auth nope\nGET :base/echo/other\n"
                                  (sheet-test-api-url)))))
            (sheet-set-environment "dev")
            (sheet-test-goto "^GET :base/echo/oauth")
            (dotimes (_ 2)
              (with-current-buffer (sheet-test-send-and-wait)
                (should (string-match-p "\"authorization\": \"Bearer ey" (buffer-string)))))
            ;; One token request for both sends, as the provider saw it.
            (should (equal (seq-filter (lambda (l) (string-prefix-p "token " l))
                                       (split-string (with-current-buffer (process-buffer (car idp))
                                                       (buffer-string))
                                                     "\n" t))
                           '("token grant=client_credentials client=cli:s3cret")))
            ;; An unknown id: a located error naming the known ones; nothing sent.
            (sheet-test-goto "^GET :base/echo/other")
            (let ((mark (sheet-test-messages-mark)))
              (sheet-http-send-current-stay-in-window)
              (sheet-test-wait-message "line 5.*nope\\|nope.*line 5" mark)
              (should (string-match-p "svc" (sheet-test-messages-since mark))))))
      (ignore-errors (sheet-engine-shutdown))
      (delete-process (car idp))
      (delete-directory state t))))

(provide 'sheet-mode-auth-test)
;;; sheet-mode-auth-test.el ends here
