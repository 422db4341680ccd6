;;; sheet-mode-code-test.el --- Copy as code (issue 25 item 7)  -*- lexical-binding: t; -*-

;;; Commentary:

;; C-c C-S-u and C-u C-c C-u read a target and put the request at
;; point on the kill ring as code; the code is then run by the real
;; python3 (requests) and node (fetch) against the example API's
;; /echo, which answers the request as it arrived.  Run with:
;; emacs --batch -Q -L elisp -L test/elisp -l ert -l test/elisp/test-helper.el \
;;   -l test/elisp/sheet-mode-code-test.el -f ert-run-tests-batch-and-exit

;;; Code:

(require 'ert)
(require 'cl-lib)
(require 'test-helper)
(require 'sheet-mode)

(defconst sheet-test--code-sheet
  ":who = Ada\nPOST :base/echo/code?x=1&x=2\nContent-Type: application/json\nX-Trace: t-:who\n\n{\"name\": \":who\", \"n\": 1}\n"
  "A request whose URL, header and JSON body carry a substituted variable.")

(defmacro sheet-test--answering (target &rest body)
  "Run BODY with `completing-read' answering TARGET.
`asked' is bound to the (COLLECTION DEFAULT) it was given."
  (declare (indent 1))
  `(let ((asked nil))
     (cl-letf (((symbol-function 'completing-read)
                (lambda (_prompt collection &optional _pred _req _init _hist default &rest _)
                  (setq asked (list (all-completions "" collection) default))
                  ,target)))
       ,@body)))

(defun sheet-test--run-code (program code &rest args)
  "Run CODE with PROGRAM and ARGS (the code on stdin); return its output."
  (with-temp-buffer
    (let ((status (let ((input code))
                    (with-temp-buffer
                      (insert input)
                      (apply #'call-process-region (point-min) (point-max)
                             program nil (list (get-buffer-create " *code out*") nil)
                             nil args)))))
      (insert (with-current-buffer " *code out*"
                (prog1 (buffer-string) (erase-buffer))))
      (should (eql status 0))
      (buffer-string))))

(ert-deftest sheet-test-copy-as-code-python ()
  "C-c C-S-u python RET copies Python requests code that sends the sheet's request."
  (sheet-test-with-sheet sheet-test--code-sheet
    (sheet-test-goto "^POST")
    (let ((kill-ring nil)
          (sheet-code-target "python"))
      (sheet-test--answering "python"
        (sheet-test-key "C-c C-S-u")
        ;; The engine's targets are offered, the last one used first.
        (should (equal (cadr asked) "python"))
        (should (member "go" (car asked)))
        (should (member "httpie" (car asked)))
        (should (member "powershell" (car asked))))
      (let ((code (current-kill 0)))
        (should (string-match-p "^import requests" code))
        (should (string-match-p "requests.post" code))
        (let ((out (sheet-test--run-code "python3" code "-")))
          (should (string-match-p "\"rawPath\": *\"/echo/code\\?x=1&x=2\"" out))
          (should (string-match-p "\"x-trace\": *\"t-Ada\"" out))
          (should (string-match-p (regexp-quote "\\\"name\\\": \\\"Ada\\\"") out)))))))

(ert-deftest sheet-test-copy-as-code-prefix-on-curl-key ()
  "C-u C-c C-u asks for a target too; JavaScript fetch code runs in node and sends the request."
  (sheet-test-with-sheet sheet-test--code-sheet
    (sheet-test-goto "^POST")
    (let ((kill-ring nil)
          (sheet-code-target "python"))
      (sheet-test--answering "javascript"
        (let ((current-prefix-arg '(4)))
          (sheet-test-key "C-c C-u")))
      ;; The target picked is offered first next time.
      (should (equal sheet-code-target "javascript"))
      (let ((code (current-kill 0)))
        (should (string-match-p "fetch('" code))
        (let ((out (sheet-test--run-code "node" code "-")))
          (should (string-match-p "rawPath: '/echo/code\\?x=1&x=2'" out))
          (should (string-match-p "'x-trace': 't-Ada'" out)))))))

(ert-deftest sheet-test-copy-as-code-unknown-target-and-binding ()
  "The keys are bound; an unknown target is refused by completion, the engine names the choices."
  (sheet-test-with-sheet sheet-test--code-sheet
    (should (eq (key-binding (kbd "C-c C-S-u")) #'sheet-copy-as-code))
    (should (eq (key-binding (kbd "C-c C-u")) #'sheet-copy-curl-command))
    (sheet-test-goto "^POST")
    (let ((err (should-error (sheet-copy-as-code "cobol") :type 'user-error)))
      (should (string-match-p "unknown code target \"cobol\"" (cadr err)))
      (should (string-match-p "python" (cadr err))))
    ;; A prefix-less C-c C-u is still the curl command.
    (let ((kill-ring nil))
      (sheet-test-key "C-c C-u")
      (should (string-prefix-p "curl -X POST " (current-kill 0))))))

;; `sheet export' in a shell cannot evaluate a `:=' form without Emacs; from
;; Emacs the form is evaluated in Emacs first (the engine's `lisp/eval', as
;; for C-c C-c) and its value is in the code.
(ert-deftest sheet-test-copy-as-code-evaluates-lisp-variables ()
  "C-c C-S-u and C-c C-u evaluate `:=' forms in Emacs, in the sheet's buffer."
  (sheet-test-with-sheet ":who := (concat \"Gr\" \"ace\")
:tag := (buffer-local-value 'major-mode (current-buffer))
POST :base/echo/lisp
X-Trace: :who :tag
"
    (sheet-test-goto "^POST")
    (let ((kill-ring nil))
      (sheet-test--answering "python"
        (sheet-test-key "C-c C-S-u"))
      (let ((code (current-kill 0)))
        (should (string-match-p "X-Trace.*Grace sheet-mode" code))
        (should (string-match-p "\"x-trace\": *\"Grace sheet-mode\""
                                (sheet-test--run-code "python3" code "-"))))
      (sheet-test-key "C-c C-u")
      (should (string-match-p "X-Trace: Grace sheet-mode" (current-kill 0))))))

(provide 'sheet-mode-code-test)
;;; sheet-mode-code-test.el ends here
