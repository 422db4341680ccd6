;;; sheet-mode-trailer-test.el --- The trailer's comments, written fast  -*- lexical-binding: t; -*-

;;; Commentary:

;; The trailer under a response body (the request, status line, headers, duration, warnings) is
;; commented in the buffer's comment syntax.  For line comments `sheet-mode' writes the prefix
;; itself instead of calling `comment-region', which costs a third of a millisecond per
;; response (docs/benchmarks.md, the Emacs section); the text must be exactly what
;; `comment-region' with the `plain' style makes, in every mode a response can get.

;;; Code:

(require 'test-helper)

(defconst sheet-test--trailer-lines
  '("GET http://127.0.0.1:1/a?b=c#d" "HTTP/1.1 200 OK" "  indented: x" "X-Empty: "
    "warning: two\nlines" "" "   " "Request duration: 0.001000s")
  "Trailer lines, with the awkward cases: indentation, blanks, a newline inside.")

(defun sheet-test--commented (mode fast)
  "The trailer lines commented in a buffer in MODE; FAST: as `sheet-mode' does."
  (with-temp-buffer
    (insert "{\"a\": 1}\n")
    (let ((inhibit-message t)) (funcall mode))
    (goto-char (point-max))
    (unless comment-start (setq-local comment-start "# "))
    (if fast
        (sheet--insert-comment-lines sheet-test--trailer-lines)
      (let ((start (point)) (comment-style 'plain))
        (insert (mapconcat #'identity sheet-test--trailer-lines "\n") "\n")
        (comment-region start (point))))
    (buffer-string)))

(ert-deftest sheet-test-trailer-comments-as-comment-region ()
  "The trailer reads exactly as `comment-region' would comment it, mode by mode."
  (dolist (mode '(js-mode text-mode fundamental-mode css-mode html-mode nxml-mode sh-mode))
    (let ((want (sheet-test--commented mode nil)))
      (should (equal (list mode (sheet-test--commented mode t)) (list mode want)))))
  ;; The line-comment case itself, spelled out.
  (should (string-match-p "^// GET http://127.0.0.1:1/a\\?b=c#d\n// HTTP/1.1 200 OK\n//   indented: x\n"
                          (sheet-test--commented 'js-mode t)))
  (should (string-match-p "^# warning: two\n# lines\n\n   \n# Request duration"
                          (sheet-test--commented 'text-mode t))))

(provide 'sheet-mode-trailer-test)
;;; sheet-mode-trailer-test.el ends here
