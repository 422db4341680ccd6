;;; ob-sheet.el --- Org Babel sheet blocks  -*- lexical-binding: t; -*-

;; Copyright (C) 2026 The sheet-rest authors

;; Author: The sheet-rest authors
;; Maintainer: The sheet-rest authors
;; Version: 0.1.0
;; URL: https://github.com/sheet-rest/sheet-rest
;; Keywords: comm, tools, outlines

;; This file is not part of GNU Emacs.

;; Permission is hereby granted, free of charge, to any person
;; obtaining a copy of this software and associated documentation
;; files, to deal in the software without restriction, subject to the
;; MIT license terms shipped with sheet-rest (LICENSE).

;;; Commentary:

;; `#+begin_src sheet' blocks in Org: C-c C-c on one sends its request
;; through the engine (`sheet/send', as C-c C-c in a sheet) and puts
;; the response under it.  Org 9.5 has no asynchronous Babel, so the
;; block gets a placeholder result at once and the response replaces
;; it when it comes (`sheet-babel-async'); blocks run one after the
;; other, so a block sees the overrides (`jq-set-var') of the blocks
;; run before it.  As C-c C-c in a sheet, a block asks its `# @prompt'
;; questions first (a `:var' of the prompt's name answers it), keeps
;; its response in the history (sheet-history.el; M-x
;; `sheet-response-history' in the block) and says its warnings and
;; assertions in the echo area.  The header arguments are ob-restclient's, plus
;; `:raw', `:pretty', `:file', `:env', `:syntax' and `:async'
;; (docs/sheet-mode.md, "Org Babel").  Enable with
;;
;;   (org-babel-do-load-languages 'org-babel-load-languages
;;                                '((sheet . t) ...))
;;
;; The text and the result are made by sheet-babel.el.

;;; Code:

(require 'ob)
(require 'org-src)
(require 'org-element)
(require 'sheet-mode)
(require 'sheet-babel)
(require 'ob-sheet-place)

(defvar org-babel-default-header-args:sheet '((:results . "raw"))
  "Default header arguments of `sheet' blocks, ob-restclient's.")

(add-to-list 'org-src-lang-modes '("sheet" . sheet))

(defvar sheet-babel--queue nil
  "The blocks waiting to be sent, oldest first: a list of functions.")

(defvar sheet-babel--busy nil
  "Non-nil while a block's request is in flight.")

(defun sheet-babel--next ()
  "Send the next block of the queue when none is in flight."
  (unless sheet-babel--busy
    (let ((next (pop sheet-babel--queue)))
      (when next
        (setq sheet-babel--busy t)
        (condition-case err
            (funcall next)
          (error (setq sheet-babel--busy nil)
                 (message "Sheet-mode: %s" (error-message-string err))
                 (sheet-babel--next)))))))

(defun sheet-babel--request (text path head)
  "The first request of the sheet TEXT (read as PATH), an outline plist.
HEAD: the lines before the block's body; a request must come after
them.  Signal an error when the block has none."
  (let* ((requests (plist-get (sheet-engine--request
                               'sheet/outline
                               (append (list :text text)
                                       (and path (list :path path))))
                              :requests))
         (first (and (> (length requests) 0) (aref requests 0))))
    (unless (and first (> (plist-get first :line) head))
      (error "No request in the block (a request line such as GET URL)"))
    first))

(defun sheet-babel--location (body params)
  "Return the place of the block BODY's request, given PARAMS.
That is (LOCATION . REQUEST): LOCATION the plist (:text :line :path
:env) of `sheet/send', REQUEST the outline's plist of the request
\(with its `# @prompt' lines).  Signal an error naming what is
wrong (a bad `:syntax', a `:var' `.http' cannot hold, a block
without a request)."
  (let* ((made (sheet-babel-text body params))
         (text (car made))
         (path buffer-file-name)
         (request (sheet-babel--request text path (cdr made)))
         (env (cdr (assq :env params))))
    (cons (append (list :text text :line (plist-get request :line))
                  (and path (list :path path))
                  (and env (list :env (format "%s" env))))
          request)))

(defun sheet-babel--var-answers (prompts params)
  "Return a plist (:NAME VALUE ...) of the `:var' values in PARAMS.
Only those named as one of PROMPTS: as Org users expect of a block's
`:var', a prompt of that name is not asked."
  (let (answers)
    (seq-doseq (prompt prompts)
      (let* ((name (plist-get prompt :name))
             (cell (seq-find (lambda (p)
                               (and (eq (car p) :var)
                                    (equal (format "%s" (cadr p)) name)))
                             params)))
        (when cell
          (let ((value (cddr cell)))
            (setq answers
                  (append answers
                          (list (intern (concat ":" name))
                                (if (stringp value) value
                                  (format "%S" value)))))))))
    answers))

(defun sheet-babel--prompt-answers (location request params)
  "Return the answers to the `# @prompt' lines of the block's REQUEST.
LOCATION is its place for the engine, PARAMS its header arguments.
A `:var' of the prompt's name answers it; the others are read in
the minibuffer as `sheet-http-send-current' reads them
\(sheet-prompt.el).  Return (:prompts (:NAME ANSWER ...)) for
`sheet/send', or nil when the request has no prompt.  Before
asking, a request that fails whatever the answers says so
\(`sheet--check-before-prompts'), unless blocks before it are still
in flight: their hooks may set what it needs."
  (let ((prompts (plist-get request :prompts)))
    (when (> (length prompts) 0)
      (let ((answers (sheet-babel--var-answers prompts params)))
        (unless (or (= (length answers) (* 2 (length prompts)))
                    sheet-babel--busy sheet-babel--queue)
          (sheet--check-before-prompts
           prompts (append location
                           (list :settings (sheet-engine--settings)))))
        (list :prompts (sheet--ask-prompts prompts answers))))))

(defun sheet-babel--raw-send-p (params)
  "Non-nil when the block with PARAMS asks the engine for the raw body."
  (or (sheet-babel-raw-p params) (and (cdr (assq :file params)) t)))

(defun sheet-babel--params (location answers params)
  "The `sheet/send' params of the block at LOCATION with PARAMS.
ANSWERS: its prompts' answers (`sheet-babel--prompt-answers')."
  (let ((jq (sheet-babel-jq params)))
    (append location
            answers
            (list :raw (if (sheet-babel--raw-send-p params) t :json-false)
                  :settings (sheet-engine--settings))
            (and jq (list :jq jq)))))

(defun sheet-babel--record (key result params)
  "Keep RESULT, the response of the block with PARAMS, under KEY.
In the response history, as `sheet-http-send-current' keeps a
sheet's (sheet-history.el): the body as a send shows it, the
trailer made again when it is shown."
  (when key
    (let ((raw (sheet-babel--raw-send-p params)))
      (with-temp-buffer
        (insert (sheet-babel--body result raw))
        (sheet-history-record key result raw)))))

(defun sheet-babel--answer (result params key log)
  "The block's result for the engine's RESULT with PARAMS.
Keeps the response in the history under KEY and says what
`sheet-http-send-current' says of it (`sheet--announce'; LOG:
`sheet-log-request').  Saves the body to `:file' and answers the
file name then."
  (sheet-session-note-all (plist-get (plist-get result :hooks) :setVars))
  (sheet-babel--record key result params)
  (sheet--announce result log)
  (let ((file (cdr (assq :file params))))
    (if file
        (format "[[file:%s]]" (progn (sheet-babel-save result file) file))
      (sheet-babel-result result params))))

(defun sheet-babel-edit-location (location)
  "LOCATION, in Org's edit buffer of a block, with the block's `:var's.
LOCATION is what `sheet--location-params' gives.
In the edit buffer of a `sheet' block (\\[org-edit-special]), the
text is the block's as `org-babel-execute:sheet' gives it (the
syntax line and the `:var' declarations above the body) and the
line moves down with it; elsewhere LOCATION unchanged.  Called by
sheet-send.el for \\[sheet-http-send-current]."
  (let* ((beg (and (fboundp 'org-src-edit-buffer-p) (org-src-edit-buffer-p)
                   (bound-and-true-p org-src--beg-marker)))
         (params (and beg (buffer-live-p (marker-buffer beg))
                      (with-current-buffer (marker-buffer beg)
                        (save-excursion
                          (goto-char beg)
                          (let ((info (org-babel-get-src-block-info)))
                            (and (equal (car info) "sheet") (nth 2 info)))))))
         (made (and params (sheet-babel-text (sheet--text) params))))
    (if (not made)
        location
      (plist-put (plist-put (copy-sequence location) :text (car made))
                 :line (+ (cdr made) (plist-get location :line))))))

(defun sheet-babel--prepare (body params)
  "What the block BODY with PARAMS sends, asked for before it is queued.
Return (LOCATION ANSWERS KEY): its place for the engine, its
prompts' answers (read now, while the user is at the block) and its
key in the response history."
  (let* ((where (sheet-babel--location body params))
         (answers (sheet-babel--prompt-answers (car where) (cdr where)
                                               params))
         (label (sheet--first-request-label body)))
    (list (car where) answers
          (and label (sheet-history-key (current-buffer) label)))))

(defun sheet-babel--send (prepared params done)
  "Send the block PREPARED with PARAMS; call DONE with the result.
PREPARED is what `sheet-babel--prepare' made of the block; DONE is
called when the engine answers, with the block's result and whether
it is a link to `:file'.  The request waits its turn in the queue.
An error of any kind (the engine's, the response's) becomes the
result (`sheet-babel-error'), the answers to secret prompts masked."
  (let* ((buffer (current-buffer))
         ;; Org binds it for the block (`:dir'); `:file' is relative to it.
         (dir default-directory)
         (log sheet-log-request)
         (secrets (sheet--secret-answers (nth 1 prepared)))
         (context nil)
         (timer nil)
         (id nil)
         (finished nil)
         (finish (lambda (value file)
                   (unless finished
                     (setq finished t)
                     (when timer (cancel-timer timer))
                     (setq sheet-engine--in-flight
                           (delq id sheet-engine--in-flight))
                     (when context (sheet-engine--end-context context))
                     (setq sheet-babel--busy nil)
                     (unwind-protect (funcall done value file)
                       (sheet-babel--next)))))
         (fail (lambda (text)
                 (funcall finish
                          (let ((sheet--log-secrets secrets))
                            (sheet-babel-error (sheet--mask-secrets text)
                                               params))
                          nil))))
    (setq sheet-babel--queue
          (append
           sheet-babel--queue
           (list
            (lambda ()
              (condition-case err
                  (with-current-buffer buffer
                    (let ((send (sheet-babel--params (nth 0 prepared)
                                                     (nth 1 prepared)
                                                     params))
                          (conn (sheet-engine--ensure))
                          (deadline (+ (or sheet-timeout 300)
                                       sheet-timeout-grace)))
                      (sheet-engine--sync-jar conn)
                      (setq context (sheet-engine--new-context buffer))
                      (jsonrpc-async-request
                       conn 'sheet/send (append send (list :context context))
                       :timeout nil
                       :success-fn
                       (lambda (result)
                         (condition-case err
                             (let ((default-directory dir)
                                   (sheet--log-secrets secrets))
                               (funcall finish
                                        (sheet-babel--answer
                                         result params (nth 2 prepared) log)
                                        (and (assq :file params) t)))
                           (error (funcall fail (error-message-string err)))))
                       :error-fn
                       (lambda (err)
                         (funcall fail
                                  (if (eql (plist-get err :code) -1)
                                      (sheet--died-text err "the block")
                                    (sheet-engine--error-text err)))))
                      ;; \[sheet-cancel] cancels it as any send.
                      (setq id (sheet-engine--last-id conn))
                      (push id sheet-engine--in-flight)
                      (setq timer
                            (run-at-time deadline nil fail
                                         (format "no answer from the engine \
within %ss" deadline)))))
                (error (funcall fail (sheet-engine--error-text err))))))))
    (sheet-babel--next)))

(defun sheet-babel--resolving-reference-p ()
  "Whether Org is resolving a `:var x=block' reference now.
Org 9.5's \[org-ctrl-c-ctrl-c] resolves the calling block's
references while reading its header, before it binds
`org-babel-current-src-block-location', so only the call stack
tells: `org-babel-ref-resolve' on it."
  (catch 'found
    (mapbacktrace (lambda (_evald fun _args _flags)
                    (when (eq fun 'org-babel-ref-resolve)
                      (throw 'found t))))
    nil))

(defun sheet-babel--async-p (params)
  "Non-nil when the block with PARAMS should answer later.
Not when `:async no', not while exporting or resolving a reference
to the block (the value is needed now), and per `sheet-babel-async'."
  (let ((async (cdr (assq :async params)))
        (here (org-babel-where-is-src-block-head)))
    (cond
     ((member async '("no" "nil")) nil)
     ((bound-and-true-p org-export-current-backend) nil)
     ((sheet-babel--resolving-reference-p) nil)
     ;; Set to the block that refers to this one by `:var x=block'.
     ((and org-babel-current-src-block-location here
           (/= here (if (markerp org-babel-current-src-block-location)
                        (marker-position org-babel-current-src-block-location)
                      org-babel-current-src-block-location)))
      nil)
     ((member async '("yes" "t")) t)
     ((eq sheet-babel-async 'interactive) (not noninteractive))
     (t sheet-babel-async))))

(defun sheet-babel--wait (prepared params)
  "Send the block PREPARED with PARAMS and return its result when it comes.
Waits at most `sheet-timeout' (300 s when nil) plus
`sheet-timeout-grace' seconds; \\[keyboard-quit] stops waiting."
  (let ((value nil) (got nil))
    (sheet-babel--send prepared params
                       (lambda (v _file) (setq value v got t)))
    (let ((deadline (+ (float-time) (or sheet-timeout 300)
                       sheet-timeout-grace 1)))
      (while (and (not got) (< (float-time) deadline))
        (accept-process-output nil 0.05)))
    (cond
     ((not got) (sheet-babel-error "No answer from the engine" params))
     ;; Org writes `:results file' itself: the body is there already.
     ((and (assq :file params)
           (member "file" (cdr (assq :result-params params)))
           (string-prefix-p "[[file:" value))
      nil)
     (t value))))

;;;###autoload
(defun org-babel-execute:sheet (body params)
  "Send the request of the `sheet' block BODY with the header args PARAMS.
Called by `org-babel-execute-src-block'.  The block's `# @prompt'
lines are asked first (a `:var' of the same name answers one), as
`sheet-http-send-current' asks them in a sheet.  Returns the
result, or, when the block answers later (`sheet-babel--async-p'),
a placeholder that the result replaces.  A block that cannot be
sent (a bad header argument, no request) answers the error at once."
  (sheet-babel--clear-raw-result params)
  (let ((prepared (condition-case err
                      (sheet-babel--prepare body params)
                    (error (sheet-babel-error (sheet-engine--error-text err)
                                              params)))))
    (cond
     ((stringp prepared) prepared)
     ((not (sheet-babel--async-p params))
      (sheet-babel--wait prepared params))
     (t
      (let* ((id (format "sheet: sending... (%s)"
                         (format-time-string "%T.%3N")))
             (marker (copy-marker (org-babel-where-is-src-block-head)))
             (info (let ((i (org-babel-get-src-block-info 'light)))
                     (setf (nth 2 i) params)
                     i)))
        (sheet-babel--send prepared params
                           (sheet-babel--insert-later marker id params info))
        (message "%s" id)
        ;; With `:results file' Org would write the placeholder to the file.
        (if (member "file" (cdr (assq :result-params params))) nil id))))))

;;;###autoload
(defun org-babel-variable-assignments:sheet (params)
  "The declarations of the `:var' values of PARAMS, a list of strings."
  (split-string (sheet-babel-var-lines params) "\n" t))

(defun org-babel-prep-session:sheet (_session _params)
  "Signal an error: sheet blocks share the engine's session already."
  (error "A sheet block has no :session; every block shares the engine's \
variables"))

(provide 'ob-sheet)
;;; ob-sheet.el ends here
