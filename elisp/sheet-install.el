;;; sheet-install.el --- Find, install the engine  -*- lexical-binding: t; -*-

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

;; Where the engine of `sheet-mode' comes from, without configuration:
;; the bundle next to this file in a checkout (`make build'), else the
;; `sheet' executable on the variable `exec-path' (`npm install -g
;; sheet-rest'); the hints shown when there is neither; and
;; `sheet-install-engine', which runs npm after asking.  Loaded by
;; sheet-engine.el, which starts the engine with the command line
;; found here; autoloaded alone for `sheet-install-engine'.

;;; Code:

(require 'cl-lib)
;; The options read here; loaded here too, so that the autoloaded
;; `sheet-install-engine' works before sheet-mode.el is.
(require 'sheet-custom)

(defconst sheet-engine--directory
  ;; `file-truename': straight.el loads this file through a symbolic
  ;; link in its build directory; the engine is next to the original.
  (file-name-directory
   (file-truename (or load-file-name buffer-file-name default-directory)))
  "Directory this file was loaded from; the checkout's elisp directory.")

(defun sheet-engine--beside (file)
  "FILE of the engine's package next to this file's directory, absolute.
In the npm package (the Elisp of `sheet elisp-path'), <package>/FILE
when it exists; else the checkout's <repo>/engine/FILE."
  (let ((package (expand-file-name (concat "../" file)
                                   sheet-engine--directory)))
    (if (file-exists-p package)
        package
      (expand-file-name (concat "../engine/" file) sheet-engine--directory))))

(defvar sheet-engine--bundled-file (sheet-engine--beside "dist/engine.cjs")
  "The engine bundled next to this file.
In the npm package this file came in, or in the checkout (`make
build').")

(defun sheet-engine--checkout-p ()
  "Non-nil when this file is in a checkout holding the engine's sources."
  (file-exists-p (expand-file-name "../engine/src/main.ts"
                                   sheet-engine--directory)))

(defun sheet-engine-find-command ()
  "Return the engine's command line, found without configuration.
A list (PROGRAM ARGS...), or nil when there is no engine:
- the engine bundled next to this file, in the npm package it came
  in (`sheet elisp-path'): node <package>/dist/engine.cjs --stdio, or
  in a checkout (built by `make build'): node
  <checkout>/engine/dist/engine.cjs --stdio;
- else the `sheet' executable (`sheet-engine-executable') on the
  variable `exec-path', installed by `npm install -g' (see
  `sheet-install-engine'): sheet engine --stdio.
Used when `sheet-engine-command' is nil (its default)."
  (sheet-engine--locate (list sheet-engine--bundled-file)
                        (list "node" sheet-engine--bundled-file "--stdio")
                        '("engine" "--stdio")))

(defun sheet-engine--locate (checkout-files checkout-command exec-args)
  "The command line of one of the engine's programs, found as the engine is.
CHECKOUT-COMMAND when every file of CHECKOUT-FILES exists (the
checkout next to this file, built), else the `sheet' executable
\(`sheet-engine-executable') on the variable `exec-path' followed by
EXEC-ARGS; nil when neither is there.  Used by
`sheet-engine-find-command' and `sheet-run' (the `sheet' command)."
  (let (exe)
    (cond
     ((cl-every #'file-exists-p checkout-files) checkout-command)
     ((setq exe (executable-find sheet-engine-executable))
      (cons exe exec-args)))))

(defun sheet-engine-command-line ()
  "The command line the engine is started with.
`sheet-engine-command' when set, else `sheet-engine-find-command';
a `user-error' saying what to install when neither gives one."
  (or sheet-engine-command
      (sheet-engine-find-command)
      (user-error "%s" (sheet-engine--install-hint))))

(defun sheet-engine--install-hint ()
  "What to do when no engine is found: the message of the `user-error'."
  (concat
   (format "Sheet-mode: no engine found (no `%s' on `exec-path'%s); \
install it with `npm install -g %s' (M-x sheet-install-engine does it)"
           sheet-engine-executable
           (if (sheet-engine--checkout-p)
               (format ", %s not built"
                       (abbreviate-file-name sheet-engine--bundled-file))
             "")
           sheet-engine-npm-package)
   (if (sheet-engine--checkout-p)
       (format ", or %s" (sheet-engine--build-hint))
     "")))

(defun sheet-engine--missing-file (command)
  "The first file in COMMAND's arguments that should exist but does not."
  (cl-find-if (lambda (arg)
                (and (string-match-p "\\.[cm]?js\\'" arg)
                     (not (file-exists-p arg))))
              (cdr command)))

(defun sheet-engine--build-hint ()
  "How to build or install the engine."
  (if (sheet-engine--checkout-p)
      (format "run `make build' in %s"
              (abbreviate-file-name
               (expand-file-name ".." sheet-engine--directory)))
    (format "install it with `npm install -g %s'" sheet-engine-npm-package)))

;;; Installing the engine

(defun sheet-engine--install-command ()
  "The shell command line of `sheet-install-engine'."
  (mapconcat #'shell-quote-argument
             (list sheet-npm-program "install" "-g" sheet-engine-npm-package)
             " "))

(defun sheet-engine--install-finished (buffer status)
  "Say where the engine is after the install in BUFFER ended with STATUS."
  (with-current-buffer buffer
    (let ((inhibit-read-only t)
          (found (executable-find sheet-engine-executable)))
      (goto-char (point-max))
      (insert
       (cond
        ((not (string-prefix-p "finished" status))
         "\nThe engine was not installed; see npm's output above.\n")
        (found
         (format "\nsheet-mode will start the engine as: %s engine --stdio\n"
                 found))
        (t
         (format "\n`%s' is not on `exec-path': add npm's global bin \
directory (`npm prefix -g'/bin) to `exec-path' and PATH.\n"
                 sheet-engine-executable)))))))

;;;###autoload
(defun sheet-install-engine ()
  "Install the engine of `sheet-mode' with npm, after asking.
Runs `npm install -g PACKAGE' (`sheet-npm-program' and
`sheet-engine-npm-package') in a compilation buffer,
*sheet-install-engine*, and says there whether the installed
`sheet' executable is on the variable `exec-path', where
`sheet-mode' looks for it (`sheet-engine-find-command').  Return
that buffer, or nil when the answer was no.  Needs Node 20 and npm."
  (interactive)
  (require 'compile)
  (let ((command (sheet-engine--install-command)))
    (unless (executable-find sheet-npm-program)
      (user-error "Sheet-mode: `%s' not found; install Node 20 and npm first"
                  sheet-npm-program))
    (when (y-or-n-p (format "Run `%s'? " command))
      (let ((buffer (compilation-start
                     command nil (lambda (_mode) "*sheet-install-engine*"))))
        (with-current-buffer buffer
          (add-hook 'compilation-finish-functions
                    #'sheet-engine--install-finished nil t))
        buffer))))

(provide 'sheet-install)
;;; sheet-install.el ends here
