;;; sheet-history.el --- Sheet response history  -*- lexical-binding: t; -*-

;; Copyright (C) 2026 The sheet-rest authors

;; Author: The sheet-rest authors
;; Maintainer: The sheet-rest authors
;; Version: 0.1.0
;; URL: https://github.com/sheet-rest/sheet-rest
;; Keywords: comm, tools

;; This file is not part of GNU Emacs.

;; Permission is hereby granted, free of charge, to any person
;; obtaining a copy of this software and associated documentation
;; files, to deal in the software without restriction, subject to the
;; MIT license terms shipped with sheet-rest (LICENSE).

;;; Commentary:

;; The last `sheet-response-history-size' responses of each request,
;; in memory for the Emacs session: \\[sheet-response-history] picks
;; one (status, time, size, duration beside each) and shows it in the
;; response buffer as it was shown; `sheet-response-diff' shows the
;; difference between the bodies of the request's last two.
;;
;; A request is known by its file (or buffer name) and its identity
;; (`sheet-history-identity'): its `# @name', else its request line as
;; written, `GET :base/users/:id', and which of the requests with that
;; line it is (issue 37 item 7: two `POST :base/echo' of a GraphQL
;; sheet shared one history before).  The history survives edits
;; anywhere else (lines added above it, its headers and body changed,
;; other requests added or moved) and a new request line starts a new
;; history.
;; Filled by sheet-response.el when a response buffer is, and by
;; ob-sheet.el when an Org `sheet' block is answered (the Org file,
;; the block's first request line); loaded by sheet-send.el.

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'diff)
(require 'sheet-custom)
(require 'sheet-response)

(declare-function sheet--request-label "sheet-send" ())
(declare-function sheet--request-line-regexp "sheet-send" ())
(declare-function sheet--matched-label "sheet-send" ())
(declare-function sheet--first-request-label "sheet-send" (text))
(declare-function org-src-edit-buffer-p "org-src" (&optional buffer))
(declare-function org-src-source-buffer "org-src" ())
(declare-function org-babel-get-src-block-info "ob-core"
                  (&optional no-eval datum))

(defvar sheet-history--table (make-hash-table :test #'equal)
  "The responses kept, by key (`sheet-history-key'), newest first.
Each is a plist: :time (when it came), :result (the engine's
answer, the body taken out), :raw, :body (its text as shown, or nil
when longer than `sheet-response-history-max-body'), :size (bytes
received).")

(defun sheet-history-key (buffer label)
  "The history key of the request LABEL (\"GET :base/x\") of BUFFER.
BUFFER's file, or its name; for Org's edit buffer of a block
\(\\[org-edit-special]), the Org file's: a block sent from there
shares the block's history (ob-sheet.el)."
  (with-current-buffer buffer
    (let ((source (and (fboundp 'org-src-edit-buffer-p)
                       (org-src-edit-buffer-p)
                       (org-src-source-buffer))))
      (with-current-buffer (if (buffer-live-p source) source buffer)
        (cons (or buffer-file-name (buffer-name)) label)))))

(defun sheet-history-identity (where)
  "The identity of the request WHERE, (START . LABEL), of the current buffer.
\"@NAME\" when a `# @name NAME' line (or `// @name') is among the
comment lines just above its request line at START; else LABEL, its
request line as written, followed by \" #N\" when it is the Nth
request with that line in the buffer (N > 1).  A text scan: no
outline round trip."
  (save-excursion
    (save-restriction
      (widen)
      (goto-char (car where))
      (or (catch 'name
            (while (and (zerop (forward-line -1))
                        (looking-at "\\(?:#\\|//\\)"))
              (when (looking-at
                     "\\(?:#\\|//\\)[ \t]*@name[ \t]+\\([^ \t\n]+\\)")
                (throw 'name (concat "@" (match-string-no-properties 1)))))
            nil)
          (let ((n 1) (re (sheet--request-line-regexp)))
            (goto-char (point-min))
            (while (re-search-forward re (car where) t)
              (when (equal (sheet--matched-label) (cdr where))
                (setq n (1+ n))))
            (if (= n 1) (cdr where) (format "%s #%d" (cdr where) n)))))))

(defun sheet-history--strip (result)
  "RESULT with its presentation's body (text, file, bytes) left out."
  (let ((copy (copy-sequence result))
        (presentation (copy-sequence (plist-get result :presentation))))
    (dolist (k '(:text :file :base64 :received :receivedFile))
      (setq presentation (plist-put presentation k nil)))
    (plist-put copy :presentation presentation)))

(defun sheet-history-record (key result raw)
  "Keep the response RESULT of the request KEY; RAW: the raw layout.
The current buffer holds its body, as shown, and nothing else yet."
  (when (and key (> sheet-response-history-size 0))
    (let* ((size (buffer-size))
           (entry (list :time (current-time)
                        :result (sheet-history--strip result)
                        :raw raw
                        :body (and (<= size sheet-response-history-max-body)
                                   (buffer-substring-no-properties
                                    (point-min) (point-max)))
                        :size (plist-get (plist-get result :response)
                                         :bytes)))
           (list (cons entry (gethash key sheet-history--table))))
      (puthash key (seq-take list sheet-response-history-size)
               sheet-history--table))))

(defun sheet-history--label-at-point ()
  "The identity of the request at point, or nil.
In a sheet, `sheet-history-identity' of the request at point; in
Org, the first request line of the `sheet' block at point
\(ob-sheet.el records the block's responses under it)."
  (if (derived-mode-p 'org-mode)
      (let ((info (org-babel-get-src-block-info 'light)))
        (and info (equal (car info) "sheet")
             (sheet--first-request-label (nth 1 info))))
    (let ((where (sheet--request-label)))
      (and where (sheet-history-identity where)))))

(defun sheet-history--at-point ()
  "The key and the responses of the request at point, or a `user-error'."
  (let* ((label (or (sheet-history--label-at-point)
                    (user-error "No request at point")))
         (key (sheet-history-key (current-buffer) label))
         (entries (gethash key sheet-history--table)))
    (unless entries
      (user-error "No response of %s yet in this session" label))
    (cons key entries)))

(defun sheet-history--describe (entry)
  "Status, size and duration of the history ENTRY, one line."
  (let* ((result (plist-get entry :result))
         (response (plist-get result :response)))
    (format "%s %s  %s  %.0f ms%s"
            (plist-get response :status)
            (or (plist-get response :statusText) "")
            (file-size-human-readable (or (plist-get entry :size) 0))
            (or (plist-get result :durationMs) 0)
            (if (plist-get entry :body) "" "  (body not kept)"))))

(defun sheet-history--candidates (entries)
  "An alist (LABEL . ENTRY) of ENTRIES, newest first, LABEL unique."
  (let ((n (length entries)))
    (cl-loop for e in entries
             for i downfrom n
             collect (cons (format "#%d %s" i
                                   (format-time-string
                                    "%T.%3N" (plist-get e :time)))
                           e))))

(defun sheet-history--read (entries)
  "Ask for one of ENTRIES with `completing-read'; return it."
  (let* ((alist (sheet-history--candidates entries))
         (table (lambda (string pred action)
                  (if (eq action 'metadata)
                      `(metadata
                        (display-sort-function . identity)
                        (annotation-function
                         . ,(lambda (c)
                              (concat "  " (sheet-history--describe
                                            (cdr (assoc c alist)))))))
                    (complete-with-action action alist string pred))))
         (choice (completing-read "Response: " table nil t nil nil
                                  (caar alist))))
    (cdr (assoc choice alist))))

(defun sheet-history-show (entry &optional display)
  "Show the history ENTRY in the response buffer; return the buffer.
As it was shown, with a last comment line saying when it came.
DISPLAY non-nil: display the buffer too."
  (let* ((result (plist-get entry :result))
         (request (plist-get result :request))
         (buf (sheet--response-buffer (plist-get request :method)
                                      (plist-get request :url))))
    (with-current-buffer buf
      (let ((inhibit-read-only t))
        (insert (or (plist-get entry :body)
                    (format "[body of %s not kept: over \
`sheet-response-history-max-body']\n"
                            (file-size-human-readable
                             (or (plist-get entry :size) 0)))))
        (if (plist-get entry :raw)
            (fundamental-mode)
          (sheet--format-response result)
          (goto-char (point-max))
          (sheet--insert-comment-lines
           (list (format-time-string "From the history: received %F %T"
                                     (plist-get entry :time))))
          (goto-char (point-min)))
        (setq sheet--response-info result)
        (sheet-response-mode 1)
        (buffer-enable-undo)
        (set-buffer-modified-p nil)
        (setq buffer-read-only nil)))
    (when display (display-buffer buf))
    buf))

(defun sheet-response-history ()
  "Show one of the last responses of the request at point.
Chosen with `completing-read', newest first, each annotated with
its status, size and duration; shown in the response buffer as
when it came.  The history keeps `sheet-response-history-size'
responses per request line for the session."
  (interactive)
  (let ((entries (cdr (sheet-history--at-point))))
    (sheet-history-show (if (cdr entries)
                            (sheet-history--read entries)
                          (car entries))
                        t)))

(defun sheet-response-diff ()
  "Show the difference between the bodies of the request's last two responses.
The request at point; the older body is the `---' side.  A
`diff-mode' buffer, `*sheet diff*', made by `diff-no-select'."
  (interactive)
  (let* ((entries (cdr (sheet-history--at-point)))
         (new (car entries))
         (old (cadr entries)))
    (unless old
      (user-error "Only one response of this request yet; send it again"))
    (unless (and (plist-get old :body) (plist-get new :body))
      (user-error "A body is over `sheet-response-history-max-body' \
and was not kept"))
    (let ((a (generate-new-buffer " *sheet diff old*"))
          (b (generate-new-buffer " *sheet diff new*")))
      (unwind-protect
          (progn
            (with-current-buffer a (insert (plist-get old :body)))
            (with-current-buffer b (insert (plist-get new :body)))
            (let ((buf (diff-no-select a b "-u" t
                                       (get-buffer-create "*sheet diff*"))))
              (display-buffer buf)
              buf))
        (kill-buffer a)
        (kill-buffer b)))))

(provide 'sheet-history)
;;; sheet-history.el ends here
