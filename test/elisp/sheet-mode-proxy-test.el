;;; sheet-mode-proxy-test.el --- Proxies from url-proxy-services  -*- lexical-binding: t; -*-

;;; Commentary:

;; url.el's `url-proxy-services' becomes the engine's `proxy' setting (docs/networks.md), and a
;; request goes through a real proxy (Debian's tinyproxy, test/fixtures/proxy.mjs) whose log
;; shows it; without an http or https entry the engine reads its environment instead.

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

(ert-deftest sheet-test-proxy-request-goes-through-url-proxy-services ()
  "C-c C-c sends through the proxy of `url-proxy-services'; its no_proxy regexp sends direct."
  (let* ((log-file (make-temp-file "sheet-test-proxy-log"))
         (port-file (make-temp-file "sheet-test-proxy-port"))
         (proc (progn
                 (delete-file port-file)
                 (make-process :name "sheet-test-proxy"
                               :command (list "node" (expand-file-name "test/fixtures/proxy.mjs" sheet-test-root)
                                              "--port-file" port-file "--log-file" log-file)
                               :buffer (get-buffer-create " *sheet-test-proxy*")
                               :connection-type 'pipe :noquery t)))
         (log (lambda ()
                (with-temp-buffer (insert-file-contents log-file) (buffer-string)))))
    (unwind-protect
        (let* ((port (progn
                       (sheet-test-wait-until
                        (lambda () (and (file-exists-p port-file)
                                        (> (file-attribute-size (file-attributes port-file)) 0)))
                        15 "tinyproxy's port")
                       (string-trim (with-temp-buffer (insert-file-contents port-file) (buffer-string)))))
               (proxy (concat "127.0.0.1:" port)))
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
            (should-not (string-match-p "emacs=direct" (funcall log)))))
      (when (process-live-p proc) (interrupt-process proc) (sleep-for 0.2) (delete-process proc))
      (ignore-errors (delete-file port-file))
      (ignore-errors (delete-file log-file)))))

(provide 'sheet-mode-proxy-test)

;;; sheet-mode-proxy-test.el ends here
