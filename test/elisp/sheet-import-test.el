;;; sheet-import-test.el --- M-x sheet-import  -*- lexical-binding: t; -*-

;;; Commentary:

;; elisp/sheet-import.el with the real `sheet import': a Postman collection of
;; newman's repository (test/fixtures/imports/postman) becomes a `.http' file
;; that is visited, as is Bruno's own test collection folder
;; (test/fixtures/imports/bruno); a bad source writes nothing and says why.

;;; Code:

(require 'test-helper)
(require 'sheet-import)

(defconst sheet-import-test--fixtures
  (expand-file-name "../fixtures/imports/postman/"
                    (file-name-directory (or load-file-name buffer-file-name))))

(ert-deftest sheet-import-test-command-after-require ()
  "After README's `(require \='sheet-mode)' alone, M-x sheet-import is a command.
A fresh batch Emacs, as a user's init file: no autoloads file is loaded."
  (with-temp-buffer
    (should (eql 0 (call-process "emacs" nil t nil "--batch" "-Q"
                                 "-L" (expand-file-name "elisp" sheet-test-root)
                                 "--eval" "(progn (require 'sheet-mode) (princ (format \"command=%s\" (commandp 'sheet-import))))")))
    (should (string-match-p "command=t" (buffer-string)))))

(ert-deftest sheet-import-test-postman-collection-visited ()
  "A collection is imported in the background and its .http file visited."
  (let* ((dir (make-temp-file "sheet-import-" t))
         (done nil))
    (unwind-protect
        (progn
          (sheet-import (expand-file-name "sample-collection.json" sheet-import-test--fixtures)
                        dir nil (lambda (files) (setq done files)))
          (sheet-test-wait-until (lambda () done) 60 "sheet import")
          (should (equal (mapcar #'file-name-nondirectory done) '("Sample-Postman-Collection.http")))
          (let ((visited (get-file-buffer (expand-file-name "Sample-Postman-Collection.http" dir))))
            (should visited)
            (with-current-buffer visited
              ;; In sheet-mode, C-c C-c ready, though `.http' files are not in
              ;; `auto-mode-alist' unless the user opted in.
              (should (eq major-mode 'sheet-mode))
              (should (string-match-p "^### A simple POST request with JSON body$" (buffer-string)))
              (should (string-match-p "^Content-Type: application/json$" (buffer-string))))
            (with-current-buffer sheet-import-buffer-name
              (should (string-match-p "^read .*sample-collection.json (Postman collection v2.0.0)$" (buffer-string))))
            (kill-buffer visited)))
      (delete-directory dir t))))

(ert-deftest sheet-import-test-bruno-folder-visited ()
  "A Bruno collection folder is imported by the same command, its .http file visited."
  (let* ((dir (make-temp-file "sheet-import-" t))
         (done nil))
    (unwind-protect
        (progn
          (sheet-import (expand-file-name "../bruno" sheet-import-test--fixtures)
                        dir nil (lambda (files) (setq done files)))
          (sheet-test-wait-until (lambda () done) 60 "sheet import")
          (should (member "bruno-testbench.http" (mapcar #'file-name-nondirectory done)))
          (let ((visited (get-file-buffer (expand-file-name "bruno-testbench.http" dir))))
            (should visited)
            (with-current-buffer visited
              (should (string-match-p "^### auth / digest / Digest Auth 200$" (buffer-string))))
            (with-current-buffer sheet-import-buffer-name
              (should (string-match-p "ping\\.bru:14: pre-request script line 1 is not converted" (buffer-string))))
            (kill-buffer visited)))
      (delete-directory dir t))))

(ert-deftest sheet-import-test-bad-source-writes-nothing ()
  "A file that is none of the formats: the engine's message, nothing written."
  (let* ((dir (make-temp-file "sheet-import-" t))
         (bad (expand-file-name "bad.json" dir))
         (out (expand-file-name "out" dir)))
    (unwind-protect
        (progn
          (with-temp-file bad (insert "{\"hello\": \"world\"}"))
          (let ((mark (sheet-test-messages-mark)))
            (sheet-import bad out)
            (sheet-test-wait-message "sheet import: .*bad\\.json: not a Postman collection" mark))
          (should (null (directory-files out nil "\\`[^.]"))))
      (delete-directory dir t))))

(provide 'sheet-import-test)
;;; sheet-import-test.el ends here
