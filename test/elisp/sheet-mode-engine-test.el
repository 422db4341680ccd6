;;; sheet-mode-engine-test.el --- Engine lifecycle, Lisp variables, errors, cancel  -*- lexical-binding: t; -*-

;;; Commentary:

;; The engine connection (start, crash, restart, shutdown), `lisp/eval' answered in the
;; sheet buffer, `sheet-set-var', cancelling, and bad input.

;;; Code:

(require 'test-helper)

(ert-deftest sheet-test-lisp-variables ()
  "`:=' forms are evaluated by Emacs in the sheet buffer's context."
  (sheet-test-with-sheet ":n := (+ 40 2)\n:buf := (buffer-name)\n:multi := <<\n(concat \"a\"\n        \"b\")\n#\nGET :base/echo/:n/:multi?buffer=:buf\n"
    (sheet-test-goto "^GET")
    (with-current-buffer (sheet-test-send-and-wait)
      (should (string-match-p "\"path\": \"/echo/42/ab\"" (buffer-string)))
      (should (string-match-p "\"buffer\": \"test.sheet\"" (buffer-string))))))

(ert-deftest sheet-test-lisp-variable-errors ()
  "A Lisp read or evaluation error names the variable; the request is not sent."
  (sheet-test-with-sheet ":unread := (concat \"x\"\n#\nGET :base/echo/:unread\n#\n:bad := (error \"boom %s\" 42)\n#\nGET :base/echo/:bad\n"
    ;; A read error (the first variable above the request).
    (sheet-test-goto "^GET .*:unread")
    (let ((mark (sheet-test-messages-mark)))
      (sheet-test-key "C-c C-c")
      (sheet-test-wait-idle)
      (should (string-match-p ":unread.*End of file" (sheet-test-messages-since mark)))
      (should-not (get-buffer "*HTTP Response*")))
    ;; An evaluation error (comment out :unread so that :bad is evaluated).
    (sheet-test-goto "^:unread")
    (insert "# ")
    (sheet-test-goto "^GET .*:bad")
    (let ((mark (sheet-test-messages-mark)))
      (sheet-test-key "C-c C-c")
      (sheet-test-wait-idle)
      (let ((text (sheet-test-messages-since mark)))
        (should (string-match-p ":bad.*boom 42" text)))
      (should-not (get-buffer "*HTTP Response*")))
    ;; The engine is unharmed.
    (goto-char (point-min))
    (forward-line 1)
    (insert "GET :base/users\n#\n")
    (forward-line -2)
    (with-current-buffer (sheet-test-send-and-wait)
      (should (string-match-p "Ada Lovelace" (buffer-string))))))

(ert-deftest sheet-test-lisp-variables-of-concurrent-sends ()
  "Two sheets sending at once each get their own `:=' values, from their own buffer."
  (sheet-test-with-sheet ":who := (concat \"first-\" (buffer-name))\nGET :base/echo/:who\n"
    (let ((first (current-buffer))
          (second (generate-new-buffer "second.sheet"))
          (sheet-same-buffer-response nil)
          (loaded nil))
      (unwind-protect
          (let ((sheet-response-loaded-hook
                 (list (lambda () (push (buffer-string) loaded)))))
            (with-current-buffer second
              (insert ":base = " (sheet-test-api-url) "\n"
                      ":who := (concat \"second-\" (buffer-name))\nGET :base/echo/:who\n")
              (sheet-mode)
              (sheet-test-goto "^GET"))
            (sheet-test-goto "^GET")
            ;; Both requests are in flight before Emacs reads the engine's lisp/eval requests.
            (sheet-test-key "C-c C-v")
            (with-current-buffer second (sheet-test-key "C-c C-v"))
            (should (= (length sheet-engine--in-flight) 2))
            (sheet-test-wait-until (lambda () (= (length loaded) 2)) 15 "two responses")
            (let ((paths (sort (mapcar (lambda (text)
                                         (and (string-match "\"path\": \"\\([^\"]*\\)\"" text)
                                              (match-string 1 text)))
                                       loaded)
                               #'string<)))
              (should (equal paths (list (concat "/echo/first-" (buffer-name first))
                                         (concat "/echo/second-" (buffer-name second)))))))
        (kill-buffer second)
        (sheet-test-kill-response-buffers)))))

(ert-deftest sheet-test-lisp-variable-of-killed-sheet ()
  "A sheet killed before its `:=' form is evaluated: a Lisp error naming the variable."
  (let ((buf (generate-new-buffer "killed.sheet"))
        (mark (sheet-test-messages-mark)))
    (sheet-test-kill-response-buffers)
    (sheet-test-send-and-wait-ready)
    (with-current-buffer buf
      (insert ":gone := (buffer-name)\nGET " (sheet-test-api-url) "/echo/:gone\n")
      (sheet-mode)
      (sheet-test-goto "^GET")
      (sheet-test-key "C-c C-v"))
    (kill-buffer buf)
    (sheet-test-wait-idle)
    (let ((text (sheet-test-messages-since mark)))
      (should (string-match-p ":gone.*sheet buffer of this request was killed" text)))
    (should-not (get-buffer "*HTTP Response*"))
    (should (= (hash-table-count sheet-engine--contexts) 0))))

(ert-deftest sheet-test-set-var ()
  "`sheet-set-var' sets an override, from user code and from run-hook forms."
  (sheet-test-with-sheet "GET :base/echo/:from-code\n-> run-hook (sheet-set-var \":from-hook\" (+ 1 2))\n#\nGET :base/echo/:from-hook\n"
    (sheet-set-var ":from-code" "set-by-code")
    (with-current-buffer (sheet-test-send-and-wait)
      (should (string-match-p "\"path\": \"/echo/set-by-code\"" (buffer-string))))
    (sheet-test-goto "^GET .*:from-hook")
    (with-current-buffer (sheet-test-send-and-wait)
      (should (string-match-p "\"path\": \"/echo/3\"" (buffer-string)))))
  ;; A name without its colon gets one (restclient.el accepts both); a non-string is refused.
  (should-error (sheet-set-var 42 "x") :type (quote user-error)))

(ert-deftest sheet-test-no-request-at-point ()
  "No request at point: a message says so, nothing is sent, the engine is unharmed."
  (sheet-test-with-sheet "# only a comment\n\n"
    (sheet-test-send-and-wait-ready)
    (let ((process (sheet-engine-process))
          (mark (sheet-test-messages-mark)))
      (should process)
      (goto-char (point-max))
      (sheet-test-key "C-c C-c")
      (sheet-test-wait-idle)
      (should (string-match-p "no request at line" (sheet-test-messages-since mark)))
      (should-not (get-buffer "*HTTP Response*"))
      (should (eq process (sheet-engine-process))))))

(ert-deftest sheet-test-connection-refused ()
  "Connection refused: the message names the URL and the error; Emacs does not hang."
  (let ((port (let ((p (make-network-process :name "sheet-test-port" :server t
                                             :host "127.0.0.1" :service t :noquery t)))
                (prog1 (process-contact p :service) (delete-process p)))))
    (sheet-test-with-sheet (format "GET http://127.0.0.1:%d/nothing\n" port)
      (let ((mark (sheet-test-messages-mark))
            (start (float-time)))
        (sheet-test-key "C-c C-c")
        (let ((text (sheet-test-wait-message "connection refused" mark)))
          (should (string-match-p (format "http://127.0.0.1:%d/nothing" port) text)))
        (should (< (- (float-time) start) 10))
        (should-not (get-buffer "*HTTP Response*"))))))

(ert-deftest sheet-test-cancel ()
  "C-c C-k cancels the request in flight."
  (sheet-test-with-sheet "GET :base/slow?ms=8000\n"
    (let ((mark (sheet-test-messages-mark))
          (start (float-time)))
      (sheet-test-key "C-c C-c")
      (should sheet-engine--in-flight)
      (accept-process-output nil 0.2)
      (sheet-test-key "C-c C-k")
      (sheet-test-wait-idle)
      (should (< (- (float-time) start) 5))
      (should (string-match-p "request cancelled" (sheet-test-messages-since mark)))
      (should-not (get-buffer "*HTTP Response*")))))

(ert-deftest sheet-test-answer-read-with-a-look-up-answer ()
  "A send's answer read in one piece with a synchronous look-up's is handled.
Emacs 28's jsonrpc.el leaves its process filter by `throw' at the
look-up's answer; the send's answer after it in the same read waited
for the engine's next output, for ever when there was none (ob-sheet's
async test hung so under load, its second block's outline)."
  (sheet-test-with-sheet "GET :base/slow?ms=100\n"
    (let* ((done nil)
           (sheet-response-loaded-hook (list (lambda () (setq done t)))))
      (sheet-test-key "C-c C-c")
      (should sheet-engine--in-flight)
      ;; A timer runs before Emacs reads: for 1 s it reads nothing, the
      ;; engine writes the look-up's answer, then the send's, and one
      ;; read gets both.
      (run-at-time 0 nil (lambda ()
                           (let ((end (+ (float-time) 1)))
                             (while (< (float-time) end)))))
      (should (sheet-engine--request 'sheet/outline
                                     (list :text "GET http://127.0.0.1/\n")))
      (sheet-test-wait-until (lambda () done) 5 "the send's answer")
      (should-not sheet-engine--in-flight))))

(ert-deftest sheet-test-engine-crash-and-restart ()
  "If the engine dies, the pending request fails with a message and the next command starts a new one."
  (sheet-test-with-sheet "GET :base/slow?ms=8000\n#\nGET :base/users\n"
    (let ((mark (sheet-test-messages-mark)))
      (sheet-test-key "C-c C-c")
      (let ((old (sheet-engine-process)))
        (should old)
        (signal-process old 'kill)
        (sheet-test-wait-message "engine died" mark)
        (sheet-test-wait-idle)
        (should-not (sheet-engine-process))
        (sheet-test-goto "^GET .*/users")
        (with-current-buffer (sheet-test-send-and-wait)
          (should (string-match-p "Ada Lovelace" (buffer-string))))
        (should (sheet-engine-process))
        (should-not (eq old (sheet-engine-process)))))))

(ert-deftest sheet-test-engine-restart-and-shutdown ()
  "`sheet-engine-restart' starts a new engine; `sheet-engine-shutdown' stops it."
  (sheet-test-with-sheet "GET :base/users\n"
    (sheet-test-send-and-wait)
    (let ((old (sheet-engine-process)))
      (sheet-engine-restart)
      (should (sheet-engine-process))
      (should-not (eq old (sheet-engine-process)))
      (should-not (process-live-p old)))
    (let ((process (sheet-engine-process)))
      (sheet-engine-shutdown)
      (should-not (sheet-engine-process))
      (should-not (process-live-p process)))
    (with-current-buffer (sheet-test-send-and-wait)
      (should (string-match-p "Ada Lovelace" (buffer-string))))))

(ert-deftest sheet-test-engine-noquery-and-buffers ()
  "Quitting Emacs never asks about the engine; stderr and traffic go to buffers."
  (sheet-test-with-sheet "GET :base/users\n"
    (sheet-test-send-and-wait)
    (dolist (p (process-list))
      (when (string-prefix-p "sheet-engine" (process-name p))
        (should-not (process-query-on-exit-flag p))))
    (should (buffer-live-p (jsonrpc-stderr-buffer sheet-engine--connection)))
    (should (eq (process-buffer (get-buffer-process (jsonrpc-stderr-buffer sheet-engine--connection)))
                (jsonrpc-stderr-buffer sheet-engine--connection)))
    ;; The summaries are written when Emacs is idle; write them now.
    (sheet-engine--log-flush)
    (with-current-buffer (jsonrpc-events-buffer sheet-engine--connection)
      (should (string-match-p "sheet/send" (buffer-string))))))

;;; sheet-mode-engine-test.el ends here

(defconst sheet-test--silent-engine
  "let buf = Buffer.alloc(0);
process.stdin.on('data', (d) => {
  buf = Buffer.concat([buf, d]);
  for (;;) {
    const s = buf.toString('latin1');
    const h = s.indexOf('\\r\\n\\r\\n');
    if (h < 0) return;
    const n = Number(/Content-Length: *(\\d+)/i.exec(s.slice(0, h))[1]);
    if (buf.length < h + 4 + n) return;
    const msg = JSON.parse(buf.slice(h + 4, h + 4 + n).toString('utf8'));
    buf = buf.slice(h + 4 + n);
    if (msg.method === 'initialize') {
      const out = JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: { serverName: 'silent', version: '0' } });
      process.stdout.write('Content-Length: ' + Buffer.byteLength(out) + '\\r\\n\\r\\n' + out);
    }
  }
});"
  "A stand-in engine that answers `initialize' and nothing else.")

(ert-deftest sheet-test-setting-request-timeout ()
  "`sheet-request-timeout' bounds quick look-ups: an engine that does not answer is an error, not a hang."
  (sheet-engine-shutdown)
  (unwind-protect
      (let ((sheet-engine-command (list "node" "-e" sheet-test--silent-engine))
            (sheet-request-timeout 0.5))
        (sheet-test-with-sheet "GET :base/users\n#\nGET :base/users\n"
          (let ((start (float-time))
                (err (should-error (sheet-test-key "C-c C-n") :type 'user-error)))
            (should (string-match-p "Timed out" (cadr err)))
            (should (< (- (float-time) start) 5)))))
    (sheet-engine-shutdown)))

(ert-deftest sheet-test-setting-events-buffer-size ()
  "`sheet-events-buffer-size': 0 keeps jsonrpc.el's full log off, a size turns it on."
  (sheet-test-with-sheet "GET :base/users\n"
    (dolist (size '(0 100000))
      (sheet-engine-shutdown)
      (when (get-buffer "*sheet-engine events*") (kill-buffer "*sheet-engine events*"))
      (let ((sheet-events-buffer-size size))
        (sheet-test-send-and-wait)
        (sheet-engine--log-flush)
        (with-current-buffer (jsonrpc-events-buffer sheet-engine--connection)
          ;; sheet-mode's own summary lines are always there ...
          (should (string-match-p "^\\[client\\] .*sheet/send" (buffer-string)))
          ;; ... jsonrpc.el's pretty-printed entries only with a size.
          (should (eq (and (string-match-p "^\\[client-request\\]" (buffer-string)) t)
                      (> size 0))))))
    (sheet-engine-shutdown)))
