;;; run-demo.el --- Send every request of a sheet in batch Emacs  -*- lexical-binding: t; -*-

;;; Commentary:

;; Used by run-demo.sh (`make demo'):
;;   emacs --batch -Q -L elisp -l examples/run-demo.el SHEET
;; Opens SHEET in `sheet-mode', asks the engine for its requests, sends each one with
;; C-c C-v's command, waits for `sheet-response-loaded-hook' (or the error) and prints the
;; response buffer.  Exits 0 only when every request got its response.

;;; Code:

(require 'sheet-mode)

(defun sheet-demo--send-all (file)
  "Send every request of FILE; return the number of failures."
  (let ((failures 0)
        (sheet-log-request nil)
        (done nil)
        (errors-before nil))
    (add-hook 'sheet-response-loaded-hook (lambda () (setq done (current-buffer))))
    (with-current-buffer (find-file-noselect file)
      (sheet-mode)
      (dolist (request (sheet--requests))
        (let ((line (plist-get request :line))
              (deadline (+ (float-time) 20)))
          (goto-char (point-min))
          (forward-line (1- line))
          (princ (format "\n==== line %d: %s %s\n" line
                         (plist-get request :method) (plist-get request :url)))
          (setq done nil
                errors-before (with-current-buffer (messages-buffer) (buffer-size)))
          (sheet-http-send-current-stay-in-window)
          (while (and (not done) sheet-engine--in-flight (< (float-time) deadline))
            (accept-process-output nil 0.05))
          (if done
              (princ (with-current-buffer done (buffer-string)))
            (setq failures (1+ failures))
            (princ (format "NO RESPONSE: %s\n"
                           (with-current-buffer (messages-buffer)
                             (string-trim (buffer-substring (min (1+ errors-before) (point-max)) (point-max))))))))))
    failures))

(let* ((file (car command-line-args-left))
       (failures (condition-case err
                     (sheet-demo--send-all file)
                   (error (princ (format "demo failed: %s\n" (error-message-string err))) 1))))
  (setq command-line-args-left nil)
  (princ (format "\n==== %s\n" (if (zerop failures)
                                   "every request got its response"
                                 (format "%d request(s) got no response" failures))))
  (ignore-errors (sheet-engine-shutdown))
  (kill-emacs (if (zerop failures) 0 1)))

;;; run-demo.el ends here
