;;; sheet-mode-flymake-test.el --- Flymake in sheet-mode  -*- lexical-binding: t; -*-

;;; Commentary:

;; Issue 25 item 4: Flymake reports the engine's diagnostics (`sheet/diagnostics') at their
;; exact line and column, errors and warnings, with the engine's hint.  Real engine, batch Emacs.

;;; Code:

(require 'test-helper)

(ert-deftest sheet-test-flymake-parser-diagnostics ()
  "An unterminated multi-line variable is a Flymake error on its line; a fix clears it."
  (sheet-test-with-sheet "#\nGET :base/users\n#\n:body = <<\n{\"a\": 1}\n"
    (should (memq #'sheet-flymake flymake-diagnostic-functions))
    (sheet-test-send-and-wait-ready)
    (flymake-mode 1)
    (unwind-protect
        (progn
          (flymake-start)
          (let ((d (car (sheet-test-wait-until #'flymake-diagnostics 10 "a diagnostic"))))
            (should (eq (flymake-diagnostic-type d) :error))
            (should (= (line-number-at-pos (flymake-diagnostic-beg d)) 5))
            (should (string-match-p ":body" (flymake-diagnostic-text d))))
          ;; Fixed: the diagnostics go.
          (goto-char (point-max))
          (insert "#\n")
          (flymake-start)
          (sheet-test-wait-until (lambda () (null (flymake-diagnostics))) 10
                                 "no diagnostic"))
      (flymake-mode -1))))

(defun sheet-test--flymake-report-or-nil ()
  "Start Flymake, wait until it has reported once; return its diagnostics."
  (flymake-start)
  (sheet-test-wait-until (lambda () (memq #'sheet-flymake (flymake-reporting-backends)))
                         10 "a report")
  (flymake-diagnostics))

(defun sheet-test--flymake-report ()
  "Start Flymake and wait for its first report; return (LINE COL TYPE TEXT) per diagnostic.
COL is the 0-based column of the diagnostic's start, the span's text is TEXT's tail."
  (sheet-test--flymake-report-or-nil)
  (sort (mapcar (lambda (d)
                  (save-excursion
                    (goto-char (flymake-diagnostic-beg d))
                    (list (line-number-at-pos) (current-column)
                          (flymake-diagnostic-type d)
                          (buffer-substring-no-properties (flymake-diagnostic-beg d)
                                                          (flymake-diagnostic-end d))
                          (flymake-diagnostic-text d))))
                (flymake-diagnostics))
        (lambda (a b) (or (< (car a) (car b))
                          (and (= (car a) (car b)) (< (cadr a) (cadr b)))))))

(ert-deftest sheet-test-flymake-checks-at-line-and-column ()
  "Undefined variables, malformed assertions, unknown hooks and a bad JSON body, each at its column."
  (sheet-test-with-sheet
      (concat "POST :base/login\n"                ; line 2 (line 1 declares :base)
              "Content-Type: application/json\n"
              "X-User: :usr\n"                     ; 4: :usr undefined
              "-> jq-set-var :token .token\n"
              "-> expect-status ok\n"              ; 6: malformed
              "-> frobnicate x\n"                  ; 7: unknown hook
              "\n"
              "{\"name\": :usr, \"Ä\": 1,\n"         ; 9: :usr undefined (after a non-ASCII key)
              " \"b\": [1 2]}\n"                    ; 10: comma expected before 2
              "#\n"
              "GET :base/me\n"
              "Authorization: Bearer :token\n"     ; 13: set by jq-set-var above: fine
              "Host: example.org:8080\n")          ; 14: a port is no variable
    (sheet-test-send-and-wait-ready)
    (flymake-mode 1)
    (unwind-protect
        (let ((report (sheet-test--flymake-report)))
          (should (equal (mapcar (lambda (d) (seq-take d 4)) report)
                         '((4 8 :warning ":usr")
                           (6 17 :error "ok")
                           (7 3 :warning "frobnicate")
                           (9 9 :warning ":usr")
                           (10 9 :error "2"))))
          (should (string-match-p "not a declared variable" (nth 4 (nth 0 report))))
          (should (string-match-p "status code" (nth 4 (nth 1 report))))
          (should (string-match-p "unknown hook frobnicate" (nth 4 (nth 2 report))))
          (should (string-match-p "JSON body does not parse: a comma is expected"
                                  (nth 4 (nth 4 report))))
          ;; Typing a declaration clears the two :usr warnings, without waiting on the engine.
          (goto-char (point-min))
          (forward-line 1)
          (insert ":usr = ada\n")
          (flymake-start)
          (sheet-test-wait-until
           (lambda () (= (length (flymake-diagnostics)) 3)) 10 "three diagnostics"))
      (flymake-mode -1))))

(ert-deftest sheet-test-flymake-connection-directives ()
  "Issue 20 item 5: a bad # @proxy and an unreadable # @cacert are errors on their lines."
  (sheet-test-with-sheet (concat "# @proxy http://[::1\n"   ; line 2
                                 "# @cacert no-such-ca.pem\n" ; line 3
                                 "GET :base/users\n")
    (sheet-test-send-and-wait-ready)
    (flymake-mode 1)
    (unwind-protect
        (let ((report (sheet-test--flymake-report)))
          (should (equal (mapcar (lambda (d) (seq-take d 3)) report)
                         '((2 2 :error) (3 2 :error))))
          (should (string-match-p "# @proxy: not a proxy URL" (nth 4 (nth 0 report))))
          (should (string-match-p "# @cacert: cannot read no-such-ca.pem" (nth 4 (nth 1 report)))))
      (flymake-mode -1))))

(ert-deftest sheet-test-flymake-http-environment-and-names ()
  "A .http buffer: {{name}} undefined until the environment that defines it is chosen; duplicate names."
  (sheet-test-visiting "api.http"
      (progn
        (with-temp-file (expand-file-name "http-client.env.json" dir)
          (insert "{\"dev\": {\"host\": \"http://127.0.0.1:1\"}}"))
        (with-temp-file file
          (insert "# @name login\nGET {{host}}/a\n###\n# @name login\nGET {{host}}/b?t={{login.response.body.$.t}}\n")))
    (let ((sheet-environment nil))
      (flymake-mode 1)
      (unwind-protect
          (progn
            (should (equal (mapcar (lambda (d) (seq-take d 4)) (sheet-test--flymake-report))
                           '((2 4 :error "{{host}}")
                             (4 8 :warning "login")
                             (5 4 :error "{{host}}"))))
            (setq sheet-environment "dev")
            (flymake-start)
            (sheet-test-wait-until (lambda () (= (length (flymake-diagnostics)) 1)) 10
                                   "only the duplicate name"))
        (flymake-mode -1)))))

(ert-deftest sheet-test-flymake-sends-changes-in-step ()
  "After the first check only changes go to the engine; edits, an emoji, narrowing and undo keep it in step."
  (sheet-test-with-sheet "GET :base/a\n"
    (sheet-test-send-and-wait-ready)
    (buffer-enable-undo)
    (flymake-mode 1)
    (unwind-protect
        (let ((sent nil))
          (should (null (sheet-test--flymake-report-or-nil)))
          (advice-add 'jsonrpc-async-request :before
                      (lambda (_conn method params &rest _)
                        (when (eq method 'sheet/diagnostics) (push (plist-get params :doc) sent)))
                      '((name . sheet-test-sent)))
          (unwind-protect
              (progn
                ;; An emoji (one character, two UTF-16 units), then an undefined variable after it.
                (goto-char (point-max))
                (insert "#\n# 😀😀\nGET :base/x/:nope\n")
                (undo-boundary)
                (save-restriction
                  (narrow-to-region (point-min) (line-beginning-position -1))
                  (goto-char (point-min))
                  (insert ":v = 1\n"))
                (let ((report (sheet-test--flymake-report)))
                  (should (equal (mapcar (lambda (d) (seq-take d 4)) report)
                                 '((6 12 :warning ":nope")))))
                (should (plist-get (car sent) :changes))
                (should-not (plist-get (car sent) :text))
                ;; Undo the declaration (outside the narrowing as it was): still in step.
                (primitive-undo 1 buffer-undo-list)
                (should (equal (mapcar (lambda (d) (seq-take d 4)) (sheet-test--flymake-report))
                               '((5 12 :warning ":nope"))))
                ;; An engine copy gone out of step (a change Emacs did not record):
                ;; the engine says stale and the whole text goes, once.
                (let ((inhibit-modification-hooks t))
                  (goto-char (point-max))
                  (insert "GET :base/y/:gone\n"))
                (insert "#\n")
                (setq sent nil)
                ;; With no # line between them, the second request line is the first
                ;; request's body: the engine says so (sent-as-body, issue 36).
                (should (equal (mapcar (lambda (d) (seq-take d 4)) (sheet-test--flymake-report))
                               '((5 12 :warning ":nope") (6 0 :warning "GET :base/y/:gone") (6 12 :warning ":gone"))))
                (should (= (length sent) 2))
                (should (plist-get (car sent) :text)))
            (advice-remove 'jsonrpc-async-request 'sheet-test-sent)))
      (flymake-mode -1))))

(ert-deftest sheet-test-flymake-many-diagnostics-placed-in-one-pass ()
  "Hundreds of diagnostics, some spanning lines, each at its own place, narrowing aside.
They are placed walking down the buffer once (`sheet--flymake-diagnostics')."
  (sheet-test-with-sheet
      (mapconcat (lambda (i)
                   (format "# %d\nPOST :base/i/%d?a=:nope%d&b=:also%d\n-> frobnicate\n"
                           i i i i))
                 (number-sequence 1 300) "")
    (sheet-test-send-and-wait-ready)
    (goto-char (point-max))
    (insert ":body = <<\n{\"a\": 1}\n")
    ;; Narrowed to the middle: the diagnostics still land at their lines.
    (narrow-to-region (progn (goto-char (point-min)) (forward-line 400) (point))
                      (progn (forward-line 100) (point)))
    (flymake-mode 1)
    (unwind-protect
        (let ((ds (sheet-test--flymake-report-or-nil)))
          (widen)
          (should (= (length ds) 901))
          (dolist (d ds)
            (pcase-let ((`(,line ,col ,span ,text)
                         (save-excursion
                           (goto-char (flymake-diagnostic-beg d))
                           (list (line-number-at-pos) (current-column)
                                 (buffer-substring-no-properties
                                  (flymake-diagnostic-beg d)
                                  (flymake-diagnostic-end d))
                                 (flymake-diagnostic-text d)))))
              (cond
               ((string-match-p "unknown hook" text)
                (should (equal span "frobnicate"))
                (should (= col 3)))
               ((string-match-p ":body" text) (should (= line 902)))
               (t
                (should (string-match-p "\\`:\\(nope\\|also\\)[0-9]+\\'" span))
                (should (string-match-p (regexp-quote span) text))
                ;; The request line of the Nth request is line 3N (line 1
                ;; declares :base, a comment line comes first).
                (save-excursion
                  (goto-char (point-min))
                  (forward-line (1- line))
                  (should (looking-at "POST :base/i/\\([0-9]+\\)"))
                  (should (string-match-p (concat (match-string 1) "\\'")
                                          span))
                  (should (= line (* 3 (string-to-number
                                         (match-string 1)))))))))))
      (flymake-mode -1))))

(provide 'sheet-mode-flymake-test)
;;; sheet-mode-flymake-test.el ends here
