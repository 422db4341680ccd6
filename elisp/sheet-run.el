;;; sheet-run.el --- Sheets as test suites  -*- lexical-binding: t; -*-

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

;; Assertions and `sheet-run-buffer'.
;;
;; The Emacs side of `sheet run' (docs/sheet-run.md), loaded by sheet-mode:
;; - the assertion hooks' results (`-> expect-status 200', ...) that the engine
;;   returns with each response: lines for the response buffer's trailer
;;   (`sheet-run-assertion-lines') and a one-line summary for the echo area
;;   (`sheet-run-assertion-summary');
;; - `sheet-run-buffer' (C-c C-t in `sheet-mode'): run the whole sheet with the
;;   engine's `sheet run' in the background, into a results buffer whose lines
;;   link back to each request and assertion line.

;;; Code:

(require 'button)
(require 'json)
(require 'seq)
(require 'subr-x)
(require 'sheet-install)

(declare-function sheet--requests "sheet-outline" ())
(declare-function sheet-environment-current "sheet-environment" ())
(declare-function sheet--mentions-prompt-p "sheet-prompt" ())
(declare-function sheet--ask-prompts "sheet-prompt"
                  (prompt-list &optional answers))

(defcustom sheet-run-command nil
  "Program and arguments that start the engine's `sheet' command line.
`sheet-run-buffer' appends \"run\", the file and its options.  nil
\(the default) finds it as the engine is found: node
<checkout>/engine/bin/sheet when the checkout next to this file
has it built (`make build'), else the `sheet' executable on the
variable `exec-path' (`npm install -g', `sheet-install-engine')."
  :type '(choice (const :tag "Find it" nil)
                 (repeat :tag "Command line" (string :tag "Argument")))
  :group 'sheet)

(defun sheet-run--command ()
  "The command line of `sheet', or a `user-error' saying what to install.
See `sheet-run-command'."
  (let ((bin (sheet-engine--beside "bin/sheet"))
        (bundle (sheet-engine--beside "dist/sheet.cjs")))
    (or sheet-run-command
        (sheet-engine--locate (list bin bundle) (list "node" bin) nil)
        (user-error "%s" (sheet-engine--install-hint)))))

(defcustom sheet-run-buffer-name "*sheet-run*"
  "Name of the buffer `sheet-run-buffer' shows its results in."
  :type 'string
  :group 'sheet)

;;; Assertions in C-c C-c's response

(defun sheet-run-assertion-lines (result)
  "Trailer lines for the assertions of the engine's RESULT.
RESULT is a `sheet/send' answer.  One line each,
\"PASS line 6: expect-status 200: ok (200 OK)\" or \"FAIL ...\",
in sheet order; nil when the request has none."
  (mapcar (lambda (a)
            (format "%s %s" (if (eq (plist-get a :passed) t) "PASS" "FAIL")
                    (plist-get a :message)))
          (plist-get (plist-get result :hooks) :assertions)))

(defun sheet-run-assertion-summary (hooks)
  "One line summing up the assertions in HOOKS (a result's :hooks), or nil.
\"3 assertions passed\", or the count failed and the first failure."
  (let* ((all (append (plist-get hooks :assertions) nil))
         (failed (seq-remove (lambda (a) (eq (plist-get a :passed) t)) all)))
    (cond
     ((null all) nil)
     ((null failed) (format "%d assertion%s passed" (length all)
                            (if (cdr all) "s" "")))
     (t (format "%d of %d assertions failed: %s" (length failed) (length all)
                (plist-get (car failed) :message))))))

(defun sheet-run-log-summary (logs)
  "The echo area's part for LOGS (a result's `client.log' lines), or nil.
\"client.log: FIRST\" and, when there are more lines (a multi-line
log counts its lines), \"(+N more lines)\"; they are all in the
response buffer (`sheet--log-lines')."
  (let ((lines (apply #'append (mapcar (lambda (l) (split-string l "\n"))
                                       logs))))
    (and lines
         (format "client.log: %s%s" (car lines)
                 (if (cdr lines)
                     (format " (+%d more line%s)" (length (cdr lines))
                             (if (cddr lines) "s" ""))
                   "")))))

(defun sheet-run-report-assertions (hooks &optional logs)
  "Show the summary of the assertions in HOOKS in the echo area, if any.
On the same line, the summary of LOGS, the result's `client.log'
lines (`sheet-run-log-summary'), if any."
  (let ((parts (delq nil (list (sheet-run-assertion-summary hooks)
                               (sheet-run-log-summary logs)))))
    (when parts
      (message "Sheet-mode: %s" (mapconcat #'identity parts "; ")))))

;;; sheet-run-buffer

(defvar-local sheet-run--sheet-buffer nil
  "In a results buffer: the sheet buffer whose lines its links visit.")

(defvar-local sheet-run--report nil
  "In a results buffer: the JSON report file of the run.")

(define-button-type 'sheet-run-line
  'follow-link t
  'help-echo "Go to this line of the sheet"
  'action #'sheet-run--visit)

(defun sheet-run--visit (button)
  "Go to the sheet line of BUTTON."
  (let ((buf (button-get button 'sheet-buffer))
        (file (button-get button 'sheet-file))
        (line (button-get button 'sheet-line)))
    (pop-to-buffer (if (buffer-live-p buf) buf (find-file-noselect file)))
    (goto-char (point-min))
    (forward-line (1- line))))

(defvar sheet-run-results-mode-map
  (let ((map (make-sparse-keymap)))
    (set-keymap-parent map special-mode-map)
    (define-key map (kbd "TAB") #'forward-button)
    (define-key map (kbd "<backtab>") #'backward-button)
    (define-key map (kbd "g") #'sheet-run-rerun)
    map)
  "Keymap of `sheet-run-results-mode'.")

(define-derived-mode sheet-run-results-mode special-mode "Sheet-Run"
  "Results of `sheet-run-buffer'; each line links back to its sheet line.
\\{sheet-run-results-mode-map}")

(defun sheet-run--insert-link (text file line sheet-buffer)
  "Insert TEXT as a button to LINE of FILE (shown in SHEET-BUFFER when live)."
  (insert-text-button text 'type 'sheet-run-line
                      'sheet-file file 'sheet-line line
                      'sheet-buffer sheet-buffer))

(defun sheet-run--render (report sheet-buffer)
  "Fill the current buffer from the JSON REPORT of a run of SHEET-BUFFER.
REPORT is the report parsed as a plist."
  (let ((inhibit-read-only t))
    (erase-buffer)
    (seq-doseq (f (plist-get report :files))
      (let ((file (plist-get f :file)))
        (insert (format "%s\n" file))
        (when-let ((err (plist-get f :error)))
          (insert "  ✗ ")
          (sheet-run--insert-link (plist-get err :message) file
                                  (or (plist-get err :line) 1) sheet-buffer)
          (insert "\n"))
        (seq-doseq (r (plist-get f :results))
          (let ((passed (equal (plist-get r :outcome) "passed")))
            (insert (if passed "  ✓ " "  ✗ "))
            (sheet-run--insert-link
             (format "%s %s %s%s" (or (plist-get r :status) "---")
                     (plist-get r :method) (plist-get r :url)
                     (if (plist-get r :durationMs)
                         (format " %.0f ms" (plist-get r :durationMs))
                       ""))
             file (plist-get r :line) sheet-buffer)
            (insert "\n")
            (seq-doseq (a (plist-get r :assertions))
              (insert (if (eq (plist-get a :passed) t)
                          "      PASS "
                        "      FAIL "))
              (sheet-run--insert-link (plist-get a :message) file
                                      (plist-get a :line) sheet-buffer)
              (insert "\n"))
            (when-let ((err (plist-get r :error)))
              (insert "      ")
              (sheet-run--insert-link (plist-get err :message) file
                                      (or (plist-get err :line)
                                          (plist-get r :line))
                                      sheet-buffer)
              (insert "\n"))))))
    (let* ((s (plist-get report :summary))
           (as (plist-get s :assertions)))
      (insert (format "\n%d of %d requests, %d assertions passed, %d failed, \
%d errors, %d transport errors\n"
                      (plist-get s :requests) (plist-get s :selected)
                      (plist-get as :passed) (plist-get as :failed)
                      (plist-get s :errors) (plist-get s :transportErrors))))
    (goto-char (point-min))))

(defun sheet-run--sentinel (proc _event)
  "When the run PROC ends, show its report in its buffer."
  (when (memq (process-status proc) '(exit signal))
    (let ((buf (process-buffer proc)))
      (when (buffer-live-p buf)
        (with-current-buffer buf
          (let* ((file sheet-run--report)
                 (report (and file (file-exists-p file)
                             (json-parse-string
                              (with-temp-buffer
                                (insert-file-contents file)
                                (buffer-string))
                              :object-type 'plist :null-object nil
                              :false-object :json-false)))
                (code (process-exit-status proc)))
            (when sheet-run--report (delete-file sheet-run--report))
            (if report
                (sheet-run--render report sheet-run--sheet-buffer)
              (let ((inhibit-read-only t))
                (goto-char (point-max))
                (insert (format "\nsheet run exited with status %d \
and no report\n"
                                code))))
            (setq mode-line-process (format ":exit %d" code))
            (message "Sheet-mode: sheet run %s (exit %d)"
                     (pcase code
                       (0 "passed")
                       (1 "had failed assertions")
                       (2 "had a sheet error")
                       (3 "had a transport failure")
                       (_ "failed"))
                     code)))))))

(defun sheet-run--prompt-answers ()
  "Ask the `# @prompt' values of every request of the buffer, each name once.
Return a plist (:NAME ANSWER ...) in file order, or nil when no
request has a prompt.  The engine's outline says which prompts a
request has, as for \\[sheet-http-send-current]; the question, and no
echo for the names matching `sheet-prompt-secret-regexp', are
`sheet--read-prompt''s.  Only asked when the buffer mentions
`@prompt' at all."
  (when (sheet--mentions-prompt-p)
    (let (answers)
      (dolist (request (sheet--requests))
        (setq answers
              (sheet--ask-prompts (plist-get request :prompts) answers)))
      answers)))

(defun sheet-run-buffer ()
  "Run the whole sheet in the background with `sheet run', results in a buffer.
The sheet's file is saved first (the run reads it, and file bodies
are found beside it).  In a `.http' file, the `# @prompt' lines of
its requests are asked first, each name once (quitting runs
nothing); the answers reach `sheet run' as JSON on its standard
input (`--prompts-from -'), never on its command line.  The results
buffer (`sheet-run-buffer-name') links each request and assertion
to its line; \\`g' there asks and runs again.  Exit statuses and
options: docs/sheet-run.md."
  (interactive)
  (unless buffer-file-name
    (user-error
     "Sheet-mode: save the sheet to a file first: `sheet run' reads the file"))
  (when (buffer-modified-p) (save-buffer))
  (let* ((command (sheet-run--command))
         (answers (sheet-run--prompt-answers))
         (file buffer-file-name)
         (env (sheet-environment-current))
         (sheet (current-buffer))
         (report (make-temp-file "sheet-run-" nil ".json"))
         (buf (get-buffer-create sheet-run-buffer-name)))
    (with-current-buffer buf
      (let ((inhibit-read-only t)) (erase-buffer))
      (sheet-run-results-mode)
      (setq sheet-run--sheet-buffer sheet
            sheet-run--report report
            mode-line-process ":run")
      (let ((proc (get-buffer-process buf)))
        (when (process-live-p proc) (delete-process proc)))
      (let ((proc
             (make-process
              :name "sheet-run"
              :buffer buf
              :command (append command
                               (list "run" file "--no-color"
                                     "--report" (concat "json:" report))
                               ;; .http buffers: the environment (C-c C-e).
                               (and env (list "--env" env))
                               (and answers (list "--prompts-from" "-")))
              :connection-type 'pipe
              :coding 'utf-8
              :noquery t
              :filter (lambda (proc text)
                        (when (buffer-live-p (process-buffer proc))
                          (with-current-buffer (process-buffer proc)
                            (let ((inhibit-read-only t))
                              (goto-char (point-max))
                              (insert text)))))
              :sentinel #'sheet-run--sentinel)))
        (when answers
          (process-send-string proc (json-serialize answers))
          (process-send-eof proc))))
    (display-buffer buf)
    buf))

(defun sheet-run-rerun ()
  "Run again the sheet of the current results buffer."
  (interactive)
  (if (buffer-live-p sheet-run--sheet-buffer)
      (with-current-buffer sheet-run--sheet-buffer (sheet-run-buffer))
    (user-error "Sheet-mode: the sheet buffer of this run is gone")))

(provide 'sheet-run)
;;; sheet-run.el ends here
