;;; sheet-mode-proxy-test.el --- Proxies from url-proxy-services  -*- lexical-binding: t; -*-

;;; Commentary:

;; url.el's `url-proxy-services' becomes the engine's `proxy' setting (docs/networks.md), and a
;; request goes through a real proxy (Debian's tinyproxy, test/fixtures/proxy.mjs) whose log
;; shows it; without an http or https entry the engine reads its environment instead.  C-c C-u
;; prints that proxy as curl's -x, and the printed command goes through it too (issue 20 item 5).

;;; Code:

(require 'test-helper)

(defvar url-proxy-services)

(ert-deftest sheet-test-proxy-setting-from-url-proxy-services ()
  "The http, https and no_proxy entries become the `proxy' setting."
  (let ((url-proxy-services '(("http" . "127.0.0.1:3128")
                              ("https" . "proxy.example:8443")
                              ("no_proxy" . "\\(localhost\\|\\.internal\\)"))))
    (should (equal (sheet-engine--proxy)
                   '(:http "127.0.0.1:3128" :https "proxy.example:8443"
                     :noProxyRegexp "\\(localhost\\|\\.internal\\)")))
    (should (equal (plist-get (sheet-engine--settings) :proxy) (sheet-engine--proxy))))
  (let ((url-proxy-services '(("https" . "p:1"))))
    (should (equal (sheet-engine--proxy) '(:https "p:1")))))

(ert-deftest sheet-test-proxy-setting-nil-leaves-the-environment ()
  "No http or https entry (url.el's setup adds only no_proxy): nil, the environment decides."
  (let ((url-proxy-services '(("no_proxy" . "\\(localhost\\)"))))
    (should-not (sheet-engine--proxy))
    (should (plist-member (sheet-engine--settings) :proxy))
    (should-not (plist-get (sheet-engine--settings) :proxy)))
  (let ((url-proxy-services nil))
    (should-not (sheet-engine--proxy))))

(defmacro sheet-test--with-tinyproxy (proxy log &rest body)
  "Run BODY with a real proxy (tinyproxy, test/fixtures/proxy.mjs) on 127.0.0.1.
PROXY is bound to its \"127.0.0.1:PORT\", LOG to a function that
returns its log's text; the proxy is stopped after BODY."
  (declare (indent 2) (debug t))
  `(let* ((log-file (make-temp-file "sheet-test-proxy-log"))
          (port-file (make-temp-file "sheet-test-proxy-port"))
          (proc (progn
                  (delete-file port-file)
                  (make-process :name "sheet-test-proxy"
                                :command (list "node" (expand-file-name "test/fixtures/proxy.mjs" sheet-test-root)
                                               "--port-file" port-file "--log-file" log-file)
                                :buffer (get-buffer-create " *sheet-test-proxy*")
                                :connection-type 'pipe :noquery t)))
          (,log (lambda ()
                  (with-temp-buffer (insert-file-contents log-file) (buffer-string)))))
     (unwind-protect
         (let* ((port (progn
                        (sheet-test-wait-until
                         (lambda () (and (file-exists-p port-file)
                                         (> (file-attribute-size (file-attributes port-file)) 0)))
                         15 "tinyproxy's port")
                        (string-trim (with-temp-buffer (insert-file-contents port-file) (buffer-string)))))
                (,proxy (concat "127.0.0.1:" port)))
           ,@body)
       (when (process-live-p proc) (interrupt-process proc) (sleep-for 0.2) (delete-process proc))
       (ignore-errors (delete-file port-file))
       (ignore-errors (delete-file log-file)))))

(ert-deftest sheet-test-proxy-request-goes-through-url-proxy-services ()
  "C-c C-c sends through the proxy of `url-proxy-services'; its no_proxy regexp sends direct."
  (sheet-test--with-tinyproxy proxy log
    (sheet-test-with-sheet "GET :base/small?emacs=proxied\n#\nGET :base/small?emacs=direct\n"
      (let ((url-proxy-services (list (cons "http" proxy))))
        (with-current-buffer (sheet-test-send-and-wait)
          (should (string-match-p "\"name\": \"small\"" (buffer-string)))
          ;; The trailer names the proxy and where it came from.
          (should (string-match-p
                   (regexp-quote (format "Proxy: http://%s (from url-proxy-services)" proxy))
                   (buffer-string)))))
      (should (string-match-p
               (regexp-quote (concat "GET " (sheet-test-api-url) "/small?emacs=proxied HTTP/1.1"))
               (funcall log)))
      (sheet-test-goto "emacs=direct")
      (let ((url-proxy-services (list (cons "http" proxy)
                                      (cons "no_proxy" "\\(localhost\\|127\\.0\\.0\\.1\\)"))))
        (with-current-buffer (sheet-test-send-and-wait)
          (should-not (string-match-p "^Proxy: " (buffer-string)))))
      (should-not (string-match-p "emacs=direct" (funcall log))))))

(defun sheet-test--run-curl (command)
  "Run COMMAND (a curl command line) in bash without proxy variables; return its output."
  (let ((process-environment (append '("http_proxy" "https_proxy" "HTTPS_PROXY" "all_proxy"
                                       "ALL_PROXY" "no_proxy" "NO_PROXY")
                                     process-environment)))
    (shell-command-to-string command)))

(ert-deftest sheet-test-copy-curl-goes-through-the-same-proxy ()
  "Issue 20 item 5: C-c C-u prints the proxy C-c C-c uses as -x; run, it goes the same way.
`url-proxy-services' gives it; a request's `# @proxy' wins; no_proxy
sends both direct (curl is told --noproxy '*')."
  (sheet-test--with-tinyproxy proxy log
    (sheet-test-with-sheet (concat "GET :base/small?copy=el\n"
                                   "#\n# @proxy http://" "127.0.0.1:1" "\nGET :base/small?copy=tag\n"
                                   "#\nGET :base/small?copy=direct\n")
      (let ((url-proxy-services (list (cons "http" proxy))))
        (sheet-test-goto "copy=el")
        (sheet-test-send-and-wait)
        (let ((command (sheet-copy-curl-command)))
          (should (string-match-p (regexp-quote (format "-x %s " proxy)) command))
          (should (string-match-p "\"name\": ?\"small\"" (sheet-test--run-curl command))))
        (should (equal (length (split-string (funcall log) "/small\\?copy=el HTTP/1.1")) 3))
        ;; The request's own proxy wins over url-proxy-services.
        (sheet-test-goto "copy=tag")
        (should (string-match-p "-x http://127.0.0.1:1 " (sheet-copy-curl-command))))
      (let ((url-proxy-services (list (cons "http" proxy)
                                      (cons "no_proxy" "127\\.0\\.0\\.1"))))
        (sheet-test-goto "copy=direct")
        (let ((command (sheet-copy-curl-command)))
          (should (string-match-p "--noproxy '\\*'" command))
          (should-not (string-match-p (regexp-quote proxy) command))
          (sheet-test--run-curl command)))
      (should-not (string-match-p "copy=direct" (funcall log))))))

;; Directive values are substituted as header values (docs/networks.md, "Variables in the values").
(ert-deftest sheet-test-proxy-directive-from-a-variable ()
  "`# @proxy :proxy' with `# @noproxy \"\"': C-c C-c goes through the proxy; C-c C-u
prints it substituted with --noproxy '', and curl under a no_proxy that names the
host goes through it too."
  (sheet-test--with-tinyproxy proxy log
    (sheet-test-with-sheet (concat ":proxy = http://" proxy "\n# @proxy :proxy\n# @noproxy \"\"\n"
                                   "GET :base/small?emacs=var\n")
      (let ((url-proxy-services nil))
        (sheet-test-goto "emacs=var")
        (with-current-buffer (sheet-test-send-and-wait)
          (should (string-match-p "\"name\": \"small\"" (buffer-string))))
        (should (string-match-p (regexp-quote (concat "GET " (sheet-test-api-url) "/small?emacs=var HTTP/1.1"))
                                (funcall log)))
        (let ((command (sheet-copy-curl-command)))
          (should (string-match-p (regexp-quote (format "-x http://%s --noproxy '' " proxy)) command))
          (let ((process-environment (cons "no_proxy=127.0.0.1" process-environment)))
            (should (string-match-p "\"name\": ?\"small\"" (shell-command-to-string command)))))
        (should (equal (length (split-string (funcall log) "/small\\?emacs=var HTTP/1.1")) 3))))))

(provide 'sheet-mode-proxy-test)

;;; sheet-mode-proxy-test.el ends here
