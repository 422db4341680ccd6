;;; sheet-mode-bytes-test.el --- No body can make an answer Emacs cannot read  -*- lexical-binding: t; -*-

;;; Commentary:

;; Emacs 28's `json-parse-string' rejects "\u0000" and lone surrogates in strings; one such
;; string and the whole answer of the engine is lost.  Every kind of body that could bring one
;; has a path here, through the real engine and the example API (routes in
;; test/fixtures/routes/bytes.mjs): text holding NUL (in the body file, or as bytes when the
;; mode takes no files), invalid UTF-8, Latin-1 bytes without a charset, every byte value, a
;; request body holding NUL, and a jq value holding NUL.  Bytes are never replaced by U+FFFD:
;; a body not valid in its charset is shown as binary, and C-c C-r shows its bytes.

;;; Code:

(require 'test-helper)

(defun sheet-test--bytes-send (path &optional raw)
  "Send GET :base/PATH (RAW: with C-c C-r); return the response buffer's text.
Fails when the engine's answer could not be read (the messages then
name the JSON error)."
  (sheet-test-with-sheet (concat "GET :base" path "\n")
    (let ((mark (sheet-test-messages-mark)))
      (with-current-buffer (sheet-test-send-and-wait (and raw #'sheet-http-send-current-raw))
        (should-not (string-match-p "json\\|JSON\\|parse" (sheet-test-messages-since mark)))
        (buffer-substring-no-properties (point-min) (point-max))))))

(ert-deftest sheet-test-bytes-text-with-nul ()
  "Text holding NUL arrives whole, through the body file, NUL included."
  (let ((text (sheet-test--bytes-send "/bytes/text-nul")))
    (should (string-match-p (regexp-quote "line\0one été\nline\0two\n") text))))

(ert-deftest sheet-test-bytes-text-with-nul-without-files ()
  "Without body files, text holding NUL comes as bytes: shown as binary, never lost."
  (let ((sheet--body-file-min nil))
    (should (string-match-p "\\[binary body text/plain, 24 bytes"
                            (sheet-test--bytes-send "/bytes/text-nul")))
    (let ((raw (sheet-test--bytes-send "/bytes/text-nul" t)))
      (should (string-match-p (regexp-quote (concat "line\0one "
                                                    (decode-coding-string "\303\251t\303\251" 'raw-text)))
                              raw)))))

(ert-deftest sheet-test-bytes-latin1-octet-stream ()
  "Seven Latin-1 bytes as application/octet-stream are binary, their bytes kept for C-c C-r."
  (let ((shown (sheet-test--bytes-send "/bytes/latin1-octet")))
    (should (string-match-p "\\[binary body application/octet-stream, 7 bytes" shown))
    (should-not (string-match-p "\uFFFD" shown)))
  (let ((raw (sheet-test--bytes-send "/bytes/latin1-octet" t)))
    (should (string-match-p (regexp-quote (decode-coding-string "caf\351 \340b" 'raw-text)) raw))
    (should-not (string-match-p "\uFFFD" raw))))

(ert-deftest sheet-test-bytes-invalid-utf8 ()
  "Invalid UTF-8, even labelled UTF-8 or JSON, is shown as binary, never with U+FFFD."
  (dolist (case '(("/bytes/bad-utf8" . "text/plain, 11 bytes")
                  ("/bytes/bad-utf8-json" . "application/json, 10 bytes")
                  ("/bytes/latin1-text" . "text/plain, 7 bytes")))
    (let ((shown (sheet-test--bytes-send (car case))))
      (should (string-match-p (regexp-quote (concat "[binary body " (cdr case))) shown))
      (should-not (string-match-p "\uFFFD" shown)))))

(ert-deftest sheet-test-bytes-every-byte-value ()
  "A body of every byte value 0..255 arrives, its bytes exact under C-c C-r."
  (should (string-match-p "\\[binary body application/octet-stream, 256 bytes"
                          (sheet-test--bytes-send "/bytes/all")))
  (let ((raw (sheet-test--bytes-send "/bytes/all" t))
        (all (decode-coding-string (apply #'unibyte-string (number-sequence 0 255)) 'raw-text)))
    (should (string-suffix-p all (string-trim-right raw "\n*")))))

(ert-deftest sheet-test-bytes-request-body-with-nul ()
  "A request whose body holds NUL is sent exactly, and its answer is read."
  (sheet-test-with-sheet "POST :base/echo\n\na\0b"
    (with-current-buffer (sheet-test-send-and-wait)
      (should (string-match-p "\"bodyBase64\": \"YQBi\"" (buffer-string))))))

(ert-deftest sheet-test-bytes-jq-value-with-nul ()
  "A jq value holding NUL does not lose the answer; the variable keeps the NUL."
  (sheet-test-with-sheet "GET :base/bytes/json-nul-escape\n-> jq-set-var :v .v\n#\nPOST :base/echo\n\n:v"
    (with-current-buffer (sheet-test-send-and-wait)
      (should (string-match-p (regexp-quote "\"v\": \"a\\u0000b\"") (buffer-string))))
    (sheet-test-goto "^POST")
    (with-current-buffer (sheet-test-send-and-wait)
      (should (string-match-p "\"bodyBase64\": \"YQBi\"" (buffer-string))))))

(provide 'sheet-mode-bytes-test)
;;; sheet-mode-bytes-test.el ends here
