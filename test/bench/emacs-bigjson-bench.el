;;; emacs-bigjson-bench.el --- A 50 MB JSON response in a terminal Emacs  -*- lexical-binding: t; -*-

;;; Commentary:

;; Run by emacs-bigjson.bench.mjs in a terminal Emacs on a pseudo-terminal (`emacs -nw',
;; so that redisplay is real), with the keys typed on the terminal by the driver:
;;   SHEET_BENCH_BASE=URL SHEET_BENCH_OUT=FILE emacs -nw -Q -L elisp -l emacs-bigjson-bench.el
;; The sheet buffer holds GET :base/big.json?kb=51200 at point.  C-c C-c sends it
;; (sheet-mode), C-c s goes back to the sheet; C-c a fetches the same URL as restclient.el
;; does underneath, the anchor (`url-retrieve', then `json-pretty-print-buffer', the
;; buffer shown in `fundamental-mode' as restclient.el shows a body over its size
;; threshold).  Lines appended to FILE:
;;   READY                          the engine is started and warmed up
;;   LOADED <who> <ms> <chars> <lines> <mode> <so-long> <ms after the answer>
;;                                  key press to `sheet-response-loaded-hook' (sheet), or to
;;                                  the pretty-printed buffer shown (anchor); the part of it
;;                                  after the engine's answer reached Emacs (sheet), or
;;                                  after `url-retrieve''s callback began (anchor)
;;   CMD <who> <command> <ms>       one command in the response buffer, from the key press to
;;                                  the end of the redisplay after it (M->, M-<, each key of
;;                                  an isearch)
;;   TARGET <string>                the string the search looks for (the last element's name)
;;   MEMORY <who> <VmHWM kB>        after a response was loaded
;; The driver types the keys one after another once the previous line has come.

;;; Code:

(require 'sheet-mode)
(require 'url)
(require 'json)
(require 'cl-lib)

(defvar sheet-bench-big--out (getenv "SHEET_BENCH_OUT") "File the results go to.")
(defvar sheet-bench-big--base (getenv "SHEET_BENCH_BASE") "The example API's URL.")
(defvar sheet-bench-big--who "sheet" "Whose buffer the next commands are timed in.")
(defvar sheet-bench-big--start nil "When the current command's key press was read.")
(defvar sheet-bench-big--answer nil "When the answer to the current request arrived.")

(defun sheet-bench-big--log (fmt &rest args)
  "Append the line FMT (`format' with ARGS) to the results file."
  (let ((line (concat (apply #'format fmt args) "\n"))
        (coding-system-for-write 'utf-8-unix))
    (write-region line nil sheet-bench-big--out t 'silent)))

(defun sheet-bench-big--vmhwm ()
  "Peak resident memory of this Emacs, in kB."
  (with-temp-buffer
    (insert-file-contents "/proc/self/status")
    (re-search-forward "^VmHWM:[ \t]*\\([0-9]+\\)")
    (string-to-number (match-string 1))))

(defun sheet-bench-big--pre ()
  "Note when a command's key press was read."
  (setq sheet-bench-big--start (float-time)))

(defun sheet-bench-big--post ()
  "Log the time of a timed command, its redisplay included."
  (when (memq this-command '(end-of-buffer beginning-of-buffer isearch-forward
                                           isearch-printing-char isearch-exit))
    (redisplay t)
    (sheet-bench-big--log "CMD %s %s %.3f" sheet-bench-big--who this-command
                          (* 1000 (- (float-time) sheet-bench-big--start)))))

(defun sheet-bench-big--loaded (who &optional ms)
  "Log that WHO's response is in the selected window, shown.
MS: the time it took, by default from the key press until now."
  (let* ((ms (or ms (* 1000 (- (float-time) sheet-bench-big--start))))
         (after (- ms (* 1000 (- sheet-bench-big--answer sheet-bench-big--start)))))
    (delete-other-windows)
    (goto-char (point-min))
    (sheet-bench-big--log "LOADED %s %.3f %d %d %s %s %.3f" who ms (buffer-size)
                          (count-lines (point-min) (point-max)) major-mode
                          (if (bound-and-true-p so-long-minor-mode) "so-long" "-")
                          after)
    (save-excursion
      (goto-char (point-max))
      (when (re-search-backward "\"name\": *\"\\(user [0-9]+\\)\"" nil t)
        (sheet-bench-big--log "TARGET %s" (match-string 1))))
    (sheet-bench-big--log "MEMORY %s %d" who (sheet-bench-big--vmhwm))
    (setq sheet-bench-big--who who)))

(defun sheet-bench-big--sheet-loaded ()
  "`sheet-response-loaded-hook': the sheet-mode side is loaded."
  ;; After the hook, from a timer: the buffer is then displayed as the user sees it.
  (let ((buf (current-buffer))
        (ms (* 1000 (- (float-time) sheet-bench-big--start))))
    (run-at-time 0 nil (lambda ()
                         (switch-to-buffer buf)
                         (sheet-bench-big--loaded "sheet" ms)))))

(defun sheet-bench-big-anchor ()
  "What restclient.el does underneath, for the same URL: the anchor."
  (interactive)
  (when (get-buffer sheet-buffer-response-name)
    (kill-buffer sheet-buffer-response-name))
  (garbage-collect)
  (url-retrieve (concat sheet-bench-big--base "/big.json?kb=51200")
                (lambda (_status)
                  (setq sheet-bench-big--answer (float-time))
                  (goto-char (point-min))
                  (re-search-forward "\n\n")
                  (delete-region (point-min) (point))
                  (json-pretty-print-buffer)
                  (fundamental-mode)
                  (rename-buffer "*anchor*")
                  (switch-to-buffer (current-buffer))
                  (sheet-bench-big--loaded "anchor"))
                nil t t))

(defun sheet-bench-big-back ()
  "Back to the sheet, point on the big request, for the next C-c C-c."
  (interactive)
  (switch-to-buffer "bench.sheet")
  (goto-char (point-min))
  (forward-line 1))

(defun sheet-bench-big--main ()
  "Warm the engine up, then wait for the driver's keys."
  (switch-to-buffer (get-buffer-create "bench.sheet"))
  (insert ":base = " sheet-bench-big--base "\n"
          "GET :base/big.json?kb=51200\n#\nGET :base/small\n")
  (sheet-mode)
  (setq-local sheet-log-request nil)
  ;; Warm up: the engine started, its keep-alive connection open.
  (let ((done nil))
    (let ((sheet-response-loaded-hook (list (lambda () (setq done t)))))
      (goto-char (point-min))
      (forward-line 3)
      (sheet-http-send-current-stay-in-window)
      (while (not done) (accept-process-output nil 0.05))))
  (delete-other-windows)
  (goto-char (point-min))
  (forward-line 1)
  (add-hook 'sheet-response-loaded-hook #'sheet-bench-big--sheet-loaded)
  (advice-add 'sheet--handle-response :before
              (lambda (&rest _) (setq sheet-bench-big--answer (float-time))))
  (add-hook 'pre-command-hook #'sheet-bench-big--pre)
  (add-hook 'post-command-hook #'sheet-bench-big--post)
  (global-set-key (kbd "C-c a") #'sheet-bench-big-anchor)
  (global-set-key (kbd "C-c s") #'sheet-bench-big-back)
  (garbage-collect)
  (redisplay t)
  (sheet-bench-big--log "READY"))

(setq sheet-log-request nil)
(run-at-time 0.5 nil #'sheet-bench-big--main)

;;; emacs-bigjson-bench.el ends here
