;;; sheet-mode-beside-restclient-test.el --- restclient.el loaded beside sheet-mode  -*- lexical-binding: t; -*-

;;; Commentary:

;; Issue 37 item 1: with restclient.el's own source loaded (before or after
;; sheet-mode), a sheet's Lisp sees sheet-mode's variables through
;; restclient.el's public names, and restclient.el's own buffers keep its own.
;; restclient.el must not be loaded into the Emacs that runs every other test,
;; so each load order runs the tests of fixtures/restclient/beside-restclient.el
;; in a child `emacs --batch' (the real engine, the example API).

;;; Code:

(require 'test-helper)

(defconst sheet-test--restclient-dir
  (expand-file-name "test/elisp/fixtures/restclient" sheet-test-root)
  "restclient.el's source and the tests run beside it.")

(defun sheet-test--run-beside-restclient (order)
  "Run beside-restclient.el's tests in a child Emacs; return its output.
ORDER is `before' (restclient.el loaded before sheet-mode) or
`after'.  Fail unless every test there passed."
  (let* ((restclient (list "-l" "restclient"))
         (args (append
                (list "--batch" "-Q"
                      "-L" (expand-file-name "elisp" sheet-test-root)
                      "-L" (expand-file-name "test/elisp" sheet-test-root)
                      "-L" sheet-test--restclient-dir)
                (and (eq order 'before) restclient)
                (list "-l" "ert" "-l" "test-helper")
                ;; After: once a sheet-mode buffer was made, so the
                ;; advice waits for restclient.el's loading.
                (and (eq order 'after)
                     (cons "--eval" (cons "(with-temp-buffer (sheet-mode))"
                                          restclient)))
                (list "-l" "beside-restclient"
                      "-f" "ert-run-tests-batch-and-exit")))
         (out (generate-new-buffer " *beside restclient*"))
         (proc (make-process :name "beside-restclient"
                             :command (cons "emacs" args)
                             :buffer out :connection-type 'pipe
                             :noquery t)))
    (unwind-protect
        (progn
          (sheet-test-wait-until (lambda () (not (process-live-p proc)))
                                 120 "the child Emacs")
          (let ((text (with-current-buffer out (buffer-string))))
            (should (equal (list order (process-exit-status proc)
                                 (and (string-match
                                       "Ran \\([0-9]+\\) tests, \\([0-9]+\\) results as expected, 0 unexpected"
                                       text)
                                      (equal (match-string 1 text)
                                             (match-string 2 text))
                                      (string-to-number (match-string 1 text))))
                           (list order 0 5)))
            text))
      (when (process-live-p proc) (delete-process proc))
      (kill-buffer out))))

(ert-deftest sheet-test-restclient-loaded-before-sheet-mode ()
  "restclient.el loaded first: a sheet's Lisp still reaches sheet-mode's variables."
  (sheet-test--run-beside-restclient 'before))

(ert-deftest sheet-test-restclient-loaded-after-sheet-mode ()
  "restclient.el loaded after sheet-mode: a sheet's Lisp still reaches sheet-mode's variables."
  (sheet-test--run-beside-restclient 'after))

(provide 'sheet-mode-beside-restclient-test)
;;; sheet-mode-beside-restclient-test.el ends here
