;;; streams-endless.el --- An endless stream into sheet-mode  -*- lexical-binding: t; -*-

;;; Commentary:

;; Run by streams-endless.bench.mjs:
;;   emacs --batch -Q -L elisp -l test/bench/streams-endless.el URL SECONDS
;; Sends GET URL (an endless Server-Sent Events stream) from a sheet buffer, lets the events
;; come into the response buffer for SECONDS, then cancels (C-c C-k) and prints
;;   BUFFER <response buffer characters before the cancel> <events in the trailer>
;; The bench samples this Emacs's and its engine's memory meanwhile.

;;; Code:

(require 'sheet-mode)

(let* ((url (nth 0 command-line-args-left))
       (seconds (string-to-number (nth 1 command-line-args-left)))
       (sheet-same-buffer-response t)
       (sheet-log-request nil)
       (done nil)
       size)
  (setq command-line-args-left nil)
  (add-hook 'sheet-response-loaded-hook (lambda () (setq done t)))
  (with-current-buffer (get-buffer-create "endless.sheet")
    (insert "GET " url "\n")
    (sheet-mode)
    (goto-char (point-min))
    (sheet-http-send-current-stay-in-window))
  (princ "STARTED\n")
  (let ((deadline (+ (float-time) seconds)))
    (while (< (float-time) deadline)
      (accept-process-output nil 0.05)))
  (setq size (with-current-buffer sheet-buffer-response-name (buffer-size)))
  (with-current-buffer "endless.sheet" (sheet-cancel))
  (let ((deadline (+ (float-time) 5)))
    (while (and (not done) (< (float-time) deadline))
      (accept-process-output nil 0.05)))
  (princ (format "BUFFER %d %s\n" size
                 (with-current-buffer sheet-buffer-response-name
                   (goto-char (point-max))
                   (if (re-search-backward "stream: \\([0-9]+\\) events" nil t)
                       (match-string 1) "?"))))
  (sheet-engine-shutdown))

;;; streams-endless.el ends here
