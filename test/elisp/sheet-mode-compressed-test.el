;;; sheet-mode-compressed-test.el --- Compressed responses shown decoded  -*- lexical-binding: t; -*-

;;; Commentary:

;; `Content-Encoding: gzip', `deflate' (zlib-wrapped and raw) and `br' bodies are decoded by
;; the engine (engine/src/http/decode.ts), streaming, before they reach Emacs: the response
;; buffer shows the JSON, whether the body comes inside the JSON-RPC answer or in a file
;; (`sheet--body-file-min').  Against our fixture (test/fixtures/routes/stream.mjs) and
;; against httpbin's /gzip, /deflate and /brotli (test/fixtures/httpbin.mjs), a server
;; nobody here wrote.

;;; Code:

(require 'test-helper)

(defun sheet-test--response-json ()
  "The JSON object at the start of the current response buffer, as an alist."
  (goto-char (point-min))
  (json-parse-buffer :object-type 'alist))

(ert-deftest sheet-test-compressed-fixture ()
  "gzip, zlib deflate, raw deflate and br from our fixture show as the JSON they hold."
  (sheet-test-with-sheet "GET :base/stream/compressed?enc=gzip\n#\nGET :base/stream/compressed?enc=deflate\n#\nGET :base/stream/compressed?enc=deflate-raw\n#\nGET :base/stream/compressed?enc=br\n"
    (dolist (enc '("gzip" "deflate" "deflate-raw" "br"))
      (dolist (file-min (list nil 10))
        (sheet-test-goto (concat "^GET .*enc=" enc "$"))
        (let ((sheet--body-file-min file-min))
          (with-current-buffer (sheet-test-send-and-wait)
            (let ((json (sheet-test--response-json)))
              (should (equal (alist-get 'compressed json) enc))
              (should (string-prefix-p "été été" (alist-get 'text json))))))))))

(ert-deftest sheet-test-compressed-httpbin ()
  "httpbin's /gzip, /deflate and /brotli show decoded, with their flag set."
  (let ((base (sheet-test-httpbin-url)))
    (sheet-test-with-sheet (format "GET %s/gzip\n#\nGET %s/deflate\n#\nGET %s/brotli\n" base base base)
      (dolist (pair '(("gzip" . gzipped) ("deflate" . deflated) ("brotli" . brotli)))
        (sheet-test-goto (concat "^GET .*/" (car pair) "$"))
        (with-current-buffer (sheet-test-send-and-wait)
          (let ((json (sheet-test--response-json)))
            (should (eq (alist-get (cdr pair) json) t))
            (should (equal (alist-get 'method json) "GET"))))))))

(provide 'sheet-mode-compressed-test)
;;; sheet-mode-compressed-test.el ends here
