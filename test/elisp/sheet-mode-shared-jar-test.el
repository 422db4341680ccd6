;;; sheet-mode-shared-jar-test.el --- One cookie file for Emacs and the shell at once  -*- lexical-binding: t; -*-

;;; Commentary:

;; `sheet-cookie-jar-file' and the shell verbs' cookie file are the same file, written by both
;; at the same time: no cookie is lost, and a cookie the shell wrote is sent from Emacs.
;; docs/reliability.md, "Concurrent cookie jar".

;;; Code:

(require 'test-helper)

(ert-deftest sheet-test-shared-jar-with-the-shell ()
  "Emacs and a shell write one cookie file at once: every cookie of both is kept."
  (let* ((home (make-temp-file "sheet-shared-jar" t))
         (jar (expand-file-name ".rest/c" home))
         (process-environment
          (append (list (concat "HOME=" home) "REST_NO_DAEMON=1"
                        (concat "API=" (sheet-test-api-url))
                        (concat "REST_ROOT=" sheet-test-root))
                  process-environment))
         (shell (make-process
                 :name "sheet-test-shell-writer"
                 :command (list "bash" "-c" "source \"$REST_ROOT/shell/rest\"; rest \"$API\" >/dev/null
for i in $(seq 1 12); do GET /cookies/set -q \"sh_$i=1\" >/dev/null 2>&1 || echo \"FAIL $i\"; done; echo DONE")
                 :buffer (generate-new-buffer " *sheet-test-shell-writer*")
                 :connection-type 'pipe
                 :sentinel #'ignore
                 :noquery t)))
    (unwind-protect
        (progn
          (dotimes (i 12)
            (sheet-test-with-sheet (format "GET :base/cookies/set?em_%d=1\n" (1+ i))
              (let ((sheet-cookie-jar-file jar))
                (sheet-test-send-and-wait))))
          (sheet-test-wait-until (lambda () (not (process-live-p shell))) 60 "the shell writer")
          ;; Its last output can still be in the pipe when its status changes: read it all.
          (while (accept-process-output shell 0.1))
          (with-current-buffer (process-buffer shell)
            (should (equal (buffer-string) "DONE\n")))
          (let ((text (with-temp-buffer (insert-file-contents jar) (buffer-string))))
            (dotimes (i 12)
              (should (string-match-p (format "\tem_%d\t1$" (1+ i)) text))
              (should (string-match-p (format "\tsh_%d\t1$" (1+ i)) text))))
          ;; Emacs sends what the shell wrote.
          (sheet-test-with-sheet "GET :base/cookies\n"
            (let ((sheet-cookie-jar-file jar))
              (with-current-buffer (sheet-test-send-and-wait)
                (should (string-match-p "\"sh_12\": \"1\"" (buffer-string)))))))
      (when (process-live-p shell) (delete-process shell))
      (kill-buffer (process-buffer shell))
      ;; Leave the engine with its in-memory jar for the other tests.
      (sheet-test-with-sheet "GET :base/users\n" (sheet-test-send-and-wait))
      (delete-directory home t))))

(provide 'sheet-mode-shared-jar-test)
;;; sheet-mode-shared-jar-test.el ends here
