/**
 * The text `sheet --help` (and `sheet run --help`) prints: every subcommand and option of the
 * `sheet` command, in the manual's order. The behaviour behind each line is documented in
 * docs/sheet-run.md, docs/http-files.md and docs/import.md; this file holds only the words.
 */
export const HELP = `Usage: sheet run FILE... [options]
       sheet report merge A.json B.json... --report FORMAT:PATH...
       sheet convert FILE [-o OUT] [--to sheet|http]
       sheet import-curl 'curl ...' | -
       sheet import FILE_OR_DIR... [-o OUTDIR] [--to http|sheet] [--force]
       sheet export --to python|javascript|go|httpie|powershell|... FILE:LINE
       sheet export --to postman FILE [-o OUT.json] [--env NAME]
       sheet engine --stdio
       sheet shell-path
       sheet elisp-path
       sheet auth list|login ID|logout [ID] [--env NAME] [FILE|DIR]
       sheet grpc list|describe ADDRESS [SERVICE] [-k] [--cacert FILE]
       sheet --help | --version

Run every request of each sheet in file order, as C-c C-c on each in turn would:
variables, file bodies and the values hooks capture carry on to the requests below.
Assertion hooks check the responses:
  -> expect-status 200 | 2xx          -> expect-header Content-Type json
  -> expect-jq '.items | length > 0'  -> expect-body "name": "Ada"
  -> expect-time < 500                (ms)
  -> expect-events >= 3               -> expect-event '.type == "done"'   (streams: SSE, NDJSON)
  Any of them ending in the word retry (-> expect-status 200 retry) is retried under --retry.
  .http files: httpyac's ?? lines (?? status == 200, ?? header content-type includes json,
  ?? body id == 1, ?? duration < 500, ?? js EXPR) and client.test in handlers.

Options:
  --var :name=value     set a variable for every file (overrides the sheet's); repeatable
                        (.http files: --var name=value also answers a # @prompt name)
  --prompts-from FILE   .http files: answers to # @prompt lines, a JSON object
                        {"name": "value"} read from FILE, or from stdin with -; on a
                        terminal, a prompt nothing answers is asked (no echo for
                        password, passwd, token, secret)
  --env NAME            .http files: the environment (http-client.env.json, VS Code's
                        rest-client.environmentVariables, found above each file)
  --line N              run only the request whose block holds line N
  --grep REGEX          run only the requests whose request line or comments above match
  --report FORMAT       tap (to stdout), tap:PATH, junit:PATH, json:PATH or html:PATH
                        (one self-contained page); repeatable
  --jobs N              run N files in parallel (default 1; requests of a file are sequential)
  --shard I/N           run only the I-th of N slices of the files (by sorted relative path,
                        round-robin), for a CI matrix; merge the JSON reports with
                        sheet report merge A.json B.json --report html:PATH
  --fail-fast, --bail   stop at the first request that fails or errs (without it, a .http
                        file goes on after a failed request; a sheet stops at an error)
  --timeout S           per-request timeout in seconds (default none)
  --retry N             send a request again, up to N times, that failed by transport,
                        got 429/503 (after its Retry-After), or failed an assertion
                        marked retry (-> expect-status 200 retry; .http: # @retry);
                        never a POST/PATCH unless marked; a pass on a retry is flaky
  --retry-delay MS      wait between tries (default 1000)
  --repeat N            run the files N times over (a soak)
  --insecure, -k        accept any TLS certificate
  --proxy URL, -x URL   send through this proxy (curl's -x: over http_proxy, https_proxy,
                        ALL_PROXY; NO_PROXY still applies); see docs/networks.md
  --noproxy LIST        hosts that go direct (curl's --noproxy: over NO_PROXY)
  --cacert FILE         the authorities that verify servers (curl's --cacert: over
                        CURL_CA_BUNDLE and SSL_CERT_FILE)
  --cert, -E FILE[:PASS]  a client certificate, PEM (curl's --cert), for every host
  --key FILE            its private key (default: in the --cert file)
  --pass PASS           the key's passphrase
  --http2               offer HTTP/2 to https:// servers (curl's --http2)
  --unix-socket PATH    connect to this socket instead of the URL's host (the Docker API)
  --netrc, -n           send ~/.netrc's credentials (curl's -n; docs/networks.md)
  --netrc-file FILE     send FILE's credentials (curl's --netrc-file)
  --cookie-jar PATH     load and save cookies in PATH (Netscape format, as curl -b/-c)
  --untrusted           run no code from the files: a := Lisp variable, a run-hook or a
                        .http handler or pre-request script stops its file before anything
                        is sent (for files from pull requests; exit 2)
  --no-color            no colours (also when NO_COLOR is set or stdout is not a terminal)
  -h, --help            this help
  -V, --version         the version

:= variables and run-hook forms are evaluated by one emacs --batch per run ($EMACS or
emacs on PATH); without Emacs, a sheet using them stops before its first request.

Exit status: 0 all assertions passed, 1 an assertion failed, 2 usage or sheet error
(the message names the file and line), 3 transport failure (connection refused,
timeout, TLS, ...). See docs/sheet-run.md.

sheet convert FILE: a .sheet file to .http, or a .http/.rest file to .sheet (--to picks
the direction otherwise); to stdout, or to OUT with -o (written whole or not at all).
Whatever cannot be converted is named on stderr with its line; exit 1 then (the rest is
still written), 2 on a usage error. See docs/http-files.md ("Converting").

sheet import-curl 'curl ...': the sheet request of a curl command line on stdout (- reads the
command from stdin); what a sheet cannot say is named on stderr (exit 1). See
docs/sheet-run.md ("sheet import-curl").

sheet export --to TARGET FILE:LINE: the request at LINE as code (Python requests,
JavaScript fetch, Go, HTTPie, PowerShell, curl, ...; --list names the targets), as Emacs's
C-c C-S-u. See docs/sheet-run.md ("sheet export").

sheet import: Postman collections (v2.0, v2.1) and environments, OpenAPI 3 / Swagger 2
specs (JSON, YAML) and HAR files as .http files (or sheets with --to sheet) with
http-client.env.json and http-client.private.env.json; one warning per thing not carried.
Exit 0 all carried, 1 written with warnings, 2 nothing written. See docs/import.md.

sheet engine --stdio: the JSON-RPC server Emacs's sheet-mode starts (docs/protocol.md).

sheet shell-path: the path of the shell verbs' file, for: source "$(sheet shell-path)"

sheet elisp-path: the directory of sheet-mode's Emacs Lisp, for Emacs's load-path
sheet auth: the OAuth2 configurations of an environment ("Security": {"Auth": ...}) and the
tokens kept for {{$auth.token("id")}}: list them, ask for one now (login), forget them
(logout). See docs/http-files.md ("Authentication").
`;
