;;; test-helper.el --- Shared setup for the sheet-mode ERT tests  -*- lexical-binding: t; -*-

;;; Commentary:

;; Loaded once before every *-test.el (ert-runner layout; test/run.mjs does the same).
;; Starts the example API (test/fixtures/server.mjs) and, when asked, httpbin
;; (test/fixtures/httpbin.mjs) and `python3 -m http.server'
;; (test/fixtures/python-http-server.mjs) on 127.0.0.1 once each, provides the
;; fixture macro `sheet-test-with-sheet' and the bounded wait `sheet-test-wait-until',
;; stops each test at `sheet-test-timeout' (ERT_TEST_TIMEOUT, 300 s), and stops the
;; engine and the fixtures when Emacs exits.

;;; Code:

(require 'ert)
(require 'cl-lib)
(require 'sheet-mode)

(defconst sheet-test-root
  (expand-file-name "../.." (file-name-directory (or load-file-name buffer-file-name)))
  "The checkout's root directory.")

(defvar sheet-test--api-process nil "The example API process.")
(defvar sheet-test--api-url nil "Base URL of the example API, e.g. http://127.0.0.1:PORT.")

(defun sheet-test-wait-until (predicate &optional timeout what)
  "Wait until PREDICATE returns non-nil, at most TIMEOUT seconds (default 10).
Return its value; fail the test (naming WHAT) on timeout instead of hanging."
  (let ((deadline (+ (float-time) (or timeout 10)))
        value)
    (while (and (not (setq value (funcall predicate)))
                (< (float-time) deadline))
      (accept-process-output nil 0.01))
    (or value
        (ert-fail (list "Timed out waiting" (or what predicate))))))

(defun sheet-test--start-fixture (script name timeout)
  "Start the Node fixture SCRIPT (under test/fixtures) as process NAME.
Wait at most TIMEOUT seconds for its port file; return (PROCESS . URL),
the URL being http://127.0.0.1:PORT; the process buffer \" *NAME*\"
starts empty.  Signal an error with the fixture's output when it does
not start."
  (let* ((port-file (make-temp-file "sheet-test-port"))
         (deadline (+ (float-time) timeout))
         (output (get-buffer-create (format " *%s*" name)))
         proc)
    (delete-file port-file)
    ;; A fresh log: a buffer of the same name may hold an earlier run's
    ;; lines (and its "Process NAME killed"), which tests read as the log.
    (with-current-buffer output (erase-buffer))
    (setq proc (make-process
                :name name
                :command (list "node" (expand-file-name
                                       (concat "test/fixtures/" script)
                                       sheet-test-root)
                               "--port-file" port-file)
                :buffer output
                :connection-type 'pipe
                :noquery t))
    ;; The port file is created empty, then written: wait for its text.
    (while (and (not (and (file-exists-p port-file)
                          (> (file-attribute-size (file-attributes port-file))
                             0)))
                (< (float-time) deadline))
      (accept-process-output proc 0.05))
    (unless (file-exists-p port-file)
      (error "The fixture %s did not start: %s" script
             (with-current-buffer output (buffer-string))))
    (prog1 (cons proc (format "http://127.0.0.1:%s"
                              (string-trim (with-temp-buffer
                                             (insert-file-contents port-file)
                                             (buffer-string)))))
      (delete-file port-file))))

(defun sheet-test-api-url ()
  "The example API's base URL, starting the API on first use."
  (unless (and sheet-test--api-process (process-live-p sheet-test--api-process))
    (let ((started (sheet-test--start-fixture "server.mjs" "sheet-test-api" 15)))
      (setq sheet-test--api-process (car started)
            sheet-test--api-url (cdr started))))
  sheet-test--api-url)

(defvar sheet-test--httpbin-process nil
  "The httpbin fixture (Debian's httpbin under gunicorn), or nil.")
(defvar sheet-test--httpbin-url nil "The httpbin fixture's base URL.")

(defun sheet-test-httpbin-url ()
  "The httpbin fixture's base URL (test/fixtures/httpbin.mjs), started on first use."
  (unless (and sheet-test--httpbin-process
               (process-live-p sheet-test--httpbin-process))
    (let ((started (sheet-test--start-fixture "httpbin.mjs" "sheet-test-httpbin" 30)))
      (setq sheet-test--httpbin-process (car started)
            sheet-test--httpbin-url (cdr started))))
  sheet-test--httpbin-url)

(defvar sheet-test--python-http-process nil
  "The `python3 -m http.server' fixture, or nil.")
(defvar sheet-test--python-http-url nil
  "The `python3 -m http.server' fixture's base URL.")

(defun sheet-test-python-http-url ()
  "The base URL of `python3 -m http.server', an HTTP/1.0 server.
Started on first use (test/fixtures/python-http-server.mjs); it
serves hello.txt and hello.json."
  (unless (and sheet-test--python-http-process
               (process-live-p sheet-test--python-http-process))
    (let ((started (sheet-test--start-fixture "python-http-server.mjs"
                                              "sheet-test-python-http" 20)))
      (setq sheet-test--python-http-process (car started)
            sheet-test--python-http-url (cdr started))))
  sheet-test--python-http-url)

(defun sheet-test-stop-all ()
  "Stop the engine, the example API, httpbin and http.server."
  (ignore-errors (sheet-engine-shutdown))
  (when (and sheet-test--api-process (process-live-p sheet-test--api-process))
    (delete-process sheet-test--api-process))
  ;; httpbin.mjs stops gunicorn on SIGINT; give it that chance first.
  (when (and sheet-test--httpbin-process
             (process-live-p sheet-test--httpbin-process))
    (interrupt-process sheet-test--httpbin-process)
    (sleep-for 0.2)
    (delete-process sheet-test--httpbin-process))
  ;; python-http-server.mjs stops python3 on SIGINT.
  (when (and sheet-test--python-http-process
             (process-live-p sheet-test--python-http-process))
    (interrupt-process sheet-test--python-http-process)
    (sleep-for 0.2)
    (delete-process sheet-test--python-http-process)))

(add-hook 'kill-emacs-hook #'sheet-test-stop-all)

;;; Each test's time limit

(defconst sheet-test-timeout
  (let ((n (string-to-number (or (getenv "ERT_TEST_TIMEOUT") ""))))
    (if (> n 0) n 300))
  "Seconds a test may run before it fails (ERT_TEST_TIMEOUT, default 300).
As bats-core's BATS_TEST_TIMEOUT: a hung test fails under its own
name and the run goes on; ERT has no limit of its own.")

(defun sheet-test--limited (run test)
  "RUN (`ert-run-test') TEST with its body stopped at `sheet-test-timeout'.
The limit is `with-timeout''s timer, which runs when the test
waits (a process's output, a wait helper, `jsonrpc-request'): the
wait is left by `throw', the test's `unwind-protect' forms run and
the test fails, naming the limit.  A test that never waits (a loop
in Lisp) runs no timer; test/run.mjs stops that Emacs when no test
has ended for 30 s more, fails the test and runs the rest."
  (let ((body (ert-test-body test)))
    (setf (ert-test-body test)
          (lambda ()
            (with-timeout (sheet-test-timeout
                           (ert-fail (list (format "Ran over %s s \
\(ERT_TEST_TIMEOUT); stopped" sheet-test-timeout))))
              (funcall body))))
    (unwind-protect (funcall run test)
      (setf (ert-test-body test) body))))

(advice-add 'ert-run-test :around #'sheet-test--limited)

(defmacro sheet-test-with-sheet (text &rest body)
  "Run BODY in a fresh `sheet-mode' buffer holding TEXT.
The first line of the buffer declares `:base' as the example
API's URL; TEXT follows it.  Point is at the start of TEXT.
Response buffers and option values are reset around BODY."
  (declare (indent 1) (debug t))
  `(let ((sheet-same-buffer-response t)
         (sheet-buffer-response-name "*HTTP Response*")
         (sheet-response-received-hook nil)
         (sheet-response-loaded-hook nil)
         (sheet-log-request nil)
         (sheet-response-size-threshold 100000)
         (buf (generate-new-buffer "test.sheet")))
     (sheet-test-kill-response-buffers)
     (unwind-protect
         (with-current-buffer buf
           (insert ":base = " (sheet-test-api-url) "\n")
           (let ((start (point)))
             (insert ,text)
             (sheet-mode)
             (goto-char start))
           ,@body)
       (kill-buffer buf))))

(defmacro sheet-test-visiting (name setup &rest body)
  "Run BODY in a `sheet-mode' buffer visiting NAME in a new directory.
`dir' (the directory) and `file' (NAME in it) are bound around SETUP,
one form run before the visit that writes the files, and BODY, run in
the buffer with point at its start.  Response buffers and option values
are reset around them; the directory is deleted after BODY."
  (declare (indent 2) (debug t))
  `(let* ((sheet-same-buffer-response t)
          (sheet-buffer-response-name "*HTTP Response*")
          (sheet-response-received-hook nil)
          (sheet-response-loaded-hook nil)
          (sheet-log-request nil)
          (dir (make-temp-file "sheet-test" t))
          (file (expand-file-name ,name dir))
          (buf nil))
     (sheet-test-kill-response-buffers)
     (unwind-protect
         (progn
           ,setup
           (setq buf (find-file-noselect file))
           (with-current-buffer buf
             (sheet-mode)
             (goto-char (point-min))
             ,@body))
       (when (buffer-live-p buf)
         (with-current-buffer buf (set-buffer-modified-p nil))
         (kill-buffer buf))
       (delete-directory dir t))))

(defun sheet-test-kill-response-buffers ()
  "Kill every response buffer left by earlier tests."
  (dolist (b (buffer-list))
    (when (string-prefix-p "*HTTP " (buffer-name b))
      (kill-buffer b))))

(defun sheet-test-goto (regexp)
  "Move point to the beginning of the first line matching REGEXP."
  (goto-char (point-min))
  (re-search-forward regexp)
  (beginning-of-line))

(defun sheet-test-send-and-wait (&optional command buffer-name seconds)
  "Run COMMAND (default `sheet-http-send-current-stay-in-window') and wait.
Wait until `sheet-response-loaded-hook' has run, at most SECONDS
\(default 15); return the response buffer.  BUFFER-NAME defaults to
the shared response buffer."
  (let* ((done nil)
         (sheet-response-loaded-hook (cons (lambda () (setq done (current-buffer)))
                                           sheet-response-loaded-hook)))
    (ignore buffer-name)
    (call-interactively (or command #'sheet-http-send-current-stay-in-window))
    (sheet-test-wait-until (lambda () done) (or seconds 15) "the response")))

(defun sheet-test-key (keys)
  "Run the command bound to KEYS (a `kbd' string) in the current buffer; return it."
  (let ((command (key-binding (kbd keys))))
    (should (commandp command))
    (call-interactively command)
    command))

(defun sheet-test-key-and-wait (keys)
  "Run the command bound to KEYS and wait for the response; return its buffer."
  (let* ((done nil)
         (sheet-response-loaded-hook (cons (lambda () (setq done (current-buffer)))
                                           sheet-response-loaded-hook)))
    (sheet-test-key keys)
    (sheet-test-wait-until (lambda () done) 15 (format "the response to %s" keys))))

(defun sheet-test-wait-idle ()
  "Wait until no request is in flight."
  (sheet-test-wait-until (lambda () (null sheet-engine--in-flight)) 15 "no request in flight"))

(defun sheet-test-wait-message (regexp &optional mark)
  "Wait until *Messages* matches REGEXP after MARK; return the text since MARK."
  (let ((mark (or mark 0)))
    (sheet-test-wait-until
     (lambda ()
       (let ((text (sheet-test-messages-since mark)))
         (and (string-match-p regexp text) text)))
     15 (format "a message matching %s" regexp))))

(defun sheet-test-send-and-wait-ready ()
  "Make sure the engine is running."
  (sheet-engine--ensure)
  (should (sheet-engine-process)))

(defun sheet-test-messages-since (mark)
  "Text added to *Messages* since MARK (a buffer size)."
  (with-current-buffer (messages-buffer)
    (buffer-substring-no-properties (min (1+ mark) (point-max)) (point-max))))

(defun sheet-test-messages-mark ()
  "The current size of *Messages*, for `sheet-test-messages-since'."
  (with-current-buffer (messages-buffer) (buffer-size)))

(provide 'test-helper)
;;; test-helper.el ends here
