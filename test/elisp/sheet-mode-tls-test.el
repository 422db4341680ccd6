;;; sheet-mode-tls-test.el --- client certificates, HTTP/2, IPv6  -*- lexical-binding: t; -*-

;;; Commentary:

;; `sheet-client-certificates' and `sheet-http2' (docs/networks.md) against the servers of
;; test/fixtures/private-ca.mjs (made with openssl): one that requires a client certificate,
;; one that speaks HTTP/2; an IPv6 literal URL against the example API on ::1.

;;; Code:

(require 'test-helper)

(defun sheet-test--start (name args)
  "Start the fixture NAME with ARGS; return (PROCESS . PORT-STRING)."
  (let* ((port-file (expand-file-name "port" (cadr (member "--dir" args))))
         (proc (make-process :name name
                             :command (append (list "node") args)
                             :buffer (get-buffer-create (format " *%s*" name))
                             :connection-type 'pipe :noquery t)))
    (sheet-test-wait-until (lambda () (file-exists-p port-file)) 60 name)
    (cons proc (with-temp-buffer (insert-file-contents port-file) (buffer-string)))))

(defun sheet-test--stop (proc)
  "Stop the fixture process PROC."
  (when (process-live-p proc) (interrupt-process proc) (sleep-for 0.2) (delete-process proc)))

(defmacro sheet-test--with-private-ca (flag dir url &rest body)
  "Run BODY with a private-ca.mjs server started with FLAG.
DIR is bound to its directory, URL to its https:// origin, and
`sheet-ca-file' to its CA; the server and DIR go afterwards."
  (declare (indent 3))
  (let ((server (make-symbol "server")))
    `(let* ((,dir (make-temp-file "sheet-test-tls" t))
            (,server (sheet-test--start "sheet-test-tls"
                                        (list (expand-file-name "test/fixtures/private-ca.mjs" sheet-test-root)
                                              "--dir" ,dir ,flag)))
            (,url (format "https://127.0.0.1:%s" (cdr ,server)))
            (sheet-ca-file (expand-file-name "ca.pem" ,dir)))
       (unwind-protect (progn ,@body)
         (sheet-test--stop (car ,server))
         (delete-directory ,dir t)))))

(ert-deftest sheet-test-client-certificates-setting ()
  "`sheet-client-certificates' goes to the engine by host, files expanded; nil as nil."
  (let ((sheet-client-certificates '(("api.example:8443" :cert "~/c.pem" :key "~/k.pem" :pass "pw")
                                     ("other" :cert "~/both.pem"))))
    (let ((table (plist-get (sheet-engine--settings) :clientCertificates)))
      (should (equal (gethash "api.example:8443" table)
                     (list :cert (expand-file-name "~/c.pem") :key (expand-file-name "~/k.pem") :pass "pw")))
      (should (equal (gethash "other" table) (list :cert (expand-file-name "~/both.pem"))))))
  (let ((sheet-client-certificates nil))
    (should (plist-member (sheet-engine--settings) :clientCertificates))
    (should-not (plist-get (sheet-engine--settings) :clientCertificates)))
  (let ((sheet-client-certificates '(("h" :key "k.pem"))))
    (should-error (sheet-engine--settings) :type 'user-error)))

(ert-deftest sheet-test-client-certificates-mutual-tls ()
  "Without a certificate the server refuses; with the host's entry it sees the client.
A key that does not belong to the certificate is named; C-c C-u carries --cert."
  (sheet-test--with-private-ca "--mtls" dir url
			       (sheet-test-with-sheet (format "GET %s/emacs-mtls\n" url)
				 (let ((sheet-client-certificates nil)
				       (mark (sheet-test-messages-mark)))
				   (sheet-http-send-current-stay-in-window)
				   (sheet-test-wait-idle)
				   (should (string-match-p "no client certificate" (sheet-test-messages-since mark))))
				 (let ((sheet-client-certificates
					`(("127.0.0.1" :cert ,(expand-file-name "client.pem" dir)
					   :key ,(expand-file-name "other-client.key" dir))))
				       (mark (sheet-test-messages-mark)))
				   (sheet-http-send-current-stay-in-window)
				   (sheet-test-wait-idle)
				   (should (string-match-p "other-client.key: the key does not belong to the certificate"
							   (sheet-test-messages-since mark))))
				 (let ((sheet-client-certificates
					`(("127.0.0.1" :cert ,(expand-file-name "client.pem" dir)
					   :key ,(expand-file-name "client-enc.key" dir) :pass "secret"))))
				   (with-current-buffer (sheet-test-send-and-wait)
				     (should (string-match-p "\"client\": \"test client\"" (buffer-string))))
				   (should (string-match-p (regexp-quote (format "--cert %s --key %s"
										 (expand-file-name "client.pem" dir)
										 (expand-file-name "client-enc.key" dir)))
							   (sheet-copy-curl-command)))))))

(ert-deftest sheet-test-http2-trailer ()
  "`sheet-http2' offers HTTP/2: the trailer says HTTP/2 200, as curl; without it HTTP/1.1."
  (sheet-test--with-private-ca "--http2" _dir url
			       (sheet-test-with-sheet (format "GET %s/emacs-h2\n" url)
				 (let ((sheet-http2 t))
				   (with-current-buffer (sheet-test-send-and-wait)
				     (should (string-match-p "\"protocol\": \"2\"" (buffer-string)))
				     (should (string-match-p "^// HTTP/2 200$" (buffer-string)))))
				 (let ((sheet-http2 nil))
				   (with-current-buffer (sheet-test-send-and-wait)
				     (should (string-match-p "^// HTTP/1.1 200 OK" (buffer-string)))))
				 (let ((sheet-http2 nil))
				   (should (string-match-p "--http2" (progn (goto-char (point-max))
									    (insert (format "\n#\nGET %s/line HTTP/2\n" url))
									    (forward-line -1)
									    (sheet-copy-curl-command))))))))

(ert-deftest sheet-test-ipv6-literal ()
  "A request to http://[::1]:PORT/ reaches the example API on the IPv6 loopback."
  (let* ((dir (make-temp-file "sheet-test-v6" t))
         (port-file (expand-file-name "port" dir))
         (proc (make-process :name "sheet-test-v6"
                             :command (list "node" (expand-file-name "test/fixtures/server.mjs" sheet-test-root)
                                            "--host" "::1" "--port-file" port-file)
                             :buffer (get-buffer-create " *sheet-test-v6*")
                             :connection-type 'pipe :noquery t)))
    (unwind-protect
        (progn
          (sheet-test-wait-until (lambda () (file-exists-p port-file)) 30 "the IPv6 server")
          (let ((port (with-temp-buffer (insert-file-contents port-file) (buffer-string))))
            (sheet-test-with-sheet (format "GET http://[::1]:%s/echo/six\n" port)
              (with-current-buffer (sheet-test-send-and-wait)
                (should (string-match-p (regexp-quote (format "\"host\": \"[::1]:%s\"" port))
                                        (buffer-string)))))))
      (sheet-test--stop proc)
      (delete-directory dir t))))

(ert-deftest sheet-test-connection-directives-in-a-sheet ()
  "Issue 20 item 5: # @cacert, # @cert and # @key above a request reach the mTLS server.
They win over `sheet-ca-file' (here another CA, which would fail);
an unreadable # @cacert is an error naming its line, and nothing is sent."
  (sheet-test--with-private-ca "--mtls" dir url
    (sheet-test-with-sheet (format (concat "# @cacert %s\n# @cert %s\n# @key %s\nGET %s/emacs-tags\n"
                                           "#\n# @cacert %s\nGET %s/emacs-missing\n")
                                   (expand-file-name "ca.pem" dir)
                                   (expand-file-name "client.pem" dir)
                                   (expand-file-name "client.key" dir) url
                                   (expand-file-name "missing.pem" dir) url)
      (let ((sheet-ca-file (expand-file-name "other.pem" dir))
            (sheet-client-certificates nil))
        (sheet-test-goto "emacs-tags")
        (with-current-buffer (sheet-test-send-and-wait)
          (should (string-match-p "\"client\": \"test client\"" (buffer-string))))
        (should (string-match-p (regexp-quote (format "--cacert %s --cert %s --key %s"
                                                      (expand-file-name "ca.pem" dir)
                                                      (expand-file-name "client.pem" dir)
                                                      (expand-file-name "client.key" dir)))
                                (sheet-copy-curl-command)))
        (sheet-test-goto "emacs-missing")
        (let ((mark (sheet-test-messages-mark)))
          (sheet-http-send-current-stay-in-window)
          (sheet-test-wait-idle)
          (should (string-match-p "line 7: # @cacert: cannot read .*missing.pem"
                                  (sheet-test-messages-since mark))))))))

(provide 'sheet-mode-tls-test)

;;; sheet-mode-tls-test.el ends here
