;;; sheet-mode-yank-curl-test.el --- C-c C-y: a curl command line into a request  -*- lexical-binding: t; -*-

;;; Commentary:

;; `sheet-yank-curl' (C-c C-y, issue 15) with the real engine (`sheet/fromCurl') and the
;; example API: the round trip C-c C-u then C-c C-y gives the same request, which then sends;
;; the command from the kill ring or the minibuffer; warnings and errors naming the option;
;; the separator of a `.http' file.

;;; Code:

(require 'test-helper)

(ert-deftest sheet-test-yank-curl-round-trip ()
  "C-c C-u then C-c C-y gives the same request, and it sends."
  (sheet-test-with-sheet "POST :base/users\nContent-Type: application/json\nX-Trace: a b\n\n{\"name\": \"Grace\", \"note\": \"it's\"}\n"
    (sheet-test-goto "^POST")
    (sheet-test-key "C-c C-u")
    (let ((command (car kill-ring)))
      (should (string-prefix-p "curl -X POST" command))
      (goto-char (point-max))
      (should (eq (key-binding (kbd "C-c C-y")) #'sheet-yank-curl))
      (sheet-test-key "C-c C-y")
      ;; Point is on the new request, after a separator line.
      (should (looking-at-p "POST "))
      (should (equal (buffer-substring-no-properties (point) (point-max))
                     (format "POST %s/users\nContent-Type: application/json\nX-Trace: a b\n\n{\"name\": \"Grace\", \"note\": \"it's\"}\n"
                             (sheet-test-api-url))))
      (save-excursion (forward-line -1) (should (looking-at-p "#$")))
      ;; The same request: the same curl command line.
      (sheet-test-key "C-c C-u")
      (should (equal (car kill-ring) command))
      (with-current-buffer (sheet-test-send-and-wait)
        (should (string-match-p "\"name\": \"Grace\"" (buffer-string)))))))

;; Issue 27: a big `< file' body is exported as the file, not pasted into the command.
(ert-deftest sheet-test-yank-curl-big-file-body ()
  "C-c C-u of a 150 KiB `< file' body gives --data-binary @/absolute/file."
  (let* ((dir (make-temp-file "sheet-export" t))
         (file (expand-file-name "big.json" dir)))
    (unwind-protect
        (progn
          (with-temp-file file (insert (make-string (* 150 1024) ?x)))
          (sheet-test-with-sheet (format "PUT :base/echo/up\nContent-Type: application/json\n\n< %s\n" file)
            (sheet-test-goto "^PUT")
            (sheet-test-key "C-c C-u")
            (let ((command (car kill-ring)))
              (should (string-match-p (regexp-quote (concat " --data-binary @" file " ")) command))
              (should (< (length command) 1000)))))
      (delete-directory dir t))))

(ert-deftest sheet-test-yank-curl-between-requests ()
  "Inserted in the middle of a sheet, the request gets a separator on each side."
  (sheet-test-with-sheet ""
    (erase-buffer)
    (insert "GET http://127.0.0.1:9/a\n\nGET http://127.0.0.1:9/b\n")
    (goto-char (point-min))
    (forward-line 1)
    (sheet-yank-curl "curl http://127.0.0.1:9/new")
    (should (equal (buffer-string)
                   "GET http://127.0.0.1:9/a\n#\nGET http://127.0.0.1:9/new\n#\n\nGET http://127.0.0.1:9/b\n"))
    (should (equal (mapcar (lambda (r) (plist-get r :url)) (sheet--requests))
                   '("http://127.0.0.1:9/a" "http://127.0.0.1:9/new" "http://127.0.0.1:9/b")))))

(ert-deftest sheet-test-yank-curl-reads-the-command ()
  "Not a curl command in the kill ring, or a prefix argument: read it, the kill as default."
  (sheet-test-with-sheet ""
    (let (asked)
      (kill-new "just some text")
      (cl-letf (((symbol-function 'read-string)
                 (lambda (prompt _initial _history default)
                   (setq asked (list prompt default))
                   "curl -H 'Accept: text/plain' http://127.0.0.1:9/typed")))
        (sheet-test-key "C-c C-y"))
      (should (equal asked '("curl command line: " "just some text")))
      (should (string-match-p "^GET http://127.0.0.1:9/typed\nAccept: text/plain\n" (buffer-string)))
      ;; A curl command in the kill ring is taken as it is, unless C-u asks.
      (kill-new "curl http://127.0.0.1:9/killed")
      (setq asked nil)
      (goto-char (point-max))
      (cl-letf (((symbol-function 'read-string)
                 (lambda (&rest args) (setq asked args) "curl http://127.0.0.1:9/asked")))
        (sheet-test-key "C-c C-y")
        (should-not asked)
        (should (string-match-p "^GET http://127.0.0.1:9/killed$" (buffer-string)))))))

(ert-deftest sheet-test-yank-curl-multi-line-edit-buffer ()
  "Issue 22 item 7: C-u C-c C-y reads a multi-line command in an edit buffer.
C-c C-c there inserts its request where point was; C-c C-k inserts nothing."
  (sheet-test-with-sheet "GET :base/users\n"
    (let ((sheet (current-buffer))
          (asked nil))
      (switch-to-buffer sheet)
      (kill-new "curl http://127.0.0.1:9/killed")
      (goto-char (point-max))
      (cl-letf (((symbol-function 'read-string) (lambda (&rest _) (setq asked t) "")))
        (let ((current-prefix-arg '(4)))
          (sheet-test-key "C-c C-y")))
      (should-not asked)
      (let ((edit (get-buffer "*sheet curl*")))
        (should edit)
        (should (eq (window-buffer (selected-window)) edit))
        (with-current-buffer edit
          (should (equal (buffer-string) "curl http://127.0.0.1:9/killed"))
          ;; A command pasted over several lines, as from a terminal.
          (erase-buffer)
          (insert "curl -X POST \\\n  -H 'Content-Type: application/json' \\\n"
                  "  -d '{\"a\": 1}' \\\n  http://127.0.0.1:9/multi\n")
          (sheet-test-key "C-c C-c"))
        (should-not (buffer-live-p edit)))
      ;; The sheet is back in the window (the command loop makes it current).
      (should (eq (window-buffer (selected-window)) sheet))
      (set-buffer sheet)
      (should (string-match-p
               "^POST http://127.0.0.1:9/multi\nContent-Type: application/json\n\n{\"a\": 1}\n"
               (buffer-string)))
      ;; C-c C-k: nothing inserted.
      (let ((before (buffer-string)))
        (let ((current-prefix-arg '(4)))
          (sheet-test-key "C-c C-y"))
        (with-current-buffer "*sheet curl*"
          (erase-buffer)
          (insert "curl http://127.0.0.1:9/never")
          (sheet-test-key "C-c C-k"))
        (should-not (get-buffer "*sheet curl*"))
        (with-current-buffer sheet
          (should (equal (buffer-string) before)))))))

(ert-deftest sheet-test-yank-curl-warnings-and-errors ()
  "What the request leaves out is a warning naming the option; what it cannot write, an error."
  (sheet-test-with-sheet ""
    (let ((mark (sheet-test-messages-mark)))
      (sheet-yank-curl "curl --max-time 5 -x http://127.0.0.1:3128 http://127.0.0.1:9/up")
      (let ((text (sheet-test-messages-since mark)))
        (should (string-match-p "warning: --max-time 5: not carried over" text))
        (should-not (string-match-p "-x http" text)))
      ;; -x is the request's connection directive (docs/sheet-format.md).
      (should (string-match-p "^# @proxy http://127.0.0.1:3128\nGET http://127.0.0.1:9/up$" (buffer-string))))
    (let ((before (buffer-string)))
      (let ((err (should-error (sheet-yank-curl "curl -X FOO http://127.0.0.1:9/") :type 'user-error)))
        (should (string-match-p "-X FOO: a sheet request cannot use this method" (cadr err))))
      (let ((err (should-error (sheet-yank-curl "wget http://127.0.0.1:9/") :type 'user-error)))
        (should (string-match-p "not a curl command" (cadr err))))
      ;; Nothing was inserted.
      (should (equal (buffer-string) before)))))

(defmacro sheet-test--in-http-file (&rest body)
  "Run BODY in a `sheet-mode' buffer visiting a new `.http' file, then remove it."
  (declare (indent 0) (debug t))
  `(let* ((dir (make-temp-file "sheet-yank" t))
          (file (expand-file-name "api.http" dir)))
     (unwind-protect
         (with-current-buffer (find-file-noselect file)
           (unwind-protect
               (progn (sheet-mode) ,@body)
             (set-buffer-modified-p nil)
             (kill-buffer)))
       (delete-directory dir t))))

(ert-deftest sheet-test-yank-curl-http-file ()
  "In a `.http' file the requests are separated by `###'."
  (sheet-test--in-http-file
    (insert "GET http://127.0.0.1:9/a\n# a comment\n")
    (sheet-yank-curl "curl -d x=1 http://127.0.0.1:9/b")
    (should (equal (buffer-string)
                   "GET http://127.0.0.1:9/a\n# a comment\n###\nPOST http://127.0.0.1:9/b\nContent-Type: application/x-www-form-urlencoded\n\nx=1\n"))
    (should (equal (mapcar (lambda (r) (plist-get r :method)) (sheet--requests))
                   '("GET" "POST")))))

(ert-deftest sheet-test-yank-curl-glob-requests ()
  "A URL glob inserts one request per URL curl sends, each in its own block."
  (sheet-test--in-http-file
    (sheet-yank-curl "curl 'http://127.0.0.1:9/u/{a,b}'")
    (should (equal (buffer-string)
                   "GET http://127.0.0.1:9/u/a\n###\nGET http://127.0.0.1:9/u/b\n"))
    (should (equal (mapcar (lambda (r) (plist-get r :url)) (sheet--requests))
                   '("http://127.0.0.1:9/u/a" "http://127.0.0.1:9/u/b")))))

(ert-deftest sheet-test-yank-curl-form ()
  "`-F' comes in as a multipart body that sends curl's parts."
  (sheet-test-with-sheet ""
    (sheet-yank-curl "curl -F name=ada http://127.0.0.1:9/up")
    (let ((text (buffer-string)))
      (should (string-match-p "^POST http://127.0.0.1:9/up$" text))
      (should (string-match-p "^Content-Type: multipart/form-data; boundary=-\\{24\\}[0-9a-f]\\{16\\}$" text))
      (should (string-match-p "^Content-Disposition: form-data; name=\"name\"\n\nada\n" text)))))

(provide 'sheet-mode-yank-curl-test)
;;; sheet-mode-yank-curl-test.el ends here
