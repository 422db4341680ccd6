;;; ob-sheet-helper.el --- Org buffers with sheet blocks for the tests  -*- lexical-binding: t; -*-

;;; Commentary:

;; An Org buffer visiting a file in a fresh directory, its `sheet'
;; blocks run and their results read; shared by ob-sheet-test.el and
;; ob-sheet-send-test.el.

;;; Code:

(require 'test-helper)
(require 'ob-sheet)

(defmacro ob-sheet-test-with-org (text &rest body)
  "Run BODY in an Org buffer holding TEXT, `%s' in it replaced by the API's URL.
The buffer visits a file in a new directory, `dir', deleted after."
  (declare (indent 1) (debug t))
  `(let* ((dir (make-temp-file "ob-sheet-test" t))
          (org-confirm-babel-evaluate nil)
          (sheet-log-request nil)
          (buf (find-file-noselect (expand-file-name "notes.org" dir))))
     (unwind-protect
         (with-current-buffer buf
           (insert (replace-regexp-in-string "%s" (sheet-test-api-url) ,text
                                             t t))
           (org-mode)
           (goto-char (point-min))
           ,@body)
       (with-current-buffer buf (set-buffer-modified-p nil))
       (kill-buffer buf)
       (delete-directory dir t))))

(defun ob-sheet-test-run (name)
  "Execute the block named NAME (a `#+name:') and return its result text.
Waits for an asynchronous result to replace the placeholder."
  (goto-char (org-babel-find-named-block name))
  (org-babel-execute-src-block)
  (ob-sheet-test-run-wait name))

(defun ob-sheet-test-run-wait (name)
  "Wait until the block NAME has a result that is not a placeholder; return it."
  (sheet-test-wait-until
   (lambda ()
     (goto-char (org-babel-find-named-block name))
     (let ((text (ob-sheet-test-result)))
       (and text (not (string-match-p "sheet: sending" text)) text)))
   15 (format "the result of %s" name)))

(defun ob-sheet-test-result ()
  "The text of the result of the block at point, or nil."
  (let ((where (org-babel-where-is-src-block-result)))
    (when where
      (save-excursion
        (goto-char where)
        (forward-line)
        (let ((end (org-babel-result-end)))
          ;; A `raw' paragraph: Org's result end is its start.
          (when (= end (point))
            (setq end (or (org-element-property :contents-end
                                                 (org-element-at-point))
                          end)))
          (buffer-substring-no-properties (point) end))))))

(provide 'ob-sheet-helper)
;;; ob-sheet-helper.el ends here
