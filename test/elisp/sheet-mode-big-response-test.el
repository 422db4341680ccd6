;;; sheet-mode-big-response-test.el --- Big and long-lined responses  -*- lexical-binding: t; -*-

;;; Commentary:

;; Issue 22, item 1: a JSON or XML body past 16 MiB (written to the body file as it arrives)
;; is pretty-printed all the same, the response buffer is editable once filled as restclient.el's (the
;; hooks and `run-hook' forms may still edit it), a line longer than
;; `sheet-response-long-line-threshold' turns on `so-long-minor-mode', and the trailer says
;; why a JSON or XML body was left as received.  Real engine, the example API on 127.0.0.1.

;;; Code:

(require 'test-helper)

(defun sheet-test--trailer-line (regexp)
  "The trailer line of the current buffer matching REGEXP, or nil.
A comment line, `// ' (JSON modes) or `# ' (`fundamental-mode')."
  (save-excursion
    (goto-char (point-max))
    (and (re-search-backward (concat "^\\(?:// \\|# \\)" regexp) nil t)
         (buffer-substring-no-properties (point) (line-end-position)))))

(ert-deftest sheet-test-big-json-pretty-printed ()
  "A 17 MiB JSON body, past the 16 MiB spill size, is pretty-printed in the buffer."
  (sheet-test-with-sheet "GET :base/big.json?kb=17408\n"
    (with-current-buffer (sheet-test-send-and-wait)
      (goto-char (point-min))
      (should (looking-at-p "\\[\n  {\n    \"id\": 0,\n    \"name\": \"user 0\",\n"))
      ;; About ten lines per element, none long: the body is not one 17 MiB line.
      (should (> (count-lines (point-min) (point-max)) 1000000))
      (should (< (- (line-end-position 2) (line-beginning-position 2)) 100))
      (should-not (sheet-test--trailer-line "Body not pretty-printed"))
      (should-not (bound-and-true-p so-long-minor-mode))
      (should (sheet-test--trailer-line "HTTP/1.1 200 OK"))
      ;; Searches are string searches here, not regexp ones (docs/benchmarks.md).
      (should (eq major-mode 'fundamental-mode))
      (should (local-variable-p 'isearch-lax-whitespace))
      (should-not isearch-lax-whitespace))))

(ert-deftest sheet-test-big-xml-pretty-printed ()
  "A 16.3 MiB XML body, past the 16 MiB spill size, is pretty-printed in the buffer."
  (sheet-test-with-sheet "GET :base/big.xml?kb=16700\n"
    ;; xml-formatter indents some 4 MB a second: a bound for a busy machine.
    (with-current-buffer (sheet-test-send-and-wait nil nil 120)
      (goto-char (point-min))
      (should (looking-at-p (concat "<\\?xml version=\"1.0\" encoding=\"UTF-8\"\\?>\n<users>\n"
                                    "  <user id=\"0\">\n    <name>user 0</name>\n"
                                    "    <email>user0@example.org</email>\n    <tags>\n"
                                    "      <tag>a</tag>\n")))
      ;; Nine lines per element, none long: the body is not one 16 MiB line.
      (should (> (count-lines (point-min) (point-max)) 1000000))
      (should (< (- (line-end-position 2) (line-beginning-position 2)) 100))
      (should-not (sheet-test--trailer-line "Body not pretty-printed"))
      (should-not (bound-and-true-p so-long-minor-mode))
      (should (re-search-forward "^</users>$" nil t))
      (should (sheet-test--trailer-line "HTTP/1.1 200 OK")))))

(ert-deftest sheet-test-response-buffer-editable ()
  "Issue 37 item 10: once filled, the response buffer is editable, as restclient.el's; q quits.
The hooks and run-hook forms edit it too."
  (sheet-test-with-sheet "GET :base/users\n-> run-hook (insert \"from run-hook\\n\")\n"
    (let ((sheet-response-loaded-hook
           (list (lambda () (save-excursion (goto-char (point-max))
                                            (insert "// from the loaded hook\n"))))))
      (with-current-buffer (sheet-test-send-and-wait)
        (should-not buffer-read-only)
        (goto-char (point-min))
        (should (looking-at-p "from run-hook\n\\["))
        (insert "x")
        (should (looking-at-p "from run-hook\n\\["))
        (delete-char -1)
        (should (listp buffer-undo-list))
        (should (sheet-test--trailer-line "from the loaded hook"))
        ;; q still quits, and the buffer is filled again on the next send.
        (should (eq (key-binding (kbd "q")) #'quit-window))))
    (with-current-buffer (sheet-test-send-and-wait)
      (should-not buffer-read-only)
      (goto-char (point-min))
      (should (looking-at-p "from run-hook\n\\[\n  {")))))

(ert-deftest sheet-test-long-line-turns-on-so-long ()
  "A line over `sheet-response-long-line-threshold' turns on `so-long-minor-mode'; the trailer says so."
  (let ((long (make-string 6000 ?x)))
    (sheet-test-with-sheet
        (concat "POST :base/echo\nContent-Type: text/plain\n\n" long "\n#\nGET :base/users\n")
      (with-current-buffer (sheet-test-send-and-wait)
        (should (string-match-p (concat "\"body\": \"" long) (buffer-string)))
        (should so-long-minor-mode)
        ;; so-long's overrides: no bidirectional reordering, no font lock.
        (should (eq bidi-paragraph-direction 'left-to-right))
        (should-not font-lock-mode)
        (should (sheet-test--trailer-line
                 "Long lines: so-long-minor-mode is on (the longest has [0-9]\\{4,\\} characters)$")))
      ;; The same (reused) buffer with short lines: off again.
      (sheet-test-goto "^GET")
      (with-current-buffer (sheet-test-send-and-wait)
        (should-not (bound-and-true-p so-long-minor-mode))
        (should-not (sheet-test--trailer-line "Long lines"))))
    ;; Raised above the line, nothing is turned on.
    (sheet-test-with-sheet
        (concat "POST :base/echo\nContent-Type: text/plain\n\n" long "\n")
      (setq-local sheet-response-long-line-threshold 10000)
      (with-current-buffer (sheet-test-send-and-wait)
        (should-not (bound-and-true-p so-long-minor-mode))))))

(ert-deftest sheet-test-trailer-says-why-unformatted ()
  "The trailer names why a JSON body was left as received, small or past 16 MiB."
  (sheet-test-with-sheet "GET :base/engine/not-json\n#\nGET :base/stream/json?mb=17&broken=1\n#\nGET :base/users\n"
    (with-current-buffer (sheet-test-send-and-wait)
      (goto-char (point-min))
      (should (looking-at-p "{\"a\": 1,,}"))
      (should (sheet-test--trailer-line
               "Body not pretty-printed: not valid JSON at byte 8: unexpected \",\"$")))
    (sheet-test-goto "^GET .*/stream/json")
    (with-current-buffer (sheet-test-send-and-wait)
      (let ((why (sheet-test--trailer-line "Body not pretty-printed: .*")))
        (should (string-match-p "not valid JSON at byte [0-9]+: unexpected \"]\"$" why)))
      ;; One 17 MiB line: the body as received, protected.
      (should so-long-minor-mode)
      (should (> (- (line-end-position 1) (point-min)) (* 16 1024 1024))))
    (sheet-test-goto "^GET .*/users")
    (with-current-buffer (sheet-test-send-and-wait)
      (should-not (sheet-test--trailer-line "Body not pretty-printed"))))
  ;; XML past 16 MiB that stops being well-formed at its end: the line is named.
  (sheet-test-with-sheet "GET :base/stream/xml?mb=17&broken=1\n"
    (with-current-buffer (sheet-test-send-and-wait nil nil 120)
      (should (sheet-test--trailer-line
               "Body not pretty-printed: not well-formed XML at line 3: </user> closes <users>$"))
      (goto-char (point-min))
      (should (looking-at-p "<\\?xml version=\"1.0\" encoding=\"UTF-8\"\\?>\n<!-- generated -->\n<users "))
      (should so-long-minor-mode))))

(provide 'sheet-mode-big-response-test)
;;; sheet-mode-big-response-test.el ends here
