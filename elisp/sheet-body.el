;;; sheet-body.el --- Sheet response bodies  -*- lexical-binding: t; -*-

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

;; The body of a response as the engine hands it over (docs/protocol.md,
;; `presentation'): inside its answer, or in a private temporary file
;; for big bodies (`bodyFileMin'), as text, an image or bytes.  Inserts
;; it into the response buffer, whole or, for a text body far above
;; `sheet-response-size-threshold', chunk by chunk from timers so that
;; Emacs stays usable while it fills; deletes the engine's files
;; whatever happens.  Used by sheet-response.el and sheet-send.el.

;;; Code:

(require 'subr-x)

(defun sheet--insert-file (file)
  "Insert FILE, UTF-8 text from the engine, at point; leave point after it.
Into an empty buffer, the bytes are inserted as they are and the
buffer then made multibyte: Emacs's internal form of text is
UTF-8, so valid UTF-8 (what the engine writes) becomes the same
characters as decoding would give, about a third faster for big
bodies."
  (let ((file-name-handler-alist nil))
    (if (and (zerop (buffer-size)) enable-multibyte-characters)
        (progn
          (set-buffer-multibyte nil)
          (unwind-protect (insert-file-contents-literally file)
            (set-buffer-multibyte t))
          (goto-char (point-max)))
      (let ((coding-system-for-read 'utf-8-unix))
        (goto-char (+ (point) (cadr (insert-file-contents file))))))))

(defun sheet--file-bytes (file)
  "The bytes of FILE, a unibyte string."
  (with-temp-buffer
    (set-buffer-multibyte nil)
    (let ((file-name-handler-alist nil))
      (insert-file-contents-literally file))
    (buffer-string)))

(defun sheet--delete-body-file (presentation)
  "Delete the file holding the body of PRESENTATION, if any, and its directory.
The engine writes each such file alone in a fresh private directory."
  (let ((file (plist-get presentation :file))
        (file-name-handler-alist nil))
    (when (stringp file)
      (ignore-errors (delete-file file))
      (ignore-errors (delete-directory (file-name-directory file))))))

(defun sheet--insert-body (presentation raw)
  "Insert the body of PRESENTATION at point.  RAW: bytes untouched.
A body the engine handed over in a file is read from it, and the
file is deleted, whatever happens."
  (let ((kind (plist-get presentation :kind))
        (type (plist-get presentation :contentType))
        (file (plist-get presentation :file)))
    (unwind-protect
        (pcase kind
          ("text" (if file
                      (sheet--insert-file file)
                    (insert (or (plist-get presentation :text) ""))))
          ((or "image" "binary")
           (let ((bytes (if file
                            (sheet--file-bytes file)
                          (base64-decode-string
                           (or (plist-get presentation :base64) "")))))
             (cond
              (raw (insert (decode-coding-string bytes 'raw-text)))
              ((and (equal kind "image") (display-images-p)
                    (image-type-from-data bytes))
               (insert-image (create-image bytes nil t) "[image]")
               (insert "\n"))
              ((equal kind "image")
               (insert (format "[image %s, %d bytes: this Emacs cannot \
display images]\n"
                               type (length bytes))))
              (t
               (insert (format "[binary body %s, %d bytes, not shown; \
C-c C-r shows it raw]\n"
                               (if (string-empty-p type)
                                   "(no content type)"
                                 type)
                               (length bytes))))))))
      (sheet--delete-body-file presentation))))

(defun sheet--insert-as-received (presentation)
  "Insert the body of PRESENTATION as received, if the engine sent it.
Return non-nil when it did: the body was pretty-printed and the
engine also sent it as received (`received' in docs/protocol.md)."
  (let ((text (plist-get presentation :received))
        (file (plist-get presentation :receivedFile)))
    (cond
     (file (unwind-protect (save-excursion (sheet--insert-file file))
             (sheet--delete-body-file (list :file file)))
           t)
     (text (save-excursion (insert text)) t))))

;;; Filling a big body chunk by chunk

(defvar sheet--fill-chunk-bytes (* 2 1024 1024)
  "Bytes of a big body inserted at a time while its buffer fills.")

(defvar-local sheet--filling nil
  "In a response buffer filling chunk by chunk: (TIMER . FILE), or nil.")

(defun sheet--progressive-file (result raw threshold)
  "The body file of RESULT to insert chunk by chunk, or nil.
A text body in a file bigger than 10 x THRESHOLD bytes (the size
above which the buffer stays in `fundamental-mode'), not RAW and
not asked for as received."
  (let* ((presentation (plist-get result :presentation))
         (file (plist-get presentation :file)))
    (and (not raw) threshold (stringp file)
         (equal (plist-get presentation :kind) "text")
         (not (plist-get presentation :received))
         (not (plist-get presentation :receivedFile))
         (> (or (file-attribute-size (file-attributes file)) 0)
            (max (* 10 threshold) sheet--fill-chunk-bytes))
         file)))

(defun sheet--chunk-end (file beg size)
  "Where the chunk of FILE from BEG ends: a character start, at most SIZE."
  (let ((end (min size (+ beg sheet--fill-chunk-bytes))))
    (if (>= end size)
        size
      (with-temp-buffer
        (set-buffer-multibyte nil)
        (let ((file-name-handler-alist nil))
          (insert-file-contents-literally file nil end (min size (+ end 4))))
        (goto-char (point-min))
        ;; Skip UTF-8 continuation bytes (10xxxxxx): the chunk ends
        ;; after a whole character.
        (while (and (not (eobp)) (= (logand (char-after) #xC0) #x80))
          (forward-char))
        (+ end (1- (point)))))))

(defun sheet--fill-chunk (buf file beg size finish)
  "Insert the next chunk of FILE (SIZE bytes) from BEG into BUF.
Schedule the next one, or call FINISH after the last.  Between
chunks Emacs reads input: the buffer can be used while it fills,
and \\[keyboard-quit] or \\[sheet-cancel] stop the filling."
  (if (not (buffer-live-p buf))
      (sheet--delete-body-file (list :file file))
    (with-current-buffer buf
      (setq sheet--filling nil)
      (condition-case err
          (let ((end (sheet--chunk-end file beg size))
                (inhibit-read-only t)
                (coding-system-for-read 'utf-8-unix)
                (file-name-handler-alist nil))
            (save-excursion
              (goto-char (point-max))
              (insert-file-contents file nil beg end))
            (if (< end size)
                (setq sheet--filling
                      (cons (run-at-time 0 nil #'sheet--fill-chunk
                                         buf file end size finish)
                            file))
              (sheet--delete-body-file (list :file file))
              (funcall finish)))
        ((quit error)
         (sheet--delete-body-file (list :file file))
         (message "Sheet-mode: filling %s stopped (%s)" (buffer-name buf)
                  (if (eq (car err) 'quit) "quit"
                    (error-message-string err))))))))

(defun sheet--stop-filling ()
  "Stop every response buffer that is filling; return how many were."
  (let ((n 0))
    (dolist (b (buffer-list))
      (when-let ((filling (buffer-local-value 'sheet--filling b)))
        (cancel-timer (car filling))
        (sheet--delete-body-file (list :file (cdr filling)))
        (with-current-buffer b (setq sheet--filling nil))
        (setq n (1+ n))))
    n))

(provide 'sheet-body)
;;; sheet-body.el ends here
