;;; sheet-custom.el --- Sheet options  -*- lexical-binding: t; -*-

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

;; The customization group `sheet' and every option of `sheet-mode':
;; finding and starting the engine, the response buffer, cookies,
;; timeouts, content types, helm, prompts and the hooks.  Loaded
;; first by sheet-mode.el; the other files of the package read these
;; options.

;;; Code:

(defgroup sheet nil
  "Run HTTP requests written in a plain-text sheet."
  :group 'comm
  :prefix "sheet-"
  :link '(url-link :tag "Manual" "https://github.com/sheet-rest/sheet-rest"))

(defcustom sheet-engine-command nil
  "Program and arguments that start the engine, speaking JSON-RPC on stdio.
nil (the default) finds the engine without configuration
\(`sheet-engine-find-command'): the bundle built by `make build' in
the checkout this file belongs to (node ../engine/dist/engine.cjs
--stdio), else `sheet engine --stdio' when `npm install -g' put the
`sheet' executable on the variable `exec-path'
\(\\[sheet-install-engine])."
  :type '(choice (const :tag "Find it" nil)
                 (repeat :tag "Command line" (string :tag "Argument"))))

(defcustom sheet-engine-executable "sheet"
  "Name of the engine's executable looked for on the variable `exec-path'.
Installed by `npm install -g' of `sheet-engine-npm-package'."
  :type 'string)

(defcustom sheet-engine-npm-package "sheet-rest"
  "The npm package holding the engine, for `sheet-install-engine'."
  :type 'string)

(defcustom sheet-npm-program "npm"
  "The npm program `sheet-install-engine' runs."
  :type 'string)

(defcustom sheet-log-request t
  "When non-nil, each request is logged to the *Messages* buffer."
  :type 'boolean)

(defcustom sheet-same-buffer-response t
  "When non-nil, one buffer is reused for every response.
Its name is `sheet-buffer-response-name'.  When nil, each response
gets its own buffer named *HTTP <METHOD> <URL>*, with <2>, <3>
appended for repeated calls."
  :type 'boolean)

(defcustom sheet-buffer-response-name "*HTTP Response*"
  "Name of the response buffer when `sheet-same-buffer-response' is non-nil."
  :type 'string)

(defcustom sheet-inhibit-cookies nil
  "When non-nil, cookies from the engine's cookie jar are not sent implicitly."
  :type 'boolean)

(defcustom sheet-response-size-threshold 100000
  "Response size, in characters, above which only the bare major mode is used.
Above the threshold the response's major mode runs without its
hooks (function `delay-mode-hooks'); above ten times the threshold the
buffer stays in `fundamental-mode'.  nil disables the threshold."
  :type '(choice (const :tag "No threshold" nil)
                 (natnum :tag "Characters")))

;; so-long.el's own threshold is 10000: a response buffer is read, not
;; edited, and a terminal Emacs 28 already drags over a few thousand.
(defcustom sheet-stream-max-chars 2000000
  "Most characters a streamed response buffer holds while events arrive.
A stream (Server-Sent Events, NDJSON, `# @accept chunked') is shown
as its events come; past this size the oldest are cut from the head
of the buffer, and a line at the top says how many.  nil: no bound."
  :type '(choice (const :tag "No bound" nil)
                 (natnum :tag "Characters")))

(defcustom sheet-stream-gc-cons-threshold (* 64 1024 1024)
  "The `gc-cons-threshold' while a stream fills a response buffer.
Reading thousands of events a second allocates fast; with Emacs's
default threshold a garbage collection comes every few hundred
events, and each one keeps Emacs busy for as long as a collection
of the whole heap takes (80 to 300 ms on a loaded machine).  While
a stream is shown the threshold is raised to this many bytes; after
the last stream ended it goes back, and Emacs collects once it is
idle (`sheet-stream-gc-idle-delay').  nil: leave the threshold alone."
  :type '(choice (const :tag "Leave it alone" nil)
                 (natnum :tag "Bytes")))

(defcustom sheet-stream-gc-idle-delay 1.0
  "Seconds of idleness after the last stream before Emacs collects.
See `sheet-stream-gc-cons-threshold'."
  :type 'number)

(defcustom sheet-stream-flush-interval 0.02
  "Seconds between two insertions of a stream's events in its buffer.
Events that arrive in between are inserted together, so thousands a
second never keep Emacs busy for long."
  :type 'number)

(defcustom sheet-response-long-line-threshold 5000
  "Line length, in characters, above which a response buffer is protected.
When any line of a response (the body as shown, or a trailer line)
is longer, `so-long-minor-mode' is turned on in its buffer: font
lock and the other modes of `so-long-minor-modes' off, the
variables of `so-long-variable-overrides' set (no bidirectional
reordering, the buffer read-only).  nil never turns it on."
  :type '(choice (const :tag "Never" nil)
                 (natnum :tag "Characters")))

(defconst sheet-version
  (eval-when-compile
    (require 'lisp-mnt)
    (lm-with-file (or (macroexp-file-name) buffer-file-name)
      (lm-version)))
  "The version of sheet-mode, this file's Version header.
The same as the engine's (engine/package.json), which the Version
headers of every file of the package repeat.")

(defcustom sheet-user-agent t
  "The User-Agent header sent when a request has none.
t: sheet-rest/VERSION (`sheet-version'), as curl sends curl/VERSION;
a string: that; nil: none, as restclient.el (url.el's own aside).
A request's own User-Agent line always wins."
  :type '(choice (const :tag "sheet-rest/VERSION" t)
                 (string :tag "This User-Agent")
                 (const :tag "None" nil)))

(defcustom sheet-cookie-jar-file nil
  "File that keeps the engine's cookies, in the Netscape format curl uses.
nil keeps them for Emacs's session, in a private file of it that
every engine started in the session uses, so they survive an engine
restart (`sheet-session-cookie-file').  The same
file works with curl (-b/-c) and with the shell verbs."
  :type '(choice (const :tag "For the Emacs session" nil)
                 (file :tag "Cookie file")))

(defcustom sheet-ca-file nil
  "File of PEM certificates of the authorities that verify servers.
As curl's --cacert: it replaces the default authorities, and wins
over the engine's CURL_CA_BUNDLE and SSL_CERT_FILE; NODE_EXTRA_CA_CERTS
still adds to it.  nil leaves those environment variables to decide."
  :type '(choice (const :tag "From the environment" nil)
                 (file :tag "CA file")))

(defcustom sheet-client-certificates nil
  "Client certificates (mutual TLS) by host, as curl's --cert and --key.
Each element is (HOST :cert CERT-FILE :key KEY-FILE :pass PASSPHRASE)
where HOST is a host name or HOST:PORT (HOST:PORT wins; \"*\" is any
other host) and the files are PEM.  Without :key the key is read
from CERT-FILE, as curl does; :pass is needed only for an encrypted
key.  The certificate goes to https:// requests to HOST, from
\[sheet-http-send-current] and in the curl command of
\[sheet-copy-curl-command] (which leaves the passphrase for curl to ask).
A file that cannot be used is an error naming it; nothing is sent."
  :type '(alist :key-type (string :tag "Host or host:port")
                :value-type (plist :options ((:cert file)
                                             (:key file)
                                             (:pass string)))))

(defcustom sheet-http2 nil
  "Non-nil: offer HTTP/2 to https:// servers, as curl's --http2.
The server chooses (ALPN); the response trailer's status line says
which version answered (HTTP/2 or HTTP/1.1).  A request line ending
in HTTP/2, or a `.http' request's # @http2, offers it for that request."
  :type 'boolean)

(defcustom sheet-netrc nil
  "Whether requests send credentials from a .netrc file, as curl's -n.
nil (the default, as curl without -n) sends none; t reads ~/.netrc
\(curl's -n); a file name reads that file (curl's --netrc-file).
Only a request without an Authorization header of its own and
without a password in its URL gets them, Basic by curl's rules.
url.el's auth-source (and ~/.authinfo) is not consulted: the engine
sends the request, not url.el.  \[sheet-copy-curl-command] adds -n or
--netrc-file to the command it copies."
  :type '(choice (const :tag "None" nil)
                 (const :tag "~/.netrc (curl -n)" t)
                 (file :tag "File (curl --netrc-file)")))

(defcustom sheet-timeout nil
  "Seconds to wait for a complete response; nil waits without limit.
The engine ends the request then; Emacs waits `sheet-timeout-grace'
seconds more for the engine's answer, and restarts an engine that
has not answered by then."
  :type '(choice (const :tag "No limit" nil) (number :tag "Seconds")))

(defcustom sheet-timeout-grace 10
  "Seconds Emacs waits for the engine beyond a request's own timeout.
A send without an answer `sheet-timeout' plus this many seconds
after it left, or a request cancelled with \\[sheet-cancel] whose
engine has not answered within this many seconds, means the engine
is stuck: it is killed and a new one started, with a message."
  :type 'number)

(defcustom sheet-follow-redirects t
  "When non-nil, redirects are followed; nil shows the redirect response."
  :type 'boolean)

(defcustom sheet-vars-max-passes 10
  "Maximum number of substitution passes for variables."
  :type 'natnum)

(defcustom sheet-content-type-modes
  '(("application/xml" . nxml-mode)
    ("text/xml" . nxml-mode)
    ("application/atom+xml" . nxml-mode)
    ("image/svg+xml" . nxml-mode)
    ("text/html" . html-mode)
    ("application/xhtml+xml" . html-mode)
    ("application/javascript" . js-mode)
    ("text/javascript" . js-mode)
    ("text/css" . css-mode)
    ("text/plain" . text-mode))
  "Major mode for a response, by content type (without parameters).
A content type missing here gets a mode from the engine's hint:
JSON uses `json-mode' when installed, else `js-mode'; XML uses
`nxml-mode'; HTML uses `html-mode'; anything else `text-mode'."
  :type '(alist :key-type (string :tag "Content type")
                :value-type (function :tag "Major mode")))

(defcustom sheet-use-helm t
  "When non-nil, \\[sheet-helm] uses helm when it is installed.
When nil, or when helm is not installed, it jumps with `completing-read'."
  :type 'boolean)

(defcustom sheet-events-buffer-size 0
  "Size limit of jsonrpc.el's own full log of engine traffic; 0 turns it off.
jsonrpc.el pretty-prints every message it logs, which takes
seconds for a response of several megabytes, so it is off by
default; `sheet-mode' always writes a one-line summary of each
message to the events buffer (`sheet-engine-events').  nil means
no limit.  Takes effect when the engine next starts."
  :type '(choice (const :tag "No limit" nil) (natnum :tag "Characters")))

(defcustom sheet-completion-timeout 0.3
  "Seconds completion at point may wait for the engine's first answer.
Only a buffer's first completion waits; later ones use the last
answer while a new one is asked in the background."
  :type 'number)

(defcustom sheet-outline-refresh-delay 1.0
  "Idle seconds after an edit before the outline is asked again.
Navigation and folding use the outline kept from the engine's last
answer, its lines moved by the edits since, and never wait for it;
the fresh one is asked in the background (sheet-outline-kept.el).
The answer is the outline's changes; applying them takes Emacs
some ms on a 5,000-request sheet (docs/sheet-mode.md)."
  :type 'number)

(defcustom sheet-request-timeout 10
  "Seconds to wait for the engine's answer to a quick look-up.
Used for the outline, variables and curl look-ups; sending a
request waits `sheet-timeout' plus `sheet-timeout-grace' (without
limit when `sheet-timeout' is nil; cancel it with \\[sheet-cancel])."
  :type 'number)

(defcustom sheet-prompt-secret-regexp "pass\\(?:word\\|wd\\)?\\|token\\|secret"
  "Names of `# @prompt' variables whose answer is read without echo.
Matched case-insensitively against the name: such answers are
read with `read-passwd', the others with `read-string'.  VS Code
REST Client masks password names the same way; tokens and
secrets are masked here too."
  :type 'regexp)

(defcustom sheet-code-target "python"
  "The target `sheet-copy-as-code' (C-c C-S-u) offers first.
A name the engine knows (`sheet export --list'): \"python\"
\(Requests), \"javascript\" (fetch), \"go\", \"httpie\",
\"powershell\", \"curl\", ... or TARGET-CLIENT such as
\"javascript-axios\".  The last target picked wins for the session."
  :type 'string)

(defcustom sheet-mode-hook '(sheet-outline-mode)
  "Hook run when entering `sheet-mode'.
`sheet-outline-mode' is on it by default; remove it to free TAB."
  :type 'hook
  :options '(sheet-outline-mode))

(defcustom sheet-response-received-hook nil
  "Hook run in the response buffer right after the response data is inserted."
  :type 'hook)

(defcustom sheet-response-loaded-hook nil
  "Hook run in the response buffer after it has been formatted."
  :type 'hook)

(defcustom sheet-response-history-size 20
  "How many responses of each request are kept for the session.
\[sheet-response-history] shows one of them, `sheet-response-diff'
compares the last two.  0 keeps none."
  :type 'natnum)

(defcustom sheet-response-history-max-body 262144
  "The longest body, in characters, the response history keeps.
A longer one is noted (status, time, size) without its body."
  :type 'natnum)

(defcustom sheet-babel-async 'interactive
  "Whether Org Babel `sheet' blocks answer after their request.
`interactive': yes, except in a batch Emacs; t: always; nil: Org
waits for the response.  A block's `:async yes' or `:async no'
decides for it."
  :type '(choice (const :tag "Except in batch" interactive)
                 (const :tag "Always" t)
                 (const :tag "Never" nil)))

(provide 'sheet-custom)
;;; sheet-custom.el ends here
