;;; sheet-mode-faults-test.el --- Network faults through sheet-mode  -*- lexical-binding: t; -*-

;;; Commentary:

;; The fault server (test/fixtures/faults.mjs, 127.0.0.1 only) through `C-c C-c': each fault
;; gives a clear message naming the URL within a bounded time, no response buffer, no hang, and
;; the same engine process serves the next request.  The gzip bomb is only required to stay
;; bounded (an answer, the engine's peak memory under a bound).  docs/reliability.md.

;;; Code:

(require 'test-helper)
(require 'json)

(defvar sheet-faults-test--process nil "The fault server process.")
(defvar sheet-faults-test--info nil "The fault server's URLs: an alist (url tls refused).")

(defun sheet-faults-test-info ()
  "The fault server's URLs as an alist, starting the server on first use."
  (unless (and sheet-faults-test--process (process-live-p sheet-faults-test--process))
    (let ((file (make-temp-file "sheet-faults-info"))
          (deadline (+ (float-time) 20)))
      (delete-file file)
      (setq sheet-faults-test--process
            (make-process :name "sheet-test-faults"
                          :command (list "node" (expand-file-name "test/fixtures/faults.mjs" sheet-test-root)
                                         "--info-file" file)
                          :buffer (get-buffer-create " *sheet-test-faults*")
                          :connection-type 'pipe
                          :noquery t))
      (while (and (not (file-exists-p file)) (< (float-time) deadline))
        (accept-process-output sheet-faults-test--process 0.05))
      (unless (file-exists-p file)
        (error "The fault server did not start"))
      (setq sheet-faults-test--info
            (let ((json-object-type 'alist) (json-key-type 'symbol))
              (json-read-file file)))
      (delete-file file)))
  sheet-faults-test--info)

(defun sheet-faults-test-stop ()
  "Stop the fault server."
  (when (and sheet-faults-test--process (process-live-p sheet-faults-test--process))
    (delete-process sheet-faults-test--process)))

(add-hook 'kill-emacs-hook #'sheet-faults-test-stop)

(defun sheet-faults-test-url (key &optional path)
  "The fault server's URL KEY (`url', `tls' or `refused') followed by PATH."
  (concat (alist-get key (sheet-faults-test-info)) (or path "")))

(defun sheet-faults-test-check (url regexp)
  "Send GET URL with \\[sheet-http-send-current]; expect a message matching REGEXP.
The message names URL, comes within 15 s, leaves no response buffer,
and the same engine then answers the example API."
  (let ((sheet-timeout 3))
    (sheet-test-with-sheet (format "GET %s\n#\nGET :base/small\n" url)
      (sheet-test-send-and-wait-ready)
      (let ((engine (sheet-engine-process))
            (mark (sheet-test-messages-mark))
            (start (float-time)))
        (sheet-test-key "C-c C-c")
        (let ((text (sheet-test-wait-message regexp mark)))
          (should (string-match-p (regexp-quote url) text)))
        (sheet-test-wait-idle)
        (should (< (- (float-time) start) 15))
        (should-not (get-buffer "*HTTP Response*"))
        (sheet-test-goto "^GET :base/small")
        (with-current-buffer (sheet-test-send-and-wait)
          (should (string-match-p "\"name\": \"small\"" (buffer-string))))
        (should (eq engine (sheet-engine-process)))))))

(ert-deftest sheet-faults-test-refused ()
  "A closed port: connection refused."
  (sheet-faults-test-check (sheet-faults-test-url 'refused "/") "connection refused"))

(ert-deftest sheet-faults-test-reset ()
  "A reset in the middle of the body: the reset is named."
  (sheet-faults-test-check (sheet-faults-test-url 'url "/reset") "ECONNRESET"))

(ert-deftest sheet-faults-test-slow-headers ()
  "Headers that never end: the timeout of `sheet-timeout' (3 s)."
  (sheet-faults-test-check (sheet-faults-test-url 'url "/slow-headers") "no complete response within 3000 ms"))

(ert-deftest sheet-faults-test-short-body ()
  "A body shorter than its Content-Length: the broken body is named."
  (sheet-faults-test-check (sheet-faults-test-url 'url "/short")
                           "connection closed after 10 bytes of the body"))

(ert-deftest sheet-faults-test-chunk-garbage ()
  "Invalid chunked encoding: the bad chunk size is named."
  (sheet-faults-test-check (sheet-faults-test-url 'url "/chunk-garbage") "chunk size"))

(ert-deftest sheet-faults-test-redirect-loop ()
  "A redirect to itself: too many redirects (curl's limit, 50)."
  (sheet-faults-test-check (sheet-faults-test-url 'url "/redirect-loop")
                           "more than 50 redirects"))

(ert-deftest sheet-faults-test-self-signed-tls ()
  "A self-signed certificate: a TLS error with the hint to check it."
  (should (sheet-faults-test-url 'tls))
  (sheet-faults-test-check (sheet-faults-test-url 'tls "/ok") "TLS error: .*(Check the certificate"))

(ert-deftest sheet-faults-test-gzip-bomb ()
  "1 MB of gzip that expands to 1 GiB: an answer, the engine's memory stays bounded."
  (let ((sheet-timeout 10))
    (sheet-test-with-sheet (format "GET %s\n" (sheet-faults-test-url 'url "/gzip-bomb"))
      (sheet-test-send-and-wait-ready)
      (let ((engine (sheet-engine-process))
            (mark (sheet-test-messages-mark))
            (start (float-time)))
        (sheet-test-key "C-c C-c")
        (sheet-test-wait-until
         (lambda () (or (get-buffer "*HTTP Response*")
                        (string-match-p "127.0.0.1" (sheet-test-messages-since mark))))
         20 "an answer to the gzip bomb")
        (sheet-test-wait-idle)
        (should (< (- (float-time) start) 20))
        (should (eq engine (sheet-engine-process)))
        (let ((peak (with-temp-buffer
                      (insert-file-contents (format "/proc/%d/status" (process-id engine)))
                      (re-search-forward "VmHWM:[ \t]+\\([0-9]+\\) kB")
                      (string-to-number (match-string 1)))))
          (should (< peak (* 768 1024))))))))

(provide 'sheet-mode-faults-test)
;;; sheet-mode-faults-test.el ends here
