;;; sheet-mode-body-file-test.el --- Big bodies handed over in a file  -*- lexical-binding: t; -*-

;;; Commentary:

;; Bodies of at least `sheet--body-file-min' characters come from the engine in a temporary
;; file (`bodyFileMin' in docs/protocol.md): the response buffer holds the same text as when
;; the body comes inside the answer, and no file or directory is left behind, also when
;; showing the response fails.  The engine runs with its own TMPDIR here, to see what is left.

;;; Code:

(require 'test-helper)

(defmacro sheet-test-with-engine-tmpdir (var &rest body)
  "Run BODY with the engine restarted with TMPDIR a fresh directory bound to VAR.
The directory is removed and the engine restarted normally afterwards."
  (declare (indent 1) (debug t))
  `(let ((,var (file-name-as-directory (make-temp-file "sheet-engine-tmp" t))))
     (unwind-protect
         (progn
           (let ((process-environment (cons (concat "TMPDIR=" ,var) process-environment)))
             (sheet-engine-restart))
           ,@body)
       (sheet-engine-shutdown)
       (delete-directory ,var t))))

(defun sheet-test--left-in (dir)
  "Files and directories left in DIR."
  (directory-files dir nil directory-files-no-dot-files-regexp))

(defun sheet-test--body-text (buffer)
  "BUFFER's text without the lines that change from one send to the next.
Those are the trailer's duration and Date header lines."
  (with-current-buffer buffer
    (mapconcat #'identity
               (seq-remove (lambda (line)
                             (and (< (length line) 200)
                                  (string-match-p "\\(Request duration\\|Date\\): " line)))
                           (split-string (buffer-substring-no-properties (point-min) (point-max))
                                         "\n"))
               "\n")))

(ert-deftest sheet-test-body-file-same-text ()
  "A big body read from the engine's file is the same text as one inside the answer."
  (sheet-test-with-engine-tmpdir tmp
    (sheet-test-with-sheet "GET :base/big.json?kb=300\n#\nGET :base/big.xml?kb=100\n#\nPOST :base/echo\nContent-Type: text/plain; charset=utf-8\n\nété 日本 😀 a\r\nb\n"
      (dolist (re '("^GET .*json" "^GET .*xml" "^POST"))
        (sheet-test-goto re)
        (let* ((inline (let ((sheet--body-file-min nil))
                         (sheet-test--body-text (sheet-test-send-and-wait))))
               (filed (let ((sheet--body-file-min 10))
                        (sheet-test--body-text (sheet-test-send-and-wait)))))
          (should (> (length inline) 100))
          (should (equal filed inline))
          (should-not (sheet-test--left-in tmp))))
      ;; Raw (C-c C-r): status line and headers, then the body from the file.
      (sheet-test-goto "^GET .*json")
      (let* ((raw #'sheet-http-send-current-raw)
             (inline (let ((sheet--body-file-min nil))
                       (sheet-test--body-text (sheet-test-send-and-wait raw))))
             (filed (let ((sheet--body-file-min 10))
                      (sheet-test--body-text (sheet-test-send-and-wait raw)))))
        (should (string-prefix-p "HTTP/1.1 200 OK\n" inline))
        (should (string-match-p "^\\[{\"id\":0," inline))
        (should (equal filed inline)))
      (should-not (sheet-test--left-in tmp))
      ;; The big JSON body did come in a file.
      (let ((sheet--body-file-min 65536))
        (with-current-buffer (sheet-test-send-and-wait)
          (should (plist-get (plist-get sheet--response-info :presentation) :file))
          (should (> (buffer-size) 300000))))
      (should-not (sheet-test--left-in tmp)))))

(ert-deftest sheet-test-body-file-bytes ()
  "Image and binary bodies handed over in a file: their bytes, nothing left behind."
  (sheet-test-with-engine-tmpdir tmp
    (sheet-test-with-sheet "GET :base/image.png\n#\nGET :base/binary\n"
      (let* ((sheet--body-file-min nil)
             (image (sheet-test--body-text (sheet-test-send-and-wait))))
        (let ((sheet--body-file-min 1))
          (with-current-buffer (sheet-test-send-and-wait)
            (should (plist-get (plist-get sheet--response-info :presentation) :file))
            (should (equal (sheet-test--body-text (current-buffer)) image)))))
      (sheet-test-goto "^GET .*binary")
      (let* ((sheet--body-file-min nil)
             (raw (sheet-test--body-text (sheet-test-send-and-wait #'sheet-http-send-current-raw))))
        (should (string-match-p "\0\1\2\0" raw))
        (let ((sheet--body-file-min 1))
          (should (equal (sheet-test--body-text (sheet-test-send-and-wait #'sheet-http-send-current-raw))
                         raw))))
      (should-not (sheet-test--left-in tmp)))))

(ert-deftest sheet-test-body-file-deleted-on-errors ()
  "The body file and its directory are deleted when showing the response fails."
  (sheet-test-with-engine-tmpdir tmp
    (sheet-test-with-sheet "GET :base/big.json?kb=100\n"
      (let ((sheet--body-file-min 10)
            (debug-on-error nil))
        ;; Reading the file fails.
        (let ((mark (sheet-test-messages-mark)))
          (cl-letf (((symbol-function 'sheet--insert-file)
                     (lambda (_file) (error "Disk on fire"))))
            (sheet-test-key "C-c C-v")
            (sheet-test-wait-idle)
            (should (string-match-p "showing the response failed: Disk on fire"
                                    (sheet-test-messages-since mark)))))
        (should-not (sheet-test--left-in tmp))
        ;; Something fails before the body is read.
        (let ((mark (sheet-test-messages-mark)))
          (cl-letf (((symbol-function 'sheet--response-buffer)
                     (lambda (&rest _) (error "No buffer for you"))))
            (sheet-test-key "C-c C-v")
            (sheet-test-wait-idle)
            (should (string-match-p "showing the response failed: No buffer for you"
                                    (sheet-test-messages-since mark)))))
        (should-not (sheet-test--left-in tmp))
        ;; And all is well again.
        (with-current-buffer (sheet-test-send-and-wait)
          (should (> (buffer-size) 100000)))
        (should-not (sheet-test--left-in tmp))))))

;;; sheet-mode-body-file-test.el ends here
