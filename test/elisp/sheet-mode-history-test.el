;;; sheet-mode-history-test.el --- Response history, real engine  -*- lexical-binding: t; -*-

;;; Commentary:

;; Issue 25 item 5: the last `sheet-response-history-size' responses of
;; each request (by its request line), C-c C-h to show one (picked with
;; `completing-read', annotated), `sheet-response-diff' between the last
;; two bodies; against the example API through the real engine.

;;; Code:

(require 'test-helper)

(defconst sheet-test-history-sheet "GET :base/users
#
POST :base/users
Content-Type: application/json

{\"name\": \"Hedy Lamarr\"}
#
POST :base/reset
"
  "Three requests: the list, a new user, a reset of the API's users.")

(defmacro sheet-test-with-history (&rest body)
  "Run BODY in the history sheet with an empty history, the API reset after."
  (declare (indent 0) (debug t))
  `(sheet-test-with-sheet sheet-test-history-sheet
     (clrhash sheet-history--table)
     (unwind-protect (progn ,@body)
       (sheet-test-goto "^POST :base/reset")
       (sheet-test-send-and-wait))))

(ert-deftest sheet-test-history-keeps-last-n-per-request-line ()
  "Each request line keeps its last N responses; edits elsewhere keep it."
  (sheet-test-with-history
    (let ((sheet-response-history-size 2))
      (dotimes (_ 3)
        (sheet-test-goto "^GET :base/users")
        (sheet-test-send-and-wait))
      (sheet-test-goto "^POST :base/reset")
      (sheet-test-send-and-wait)
      (let ((users (gethash (cons (buffer-name) "GET :base/users")
                            sheet-history--table)))
        (should (= (length users) 2))
        (should (string-match-p "\"name\": \"Ada Lovelace\""
                                (plist-get (car users) :body)))
        (should (numberp (plist-get (plist-get (car users) :result)
                                    :durationMs))))
      ;; Lines added above, and the request's header changed: same history.
      (goto-char (point-min))
      (insert "# a comment\n:unused = 1\n")
      (sheet-test-goto "^GET :base/users")
      (forward-line)
      (insert "Accept: application/json\n")
      ;; (Point is now on the `#' line, which belongs to the POST below.)
      (forward-line -1)
      (should (= (length (cdr (sheet-history--at-point))) 2))
      ;; Another request line is another request.
      (sheet-test-goto "^GET :base/users")
      (end-of-line)
      (insert "?page=2")
      (should-error (sheet-history--at-point) :type 'user-error))))

(ert-deftest sheet-test-history-same-request-line-two-requests ()
  "Issue 37 item 7: two requests with one request line keep two histories.
Known by position among the requests with that line (following edits
elsewhere), or by `# @name'."
  (sheet-test-with-sheet (concat "POST :base/echo\nContent-Type: text/plain\n\nfirst\n"
                                 "#\nPOST :base/echo\nContent-Type: text/plain\n\nsecond\n"
                                 "#\n# @name third\nPOST :base/echo\n")
    (clrhash sheet-history--table)
    (let ((bodies (lambda ()
                    (mapcar (lambda (e)
                              (cond ((string-match-p "first" (plist-get e :body)) 'first)
                                    ((string-match-p "second" (plist-get e :body)) 'second)
                                    (t 'other)))
                            (cdr (sheet-history--at-point))))))
      (sheet-test-goto "^POST :base/echo")
      (sheet-test-send-and-wait)
      (forward-line 5)
      (should (looking-at-p "POST :base/echo\nContent-Type: text/plain\n\nsecond"))
      (sheet-test-send-and-wait)
      (sheet-test-send-and-wait)
      (should (equal (funcall bodies) '(second second)))
      (sheet-test-goto "^POST :base/echo")
      (should (equal (funcall bodies) '(first)))
      ;; A request added above, with another request line: each keeps its own.
      (goto-char (point-min))
      (insert "GET :base/users\n#\n")
      (sheet-test-goto "^POST :base/echo")
      (should (equal (funcall bodies) '(first)))
      (forward-line 5)
      (should (equal (funcall bodies) '(second second)))
      ;; A named request is known by its name.
      (sheet-test-goto "^# @name third")
      (forward-line)
      (sheet-test-send-and-wait)
      (should (equal (car (car (sheet-history--at-point)))
                     (buffer-name)))
      (should (equal (cdr (car (sheet-history--at-point))) "@third")))))

(ert-deftest sheet-test-history-c-c-c-h-shows-an-earlier-response ()
  "C-c C-h offers the responses, annotated, and shows the one chosen."
  (sheet-test-with-history
    (sheet-test-goto "^GET :base/users")
    (sheet-test-send-and-wait)
    (sheet-test-goto "^POST :base/users")
    (sheet-test-send-and-wait)
    (sheet-test-goto "^GET :base/users")
    (sheet-test-send-and-wait)
    (should (eq (key-binding (kbd "C-c C-h")) #'sheet-response-history))
    (let (offered annotations)
      (cl-letf (((symbol-function 'completing-read)
                 (lambda (_prompt table &rest _)
                   (setq offered (all-completions "" table))
                   (let ((annotate (cdr (assq 'annotation-function
                                              (cdr (funcall table "" nil
                                                            'metadata))))))
                     (setq annotations (mapcar annotate offered)))
                   ;; The older one.
                   (cadr offered))))
        (sheet-test-key "C-c C-h"))
      (should (= (length offered) 2))
      (should (string-match-p "\\`#2 [0-9:.]+\\'" (car offered)))
      (should (string-match-p "\\`  200 OK  [0-9.]+k?  [0-9]+ ms\\'"
                              (car annotations)))
      (with-current-buffer "*HTTP Response*"
        (should (string-match-p "Grace Hopper" (buffer-string)))
        (should-not (string-match-p "Hedy Lamarr" (buffer-string)))
        (should (string-match-p "^// HTTP/1.1 200 OK$" (buffer-string)))
        (should (string-match-p "^// From the history: received " (buffer-string)))
        (should-not buffer-read-only)))))

(ert-deftest sheet-test-history-http10-status-line ()
  "An HTTP/1.0 server's status line says HTTP/1.0, in the trailer and the history."
  (let ((url (sheet-test-python-http-url)))
    (sheet-test-with-sheet (format "GET %s/hello.json\n" url)
      (clrhash sheet-history--table)
      (sheet-test-goto "^GET ")
      (with-current-buffer (sheet-test-send-and-wait)
        (should (string-match-p "^// HTTP/1.0 200 OK$" (buffer-string)))
        (should-not (string-match-p "HTTP/1.1" (buffer-string))))
      (cl-letf (((symbol-function 'completing-read)
                 (lambda (_prompt table &rest _)
                   (car (all-completions "" table)))))
        (sheet-test-key "C-c C-h"))
      (with-current-buffer "*HTTP Response*"
        (should (string-match-p "^// From the history: " (buffer-string)))
        (should (string-match-p "^// HTTP/1.0 200 OK$" (buffer-string)))))))

(ert-deftest sheet-test-history-diff-of-last-two-bodies ()
  "`sheet-response-diff' shows what changed between the last two bodies."
  (sheet-test-with-history
    (sheet-test-goto "^GET :base/users")
    (sheet-test-send-and-wait)
    (should-error (sheet-response-diff) :type 'user-error)
    (sheet-test-goto "^POST :base/users")
    (sheet-test-send-and-wait)
    (sheet-test-goto "^GET :base/users")
    (sheet-test-send-and-wait)
    (let ((buf (sheet-response-diff)))
      (with-current-buffer buf
        (should (derived-mode-p 'diff-mode))
        (should (string-match-p "^+ *\"name\": \"Hedy Lamarr\",$"
                                (buffer-string)))
        (should-not (string-match-p "^[-+] *\"name\": \"Ada Lovelace\""
                                    (buffer-string)))))))

(ert-deftest sheet-test-history-big-body-not-kept ()
  "A body over `sheet-response-history-max-body' is noted without its body."
  (sheet-test-with-history
    (let ((sheet-response-history-max-body 10))
      (sheet-test-goto "^GET :base/users")
      (sheet-test-send-and-wait)
      (sheet-test-send-and-wait)
      (let ((entry (car (cdr (sheet-history--at-point)))))
        (should (null (plist-get entry :body)))
        (should (> (plist-get entry :size) 10)))
      (should-error (sheet-response-diff) :type 'user-error)
      (with-current-buffer (sheet-history-show
                            (car (cdr (sheet-history--at-point))))
        (should (string-match-p "not kept" (buffer-string)))))))

(ert-deftest sheet-test-history-size-zero-keeps-none ()
  "With `sheet-response-history-size' 0 nothing is kept."
  (sheet-test-with-history
    (let ((sheet-response-history-size 0))
      (sheet-test-goto "^GET :base/users")
      (sheet-test-send-and-wait)
      (should-error (sheet-history--at-point) :type 'user-error))))

(ert-deftest sheet-test-history-http-file ()
  "A `.http' file keeps its history by file and request line too."
  (clrhash sheet-history--table)
  (sheet-test-visiting "api.http"
      (with-temp-file file
        (insert "@base = " (sheet-test-api-url) "\n\n"
                "### one\nGET {{base}}/users/1\n\n### two\nGET {{base}}/users/2\n"))
    (sheet-test-goto "^GET {{base}}/users/1")
    (sheet-test-send-and-wait)
    (sheet-test-send-and-wait)
    (sheet-test-goto "^GET {{base}}/users/2")
    (sheet-test-send-and-wait)
    (should (equal (mapcar (lambda (k) (cdr k))
                           (sort (hash-table-keys sheet-history--table)
                                 (lambda (a b) (string< (cdr a) (cdr b)))))
                   '("GET {{base}}/users/1" "GET {{base}}/users/2")))
    (should (equal (car (car (hash-table-keys sheet-history--table))) file))
    (sheet-test-goto "^GET {{base}}/users/1")
    (should (= (length (cdr (sheet-history--at-point))) 2))
    (let ((buf (sheet-response-diff)))
      (with-current-buffer buf
        (should (string-match-p "no differences" (buffer-string)))))))

(provide 'sheet-mode-history-test)
;;; sheet-mode-history-test.el ends here
