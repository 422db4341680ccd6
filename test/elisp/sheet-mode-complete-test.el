;;; sheet-mode-complete-test.el --- Completion at point  -*- lexical-binding: t; -*-

;;; Commentary:

;; Issue 25 item 2: `completion-at-point' in sheet-mode offers the engine's names
;; (`sheet/completions'): variables after `:' and in `{{' (the chosen environment's and the
;; system variables in `.http' files), methods and header names at the start of a line,
;; common header values, hook names; and never waits on the engine once a buffer has an
;; answer.  Real engine, batch Emacs.

;;; Code:

(require 'test-helper)

(defun sheet-test-complete--candidates ()
  "The candidates `sheet-completion-at-point' offers at point, as plain strings."
  (let ((capf (sheet-completion-at-point)))
    (and capf
         (all-completions (buffer-substring-no-properties (nth 0 capf) (nth 1 capf))
                          (nth 2 capf)))))

(defun sheet-test-complete--at (text)
  "Insert TEXT at the end of the buffer, leave point after it; return the candidates."
  (goto-char (point-max))
  (insert text)
  (sheet-test-complete--candidates))

(ert-deftest sheet-test-complete-sheet-names ()
  "Variables after `:', methods and headers at line start, header values, hook names."
  (sheet-test-with-sheet ":user = ada\n#\nGET :base/users\n"
    (sheet-test-send-and-wait-ready)
    (sheet-set-var ":token" "t0k")
    (should (equal (sheet-test-complete--at "#\nGET :base/users/:us") '(":user")))
    ;; (Other tests of the same Emacs may have left overrides in the engine.)
    (let ((all (sheet-test-complete--at "\nAuthorization: Bearer :")))
      (dolist (name '(":base" ":token" ":user"))
        (should (member name all))))
    (should (member "Content-Type" (sheet-test-complete--at "\nContent-T")))
    (should (member "application/json" (sheet-test-complete--at "ype: application/j")))
    (should (equal (sheet-test-complete--at "\n-> jq-") '("jq-set-var")))
    (should (member "expect-status" (sheet-test-complete--at "\n-> ")))
    (should (equal (sheet-test-complete--at "\n#\nPAT") '("PATCH")))
    ;; C-M-i completes in the buffer.
    (goto-char (point-max))
    (insert "\nGET :base/:tok")
    (completion-at-point)
    (should (looking-back ":base/:token" (line-beginning-position)))
    ;; Not a variable: the port of a URL.
    (should-not (member ":user" (sheet-test-complete--at "\nGET http://127.0.0.1:")))))

(ert-deftest sheet-test-complete-http-environment-and-system ()
  "`.http': in `{{', the file variables, the chosen environment's names, `$timestamp'."
  (sheet-test-visiting "api.http"
      (progn
        (with-temp-file (expand-file-name "http-client.env.json" dir)
          (insert "{\"dev\": {\"apiKey\": \"k\"}, \"prod\": {\"apiKey\": \"p\"}}"))
        (with-temp-file file (insert "@path = /a\n\nGET http://h{{path}}\n")))
    (sheet-set-environment "dev")
    (goto-char (point-max))
    (insert "X-Key: {{api")
    (should (equal (sheet-test-complete--candidates) '("apiKey")))
    (insert "Key}}\nX-Time: {{$time")
    (should (equal (sheet-test-complete--candidates) '("$timestamp")))
    (let ((capf (sheet-completion-at-point)))
      (should (string-match-p "system"
                              (funcall (plist-get (nthcdr 3 capf) :annotation-function)
                                       (car (all-completions "$time" (nth 2 capf)))))))
    (insert "stamp}}\nX-P: {{pa")
    (should (equal (sheet-test-complete--candidates) '("path")))
    ;; Issue 37 item 10: completing the name closes the braces, once.
    (completion-at-point)
    (should (looking-back "^X-P: {{path}}" (line-beginning-position)))
    (insert "\nX-Q: {{}}")
    (backward-char 2)
    (insert "pa")
    (completion-at-point)
    (should (equal (buffer-substring (line-beginning-position) (line-end-position))
                   "X-Q: {{path}}"))))

(ert-deftest sheet-test-complete-never-waits ()
  "Once a buffer has an answer, completion uses it and asks again in the background."
  (sheet-test-with-sheet ":first = 1\nGET :base/x\n"
    (sheet-test-send-and-wait-ready)
    (goto-char (point-max))
    (insert ":fi")
    (should (equal (sheet-test-complete--candidates) '(":first")))
    (goto-char (point-min))
    (insert ":second = 2\n")
    (goto-char (point-max))
    (insert "\nGET :base/:se")
    (let ((sync 0))
      (cl-letf* ((real (symbol-function 'jsonrpc-request))
                 ((symbol-function 'jsonrpc-request)
                  (lambda (&rest args) (setq sync (1+ sync)) (apply real args))))
        ;; The kept answer, without :second, and no waiting ...
        (should-not (sheet-test-complete--candidates))
        (should (= sync 0))
        ;; ... while the new answer comes in the background.
        (sheet-test-wait-until (lambda () (not sheet--completions-pending)) 5
                               "the background answer")
        (should (equal (sheet-test-complete--candidates) '(":second")))
        (should (= sync 0))))))

(provide 'sheet-mode-complete-test)
;;; sheet-mode-complete-test.el ends here
