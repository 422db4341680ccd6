;;; sheet-mode-flymake-test.el --- Flymake in sheet-mode  -*- lexical-binding: t; -*-

;;; Commentary:

;; Issue 25 item 4 (first part): Flymake reports the engine's parser diagnostics on their
;; lines, errors and warnings, with the engine's hint.  Real engine, batch Emacs.

;;; Code:

(require 'test-helper)

(ert-deftest sheet-test-flymake-parser-diagnostics ()
  "An unterminated multi-line variable is a Flymake error on its line; a fix clears it."
  (sheet-test-with-sheet "#\nGET :base/users\n#\n:body = <<\n{\"a\": 1}\n"
    (should (memq #'sheet-flymake flymake-diagnostic-functions))
    (sheet-test-send-and-wait-ready)
    (flymake-mode 1)
    (unwind-protect
        (progn
          (flymake-start)
          (let ((d (car (sheet-test-wait-until #'flymake-diagnostics 10 "a diagnostic"))))
            (should (eq (flymake-diagnostic-type d) :error))
            (should (= (line-number-at-pos (flymake-diagnostic-beg d)) 5))
            (should (string-match-p ":body" (flymake-diagnostic-text d))))
          ;; Fixed: the diagnostics go.
          (goto-char (point-max))
          (insert "#\n")
          (flymake-start)
          (sheet-test-wait-until (lambda () (null (flymake-diagnostics))) 10
                                 "no diagnostic"))
      (flymake-mode -1))))

(provide 'sheet-mode-flymake-test)
;;; sheet-mode-flymake-test.el ends here
