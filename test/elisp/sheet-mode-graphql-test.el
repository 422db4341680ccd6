;;; sheet-mode-graphql-test.el --- GraphQL requests in sheets (issue 25 item 6)  -*- lexical-binding: t; -*-

;;; Commentary:

;; A request marked `# @graphql' goes out as JSON
;; {"query", "operationName", "variables"}: C-c C-c against the example
;; API's /echo (which answers the request as it arrived), and C-c C-u's
;; curl command run by the real curl.  Issue 37 item 4: without the
;; mark, `Content-Type: application/graphql' is sent as written, as
;; restclient.el sends it.  Real engine, batch Emacs.

;;; Code:

(require 'test-helper)

(defconst sheet-test--graphql
  "# @graphql\n:id = 7\nPOST :base/echo/graphql\nContent-Type: application/graphql\n\nquery User($id: ID!) {\n  user(id: $id) { name }\n}\n\n{\"id\": \":id\"}\n"
  "A GraphQL query with its variables block.")

(defconst sheet-test--graphql-json
  "{\"query\":\"query User($id: ID!) {\\n  user(id: $id) { name }\\n}\",\"operationName\":\"User\",\"variables\":{\"id\":\"7\"}}"
  "The JSON body the query goes out as.")

(ert-deftest sheet-test-graphql-send ()
  "C-c C-c sends the query and its variables as JSON, with a JSON Content-Type."
  (sheet-test-with-sheet sheet-test--graphql
    (sheet-test-goto "^POST")
    (with-current-buffer (sheet-test-send-and-wait)
      (let ((echo (json-parse-string
                   (buffer-substring-no-properties
                    (point-min)
                    (save-excursion (goto-char (point-min))
                                    (forward-sexp) (point)))
                   :object-type 'plist)))
        (should (equal (plist-get echo :body) sheet-test--graphql-json))
        (should (equal (plist-get (plist-get echo :headers) :content-type)
                       "application/json"))))))

(ert-deftest sheet-test-graphql-content-type-sent-as-written ()
  "Issue 37 item 4: unmarked, `application/graphql' and the body go as written."
  (sheet-test-with-sheet (substring sheet-test--graphql
                                    (length "# @graphql\n"))
    (sheet-test-goto "^POST")
    (with-current-buffer (sheet-test-send-and-wait)
      (let ((echo (json-parse-string
                   (buffer-substring-no-properties
                    (point-min)
                    (save-excursion (goto-char (point-min))
                                    (forward-sexp) (point)))
                   :object-type 'plist)))
        (should (equal (plist-get echo :body)
                       (concat "query User($id: ID!) {\n  user(id: $id) "
                               "{ name }\n}\n\n{\"id\": \"7\"}")))
        (should (equal (plist-get (plist-get echo :headers) :content-type)
                       "application/graphql"))))))

(ert-deftest sheet-test-graphql-curl ()
  "C-c C-u writes the JSON body; curl sends it as C-c C-c does."
  (sheet-test-with-sheet sheet-test--graphql
    (sheet-test-goto "^POST")
    (let ((kill-ring nil))
      (sheet-test-key "C-c C-u")
      (let ((command (current-kill 0)))
        (should-not (string-match-p "graphql'" command))
        (with-temp-buffer
          (should (zerop (call-process "bash" nil t nil "-c"
                                       (concat command " -s --max-time 10"))))
          (let ((echo (json-parse-string (buffer-string) :object-type 'plist)))
            (should (equal (plist-get echo :body) sheet-test--graphql-json))))))))

(provide 'sheet-mode-graphql-test)
;;; sheet-mode-graphql-test.el ends here
