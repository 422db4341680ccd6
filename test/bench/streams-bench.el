;;; streams-bench.el --- Streamed responses in batch Emacs  -*- lexical-binding: t; -*-

;;; Commentary:

;; Run by streams.bench.mjs:
;;   emacs --batch -Q -L elisp -l test/bench/streams-bench.el STREAMS-URL COUNT EVERY-MS FAST-COUNT
;; With the real engine and test/fixtures/streams.mjs at STREAMS-URL:
;; - /sse/timed: COUNT events, one each EVERY-MS ms, each carrying the time the server wrote it;
;;   for each event, the time from that write to its text being in the response buffer:
;;     LATENCY <ms, comma-separated>
;; - /sse/fast: FAST-COUNT events at full speed; a 5 ms repeating timer measures the longest
;;   time Emacs did not get to run it (busy: reading the engine's notifications, inserting),
;;   and the time from C-c C-c to the loaded hook:
;;     BUSY <longest ms> <total ms> <events in the trailer>
;;   and the garbage collections meanwhile:
;;     GC <collections> <ms they took in all>

;;; Code:

(require 'sheet-mode)

(defvar streams-bench--done nil "Set by `sheet-response-loaded-hook'.")
(defvar streams-bench--latencies nil "Latencies seen, newest first.")
(defvar streams-bench--scanned nil "Where the latency scan of the stream buffer stopped.")

(defun streams-bench--scan (&rest _)
  "Note the latency of each event inserted since the last scan."
  (let ((now (* 1000 (float-time)))
        (buf (get-buffer sheet-buffer-response-name)))
    (when buf
      (with-current-buffer buf
        (save-excursion
          (goto-char (if (and streams-bench--scanned
                              (<= streams-bench--scanned (point-max)))
                         streams-bench--scanned
                       (point-min)))
          (while (re-search-forward "\"t\": \\([0-9.]+\\)" nil t)
            (push (- now (string-to-number (match-string 1)))
                  streams-bench--latencies))
          (setq streams-bench--scanned (point)))))))

(defun streams-bench--send (url)
  "Send GET URL from a sheet buffer; wait for the loaded hook (at most 120 s)."
  (setq streams-bench--done nil)
  (with-temp-buffer
    (insert "GET " url "\n")
    (sheet-mode)
    (goto-char (point-min))
    (sheet-http-send-current-stay-in-window))
  (let ((deadline (+ (float-time) 120)))
    (while (and (not streams-bench--done) (< (float-time) deadline))
      (accept-process-output nil 0.001)))
  (unless streams-bench--done (error "No answer for %s" url)))

(let* ((base (nth 0 command-line-args-left))
       (count (nth 1 command-line-args-left))
       (every (nth 2 command-line-args-left))
       (fast (nth 3 command-line-args-left))
       (sheet-same-buffer-response t)
       (sheet-log-request nil))
  (setq command-line-args-left nil)
  (add-hook 'sheet-response-loaded-hook (lambda () (setq streams-bench--done t)))
  ;; Warm up: the engine started, the stream code loaded.
  (streams-bench--send (format "%s/sse/fast?n=10" base))
  (advice-add 'sheet-stream--flush :after #'streams-bench--scan)
  (setq streams-bench--scanned nil streams-bench--latencies nil)
  (streams-bench--send (format "%s/sse/timed?n=%s&every=%s" base count every))
  (advice-remove 'sheet-stream--flush #'streams-bench--scan)
  (princ (format "LATENCY %s\n" (mapconcat (lambda (x) (format "%.3f" x))
                                           (reverse streams-bench--latencies) ",")))
  (let* ((last (float-time))
         (longest 0)
         (timer (run-at-time 0.005 0.005
                             (lambda ()
                               (let ((now (float-time)))
                                 (setq longest (max longest (- now last 0.005))
                                       last now)))))
         (gcs gcs-done)
         (gc-time gc-elapsed)
         (start (float-time)))
    (streams-bench--send (format "%s/sse/fast?n=%s" base fast))
    (cancel-timer timer)
    (princ (format "GC %d %.3f\n" (- gcs-done gcs) (* 1000 (- gc-elapsed gc-time))))
    (princ (format "BUSY %.3f %.3f %s\n" (* 1000 longest)
                   (* 1000 (- (float-time) start))
                   (with-current-buffer sheet-buffer-response-name
                     (goto-char (point-max))
                     (if (re-search-backward "stream: \\([0-9]+\\) events" nil t)
                         (match-string 1) "?")))))
  (sheet-engine-shutdown))

;;; streams-bench.el ends here
