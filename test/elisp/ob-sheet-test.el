;;; ob-sheet-test.el --- Org Babel sheet blocks, real engine and API  -*- lexical-binding: t; -*-

;;; Commentary:

;; Issue 25 item 1: `#+begin_src sheet' blocks in a real Org buffer, sent
;; through the real engine to the example API (test/fixtures/server.mjs):
;; the result under the block (async: a placeholder replaced by the
;; response), `:var', `#+PROPERTY' header args, the session's overrides
;; from an earlier block, `:jq' through the system jq, `:raw', `:file',
;; `:syntax http' with `:env', ob-restclient's header arguments
;; (`:noheaders', `:results value', `:results table', `:jq-args') and
;; errors in the results.

;;; Code:

(require 'test-helper)
(require 'ob-sheet-helper)

(ert-deftest sheet-test-babel-async-result-replaces-placeholder ()
  "The block answers with a placeholder, then the pretty body and trailer."
  (let ((sheet-babel-async t))
    (ob-sheet-test-with-org "#+name: one
#+begin_src sheet
GET %s/users/1
#+end_src
"
      (goto-char (org-babel-find-named-block "one"))
      (org-babel-execute-src-block)
      (should (string-match-p "sheet: sending" (ob-sheet-test-result)))
      (let ((text (ob-sheet-test-run "one")))
        (should (string-match-p "\\`#\\+begin_src js\n" text))
        (should (string-match-p "^  \"name\": \"Ada Lovelace\",$" text))
        (should (string-match-p "^// HTTP/1.1 200 OK$" text))
        (should (string-match-p "^// GET http://127.0.0.1:[0-9]+/users/1$"
                                text))
        (should (string-match-p "^// Content-Type: application/json" text))
        (should (string-match-p "#\\+end_src\n\\'" text)))
      ;; Run again: the result is replaced, not added to.
      (ob-sheet-test-run "one")
      (should (= (how-many "^#\\+begin_src js$" (point-min) (point-max)) 1))
      (should-not (string-match-p "sending" (buffer-string))))))

(ert-deftest sheet-test-babel-var-and-property ()
  "`:var' becomes `:name'; `#+PROPERTY: header-args:sheet :var' too."
  (ob-sheet-test-with-org "#+PROPERTY: header-args:sheet :var base=\"%s\"
#+name: two
#+begin_src sheet :var id=2 :noheaders
GET :base/users/:id
#+end_src
"
    (let ((text (ob-sheet-test-run "two")))
      (should (string-match-p "\"name\": \"Alan Turing\"" text))
      ;; ob-restclient's :noheaders: no headers, the status line stays.
      (should (string-match-p "^// HTTP/1.1 200 OK$" text))
      (should-not (string-match-p "Content-Type" text)))))

(ert-deftest sheet-test-babel-overrides-from-earlier-block ()
  "A `jq-set-var' in one block sets the variable a later block uses."
  (ob-sheet-test-with-org "#+name: login
#+begin_src sheet :var base=\"%s\"
POST :base/login
Content-Type: application/json
-> jq-set-var :babeltoken .token

{\"user\": \"grace\", \"password\": \"secret\"}
#+end_src

#+name: me
#+begin_src sheet :var base=\"%s\" :results value
GET :base/me
Authorization: Bearer :babeltoken
#+end_src
"
    (ob-sheet-test-run "login")
    (should (equal (ob-sheet-test-run "me")
                   "{\n  \"user\": \"grace\"\n}\n"))))

(ert-deftest sheet-test-babel-jq-and-jq-args ()
  "`:jq' runs the system jq; ob-restclient's `:jq-args' are its options."
  (ob-sheet-test-with-org "#+name: names
#+begin_src sheet :var base=\"%s\" :jq map(.name)
GET :base/users
#+end_src

#+name: pick
#+begin_src sheet :var base=\"%s\" :jq .[] | select(.id == ($n|tonumber)) | .email :jq-args \"--arg n 3 -r\" :results value
GET :base/users
#+end_src
"
    (let ((text (ob-sheet-test-run "names")))
      (should (string-match-p "\\[\n  \"Ada Lovelace\",\n  \"Alan Turing\","
                              text))
      (should (string-match-p "^// HTTP/1.1 200 OK$" text))
      (should-not (string-match-p "\"email\"" text)))
    (should (equal (ob-sheet-test-run "pick") "grace@example.org\n"))
    ;; A raw value result (a paragraph Org cannot find the end of) is
    ;; replaced on the next run too.
    (ob-sheet-test-run "pick")
    (should (= (how-many "^grace@example.org$" (point-min) (point-max)) 1))))

(ert-deftest sheet-test-babel-results-table ()
  "ob-restclient's `:results table' reads comma-separated lines."
  (ob-sheet-test-with-org "#+name: table
#+begin_src sheet :var base=\"%s\" :jq .[] | [.id, .name] | @csv :jq-args -r :results table
GET :base/users
#+end_src
"
    (let ((text (ob-sheet-test-run "table")))
      (should (string-match-p "^| 1 | Ada Lovelace +|$" text))
      (should (string-match-p "^| 3 | Grace Hopper +|$" text)))))

(ert-deftest sheet-test-babel-raw-and-file ()
  "`:raw' shows the status, headers and body untouched; `:file' saves it."
  (ob-sheet-test-with-org "#+name: raw
#+begin_src sheet :var base=\"%s\" :raw
GET :base/users/1
#+end_src

#+name: save
#+begin_src sheet :var base=\"%s\" :file saved.png
GET :base/image.png
#+end_src
"
    (let ((text (ob-sheet-test-run "raw")))
      (should (string-match-p "\\`#\\+begin_src text\nHTTP/1.1 200 OK\n" text))
      (should (string-match-p "^{\"id\":1,\"name\":\"Ada Lovelace\"" text)))
    (should (equal (ob-sheet-test-run "save") "[[file:saved.png]]\n"))
    (let ((bytes (with-temp-buffer
                   (set-buffer-multibyte nil)
                   (insert-file-contents-literally
                    (expand-file-name "saved.png" dir))
                   (buffer-string))))
      (should (string-prefix-p "\x89PNG" bytes))
      (should (eq (image-type-from-data bytes) 'png)))))

(ert-deftest sheet-test-babel-http-syntax-env ()
  "`:syntax http' reads `.http' syntax, `:env' picks the environment."
  (ob-sheet-test-with-org "#+name: http
#+begin_src sheet :syntax http :env dev :var id=3 :noheaders
GET {{base}}/users/{{id}}
#+end_src
"
    (with-temp-file (expand-file-name "http-client.env.json" dir)
      (insert (format "{\"dev\": {\"base\": \"%s\"}}" (sheet-test-api-url))))
    (let ((text (ob-sheet-test-run "http")))
      (should (string-match-p "\"name\": \"Grace Hopper\"" text)))))

(ert-deftest sheet-test-babel-errors-go-to-results ()
  "A refused connection, a bad filter and a block without request: results."
  (ob-sheet-test-with-org "#+name: refused
#+begin_src sheet
GET http://127.0.0.1:1/nothing
#+end_src

#+name: badjq
#+begin_src sheet :var base=\"%s\" :jq .[ :results value
GET :base/users
#+end_src

#+name: empty
#+begin_src sheet
# nothing to send
#+end_src

#+name: badvar
#+begin_src sheet :syntax http :var body=\"a\\nb\"
GET http://127.0.0.1:1/
#+end_src
"
    (let ((text (ob-sheet-test-run "refused")))
      (should (string-match-p "\\`#\\+begin_example\nError: .*127.0.0.1:1"
                              text)))
    (should (string-match-p "\\`Error: jq \\.\\[: " (ob-sheet-test-run "badjq")))
    (should (string-match-p "Error: No request in the block"
                            (ob-sheet-test-run "empty")))
    (should (string-match-p "Error: :var body has several lines"
                            (ob-sheet-test-run "badvar")))))

(ert-deftest sheet-test-babel-language-registered ()
  "`(sheet . t)' in `org-babel-load-languages' loads ob-sheet; C-c ' edits."
  (org-babel-do-load-languages 'org-babel-load-languages
                               (append org-babel-load-languages '((sheet . t))))
  (should (fboundp 'org-babel-execute:sheet))
  (should (equal (cdr (assoc "sheet" org-src-lang-modes)) 'sheet))
  (should (eq (org-src-get-lang-mode "sheet") 'sheet-mode)))

(ert-deftest sheet-test-babel-results-table-quoted-csv ()
  "Issue 37 item 10: `:results table' keeps quoted CSV text (RFC 4180), quotes and commas."
  (ob-sheet-test-with-org "#+name: quoted
#+begin_src sheet :var base=\"%s\" :jq .[0:2][] | [.id, \"says \\\"hi\\\", \\(.name)\"] | @csv :jq-args -r :results table
GET :base/users
#+end_src
"
    (let ((text (ob-sheet-test-run "quoted")))
      (should (string-match-p "^| 1 | says \"hi\", Ada Lovelace +|$" text))
      (should (string-match-p "^| 2 | says \"hi\", Alan Turing +|$" text)))))

(ert-deftest sheet-test-babel-reference-waits-for-the-value ()
  "A block another refers to (`:var x=block') answers now, even async."
  (let ((sheet-babel-async t))
    (ob-sheet-test-with-org "#+name: email
#+begin_src sheet :var base=\"%s\" :jq .email :jq-args -r :results value
GET :base/users/2
#+end_src

#+name: use
#+begin_src emacs-lisp :var e=email
(concat \"got \" e)
#+end_src
"
      (goto-char (org-babel-find-named-block "use"))
      (should (equal (org-babel-execute-src-block) "got alan@example.org")))))

(ert-deftest sheet-test-babel-reference-from-sheet-block-by-key ()
  "Issue 37 item 2: C-c C-c on a sheet block with `:var tok=login' sends the token.
Org 9.5 resolves the reference while reading the calling block's
header, before it records which block runs: the referenced block
must still answer now, not with its placeholder."
  (let ((sheet-babel-async t))
    (ob-sheet-test-with-org "#+name: login
#+begin_src sheet :var base=\"%s\" :jq .token :jq-args -r :results value
POST :base/login
Content-Type: application/json

{\"user\": \"ada\", \"password\": \"secret\"}
#+end_src

#+name: me
#+begin_src sheet :var base=\"%s\" :var tok=login :results value
GET :base/me
Authorization: Bearer :tok
#+end_src
"
      (goto-char (org-babel-find-named-block "me"))
      (sheet-test-key "C-c C-c")
      (should (equal (ob-sheet-test-run-wait "me")
                     "{\n  \"user\": \"ada\"\n}\n")))))

(ert-deftest sheet-test-babel-lisp-variable ()
  "A `:=' form in a block is evaluated in Emacs, in the Org buffer."
  (ob-sheet-test-with-org "#+name: lisp
#+begin_src sheet :var base=\"%s\" :jq .name :jq-args -r :results value
:id := (if (derived-mode-p 'org-mode) \"3\" \"1\")
GET :base/users/:id
#+end_src
"
    (should (equal (ob-sheet-test-run "lisp") "Grace Hopper\n"))))

(ert-deftest sheet-test-babel-async-blocks-run-in-order ()
  "`org-babel-execute-buffer', async: each block after the one before it."
  (let ((sheet-babel-async t))
    (ob-sheet-test-with-org "#+name: login2
#+begin_src sheet :var base=\"%s\" :results value
POST :base/login
Content-Type: application/json
-> jq-set-var :ordertoken .token

{\"user\": \"hedy\", \"password\": \"secret\"}
#+end_src

#+name: me2
#+begin_src sheet :var base=\"%s\" :jq .user :jq-args -r :results value
GET :base/me
Authorization: Bearer :ordertoken
#+end_src
"
      (org-babel-execute-buffer)
      (should (string-match-p "sheet: sending" (buffer-string)))
      (should (equal (ob-sheet-test-run-wait "me2") "hedy\n")))))

(ert-deftest sheet-test-babel-cancel ()
  "`sheet-cancel' ends a block's request; the results say so."
  (let ((sheet-babel-async t))
    (ob-sheet-test-with-org "#+name: slow
#+begin_src sheet :var base=\"%s\"
GET :base/slow?ms=5000
#+end_src
"
      (goto-char (org-babel-find-named-block "slow"))
      (org-babel-execute-src-block)
      (sheet-test-wait-until (lambda () sheet-engine--in-flight) 5 "in flight")
      (sheet-cancel)
      (should (string-match-p "\\`#\\+begin_example\nError: .*cancelled"
                              (ob-sheet-test-run-wait "slow")))
      (should-not sheet-engine--in-flight))))

(ert-deftest sheet-test-babel-pretty-over-raw-property ()
  "`:pretty' in a block wins over `:raw' from `#+PROPERTY'; `:pretty no' is raw."
  (ob-sheet-test-with-org "#+PROPERTY: header-args:sheet :raw
#+name: pretty
#+begin_src sheet :pretty :results value
GET %s/users/1
#+end_src

#+name: notpretty
#+begin_src sheet :pretty no :results value
GET %s/users/1
#+end_src
"
    (should (string-prefix-p "{\n  \"id\": 1," (ob-sheet-test-run "pretty")))
    (should (string-prefix-p "HTTP/1.1 200 OK\n" (ob-sheet-test-run "notpretty")))))

(ert-deftest sheet-test-babel-results-file ()
  "ob-restclient's `:results file :file NAME': the body as received, a link."
  (dolist (async '(nil t))
    (let ((sheet-babel-async async))
      (ob-sheet-test-with-org "#+name: f
#+begin_src sheet :results file :file user.json
GET %s/users/1
#+end_src
"
        (goto-char (org-babel-find-named-block "f"))
        (org-babel-execute-src-block)
        (let ((file (expand-file-name "user.json" dir)))
          (sheet-test-wait-until
           (lambda ()
             (and (file-exists-p file)
                  (string-prefix-p "{\"id\":1," (with-temp-buffer
                                                  (insert-file-contents file)
                                                  (buffer-string)))))
           10 "the body in the file")
          (goto-char (org-babel-find-named-block "f"))
          (should (equal (ob-sheet-test-result) "[[file:user.json]]\n")))))))

(ert-deftest sheet-test-babel-file-follows-umask ()
  "Issue 37 item 10: a `:file' result is written with the umask's modes, not 0600.
A file that exists keeps its own modes, as Emacs's `write-region' does."
  (dolist (umask '(#o022 #o027))
    (ob-sheet-test-with-org "#+name: f
#+begin_src sheet :results file :file user.json
GET %s/users/1
#+end_src
"
      (let ((file (expand-file-name "user.json" dir)))
        (with-file-modes (logand #o777 (lognot umask))
          (ob-sheet-test-run "f"))
        (should (= (file-modes file) (logand #o666 (lognot umask))))
        (set-file-modes file #o604)
        (ob-sheet-test-run "f")
        (should (= (file-modes file) #o604))))))

(provide 'ob-sheet-test)
;;; ob-sheet-test.el ends here
