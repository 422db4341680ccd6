;;; sheet-mode-install-test.el --- Finding and installing the engine, packaging  -*- lexical-binding: t; -*-

;;; Commentary:

;; Issue 16, Emacs: the engine is found without configuration (the checkout's bundle, else
;; `sheet engine --stdio' from `exec-path'), a missing engine names the npm command on the
;; first C-c C-c, `sheet-install-engine' runs npm after asking, and the package files (the
;; MELPA recipe, the headers checked by package-lint) are valid.  The `sheet' and `npm'
;; programs here are small scripts in a temporary directory put first on `exec-path': the
;; fake `sheet' execs the checkout's real engine, so a request really goes through it.

;;; Code:

(require 'test-helper)

(defun sheet-test-install--script (dir name text)
  "Write an executable shell script NAME holding TEXT into DIR; return its path."
  (let ((file (expand-file-name name dir)))
    (with-temp-file file (insert "#!/bin/sh\n" text))
    (set-file-modes file #o755)
    file))

(defmacro sheet-test-install--with-bin (dir &rest body)
  "Run BODY with DIR, a fresh directory, alone on `exec-path' (with node's)."
  (declare (indent 1) (debug t))
  `(let* ((,dir (make-temp-file "sheet-bin" t))
          (exec-path (list ,dir (file-name-directory (executable-find "node")))))
     (unwind-protect
         (progn (sheet-engine-shutdown) ,@body)
       (sheet-engine-shutdown)
       (delete-directory ,dir t))))

(ert-deftest sheet-test-install-finds-sheet-on-exec-path ()
  "Without the checkout's bundle, `sheet engine --stdio' from `exec-path' is started."
  (sheet-test-install--with-bin dir
    (let* ((args-file (expand-file-name "args" dir))
           (sheet (sheet-test-install--script
                   dir "sheet"
                   (format "printf '%%s\\n' \"$*\" > %s\n[ \"$1 $2\" = 'engine --stdio' ] || exit 9\nexec node %s --stdio\n"
                           (shell-quote-argument args-file)
                           (shell-quote-argument
                            (expand-file-name "engine/dist/engine.cjs" sheet-test-root)))))
           (sheet-engine--bundled-file (expand-file-name "no-such-engine.cjs" dir))
           (sheet-engine-command nil))
      (should (equal (sheet-engine-find-command) (list sheet "engine" "--stdio")))
      (sheet-test-with-sheet "GET :base/users\n"
        (with-current-buffer (sheet-test-send-and-wait)
          (should (string-match-p "Ada Lovelace" (buffer-string)))))
      (should (equal (process-command (sheet-engine-process)) (list sheet "engine" "--stdio")))
      (should (equal (with-temp-buffer (insert-file-contents args-file) (buffer-string))
                     "engine --stdio\n")))))

(ert-deftest sheet-test-install-bundle-comes-first ()
  "In a checkout with the engine built, the bundle is used even with `sheet' on `exec-path'."
  (sheet-test-install--with-bin dir
    (sheet-test-install--script dir "sheet" "exit 9\n")
    (let ((sheet-engine-command nil))
      (should (equal (sheet-engine-find-command)
                     (list "node" (expand-file-name "engine/dist/engine.cjs" sheet-test-root)
                           "--stdio"))))))

(ert-deftest sheet-test-install-no-engine-names-npm ()
  "No bundle and no `sheet': the first C-c C-c says which npm command installs it."
  (sheet-test-install--with-bin dir
    (let ((sheet-engine--bundled-file (expand-file-name "no-such-engine.cjs" dir))
          (sheet-engine-command nil)
          (sheet-engine-npm-package "sheet-test-package"))
      (should-not (sheet-engine-find-command))
      (sheet-test-with-sheet "GET :base/users\n"
        (let ((err (should-error (sheet-test-key "C-c C-c") :type 'user-error)))
          (should (string-match-p "npm install -g sheet-test-package" (cadr err)))
          (should (string-match-p "sheet-install-engine" (cadr err)))
          ;; In a checkout, `make build' is the other way.
          (should (string-match-p "make build" (cadr err)))))
      (should-not (sheet-engine-process)))))

(ert-deftest sheet-test-install-sheet-run-command ()
  "C-c C-t's `sheet' is found the same way: the checkout's, else `sheet' on `exec-path'."
  (let ((sheet-run-command nil))
    (should (equal (sheet-run--command)
                   (list "node" (expand-file-name "engine/bin/sheet" sheet-test-root))))
    (sheet-test-install--with-bin dir
      (let ((sheet-engine--directory (file-name-as-directory (expand-file-name "elisp" dir)))
            (sheet-engine--bundled-file (expand-file-name "no-such-engine.cjs" dir)))
        (let ((err (should-error (sheet-run--command) :type 'user-error)))
          (should (string-match-p "npm install -g sheet-rest" (cadr err))))
        (let ((sheet (sheet-test-install--script dir "sheet" "exit 0\n")))
          (should (equal (sheet-run--command) (list sheet))))
        (let ((sheet-run-command '("my-sheet")))
          (should (equal (sheet-run--command) '("my-sheet"))))))))

(ert-deftest sheet-test-install-engine-runs-npm-after-asking ()
  "`sheet-install-engine' asks, then runs `npm install -g PACKAGE' in a compilation buffer."
  (sheet-test-install--with-bin dir
    (let* ((args-file (expand-file-name "npm-args" dir))
           (sheet-npm-program
            (sheet-test-install--script
             dir "fake-npm"
             (format "printf '%%s\\n' \"$*\" > %s\nprintf '#!/bin/sh\\nexit 0\\n' > %s\nchmod +x %s\necho 'added 1 package in 1s'\n"
                     (shell-quote-argument args-file)
                     (shell-quote-argument (expand-file-name "sheet" dir))
                     (shell-quote-argument (expand-file-name "sheet" dir)))))
           (sheet-engine-npm-package "sheet-test-package")
           (asked nil))
      ;; No: nothing runs.
      (cl-letf (((symbol-function 'y-or-n-p) (lambda (prompt) (setq asked prompt) nil)))
        (should-not (sheet-install-engine)))
      (should (string-match-p "install -g sheet-test-package" asked))
      (should-not (file-exists-p args-file))
      ;; Yes: npm runs; the buffer shows its output and where the engine is.
      (let ((buffer (cl-letf (((symbol-function 'y-or-n-p) (lambda (_) t)))
                      (sheet-install-engine))))
        (unwind-protect
            (with-current-buffer buffer
              (should (equal (buffer-name) "*sheet-install-engine*"))
              (should (derived-mode-p 'compilation-mode))
              (sheet-test-wait-until
               (lambda () (string-match-p "will start the engine" (buffer-string)))
               15 "npm to finish")
              (should (string-match-p "added 1 package" (buffer-string)))
              (should (string-match-p (regexp-quote (expand-file-name "sheet" dir))
                                      (buffer-string)))
              (should (equal (with-temp-buffer (insert-file-contents args-file) (buffer-string))
                             "install -g sheet-test-package\n")))
          (kill-buffer buffer))))))

(ert-deftest sheet-test-install-engine-failure-is-said ()
  "A failing npm: the buffer says the engine was not installed."
  (sheet-test-install--with-bin dir
    (let ((sheet-npm-program (sheet-test-install--script dir "fake-npm" "echo 'npm ERR! 404' >&2\nexit 1\n")))
      (let ((buffer (cl-letf (((symbol-function 'y-or-n-p) (lambda (_) t)))
                      (sheet-install-engine))))
        (unwind-protect
            (with-current-buffer buffer
              (sheet-test-wait-until
               (lambda () (string-match-p "was not installed" (buffer-string)))
               15 "npm to fail")
              (should (string-match-p "npm ERR! 404" (buffer-string))))
          (kill-buffer buffer))))
    (let ((sheet-npm-program "no-such-npm-for-sheet"))
      (should-error (sheet-install-engine) :type 'user-error))))

(ert-deftest sheet-test-install-melpa-recipe ()
  "elisp/sheet-mode.recipe is one MELPA recipe whose :files hold every Elisp file."
  (let* ((recipe (with-temp-buffer
                   (insert-file-contents (expand-file-name "elisp/sheet-mode.recipe" sheet-test-root))
                   (goto-char (point-min))
                   (prog1 (read (current-buffer))
                     (should (string-blank-p (buffer-substring (point) (point-max)))))))
         (props (cdr recipe))
         (default-directory sheet-test-root)
         (files (apply #'append
                       (mapcar (lambda (spec) (and (stringp spec) (file-expand-wildcards spec)))
                               (plist-get props :files)))))
    (should (eq (car recipe) 'sheet-mode))
    (should (memq (plist-get props :fetcher) '(github git)))
    (should (or (plist-get props :repo) (plist-get props :url)))
    (dolist (f (directory-files "elisp" nil "\\.el\\'"))
      (should (member (concat "elisp/" f) files)))))

(ert-deftest sheet-test-install-autoloads ()
  "The package's generated autoloads alone give the mode, `.sheet' and the commands.
An autoloaded command works before sheet-mode is loaded."
  (let ((dir (make-temp-file "sheet-pkg" t)))
    (unwind-protect
        (progn
          (dolist (f (directory-files (expand-file-name "elisp" sheet-test-root) t "\\.el\\'"))
            (copy-file f (expand-file-name (file-name-nondirectory f) dir)))
          ;; What package.el does when it installs the package.
          (require (quote package))
          (let ((inhibit-message t)) (package-generate-autoloads "sheet-mode" dir))
          (with-temp-buffer
            (let ((status
                   (call-process
                    (expand-file-name invocation-name invocation-directory) nil t nil
                    "--batch" "-Q" "-l" (expand-file-name "sheet-mode-autoloads.el" dir)
                    "--eval"
                    (prin1-to-string
                     '(progn
                        (dolist (f '(sheet-mode sheet-install-engine sheet-yank-curl
                                     sheet-set-var sheet-get-var sheet-set-environment))
                          (unless (autoloadp (symbol-function f)) (error "Not autoloaded: %s" f)))
                        (unless (eq (cdr (assoc "\\.sheet\\'" auto-mode-alist)) 'sheet-mode)
                          (error "No .sheet in auto-mode-alist"))
                        (unless (funcall (get 'sheet-syntax 'safe-local-variable) 'sheet)
                          (error "sheet-syntax is not a safe local variable"))
                        ;; Autoloaded before sheet-mode is loaded, it reads
                        ;; the options (answered no: nothing installed).
                        (fset 'y-or-n-p (lambda (&rest _) nil))
                        (when (sheet-install-engine)
                          (error "sheet-install-engine ran although answered no"))
                        (with-temp-buffer
                          (set-visited-file-name "/tmp/x.sheet" t)
                          (set-auto-mode)
                          (unless (eq major-mode 'sheet-mode) (error "Mode: %s" major-mode))
                          (set-buffer-modified-p nil))
                        (princ "autoloads: ok\n"))))))
              (unless (eql status 0) (message "%s" (buffer-string)))
              (should (eql status 0))
              (should (string-match-p "autoloads: ok" (buffer-string))))))
      (delete-directory dir t))))

(ert-deftest sheet-test-install-lint ()
  "scripts/lint-elisp.sh (byte-compile, checkdoc, package-lint) passes on every Elisp file."
  (let ((default-directory sheet-test-root))
    (with-temp-buffer
      (let ((status (call-process (expand-file-name "scripts/lint-elisp.sh" sheet-test-root) nil t)))
        (unless (eql status 0) (message "%s" (buffer-string)))
        (should (eql status 0))
        (should (string-match-p "^elisp: clean$" (buffer-string)))))))

(provide 'sheet-mode-install-test)
;;; sheet-mode-install-test.el ends here
