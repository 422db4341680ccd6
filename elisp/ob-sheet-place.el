;;; ob-sheet-place.el --- Org results of blocks  -*- lexical-binding: t -*-

;; Copyright (C) 2026 The sheet-rest authors

;; Author: The sheet-rest authors
;; Maintainer: The sheet-rest authors
;; Version: 0.1.0
;; URL: https://github.com/sheet-rest/sheet-rest
;; Keywords: comm, tools, outlines

;; This file is not part of GNU Emacs.

;; Permission is hereby granted, free of charge, to any person
;; obtaining a copy of this software and associated documentation
;; files, to deal in the software without restriction, subject to the
;; MIT license terms shipped with sheet-rest (LICENSE).

;;; Commentary:

;; The Org buffer work of ob-sheet.el's results: the asynchronous
;; result put in place of its placeholder, and a `raw' result Org
;; cannot replace deleted before a run.  Moved unchanged out of
;; ob-sheet.el (files under ~400 lines); loaded by it.

;;; Code:

(require 'ob)
(require 'org-element)
(require 'seq)

(defun sheet-babel--insert-later (marker placeholder params info)
  "Return the function that puts a block's result in place.
MARKER is the block's head, PLACEHOLDER the result it shows
meanwhile, PARAMS its header arguments and INFO its Babel info."
  (lambda (value file)
    (let ((buffer (marker-buffer marker)))
      (when (buffer-live-p buffer)
        (with-current-buffer buffer
          (save-excursion
            (goto-char marker)
            (let ((where (org-babel-where-is-src-block-result nil info)))
              ;; Unless a newer run of the block, or an edit, took the
              ;; place: the placeholder's line goes (Org cannot replace
              ;; a `raw' paragraph), the result comes in its place.
              (when (and where
                         (save-excursion
                           (goto-char where)
                           (forward-line)
                           (cond
                            ((search-forward placeholder
                                             (line-end-position) t)
                             (delete-region (line-beginning-position)
                                            (line-beginning-position 2))
                             t)
                            ((assq :file params)))))
                (org-babel-insert-result
                 value
                 (let ((rp (remove "file" (cdr (assq :result-params params)))))
                   (if file (cons "raw" rp) rp))
                 info)))))))))

(defun sheet-babel--clear-raw-result (params)
  "Delete the block's last `raw' result when Org cannot replace it.
A result inserted raw that is a paragraph (`:results value', a
placeholder) is not an element Org knows the end of, so each run
would add one above the last; PARAMS' `append' and `prepend' keep
it."
  (let ((rp (cdr (assq :result-params params))))
    (when (and (member "raw" rp)
               (not (seq-intersection rp '("append" "prepend" "silent"
                                           "none"))))
      (save-excursion
        (let ((where (org-babel-where-is-src-block-result)))
          (when where
            (goto-char where)
            (forward-line)
            (let ((e (org-element-at-point)))
              (when (and (eq (org-element-type e) 'paragraph)
                         (= (org-element-property :post-affiliated e)
                            (point)))
                (delete-region (point)
                               (org-element-property :contents-end e))))))))))

(provide 'ob-sheet-place)
;;; ob-sheet-place.el ends here
