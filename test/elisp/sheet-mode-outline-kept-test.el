;;; sheet-mode-outline-kept-test.el --- Navigation never waits on the engine  -*- lexical-binding: t; -*-

;;; Commentary:

;; Issue 37 item 9: after an edit, C-c C-n, C-c C-p, TAB and C-c C-. answer from the kept
;; outline (its lines moved by the edit) without a synchronous engine call; the fresh outline
;; comes in the background.  Real engine; `jsonrpc-request' (the waiting call) is forbidden
;; during the keys, the asynchronous refresh is not.

;;; Code:

(require 'test-helper)

(defconst sheet-test--kept-sheet
  "# first\nGET :base/users\nAccept: application/json\n#\n# second\nPOST :base/users\nContent-Type: application/json\n\n{\"name\": \"x\"}\n#\nDELETE :base/users/1\n"
  "A sheet with three requests.")

(defun sheet-test--kept-line-text ()
  "The text of point's line."
  (buffer-substring-no-properties (line-beginning-position) (line-end-position)))

(defmacro sheet-test--without-waiting (&rest body)
  "Run BODY; fail if it waits on the engine's outline; return BODY's value.
A wait is a `jsonrpc-request' (the synchronous call) of `sheet/outline'."
  (declare (indent 0) (debug t))
  `(let ((waits 0))
     (prog1 (cl-letf* ((real (symbol-function 'jsonrpc-request))
                       ((symbol-function 'jsonrpc-request)
                        (lambda (conn method &rest args)
                          (when (eq method 'sheet/outline) (setq waits (1+ waits)))
                          (apply real conn method args))))
              ,@body)
       (should (= waits 0)))))

(defun sheet-test--kept-hidden-p (regexp)
  "Whether the first line matching REGEXP is hidden."
  (save-excursion (sheet-test-goto regexp) (invisible-p (point))))

(ert-deftest sheet-test-navigation-after-edit-does-not-wait ()
  "After lines are added and removed, the keys move by the kept outline, with no wait."
  (sheet-test-with-sheet sheet-test--kept-sheet
    (goto-char (point-min))
    (sheet-test-key "C-c C-n")            ; the buffer's first look-up may wait
    (should (equal (sheet-test--kept-line-text) "GET :base/users"))
    ;; Two lines above every request, one more in the POST's headers, one deleted line.
    (goto-char (point-min))
    (forward-line 1)
    (insert "# added\n# added too\n")
    (sheet-test-goto "^Content-Type")
    (insert "X-Added: 1\n")
    (sheet-test-goto "^#$")
    (delete-region (point) (1+ (line-end-position)))
    (sheet-test--without-waiting
      (goto-char (point-min))
      (sheet-test-key "C-c C-n")
      (should (equal (sheet-test--kept-line-text) "GET :base/users"))
      (sheet-test-key "C-c C-n")
      (should (equal (sheet-test--kept-line-text) "POST :base/users"))
      (sheet-test-key "C-c C-n")
      (should (equal (sheet-test--kept-line-text) "DELETE :base/users/1"))
      (sheet-test-key "C-c C-p")
      (should (equal (sheet-test--kept-line-text) "POST :base/users"))
      ;; TAB folds the POST down to its body, its added header line included.
      (sheet-test-key "TAB")
      (should (sheet-test--kept-hidden-p "^X-Added"))
      (should (sheet-test--kept-hidden-p "^{\"name\""))
      (should-not (sheet-test--kept-hidden-p "^DELETE"))
      (sheet-test-goto "^POST")
      (sheet-test-key "TAB")
      ;; C-c C-. marks the whole POST.
      (sheet-test-goto "^X-Added")
      (sheet-test-key "C-c C-.")
      (should (equal (buffer-substring-no-properties (point) (mark))
                     "POST :base/users\nX-Added: 1\nContent-Type: application/json\n\n{\"name\": \"x\"}")))))

(ert-deftest sheet-test-outline-refreshed-in-background ()
  "A request line typed in joins the kept outline once Emacs is idle, asked without waiting."
  (sheet-test-with-sheet sheet-test--kept-sheet
    (progn
      (sheet-test-key "C-c C-n")
      (goto-char (point-max))
      (insert "#\nPUT :base/users/2\n")
      (sheet-test--without-waiting
        ;; Before the refresh: the last request known is the DELETE.
        (sheet-test-goto "^DELETE")
        (sheet-test-key "C-c C-n")
        (should (equal (sheet-test--kept-line-text) "DELETE :base/users/1"))
        ;; The edit planned a refresh for when Emacs is idle; batch Emacs is never idle, so
        ;; it is fired as Emacs would, and its answer awaited by the test, not the key.
        (should (timerp sheet--outline-timer))
        (timer-event-handler sheet--outline-timer)
        (sheet-test-wait-until #'sheet--outline-exact-p 10 "the outline refreshed")
        (sheet-test-key "C-c C-n")
        (should (equal (sheet-test--kept-line-text) "PUT :base/users/2"))))))

(ert-deftest sheet-test-http-navigation-after-edit-does-not-wait ()
  "In a `.http' file (### separators) too: the kept outline follows the edit."
  (sheet-test-visiting "nav.http"
      (with-temp-file file
        (insert "### one\nGET http://127.0.0.1:1/a\n\n### two\n"
                "POST http://127.0.0.1:1/b\nContent-Type: text/plain\n\nbody\n\n"
                "### three\nGET http://127.0.0.1:1/c\n"))
    (sheet-test-key "C-c C-n")
    (should (equal (sheet-test--kept-line-text) "GET http://127.0.0.1:1/a"))
    (sheet-test-goto "^Content-Type")
    (insert "X-One: 1\nX-Two: 2\n")
    (sheet-test--without-waiting
      (sheet-test-goto "^X-Two")
      (sheet-test-key "C-c C-n")
      (should (equal (sheet-test--kept-line-text) "GET http://127.0.0.1:1/c"))
      (sheet-test-key "C-c C-p")
      (should (equal (sheet-test--kept-line-text) "POST http://127.0.0.1:1/b"))
      (sheet-test-key "TAB")
      (should (sheet-test--kept-hidden-p "^body"))
      (should-not (sheet-test--kept-hidden-p "^GET http://127.0.0.1:1/c")))))

(ert-deftest sheet-test-kept-outline-agrees-with-engine ()
  "After edits that add, join and delete lines, the kept outline answers as the engine's."
  (sheet-test-with-sheet sheet-test--kept-sheet
    (sheet-test-key "C-c C-n")
    (sheet-test-goto "^Accept")
    (insert "X-A: 1\nX-B: 2\n")           ; two lines into the GET
    (sheet-test-goto "^# second")
    (delete-region (point) (progn (forward-line 1) (point))) ; a comment line gone
    (sheet-test-goto "^{")
    (insert "\n\n")                        ; the POST's body grows at its start
    (sheet-test-goto "^X-B")
    (end-of-line)
    (delete-char 1)                         ; X-B and Accept joined on one line
    (let* ((lines (count-lines (point-min) (point-max)))
           (kept (sheet-test--without-waiting
                   (let (acc)
                     (dotimes (i lines (nreverse acc))
                       (push (plist-get (sheet--request-at (1+ i) t) :line) acc)))))
           (exact (let (acc)
                    (dotimes (i lines (nreverse acc))
                      (push (plist-get (sheet--request-at (1+ i)) :line) acc)))))
      (should (equal kept exact)))))

;;; sheet-mode-outline-kept-test.el ends here
