;;; emacs-bench.el --- sheet-mode timings in batch Emacs  -*- lexical-binding: t; -*-

;;; Commentary:

;; Run by emacs.bench.mjs:
;;   emacs --batch -Q -L elisp -l test/bench/emacs-bench.el BASE-URL [SMALL-COUNT] [REPEATS]
;; Measures, with the real engine and the example API at BASE-URL, the time from pressing
;; C-c C-c (the command bound to it, called as a key press would) to
;; `sheet-response-loaded-hook' in the response buffer.  Prints one line per case on stdout:
;;   RESULT <name> <times in ms> <ms before the engine's first byte> <buffer size> <mode>
;; (times comma-separated).  The small request is measured interleaved, one of each in turn,
;; so that all see the same machine, with the anchor, what restclient.el does underneath
;; (`url-retrieve' of the same URL, then `json-pretty-print-buffer'):
;;   ANCHOR <name> <times in ms>
;; and the floor of any engine behind a pipe (test/bench/floor-http.cjs: a pipe round trip to
;; a Node process plus one undici GET, the reply parsed with `json-parse-string'):
;;   FLOOR <name> <times in ms>
;; Where a small request's time goes, per stage (medians, ms; see `sheet-bench--stages'):
;;   STAGES <name> <send> <engine> <jsonrpc> <fill> <format>
;; and what setting up the response's major mode alone costs (the JSON mode, on the body):
;;   MODE <name> <mode> <ms>
;; and the small request without and with a cookie jar file (`sheet-cookie-jar-file'), in turn:
;;   JAR <name> <times in ms without> <times in ms with>
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

(defvar sheet-bench--marks nil
  "Times of the stages of the current request: an alist (STAGE . TIME).")

(defun sheet-bench--mark (stage)
  "Note that the current request reached STAGE now (the first time only)."
  (unless (assq stage sheet-bench--marks)
    (push (cons stage (float-time)) sheet-bench--marks)))

(defun sheet-bench--watch-stages ()
  "Note the stages of each request: the answer handled, then formatted."
  (advice-add 'sheet--handle-response :before
              (lambda (&rest _) (sheet-bench--mark 'handle))
              '((name . sheet-bench)))
  (advice-add 'sheet--format-response :before
              (lambda (&rest _) (sheet-bench--mark 'format))
              '((name . sheet-bench))))

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
Return (MS . MS-BEFORE-FIRST-BYTE); the stages are in `sheet-bench--marks'."
  (setq sheet-bench--done nil
        sheet-bench--first-byte nil
        sheet-bench--marks nil)
  (let ((start (float-time))
        (command (key-binding (kbd keys)))
        (deadline (+ (float-time) 60)))
    (sheet-bench--mark 'start)
    (call-interactively command)
    (sheet-bench--mark 'sent)
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

(defvar sheet-bench--floor-process nil "The floor's Node process.")
(defvar sheet-bench--floor-reply nil "The floor's last reply, parsed.")

(defun sheet-bench--floor (url)
  "The floor of a request through a subprocess: URL fetched by floor-http.cjs.
Return the ms from writing URL on its pipe to its reply parsed."
  (unless (process-live-p sheet-bench--floor-process)
    (setq sheet-bench--floor-process
          (let ((process-adaptive-read-buffering nil) (pending ""))
            (make-process
             :name "bench-floor" :connection-type 'pipe :noquery t
             :coding 'utf-8-emacs-unix
             :command (list "node" (expand-file-name
                                    "floor-http.cjs"
                                    (file-name-directory
                                     (or load-file-name buffer-file-name))))
             :filter (lambda (_proc string)
                       (setq pending (concat pending string))
                       (when (string-suffix-p "\n" pending)
                         (setq sheet-bench--floor-reply
                               (json-parse-string pending :object-type 'plist)
                               pending "")))))))
  (setq sheet-bench--floor-reply nil)
  (let ((start (float-time)) (deadline (+ (float-time) 60)))
    (process-send-string sheet-bench--floor-process (concat url "\n"))
    (while (and (not sheet-bench--floor-reply) (< (float-time) deadline))
      (accept-process-output sheet-bench--floor-process 0.05))
    (unless (eql (plist-get sheet-bench--floor-reply :status) 200)
      (error "Floor: no answer for %s: %S" url sheet-bench--floor-reply))
    (* 1000.0 (- (float-time) start))))

(defun sheet-bench--median (xs)
  "The median of the numbers XS."
  (let ((s (sort (copy-sequence xs) #'<)) (n (length xs)))
    (if (cl-oddp n) (nth (/ n 2) s)
      (/ (+ (nth (1- (/ n 2)) s) (nth (/ n 2) s)) 2.0))))

(defun sheet-bench--stages ()
  "The stages of the last request, in ms: send, engine, jsonrpc, fill, format.
Send: the key press until the command returned (the request written to
the engine, the mode line and echo area updated).  Engine: from there to
the first byte of its answer (parse, HTTP exchange, presentation, reply,
pipe).  Jsonrpc: jsonrpc.el reading and parsing the answer until
`sheet--handle-response'.  Fill: the response buffer emptied and filled
with the body, the received hook.  Format: the major mode, the trailer,
the loaded hook."
  (let ((at (lambda (stage) (cdr (assq stage sheet-bench--marks)))))
    (list (- (funcall at 'sent) (funcall at 'start))
          (- sheet-bench--first-byte (funcall at 'sent))
          (- (funcall at 'handle) sheet-bench--first-byte)
          (- (funcall at 'format) (funcall at 'handle))
          (- sheet-bench--done (funcall at 'format)))))

(defun sheet-bench--small (name line url repeats)
  "Measure the small request at LINE of URL, REPEATS times, interleaved.
Each round sends it with C-c C-c, then fetches URL as restclient.el does
\(the anchor), then through the floor; prints RESULT, ANCHOR, FLOOR and
STAGES lines for NAME."
  (let (times anchor floor stages)
    (dotimes (_ repeats)
      (goto-char (point-min))
      (forward-line (1- line))
      (push (sheet-bench--press "C-c C-c") times)
      (push (sheet-bench--stages) stages)
      (push (sheet-bench--restclient-like url) anchor)
      (push (sheet-bench--floor url) floor))
    (let ((buf (get-buffer sheet-buffer-response-name))
          (ms (lambda (xs) (mapconcat (lambda (ms) (format "%.3f" ms)) xs ","))))
      (princ (format "RESULT %s %s %s %d %s\n" name
                     (funcall ms (mapcar #'car times))
                     (funcall ms (mapcar #'cdr times))
                     (buffer-size buf) (buffer-local-value 'major-mode buf)))
      (princ (format "ANCHOR %s %s\n" name (funcall ms anchor)))
      (princ (format "FLOOR %s %s\n" name (funcall ms floor)))
      (princ (format "STAGES %s %s\n" name
                     (mapconcat (lambda (i)
                                  (format "%.3f" (* 1000 (sheet-bench--median
                                                          (mapcar (lambda (s) (nth i s))
                                                                  stages)))))
                                '(0 1 2 3 4) " ")))
      ;; The response's major mode alone, on the same body: what restclient.el also
      ;; pays, and the anchor does not.
      (let* ((mode (buffer-local-value 'major-mode buf))
             (body (with-current-buffer buf
                     (buffer-substring-no-properties (point-min) (point-max))))
             (mode-ms (with-temp-buffer
                        (insert body)
                        (cl-loop repeat repeats
                                 collect (progn
                                           (fundamental-mode)
                                           (let ((start (float-time)))
                                             (funcall mode)
                                             (* 1000.0 (- (float-time) start))))))))
        (princ (format "MODE %s %s %.3f\n" name mode
                       (sheet-bench--median mode-ms)))))
    (message "bench: %s done" name)))

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
    (sheet-bench--watch-stages)
    ;; Warm up: start the engine, open the keep-alive connection, fill the API's caches,
    ;; load the major modes.
    (dolist (line '(3 3 3 5 7 9))
      (goto-char (point-min))
      (forward-line (1- line))
      (sheet-bench--press "C-c C-c")
      (switch-to-buffer "bench.sheet"))
    ;; The anchor's and the floor's connections opened too.
    (sheet-bench--restclient-like (concat base "/small"))
    (sheet-bench--floor (concat base "/small"))
    (garbage-collect)
    (sheet-bench--small "small-json" 3 (concat base "/small") small-count)
    ;; The same request with a cookie jar file holding one cookie (the response sets none),
    ;; as `sheet-cookie-jar-file' users have it, and without, in turn.
    (let* ((jar (make-temp-file "sheet-bench-jar"))
           (old (time-subtract (current-time) 3600))
           plain with-jar)
      (with-temp-file jar
        (insert "# Netscape HTTP Cookie File\n127.0.0.1\tFALSE\t/\tFALSE\t0\tother\tx\n"))
      (set-file-times jar old)
      ;; In blocks of 10 (the first press after a switch, which loads the jar, not counted).
      (dotimes (_ (max 1 (/ small-count 10)))
        (dolist (file (list nil jar))
          (let ((sheet-cookie-jar-file file))
            (goto-char (point-min))
            (forward-line 2)
            (sheet-bench--press "C-c C-c")
            (dotimes (_ 10)
              (let ((ms (sheet-bench--press "C-c C-c")))
                (if file (push ms with-jar) (push ms plain)))))))
      (sheet-engine--sync-jar sheet-engine--connection)
      (delete-file jar)
      (princ (format "JAR small-json %s %s\n"
                     (mapconcat (lambda (ms) (format "%.3f" (car ms))) plain ",")
                     (mapconcat (lambda (ms) (format "%.3f" (car ms))) with-jar ","))))
    (sheet-bench--case "json-1mb" 5 repeats)
    (sheet-bench--case "json-5mb" 7 repeats)
    (sheet-bench--case "xml-1mb" 9 repeats)
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
  (when (process-live-p sheet-bench--floor-process)
    (delete-process sheet-bench--floor-process))
  (kill-emacs 0))

;;; emacs-bench.el ends here
