;;; sheet-mode-methods-test.el --- Request methods: font lock and completion  -*- lexical-binding: t; -*-

;;; Commentary:

;; The methods sheet-mode shows and offers are the engine's: the list
;; in elisp/sheet-font-lock.el (`sheet--request-methods') agrees with
;; the TypeScript it names (read from engine/src here, so neither can
;; change alone); WebDAV request lines get the `sheet-method' face; in
;; a `.http' file completion offers them (the engine's
;; `sheet/completions').  Real engine, batch Emacs.

;;; Code:

(require 'test-helper)

(defun sheet-test-methods--ts-strings (file start)
  "The quoted upper-case words of FILE (under engine/src) from START to the next `]'.
Also those of `METHODS' when the list spreads it (`...METHODS')."
  (with-temp-buffer
    (insert-file-contents (expand-file-name (concat "engine/src/" file)
                                            sheet-test-root))
    (search-forward start)
    ;; To the list's closing bracket, upper-case words only: `METHODS'
    ;; ends in `] as const;', and lower-case strings follow it.
    (let ((end (save-excursion (search-forward "]")))
          (case-fold-search nil)
          words)
      (while (re-search-forward "'\\([A-Z-]+\\)'\\|\\.\\.\\.METHODS\\b" end t)
        (if (match-beginning 1)
            (push (match-string 1) words)
          (setq words (append (reverse (sheet-test-methods--ts-strings
                                        "sheet/parse.ts"
                                        "export const METHODS = ["))
                              words))))
      (nreverse words))))

(defun sheet-test-methods--engine ()
  "The `.http' request line's methods as engine/src/http-file/parse.ts lists them."
  (let ((listed (sheet-test-methods--ts-strings
                 "http-file/parse.ts"
                 "export const HTTP_FILE_METHODS: readonly string[] = ["))
        (graphql (with-temp-buffer
                   (insert-file-contents
                    (expand-file-name "engine/src/http-file/parse.ts"
                                      sheet-test-root))
                   (re-search-forward "const GRAPHQL_METHOD = '\\([A-Z]+\\)'")
                   (match-string 1)))
        (grpc (with-temp-buffer
                (insert-file-contents
                 (expand-file-name "engine/src/sheet/grpc-lines.ts"
                                   sheet-test-root))
                (re-search-forward "const GRPC_METHOD = '\\([A-Z]+\\)'")
                (match-string 1))))
    ;; The exported union is the list, GRAPHQL, GRPC and the WebSocket words.
    (should (with-temp-buffer
              (insert-file-contents
               (expand-file-name "engine/src/http-file/parse.ts" sheet-test-root))
              (search-forward "HTTP_FILE_REQUEST_METHODS: readonly string[] = \
[...HTTP_FILE_METHODS, GRAPHQL_METHOD, GRPC_METHOD, ...WEBSOCKET_METHODS];" nil t)))
    (append listed (list graphql grpc)
            (sheet-test-methods--ts-strings
             "sheet/websocket-line.ts"
             "export const WEBSOCKET_METHODS: readonly string[] = ["))))

(ert-deftest sheet-test-methods-agree-with-engine ()
  "`sheet--request-methods' is the engine's list, no more, no less."
  (let ((engine (sheet-test-methods--engine)))
    (should (member "PROPFIND" engine))
    (should (member "GET" engine))
    (should (equal (sort (copy-sequence sheet--request-methods) #'string<)
                   (sort (copy-sequence engine) #'string<)))))

(ert-deftest sheet-test-methods-websocket-words ()
  "`sheet-websocket-methods' is the engine's `WEBSOCKET_METHODS'."
  (require 'sheet-websocket)
  (should (equal sheet-websocket-methods
                 (sheet-test-methods--ts-strings
                  "sheet/websocket-line.ts"
                  "export const WEBSOCKET_METHODS: readonly string[] = ["))))

(ert-deftest sheet-test-methods-font-lock ()
  "PROPFIND, MKCOL, VERSION-CONTROL, GRAPHQL and WEBSOCKET lines get `sheet-method'."
  (sheet-test-visiting "dav.http"
      (with-temp-file file
        (insert "PROPFIND http://h/dav/ HTTP/1.1\nDepth: 1\n\n###\n"
                "MKCOL http://h/dav/new/\n\n###\n"
                "VERSION-CONTROL http://h/dav/f\n\n###\n"
                "GRAPHQL http://h/graphql\n\n{ me { id } }\n\n###\n"
                "WEBSOCKET ws://h/chat\n\nhello\n"))
    (font-lock-ensure)
    (dolist (method '("PROPFIND" "MKCOL" "VERSION-CONTROL" "GRAPHQL" "WEBSOCKET"))
      (goto-char (point-min))
      (re-search-forward (concat "^" method " "))
      (should (eq (get-text-property (match-beginning 0) 'face) 'sheet-method))
      ;; Its last letter too (the blank after it has no face).
      (should (eq (get-text-property (- (match-end 0) 2) 'face) 'sheet-method))
      (should (eq (get-text-property (match-end 0) 'face) 'sheet-url)))))

(ert-deftest sheet-test-methods-completion-http ()
  "In a `.http' file, completion at a line's start offers WebDAV's methods."
  (sheet-test-visiting "dav.http"
      (with-temp-file file (insert "GET http://h/a\n\n###\n"))
    (sheet-test-send-and-wait-ready)
    (goto-char (point-max))
    (insert "PROP")
    ;; The first look-up asks the engine; the next answers from its reply.
    (sheet-test-wait-until
     (lambda () (let ((capf (sheet-completion-at-point)))
                  (and capf (all-completions "PROP" (nth 2 capf)))))
     15 "completions")
    (let ((capf (sheet-completion-at-point)))
      (should (equal (sort (all-completions "PROP" (nth 2 capf)) #'string<)
                     '("PROPFIND" "PROPPATCH")))
      (should (member "MKCOL" (all-completions "MK" (nth 2 capf)))))))

(provide 'sheet-mode-methods-test)
;;; sheet-mode-methods-test.el ends here
