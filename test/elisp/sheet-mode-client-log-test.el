;;; sheet-mode-client-log-test.el --- client.log lines with the response  -*- lexical-binding: t; -*-

;;; Commentary:

;; A `.http' request's pre-request script and response handler call
;; `client.log'; C-c C-c shows the lines (the engine's `logs') after the
;; trailer as a block of comment lines headed "client.log:", in order,
;; a multi-line one as several lines, a blank one commented too; a
;; request without logs has no block.  An Org `sheet' block shows the
;; same block in its result.  Real engine, example API, batch Emacs.

;;; Code:

(require 'ob-sheet-helper)

(defconst sheet-test-client-log--file
  "< {%%
client.log(\"before \" + request.method);
%%}
GET %s/users/1

> {%%
client.log(\"status\", response.status);
client.log(\"first line\\n\\nthird line\");
%%}

###

GET %s/users/1
"
  "A `.http' file: a request whose scripts log, then one without scripts.")

(defconst sheet-test-client-log--block
  "//
// client.log:
// before GET
// status 200
// first line
//
// third line
"
  "The block the first request's response ends with (js-mode comments).")

(defmacro sheet-test-client-log--visiting (&rest body)
  "Run BODY in a buffer visiting `sheet-test-client-log--file' as api.http."
  (declare (indent 0) (debug t))
  `(sheet-test-visiting "api.http"
			(with-temp-file file
			  (insert (format sheet-test-client-log--file
					  (sheet-test-api-url) (sheet-test-api-url))))
			,@body))

(ert-deftest sheet-test-client-log-in-response-buffer ()
  "C-c C-c: the scripts' `client.log' lines follow the trailer, in order.
The next request, whose scripts log nothing, has no block (in the
same, reused response buffer)."
  (sheet-test-client-log--visiting
   (let ((mark (sheet-test-messages-mark)))
     (sheet-test-goto "^GET")
     (with-current-buffer (prog1 (sheet-test-key-and-wait "C-c C-c")
                            ;; The echo area: the first line and how many more.
                            (should (string-match-p
                                     "^Sheet-mode: client\\.log: before GET \
(\\+4 more lines)$"
                                     (sheet-test-messages-since mark))))
       (let ((text (buffer-substring-no-properties (point-min) (point-max))))
         (should (string-suffix-p sheet-test-client-log--block text))
         ;; After the body and the trailer's last line.
         (should (string-match-p
                  (concat "^// Request duration: .*\n"
                          (regexp-quote sheet-test-client-log--block) "\\'")
                  text))
         (should (< (string-search "\"id\"" text)
                    (string-search "// client.log:" text)))))
     (goto-char (point-max))
     (re-search-backward "^GET")
     (setq mark (sheet-test-messages-mark))
     (with-current-buffer (prog1 (sheet-test-key-and-wait "C-c C-c")
                            (should-not (string-match-p
                                         "client\\.log"
                                         (sheet-test-messages-since mark))))
       (let ((text (buffer-substring-no-properties (point-min) (point-max))))
         (should (string-match-p "^// HTTP/1.1 200 OK$" text))
         (should-not (string-match-p "client\\.log" text))
         (should (string-match-p "^// Request duration: .*\n\\'" text)))))))

(ert-deftest sheet-test-client-log-xml-comments ()
  "An XML response gets the block as XML comments; one without logs none."
  (sheet-test-visiting "xml.http"
      (with-temp-file file
        (insert (format "GET %s/xml\n\n> {%%\nclient.log(\"a\\n\\nb\");\n%%}\n\n###\n\nGET %s/xml\n"
                        (sheet-test-api-url) (sheet-test-api-url))))
    (sheet-test-goto "^GET")
    (with-current-buffer (sheet-test-key-and-wait "C-c C-c")
      (should (eq major-mode 'nxml-mode))
      (should (string-match-p
               "<!-- Request duration: .* -->\n\n<!-- client.log: -->\n<!-- a -->\n<!--  -->\n<!-- b -->\n\\'"
               (buffer-string))))
    (goto-char (point-max))
    (re-search-backward "^GET")
    (with-current-buffer (sheet-test-key-and-wait "C-c C-c")
      (should (string-match-p "<!-- Request duration: .* -->\n\\'"
                              (buffer-string))))))

(ert-deftest sheet-test-client-log-in-org-result ()
  "An Org block's result shows the block as the response buffer does."
  (ob-sheet-test-with-org "#+name: logged
#+begin_src sheet :syntax http :var base=\"%s\" :noheaders
GET {{base}}/users/1

> {%
client.log(\"one\");
client.log(\"two\\nlines\");
%}
#+end_src
"
			  (let ((text (ob-sheet-test-run "logged")))
			    (should (string-match-p
				     (concat "^// HTTP/1.1 200 OK\n//\n// client.log:\n// one\n"
					     "// two\n// lines\n#\\+end_src")
				     text)))))

(provide 'sheet-mode-client-log-test)
;;; sheet-mode-client-log-test.el ends here
