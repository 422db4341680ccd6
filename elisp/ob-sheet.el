;;; ob-sheet.el --- Org Babel sheet blocks  -*- lexical-binding: t; -*-

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

;; `#+begin_src sheet' blocks in Org: C-c C-c on one sends its request
;; through the engine (`sheet/send', as C-c C-c in a sheet) and puts
;; the response under it.  Org 9.5 has no asynchronous Babel, so the
;; block gets a placeholder result at once and the response replaces
;; it when it comes (`sheet-babel-async'); blocks run one after the
;; other, so a block sees the overrides (`jq-set-var') of the blocks
;; run before it.  The header arguments are ob-restclient's, plus
;; `:raw', `:pretty', `:file', `:env', `:syntax' and `:async'
;; (docs/sheet-mode.md, "Org Babel").  Enable with
;;
;;   (org-babel-do-load-languages 'org-babel-load-languages
;;                                '((sheet . t) ...))
;;
;; The text and the result are made by sheet-babel.el.

;;; Code:

(require 'ob)
(require 'org-src)
(require 'org-element)
(require 'sheet-mode)
(require 'sheet-babel)

(defvar org-babel-default-header-args:sheet '((:results . "raw"))
  "Default header arguments of `sheet' blocks, ob-restclient's.")

(add-to-list 'org-src-lang-modes '("sheet" . sheet))

(defvar sheet-babel--queue nil
  "The blocks waiting to be sent, oldest first: a list of functions.")

(defvar sheet-babel--busy nil
  "Non-nil while a block's request is in flight.")

(defun sheet-babel--next ()
  "Send the next block of the queue when none is in flight."
  (unless sheet-babel--busy
    (let ((next (pop sheet-babel--queue)))
      (when next
        (setq sheet-babel--busy t)
        (condition-case err
            (funcall next)
          (error (setq sheet-babel--busy nil)
                 (message "Sheet-mode: %s" (error-message-string err))
                 (sheet-babel--next)))))))

(defun sheet-babel--first-request (text path)
  "The line of the first request in the sheet TEXT (read as PATH), or nil."
  (let ((requests (plist-get (sheet-engine--request
                              'sheet/outline
                              (append (list :text text)
                                      (and path (list :path path))))
                             :requests)))
    (and (> (length requests) 0)
         (plist-get (aref requests 0) :line))))

(defun sheet-babel--params (body params)
  "The `sheet/send' params for the block BODY with header arguments PARAMS.
Signal an error naming what is wrong (a bad `:syntax', a `:var'
`.http' cannot hold, a block without a request)."
  (let* ((made (sheet-babel-text body params))
         (text (car made))
         (path buffer-file-name)
         (line (sheet-babel--first-request text path))
         (env (cdr (assq :env params)))
         (jq (sheet-babel-jq params)))
    (unless (and line (> line (cdr made)))
      (error "No request in the block (a request line such as GET URL)"))
    (append (list :text text :line line
                  :raw (if (or (sheet-babel-raw-p params)
                               (cdr (assq :file params)))
                           t :json-false)
                  :settings (sheet-engine--settings))
            (and path (list :path path))
            (and env (list :env (format "%s" env)))
            (and jq (list :jq jq)))))

(defun sheet-babel--answer (result params)
  "The block's result for the engine's RESULT with PARAMS.
Saves the body to `:file' and answers the file name then."
  (sheet-session-note-all (plist-get (plist-get result :hooks) :setVars))
  (let ((file (cdr (assq :file params))))
    (if file
        (format "[[file:%s]]" (progn (sheet-babel-save result file) file))
      (sheet-babel-result result params))))

(defun sheet-babel--send (body params done)
  "Send the block BODY with PARAMS; call DONE with the result when answered.
DONE gets the block's result and whether it is a link to `:file'.
An error of any kind (header arguments, the engine's, the
response's) becomes the result (`sheet-babel-error')."
  (let* ((buffer (current-buffer))
         ;; Org binds it for the block (`:dir'); `:file' is relative to it.
         (dir default-directory)
         (context nil)
         (timer nil)
         (id nil)
         (finished nil)
         (finish (lambda (value file)
                   (unless finished
                     (setq finished t)
                     (when timer (cancel-timer timer))
                     (setq sheet-engine--in-flight
                           (delq id sheet-engine--in-flight))
                     (when context (sheet-engine--end-context context))
                     (setq sheet-babel--busy nil)
                     (unwind-protect (funcall done value file)
                       (sheet-babel--next)))))
         (fail (lambda (text) (funcall finish (sheet-babel-error text params)
                                       nil))))
    (setq sheet-babel--queue
          (append
           sheet-babel--queue
           (list
            (lambda ()
              (condition-case err
                  (with-current-buffer buffer
                    (let ((send (sheet-babel--params body params))
                          (conn (sheet-engine--ensure))
                          (deadline (+ (or sheet-timeout 300)
                                       sheet-timeout-grace)))
                      (setq context (sheet-engine--new-context buffer))
                      (jsonrpc-async-request
                       conn 'sheet/send (append send (list :context context))
                       :timeout nil
                       :success-fn
                       (lambda (result)
                         (condition-case err
                             (let ((default-directory dir))
                               (funcall finish
                                        (sheet-babel--answer result params)
                                        (and (assq :file params) t)))
                           (error (funcall fail (error-message-string err)))))
                       :error-fn
                       (lambda (err)
                         (funcall fail (sheet-engine--error-text err))))
                      ;; \[sheet-cancel] cancels it as any send.
                      (setq id (sheet-engine--last-id conn))
                      (push id sheet-engine--in-flight)
                      (setq timer
                            (run-at-time deadline nil fail
                                         (format "no answer from the engine \
within %ss" deadline)))))
                (error (funcall fail (sheet-engine--error-text err))))))))
    (sheet-babel--next)))

(defun sheet-babel--async-p (params)
  "Non-nil when the block with PARAMS should answer later.
Not when `:async no', not while exporting or resolving a reference
to the block (the value is needed now), and per `sheet-babel-async'."
  (let ((async (cdr (assq :async params)))
        (here (org-babel-where-is-src-block-head)))
    (cond
     ((member async '("no" "nil")) nil)
     ((bound-and-true-p org-export-current-backend) nil)
     ;; Set to the block that refers to this one by `:var x=block'.
     ((and org-babel-current-src-block-location here
           (/= here (if (markerp org-babel-current-src-block-location)
                        (marker-position org-babel-current-src-block-location)
                      org-babel-current-src-block-location)))
      nil)
     ((member async '("yes" "t")) t)
     ((eq sheet-babel-async 'interactive) (not noninteractive))
     (t sheet-babel-async))))

(defun sheet-babel--wait (body params)
  "Send the block BODY with PARAMS and return its result when it comes.
Waits at most `sheet-timeout' (300 s when nil) plus
`sheet-timeout-grace' seconds; \\[keyboard-quit] stops waiting."
  (let ((value nil) (got nil))
    (sheet-babel--send body params
                       (lambda (v _file) (setq value v got t)))
    (let ((deadline (+ (float-time) (or sheet-timeout 300)
                       sheet-timeout-grace 1)))
      (while (and (not got) (< (float-time) deadline))
        (accept-process-output nil 0.05)))
    (cond
     ((not got) (sheet-babel-error "No answer from the engine" params))
     ;; Org writes `:results file' itself: the body is there already.
     ((and (assq :file params)
           (member "file" (cdr (assq :result-params params)))
           (string-prefix-p "[[file:" value))
      nil)
     (t value))))

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

;;;###autoload
(defun org-babel-execute:sheet (body params)
  "Send the request of the `sheet' block BODY with the header args PARAMS.
Called by `org-babel-execute-src-block'.  Returns the result, or,
when the block answers later (`sheet-babel--async-p'), a
placeholder that the result replaces."
  (sheet-babel--clear-raw-result params)
  (if (not (sheet-babel--async-p params))
      (sheet-babel--wait body params)
    (let* ((id (format "sheet: sending... (%s)"
                       (format-time-string "%T.%3N")))
           (marker (copy-marker (org-babel-where-is-src-block-head)))
           (info (let ((i (org-babel-get-src-block-info 'light)))
                   (setf (nth 2 i) params)
                   i)))
      (sheet-babel--send body params
                         (sheet-babel--insert-later marker id params info))
      (message "%s" id)
      ;; With `:results file' Org would write the placeholder to the file.
      (if (member "file" (cdr (assq :result-params params))) nil id))))

;;;###autoload
(defun org-babel-variable-assignments:sheet (params)
  "The declarations of the `:var' values of PARAMS, a list of strings."
  (split-string (sheet-babel-var-lines params) "\n" t))

(defun org-babel-prep-session:sheet (_session _params)
  "Signal an error: sheet blocks share the engine's session already."
  (error "A sheet block has no :session; every block shares the engine's \
variables"))

(provide 'ob-sheet)
;;; ob-sheet.el ends here
