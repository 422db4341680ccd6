;;; emacs-edit-bench.el --- completion and diagnostics while typing  -*- lexical-binding: t; -*-

;;; Commentary:

;; Run by emacs-edit.bench.mjs:
;;   emacs --batch -Q -L elisp -l test/bench/emacs-edit-bench.el REQUESTS REPEATS
;; Issue 25's speed target: completion and diagnostics answer within 50 ms on a sheet of
;; REQUESTS requests (each with a comment, headers, an assertion and a JSON body), with the
;; real engine.  Each round types one character at the end of the sheet, then times, in turn:
;;   completion   the engine's fresh `sheet/completions' answer (what `sheet-completion-at-point'
;;                asks in the background after an edit), the buffer's changes sent (sheet-sync.el)
;;   diagnostics  the Flymake backend `sheet-flymake' called until it reports (`sheet/diagnostics')
;;   capf         `sheet-completion-at-point' itself, what typing waits for (the kept answer)
;;   nav          C-c C-n (`sheet-jump-next') right after a line was added mid-sheet (issue 37
;;                item 9: the kept outline, its lines moved by the edit, no round trip)
;;   tab          TAB on a request line right after an edit in its body (fold)
;;   old-outline  the engine's `sheet/outline' with the whole text, what each key waited for
;;                before (anchor)
;; and the anchors, on the same text:
;;   old-completion   `sheet/completions' with the whole text, as before this change
;;   old-diagnostics  `sheet/diagnostics' with the whole text
;;   dabbrev          restclient.el's users' completion: `dabbrev--find-all-expansions' for
;;                    ":to" in a plain buffer holding the same text
;; With $SHEET_BENCH_BASE_ENGINE (another engine bundle, say main's before a change), the same
;; look-ups are also timed against that engine, in the same rounds, on a buffer of its own:
;;   base-completion, base-diagnostics
;; Prints one line per case: RESULT <name> <times in ms, comma-separated>.

;;; Code:

(require 'sheet-mode)
(require 'dabbrev)
(require 'flymake)

(defun sheet-edit-bench--sheet (n)
  "The text of a sheet of N requests."
  (with-temp-buffer
    (insert ":base = http://127.0.0.1:1\n:token = abc\n#\n")
    (dotimes (i n)
      (insert (format "# request %d\nPOST :base/items/%d?x=1\nContent-Type: application/json\nAuthorization: Bearer :token\n-> expect-status 200\n\n{\"id\": %d, \"name\": \"item %d\"}\n" i i i i)))
    (insert "#\nGET :base/")
    (buffer-string)))

(defmacro sheet-edit-bench--ms (&rest body)
  "Run BODY; return the milliseconds it took."
  `(let ((start (float-time))) ,@body (* 1000 (- (float-time) start))))

(defun sheet-edit-bench--flymake ()
  "Call the Flymake backend; return the ms until it reports."
  (let ((done nil))
    (sheet-edit-bench--ms
     (sheet-flymake (lambda (&rest _) (setq done t)))
     (while (not done) (accept-process-output nil 0.001)))))

(defun sheet-edit-bench--base-engine (bundle)
  "Start the engine BUNDLE beside the current one; return (CONN . PROCESS)."
  (let ((sheet-engine-command (list "node" bundle "--stdio"))
        (sheet-engine--connection nil)
        (sheet-engine--process nil))
    (cons (sheet-engine--ensure) sheet-engine--process)))

(defmacro sheet-edit-bench--on (engine &rest body)
  "Run BODY with ENGINE, (CONN . PROCESS), as the engine."
  (declare (indent 1))
  `(let ((sheet-engine--connection (car ,engine))
         (sheet-engine--process (cdr ,engine)))
     ,@body))

(defun sheet-edit-bench--base-round (engine buffer add)
  "Type in BUFFER and time ENGINE's look-ups; ADD records (NAME MS)."
  (when engine
    (with-current-buffer buffer
      (sheet-edit-bench--on engine
        (insert "x")
        (funcall add 'base-completion
                 (sheet-edit-bench--ms
                  (jsonrpc-request (car engine) 'sheet/completions
                                   (sheet--completion-params (car engine)))))
        (insert "y")
        (funcall add 'base-diagnostics (sheet-edit-bench--flymake))))))

(let* ((n (string-to-number (or (nth 0 command-line-args-left) "5000")))
       (repeats (string-to-number (or (nth 1 command-line-args-left) "20")))
       (text (sheet-edit-bench--sheet n))
       (plain (get-buffer-create "plain"))
       (times (list (list 'completion) (list 'diagnostics) (list 'capf)
                    (list 'nav) (list 'tab) (list 'old-outline)
                    (list 'old-completion) (list 'old-diagnostics)
                    (list 'dabbrev)
                    (list 'base-completion) (list 'base-diagnostics)))
       (bundle (getenv "SHEET_BENCH_BASE_ENGINE"))
       (base (and bundle (not (string-empty-p bundle))
                  (sheet-edit-bench--base-engine bundle)))
       (base-buffer (get-buffer-create "base.sheet")))
  (setq command-line-args-left nil)
  (with-current-buffer plain (insert text) (goto-char (point-max)) (insert ":to"))
  (with-current-buffer base-buffer
    (insert text) (sheet-mode) (goto-char (point-max)))
  (with-current-buffer (get-buffer-create "bench.sheet")
    (insert text)
    (sheet-mode)
    (goto-char (point-max))
    (let ((conn (sheet-engine--ensure))
          (add (lambda (name ms) (push ms (cdr (assq name times))))))
      ;; Warm up: the engine's first copy of the text, its parse, the JIT.
      (dotimes (_ 3)
        (insert "x")
        (jsonrpc-request conn 'sheet/completions (sheet--completion-params conn))
        (sheet-edit-bench--flymake))
      (sheet--outline-kept)             ; the buffer's first outline look-up waits
      (dotimes (_ 3)
        (sheet-edit-bench--base-round base base-buffer #'ignore))
      (dotimes (_ repeats)
        (insert "x")
        (funcall add 'completion
                 (sheet-edit-bench--ms
                  (jsonrpc-request conn 'sheet/completions
                                   (sheet--completion-params conn))))
        (insert "y")
        (funcall add 'diagnostics (sheet-edit-bench--flymake))
        (setq sheet--completions nil)
        (sheet--completion-names)
        (insert ":")
        (funcall add 'capf (sheet-edit-bench--ms (sheet-completion-at-point)))
        (delete-char -1)
        (insert "z")
        (funcall add 'old-completion
                 (sheet-edit-bench--ms
                  (jsonrpc-request conn 'sheet/completions
                                   (list :text (sheet--text) :line (sheet--line)))))
        (insert "w")
        (funcall add 'old-diagnostics
                 (sheet-edit-bench--ms
                  (jsonrpc-request conn 'sheet/diagnostics
                                   (list :text (sheet--text)))))
        ;; Navigation after an edit: a line added in the middle, then C-c C-n.
        (goto-char (/ (point-max) 2))
        (beginning-of-line)
        (insert "# note\n")
        (funcall add 'nav (sheet-edit-bench--ms (sheet-jump-next)))
        (unless (looking-at "POST ") (error "C-c C-n landed on %S" (thing-at-point 'line)))
        ;; TAB on that request line after typing in the body below it.
        (save-excursion (search-forward "{\"id\"") (insert "x"))
        (funcall add 'tab (sheet-edit-bench--ms
                           (sheet-toggle-body-visibility-or-indent)))
        (sheet-toggle-body-visibility-or-indent)          ; unfold, not timed
        (funcall add 'old-outline
                 (sheet-edit-bench--ms
                  (jsonrpc-request conn 'sheet/outline (list :text (sheet--text)))))
        ;; Idle between keys: the background refresh (not timed) brings a fresh outline.
        (when sheet--outline-timer (timer-event-handler sheet--outline-timer))
        (while sheet--outline-pending (accept-process-output nil 0.005))
        (goto-char (point-max))
        (with-current-buffer plain
          (funcall add 'dabbrev
                   (sheet-edit-bench--ms
                    (let ((dabbrev-check-other-buffers nil))
                      (dabbrev--reset-global-variables)
                      (dabbrev--find-all-expansions ":to" t)))))
        (sheet-edit-bench--base-round base base-buffer add)
        (message "bench: round done")))
    (dolist (entry (reverse times))
      (when (cdr entry)
       (princ (format "RESULT %s %s\n" (car entry)
                     (mapconcat (lambda (ms) (format "%.3f" ms))
                                (reverse (cdr entry)) ",")))))
    (when base (jsonrpc-shutdown (car base)))
    (sheet-engine-shutdown)
    (kill-emacs 0)))

;;; emacs-edit-bench.el ends here
