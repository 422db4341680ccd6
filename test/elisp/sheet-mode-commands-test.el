;;; sheet-mode-commands-test.el --- Navigation, marking, curl, helm, info, outline  -*- lexical-binding: t; -*-

;;; Commentary:

;; Every key of `sheet-mode' and `sheet-outline-mode' that does not send a request, against
;; the real engine (the outline, variables and curl come from it).

;;; Code:

(require 'test-helper)

(defconst sheet-test--three
  "# first\nGET :base/users\nAccept: application/json\n#\n:v = 1\n# second\nPOST :base/users\nContent-Type: application/json\n\n{\"name\": \"x\"}\n#\nDELETE :base/users/1\n"
  "A sheet with three requests.")

(defun sheet-test--line () (line-number-at-pos nil t))

(defun sheet-test--line-text ()
  (buffer-substring-no-properties (line-beginning-position) (line-end-position)))

(ert-deftest sheet-test-jump-next-and-prev ()
  "C-c C-n and C-c C-p move between request lines."
  (sheet-test-with-sheet sheet-test--three
    (goto-char (point-min))
    (sheet-test-key "C-c C-n")
    (should (equal (sheet-test--line-text) "GET :base/users"))
    (sheet-test-key "C-c C-n")
    (should (equal (sheet-test--line-text) "POST :base/users"))
    (forward-line 3)                    ; into the body
    (sheet-test-key "C-c C-n")
    (should (equal (sheet-test--line-text) "DELETE :base/users/1"))
    (let ((line (sheet-test--line)))
      (sheet-test-key "C-c C-n")           ; no next: stays
      (should (= line (sheet-test--line))))
    (sheet-test-key "C-c C-p")
    (should (equal (sheet-test--line-text) "POST :base/users"))
    (forward-line 3)                    ; in the POST's body: previous is the GET
    (sheet-test-key "C-c C-p")
    (should (equal (sheet-test--line-text) "GET :base/users"))))

(ert-deftest sheet-test-mark-current ()
  "C-c C-. marks the request at point, from its request line to the end of its body."
  (sheet-test-with-sheet sheet-test--three
    (sheet-test-goto "^{")
    (sheet-test-key "C-c C-.")
    (should mark-active)
    (should (equal (buffer-substring-no-properties (point) (mark))
                   "POST :base/users\nContent-Type: application/json\n\n{\"name\": \"x\"}"))))

(ert-deftest sheet-test-narrow-to-current ()
  "C-c n n narrows to the request at point, headers included."
  (sheet-test-with-sheet sheet-test--three
    (sheet-test-goto "^Accept")
    (sheet-test-key "C-c n n")
    (should (buffer-narrowed-p))
    (should (equal (buffer-substring-no-properties (point-min) (point-max))
                   "GET :base/users\nAccept: application/json"))
    ;; Sending still works when narrowed: the engine gets the whole text.
    (with-current-buffer (sheet-test-send-and-wait)
      (should (string-match-p "Ada Lovelace" (buffer-string))))))

(ert-deftest sheet-test-copy-curl-command ()
  "C-c C-u puts the request at point as a curl command on the kill ring."
  (sheet-test-with-sheet sheet-test--three
    (sheet-test-goto "^POST")
    (let ((kill-ring nil))
      (sheet-test-key "C-c C-u")
      (let ((command (current-kill 0)))
        (should (string-prefix-p "curl -X POST " command))
        (should (string-match-p (regexp-quote (concat (sheet-test-api-url) "/users")) command))
        (should (string-match-p "--data-binary '{\"name\": \"x\"}'" command))
        (should (string-match-p "Content-Type: application/json" command))))))

(ert-deftest sheet-test-copy-curl-command-posix-quoting ()
  "Issue 22 item 7: C-c C-u quotes for any POSIX shell; dash (sh) sends the multi-line body."
  (sheet-test-with-sheet "PUT :base/echo/t\nContent-Type: text/plain\n\nline 1\n\tit's line 2\n"
    (sheet-test-goto "^PUT")
    (let ((kill-ring nil))
      (sheet-test-key "C-c C-u")
      (let ((command (current-kill 0)))
        (should-not (string-match-p "\\$'" command))
        (with-temp-buffer
          (should (zerop (call-process "dash" nil t nil "-c" (concat command " -s --max-time 10"))))
          (should (string-match-p (regexp-quote "\"body\": \"line 1\\n\\tit's line 2\"")
                                  (replace-regexp-in-string "\":\"" "\": \"" (buffer-string)))))))))

(ert-deftest sheet-test-helm-sources ()
  "C-c C-g with helm installed: a helm session with variables and requests sources."
  (dolist (dir (file-expand-wildcards "/usr/share/emacs/site-lisp/elpa-src/*"))
    (when (file-directory-p dir) (add-to-list 'load-path dir)))
  (should (require 'helm nil t))
  (sheet-test-with-sheet sheet-test--three
    (let ((sheet-use-helm t) captured)
      ;; The helm session itself needs a terminal; capture what it is given.
      (cl-letf (((symbol-function 'helm) (lambda (&rest args) (setq captured args))))
        (sheet-test-key "C-c C-g"))
      (let* ((sources (plist-get captured :sources))
             (names (mapcar (lambda (s) (cdr (assq 'name s))) sources))
             (requests (cl-find "Requests" sources :key (lambda (s) (cdr (assq 'name s))) :test #'equal))
             (variables (cl-find "Variables" sources :key (lambda (s) (cdr (assq 'name s))) :test #'equal)))
        (should (equal names '("Variables" "Requests")))
        (should (equal (mapcar #'car (cdr (assq 'candidates variables)))
                       (list (concat ":base = " (sheet-test-api-url)) ":v = 1")))
        (should (equal (mapcar #'car (cdr (assq 'candidates requests)))
                       '("GET :base/users" "POST :base/users" "DELETE :base/users/1")))
        ;; The action jumps to the candidate's line.
        (goto-char (point-min))
        (let ((action (cdr (assq 'action requests))))
          (funcall (if (functionp action) action (cdar action))
                   (cdr (assoc "DELETE :base/users/1" (cdr (assq 'candidates requests))))))
        (should (equal (sheet-test--line-text) "DELETE :base/users/1"))))))

(ert-deftest sheet-test-helm-fallback-completing-read ()
  "C-c C-g without helm: a `completing-read' jump to a request or variable."
  (sheet-test-with-sheet sheet-test--three
    (let ((sheet-use-helm nil) offered)
      (cl-letf (((symbol-function 'completing-read)
                 (lambda (_prompt collection &rest _)
                   (setq offered (all-completions "" collection))
                   (cl-find-if (lambda (c) (string-prefix-p "POST" c)) offered))))
        (sheet-test-key "C-c C-g"))
      (should (cl-find-if (lambda (c) (string-prefix-p ":v = 1" c)) offered))
      (should (cl-find-if (lambda (c) (string-prefix-p "DELETE :base/users/1" c)) offered))
      (should (= 5 (length offered)))
      (should (equal (sheet-test--line-text) "POST :base/users")))))

(ert-deftest sheet-test-jump-list-in-sheet-order ()
  "Issue 37 item 10: the `completing-read' jump list keeps sheet order, not A-Z."
  (sheet-test-with-sheet sheet-test--three
    (let ((sheet-use-helm nil) table)
      (cl-letf (((symbol-function 'completing-read)
                 (lambda (_prompt collection &rest _)
                   (setq table collection)
                   nil)))
        (sheet-test-key "C-c C-g"))
      (should (equal (mapcar (lambda (c) (car (split-string c "  (line")))
                             (all-completions "" table))
                     (list (concat ":base = " (sheet-test-api-url))
                           "GET :base/users" ":v = 1" "POST :base/users"
                           "DELETE :base/users/1")))
      ;; The completion UI is told not to sort them.
      (should (eq (completion-metadata-get (completion-metadata "" table nil)
                                           'display-sort-function)
                  #'identity)))))

(ert-deftest sheet-test-refused-request-in-outline ()
  "Issue 37 item 6: a request the engine refuses is still a request of the outline.
C-c C-n stops on it, the jump list names it and why, TAB folds it."
  (sheet-test-with-sheet
      (concat "GET :base/users\n#\nPOST :base/echo\n"
              "-> run-hook (message \"unclosed\"\nX-After: 1\n#\n"
              "DELETE :base/users/1\n")
    (goto-char (point-min))
    (sheet-test-key "C-c C-n")
    (should (equal (sheet-test--line-text) "GET :base/users"))
    (sheet-test-key "C-c C-n")
    (should (equal (sheet-test--line-text) "POST :base/echo"))
    (sheet-test-key "TAB")
    (should (sheet-test--hidden-p "^X-After"))
    (sheet-test-goto "^POST")
    (sheet-test-key "TAB")
    (should-not (sheet-test--hidden-p "^X-After"))
    (sheet-test-goto "^POST")
    (sheet-test-key "C-c C-n")
    (should (equal (sheet-test--line-text) "DELETE :base/users/1"))
    (sheet-test-key "C-c C-p")
    (should (equal (sheet-test--line-text) "POST :base/echo"))
    (let ((sheet-use-helm nil) offered)
      (cl-letf (((symbol-function 'completing-read)
                 (lambda (_prompt collection &rest _)
                   (setq offered (all-completions "" collection))
                   nil)))
        (sheet-test-key "C-c C-g"))
      (should (member "POST :base/echo (refused: unbalanced parentheses in \
the run-hook form)  (line 4)" offered)))))

(ert-deftest sheet-test-show-info ()
  "C-c C-i shows the overrides, the variables at point and the hook types."
  (sheet-test-with-sheet ":who = ada\n:greeting := (concat \"hi \" \"there\")\n#\nGET :base/echo/:who\n"
    (sheet-set-var ":info-override" "from-test")
    (sheet-test-goto "^GET")
    (sheet-test-key "C-c C-i")
    (with-current-buffer "*Sheet Info*"
      (let ((text (buffer-string)))
        (should (string-match-p ":info-override = from-test" text))
        (should (string-match-p ":who = ada" text))
        (should (string-match-p "value: ada" text))
        (should (string-match-p ":greeting := (concat" text))
        (should (string-match-p "value: hi there" text))
        (should (string-match-p "-> jq-set-var" text))
        (should (string-match-p "-> run-hook" text))))))

(defun sheet-test--hidden-p (regexp)
  "Whether the first line matching REGEXP is invisible."
  (save-excursion
    (sheet-test-goto regexp)
    (invisible-p (point))))

(ert-deftest sheet-test-outline-toggle-body ()
  "TAB on a request line hides that request's body, TAB again shows it."
  (sheet-test-with-sheet sheet-test--three
    (should sheet-outline-mode)
    (sheet-test-goto "^POST")
    (should (eq (key-binding (kbd "TAB")) #'sheet-toggle-body-visibility-or-indent))
    (sheet-test-key "TAB")
    (should (sheet-test--hidden-p "^{\"name\""))
    (should (sheet-test--hidden-p "^Content-Type"))
    (should-not (sheet-test--hidden-p "^POST"))
    (should-not (sheet-test--hidden-p "^DELETE"))
    (should-not (sheet-test--hidden-p "^Accept"))
    (sheet-test-goto "^POST")
    (sheet-test-key "TAB")
    (should-not (sheet-test--hidden-p "^{\"name\""))))

(ert-deftest sheet-test-outline-tab-elsewhere-indents ()
  "TAB off a request line indents as usual and hides nothing."
  (sheet-test-with-sheet "GET :base/users\n\n{\n\"a\": 1\n}\n"
    (sheet-test-goto "^\"a\"")
    (let ((indent-line-function (lambda () (indent-line-to 4))))
      (sheet-test-key "TAB"))
    (should (equal (sheet-test--line-text) "    \"a\": 1"))
    (should-not (sheet-test--hidden-p "^    \"a\""))))

(ert-deftest sheet-test-outline-show-all ()
  "C-c C-a shows every hidden region."
  (sheet-test-with-sheet sheet-test--three
    (sheet-test-goto "^GET")
    (sheet-test-key "TAB")
    (sheet-test-goto "^POST")
    (sheet-test-key "TAB")
    (should (sheet-test--hidden-p "^Accept"))
    (should (sheet-test--hidden-p "^{\"name\""))
    (sheet-test-key "C-c C-a")
    (should-not (sheet-test--hidden-p "^Accept"))
    (should-not (sheet-test--hidden-p "^{\"name\""))))

(ert-deftest sheet-test-outline-mode-off-frees-tab ()
  "Removing `sheet-outline-mode' from `sheet-mode-hook' turns it off and frees TAB."
  (let ((sheet-mode-hook (copy-sequence sheet-mode-hook)))
    (should (memq #'sheet-outline-mode sheet-mode-hook))
    (remove-hook 'sheet-mode-hook #'sheet-outline-mode)
    (sheet-test-with-sheet sheet-test--three
      (should-not sheet-outline-mode)
      (should-not (eq (key-binding (kbd "TAB")) #'sheet-toggle-body-visibility-or-indent)))))

(ert-deftest sheet-test-menu-lists-commands ()
  "The Sheet menu lists the commands."
  (let ((menu (format "%S" (symbol-value 'sheet-mode-menu))))
    (dolist (command '(sheet-http-send-current sheet-http-send-current-raw
                       sheet-http-send-current-stay-in-window
                       sheet-http-send-current-suppress-response-buffer
                       sheet-jump-next sheet-jump-prev sheet-mark-current sheet-copy-curl-command
                       sheet-helm sheet-narrow-to-current sheet-show-info sheet-cancel
                       sheet-show-all sheet-toggle-body-visibility-or-indent))
      (should (string-match-p (regexp-quote (symbol-name command)) menu)))))

(ert-deftest sheet-test-auto-mode-and-faces ()
  "*.sheet opens in sheet-mode; font lock uses the sheet faces of the face group."
  (should (eq (assoc-default "x/api.sheet" auto-mode-alist #'string-match) 'sheet-mode))
  (should-not (eq (assoc-default "x/api.http" auto-mode-alist #'string-match) 'sheet-mode))
  (let ((faces (mapcar #'car (get 'sheet-faces 'custom-group))))
    (dolist (face '(sheet-method sheet-url sheet-header-name sheet-header-value
                    sheet-variable-name sheet-variable-string-value sheet-variable-elisp-value
                    sheet-variable-multiline-value sheet-hook sheet-file-body))
      (should (memq face faces))
      (should (face-attribute face :inherit))))
  (sheet-test-with-sheet ":s = text\n:l := (+ 1 2)\n:m = <<\nline one\n#\nPOST :base/x\nX-Name: val\n-> jq-set-var :t .t\n\n< ./file.json\n"
    (font-lock-ensure)
    (cl-flet ((face-at (text) (save-excursion
                                (goto-char (point-min))
                                (search-forward (concat "\n" text))
                                (get-text-property (1- (point)) 'face))))
      (should (eq (face-at "POST") 'sheet-method))
      (should (eq (face-at "POST :base/x") 'sheet-url))
      (should (eq (face-at "X-Name") 'sheet-header-name))
      (should (eq (face-at "X-Name: val") 'sheet-header-value))
      (should (eq (face-at ":s") 'sheet-variable-name))
      (should (eq (face-at ":s = text") 'sheet-variable-string-value))
      (should (eq (face-at ":l := (+ 1 2)") 'sheet-variable-elisp-value))
      (should (eq (face-at "line one") 'sheet-variable-multiline-value))
      (should (eq (face-at "-> jq-set-var") 'sheet-hook))
      (should (eq (face-at "< ./file.json") 'sheet-file-body)))))

;;; sheet-mode-commands-test.el ends here

(ert-deftest sheet-test-autoloads ()
  "The generated autoloads define the mode, the .sheet entry and `sheet-set-var' only."
  (let* ((dir (make-temp-file "sheet-autoloads" t))
         (file (expand-file-name "sheet-mode-autoloads.el" dir)))
    (unwind-protect
        (progn
          (copy-file (locate-library "sheet-mode.el") (expand-file-name "sheet-mode.el" dir))
          (make-directory-autoloads dir file)
          (let ((text (with-temp-buffer (insert-file-contents file) (buffer-string))))
            (should (string-match-p "(autoload 'sheet-mode " text))
            (should (string-match-p "(autoload 'sheet-set-var " text))
            (should (string-match-p (regexp-quote "(add-to-list 'auto-mode-alist '(\"\\\\.sheet\\\\'\" . sheet-mode))") text))
            (should-not (string-match-p "add-hook" text))))
      (delete-directory dir t))))
