;;; emacs-bench.el --- sheet-mode timings in batch Emacs  -*- lexical-binding: t; -*-

;;; Commentary:

;; Run by emacs.bench.mjs:
;;   emacs --batch -Q -L elisp -l test/bench/emacs-bench.el BASE-URL [SMALL-COUNT] [REPEATS]
;; Measures, with the real engine and the example API at BASE-URL, the time from pressing
;; C-c C-c (the command bound to it, called as a key press would) to
;; `sheet-response-loaded-hook' in the response buffer.  Prints one line per case on stdout:
;;   RESULT <name> <times in ms> <ms before the engine's first byte> <buffer size> <mode>
;; (times comma-separated).  The anchor, what restclient.el does underneath (`url-retrieve'
;; of the same URL, then `json-pretty-print-buffer'), in the same Emacs and run:
;;   ANCHOR <name> <times in ms>
;; The 50 MB case also prints Emacs's memory (VmHWM/VmRSS of /proc/self/status, in kB):
;;   MEMORY <name> <peak kB before> <peak kB after> <rss kB after> <body bytes>
;; and the longest time Emacs was busy at once after the engine's answer (showing the
;; response, or one chunk of a big body: between them Emacs reads input):
;;   BLOCK <name> <ms>

;;; Code:

(require 'sheet-mode)
(require 'url)
(require 'json)

(defvar sheet-bench--done nil "Set by `sheet-response-loaded-hook'.")

(defvar sheet-bench--first-byte nil
  "When the first output of the engine for the current request arrived.")

(defun sheet-bench--watch-engine ()
  "Note when the engine's first output for a request arrives."
  (add-function :before (process-filter sheet-engine--process)
                (lambda (&rest _)
                  (unless sheet-bench--first-byte
                    (setq sheet-bench--first-byte (float-time))))))

(defun sheet-bench--note-loaded ()
  "Record the time the response was loaded."
  (setq sheet-bench--done (float-time)))

(defun sheet-bench--press (keys)
  "Press KEYS in the current buffer and wait for the response.
Return (MS . MS-BEFORE-FIRST-BYTE)."
  (setq sheet-bench--done nil
        sheet-bench--first-byte nil)
  (let ((start (float-time))
        (command (key-binding (kbd keys)))
        (deadline (+ (float-time) 60)))
    (call-interactively command)
    (while (and (not sheet-bench--done) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    (unless sheet-bench--done
      (error "No response within 60 s"))
    (cons (* 1000.0 (- sheet-bench--done start))
          (* 1000.0 (- (or sheet-bench--first-byte start) start)))))

(defun sheet-bench--case (name line repeats)
  "Send the request at LINE REPEATS times; print the RESULT line for NAME."
  (goto-char (point-min))
  (forward-line (1- line))
  (let ((times (cl-loop repeat repeats collect (sheet-bench--press "C-c C-c")))
        (buf (get-buffer sheet-buffer-response-name)))
    (princ (format "RESULT %s %s %s %d %s\n" name
                   (mapconcat (lambda (ms) (format "%.3f" (car ms))) times ",")
                   (mapconcat (lambda (ms) (format "%.3f" (cdr ms))) times ",")
                   (buffer-size buf) (buffer-local-value 'major-mode buf)))
    (message "bench: %s done" name)))

(defun sheet-bench--restclient-like (url)
  "What restclient.el does for URL: `url-retrieve', then pretty-print.
Return the ms from the call to the end of `json-pretty-print-buffer'."
  (let ((start (float-time)) (done nil))
    (url-retrieve url
                  (lambda (_status)
                    (goto-char (point-min))
                    (re-search-forward "\n\n")
                    (delete-region (point-min) (point))
                    (json-pretty-print-buffer)
                    (setq done (float-time))
                    (kill-buffer (current-buffer)))
                  nil t t)
    (while (not done) (accept-process-output nil 0.05))
    (* 1000.0 (- done start))))

(defun sheet-bench--anchor (name url repeats)
  "Print the ANCHOR line for NAME: REPEATS restclient-like fetches of URL."
  (let ((times (cl-loop repeat repeats
                        collect (sheet-bench--restclient-like url))))
    (princ (format "ANCHOR %s %s\n" name
                   (mapconcat (lambda (ms) (format "%.3f" ms)) times ",")))))

(defvar sheet-bench--longest 0 "Longest busy stretch seen, in ms.")

(defun sheet-bench--time-busy (fn &rest args)
  "Call FN with ARGS; note how long it took in `sheet-bench--longest'."
  (let ((start (float-time)))
    (prog1 (apply fn args)
      (setq sheet-bench--longest
            (max sheet-bench--longest (* 1000.0 (- (float-time) start)))))))

(defun sheet-bench--memory ()
  "(VmHWM . VmRSS) of this Emacs, in kB."
  (with-temp-buffer
    (insert-file-contents "/proc/self/status")
    (cl-flet ((field (name)
                (goto-char (point-min))
                (re-search-forward (concat "^" name ":[ \t]*\\([0-9]+\\)"))
                (string-to-number (match-string 1))))
      (cons (field "VmHWM") (field "VmRSS")))))

(let* ((base (nth 0 command-line-args-left))
       (small-count (string-to-number (or (nth 1 command-line-args-left) "100")))
       (repeats (string-to-number (or (nth 2 command-line-args-left) "5")))
       (sheet-log-request nil))
  (setq command-line-args-left nil)
  (add-hook 'sheet-response-loaded-hook #'sheet-bench--note-loaded)
  (with-current-buffer (get-buffer-create "bench.sheet")
    (insert ":base = " base "\n"
            "#\nGET :base/small\n"          ; line 3
            "#\nGET :base/big.json?kb=1024\n" ; line 5
            "#\nGET :base/big.json?kb=5120\n" ; line 7
            "#\nGET :base/big.xml?kb=1024\n"  ; line 9
            "#\nGET :base/big.json?kb=51200\n") ; line 11
    (sheet-mode)
    (switch-to-buffer (current-buffer))
    (sheet-engine--ensure)
    (sheet-bench--watch-engine)
    ;; Warm up: start the engine, open the keep-alive connection, fill the API's caches,
    ;; load the major modes.
    (dolist (line '(3 3 3 5 7 9))
      (goto-char (point-min))
      (forward-line (1- line))
      (sheet-bench--press "C-c C-c")
      (switch-to-buffer "bench.sheet"))
    (garbage-collect)
    (sheet-bench--case "small-json" 3 small-count)
    (sheet-bench--case "json-1mb" 5 repeats)
    (sheet-bench--case "json-5mb" 7 repeats)
    (sheet-bench--case "xml-1mb" 9 repeats)
    (sheet-bench--anchor "small-json" (concat base "/small") small-count)
    ;; The same small case again after the anchor, so both sides see the same machine.
    (sheet-bench--case "small-json-2" 3 small-count)
    (switch-to-buffer "bench.sheet")
    (kill-buffer sheet-buffer-response-name)
    (garbage-collect)
    (let ((before (sheet-bench--memory)))
      (advice-add 'sheet--handle-response :around #'sheet-bench--time-busy)
      (advice-add 'sheet--fill-chunk :around #'sheet-bench--time-busy)
      (setq sheet-bench--longest 0)
      (sheet-bench--case "json-50mb" 11 1)
      (princ (format "BLOCK json-50mb %.3f\n" sheet-bench--longest))
      (let ((after (sheet-bench--memory)))
        (princ (format "MEMORY json-50mb %d %d %d %d\n" (car before) (car after)
                       (cdr after) (* 51200 1024))))))
  (sheet-engine-shutdown)
  (kill-emacs 0))

;;; emacs-bench.el ends here
