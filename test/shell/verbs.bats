#!/usr/bin/env bats
# The verbs: paths and queries, bodies, output streams and exit statuses, options.

load test_helper

@test "every verb sends its own method" {
  run rsh 'rest "$API" >/dev/null
    for v in OPTIONS GET DELETE PUT PATCH POST TRACE; do "$v" /echo | jq -r .method; done
    HEAD /echo | grep -i "^X-Echo-Method"'
  [ "$status" -eq 0 ]
  [ "$(printf '%s\n' "${lines[@]:0:7}" | tr '\n' ' ')" = "OPTIONS GET DELETE PUT PATCH POST TRACE " ]
  [[ "${lines[7]}" == X-Echo-Method:\ HEAD* ]]
}

@test "the path is URL-encoded except slashes" {
  run rsh 'rest "$API" >/dev/null; GET "/echo/a b/c?d=e&f#g/é"'
  [ "$(field .rawPath)" = "/echo/a%20b/c%3Fd%3De%26f%23g/%C3%A9" ]
}

@test "%2F stays a slash inside one path element" {
  run rsh 'rest "$API" >/dev/null; GET /echo/a%2Fb/c'
  [ "$(field .rawPath)" = "/echo/a%2Fb/c" ]
}

@test "-Q sends the path as written, query included" {
  run rsh 'rest "$API" >/dev/null; GET "/echo/x?a=1&b=2" -Q'
  [ "$(field .rawPath)" = "/echo/x?a=1&b=2" ]
  [ "$(field .query.b)" = "2" ]
}

@test "-Q sends braces and quotes byte for byte, as curl -g does" {
  run rsh 'rest "$API" >/dev/null; GET "/echo/{x}?m=\"b\"&y=<z>" -Q'
  [ "$(field .rawPath)" = '/echo/{x}?m="b"&y=<z>' ]
  run rsh 'rest "$API" >/dev/null; GET "/echo/{x}?m=\"b\"" -Q --dry-run'
  [[ "$output" == *"-g 'http://"*'/echo/{x}?m="b"'"'"* ]]
  run rsh 'rest "$API" >/dev/null; GET "/echo/{x}" -Q --sheet'
  [ "${lines[0]}" = "# @no-auto-encoding" ]
  [[ "${lines[1]}" == "GET http://"*"/echo/{x}" ]]
}

@test "-q appends the query string exactly as given" {
  run rsh 'rest "$API" >/dev/null; GET /echo -q "a=b&c=d%20e"'
  [ "$(field .rawPath)" = "/echo?a=b&c=d%20e" ]
}

@test "-d with -G sends the data in the query string" {
  run rsh 'rest "$API" >/dev/null; GET /echo -d a=1 -d b=2 -G'
  [ "$(field .rawPath)" = "/echo?a=1&b=2" ]
  [ "$(field .bodyLength)" = "0" ]
}

@test "-q with -d sends a query string and a body" {
  run rsh 'rest "$API" >/dev/null; POST /echo -q x=1 -d a=b -d c=d'
  [ "$(field .rawPath)" = "/echo?x=1" ]
  [ "$(field .body)" = "a=b&c=d" ]
  [ "$(field '.headers["content-type"]')" = "application/x-www-form-urlencoded" ]
}

@test "the star of the base marks where the path goes" {
  run rsh 'rest "$API/echo*.json" >/dev/null; GET /x'
  [ "$(field .rawPath)" = "/echo/x.json" ]
}

@test "the last path is kept in _REST_PATH and used when a verb has none" {
  run rsh 'rest "$API" >/dev/null; GET /echo/one >/dev/null; printf "%s\n" "$_REST_PATH"; GET'
  [ "${lines[0]}" = "/echo/one" ]
  [ "$(printf '%s' "${lines[1]}" | jq -r .path)" = "/echo/one" ]
}

@test "REST_NO_PRESERVE_PATH=true turns the last path off" {
  export REST_NO_PRESERVE_PATH=true
  run --separate-stderr rsh 'rest "$API/echo*" >/dev/null; GET /one >/dev/null; GET'
  [ "$(field .path)" = "/echo" ]
}

@test "the data argument is the body" {
  run rsh 'rest "$API" >/dev/null; PUT /echo "{\"a\": 1}"; echo; PATCH /echo "x y"'
  [ "$(printf '%s' "${lines[0]}" | jq -r .body)" = '{"a": 1}' ]
  [ "$(printf '%s' "${lines[1]}" | jq -r .body)" = 'x y' ]
}

@test "a piped body is sent byte for byte" {
  printf 'a\000b\n\n\n' >"$BATS_TEST_TMPDIR/in"
  run rsh_in 'rest "$API" >/dev/null; POST /echo' <"$BATS_TEST_TMPDIR/in"
  [ "$status" -eq 0 ]
  [ "$(field .bodyBase64)" = "$(base64 <"$BATS_TEST_TMPDIR/in")" ]
}

@test "with a piped body the path may be omitted" {
  run rsh_in 'rest "$API" >/dev/null; GET /echo/last >/dev/null; printf "from stdin" | PUT' </dev/null
  [ "$(field .path)" = "/echo/last" ]
  [ "$(field .method)" = "PUT" ]
  [ "$(field .body)" = "from stdin" ]
}

@test "-V opens the piped body in EDITOR and sends what was saved" {
  printf '#!/bin/sh\nsed -i "s/old/new/" "$1"\n' >"$BATS_TEST_TMPDIR/ed"
  chmod +x "$BATS_TEST_TMPDIR/ed"
  export EDITOR="$BATS_TEST_TMPDIR/ed"
  run rsh 'rest "$API" >/dev/null; printf "old body" | POST /echo -V'
  [ "$status" -eq 0 ]
  [ "$(field .body)" = "new body" ]
}

@test "-V with an EDITOR that has arguments" {
  printf '#!/bin/sh\nprintf "%%s" "$1" >"$2"\n' >"$BATS_TEST_TMPDIR/ed"
  chmod +x "$BATS_TEST_TMPDIR/ed"
  export EDITOR="$BATS_TEST_TMPDIR/ed replaced"
  run rsh 'rest "$API" >/dev/null; printf "old" | PUT /echo -V'
  [ "$(field .body)" = "replaced" ]
}

@test "-V sends nothing when the editor fails" {
  export EDITOR=false
  run --separate-stderr rsh 'rest "$API" >/dev/null; GET /reset >/dev/null 2>&1; printf "{\"name\":\"x\"}" | POST /users -V; echo "rc=$?"; GET /users | jq length'
  [ "${lines[0]}" = "rc=8" ]
  [ "${lines[1]}" = "3" ]
  [[ "$stderr" == *editor* ]]
}

@test "a 2xx body goes to stdout with exit status 0" {
  run --separate-stderr rsh 'rest "$API" >/dev/null; GET /users/1'
  [ "$status" -eq 0 ]
  [ "$(field .id)" = "1" ]
  [ "$stderr" = "" ]
}

@test "a 4xx body goes to stderr with exit status 4" {
  run --separate-stderr rsh 'rest "$API" >/dev/null; GET /users/999'
  [ "$status" -eq 4 ]
  [ "$output" = "" ]
  [ "$(printf '%s' "$stderr" | jq -r .error)" = "no user 999" ]
}

@test "exit status is the first digit of the status for 3xx, 4xx, 5xx" {
  run rsh 'rest "$API" >/dev/null; for s in 200 201 204 301 304 400 404 418 500 503; do GET "/status/$s" >/dev/null 2>&1; printf "%s=%s " "$s" "$?"; done'
  [ "$output" = "200=0 201=0 204=0 301=3 304=3 400=4 404=4 418=4 500=5 503=5 " ]
}

@test "a 1xx final status gives exit status 1" {
  # undici reports a connection closed after a 1xx as a transport failure, so the request
  # goes through curl (an option the engine does not know), which reports the 1xx status.
  run --separate-stderr rsh 'rest "$API" >/dev/null; GET /shell/informational --http1.1'
  [ "$status" -eq 1 ]
}

@test "a refused connection prints a message naming the URL and exits 7 (curl's)" {
  run --separate-stderr rsh 'rest http://127.0.0.1:1 >/dev/null; GET /x'
  [ "$status" -eq 7 ]
  [[ "$stderr" == *"http://127.0.0.1:1/x"* ]]
  [[ "$stderr" == *refused* ]]
}

@test "an unknown host exits 6" {
  run --separate-stderr rsh 'rest http://no-such-host.invalid >/dev/null; GET /x'
  [ "$status" -eq 6 ]
  [[ "$stderr" == *"no-such-host.invalid"* ]]
}

@test "a TLS failure exits 35 (curl's)" {
  run --separate-stderr rsh 'rest "https://127.0.0.1:$API_PORT" >/dev/null; GET /x'
  [ "$status" -eq 35 ]
  [[ "$stderr" == *"https://127.0.0.1:$API_PORT/x"* ]]
}

@test "a timeout (--max-time) exits 28 (curl's)" {
  run --separate-stderr rsh 'rest "$API" >/dev/null; GET /slow -q ms=3000 --max-time 0.3'
  [ "$status" -eq 28 ]
  [[ "$stderr" == *"$API/slow?ms=3000"* ]]
}

@test "binary bodies reach stdout byte-exact, NULs and trailing newline included" {
  run rsh 'rest "$API" >/dev/null; GET /binary | od -An -tx1 | tr -s " \n" " "'
  [ "$output" = " 00 01 02 00 ff 0a 00 0a " ]
}

@test "an image body is the same bytes curl gets" {
  run rsh 'rest "$API" >/dev/null; GET /image.png | cksum; curl -s "$API/image.png" | cksum'
  [ "${lines[0]}" = "${lines[1]}" ]
}

@test "HEAD prints the status line and headers" {
  run rsh 'rest "$API" >/dev/null; HEAD /echo'
  [ "$status" -eq 0 ]
  [[ "${lines[0]}" == "HTTP/1.1 200 OK"* ]]
  printf '%s\n' "$output" | grep -qi '^content-type: application/json'
}

@test "text/html is rendered as text" {
  run rsh 'rest "$API" >/dev/null; GET /html'
  [[ "$output" == *Hello* ]]
  [[ "$output" != *"<h1>"* ]]
}

@test "-Z shows HTML raw" {
  run rsh 'rest "$API" >/dev/null; GET /html -Z'
  [[ "$output" == *"<h1>Hello</h1>"* ]]
}

@test "without lynx, html2text renders HTML; without either it is shown raw" {
  local bin=$BATS_TEST_TMPDIR/bin
  mkdir -p "$bin"
  for t in node curl cat mkdir ls jq; do ln -s "$(command -v "$t")" "$bin/$t"; done
  # A stand-in html2text, so the test knows which renderer ran.
  printf '#!/bin/sh\necho rendered-by-html2text\n' >"$bin/html2text"
  chmod +x "$bin/html2text"
  run rsh "PATH='$bin'; rest \"\$API\" >/dev/null; GET /html"
  [ "$output" = "rendered-by-html2text" ]
  rm "$bin/html2text"
  run rsh "PATH='$bin'; rest \"\$API\" >/dev/null; GET /html"
  [[ "$output" == *"<h1>Hello</h1>"* ]]
}

@test "-v writes request and response headers to stderr, the body to stdout" {
  run --separate-stderr rsh 'rest "$API" >/dev/null; GET /echo -v -H "X-Verbose: 1"'
  [ "$status" -eq 0 ]
  [ "$(field .method)" = GET ]
  [[ "$stderr" == *"> GET /echo HTTP/1.1"* ]]
  [[ "$stderr" == *"> X-Verbose: 1"* ]]
  [[ "$stderr" == *"< HTTP/1.1 200 OK"* ]]
}

@test "--dry-run prints the curl command and sends nothing" {
  run rsh 'rest "$API" >/dev/null; POST /reset >/dev/null; POST /users "{\"name\":\"dry\"}" --dry-run; GET /users | jq length'
  [ "$status" -eq 0 ]
  [[ "${lines[0]}" == curl\ * ]]
  [[ "${lines[0]}" == *"$API/users"* ]]
  [ "${lines[1]}" = 3 ]
}

@test "the --dry-run command performs the same request" {
  run rsh 'rest "$API" >/dev/null; PUT "/echo/a b" "x&y" -q q=1 -H "X-A: 1" --dry-run >"$HOME/cmd"; PUT "/echo/a b" "x&y" -q q=1 -H "X-A: 1"'
  local direct=$output
  run --separate-stderr bash "$HOME/cmd"
  [ "$status" -eq 0 ]
  [ "$(field .rawPath)" = "$(printf '%s' "$direct" | jq -r .rawPath)" ]
  [ "$(field .method)" = PUT ]
  [ "$(field .body)" = "x&y" ]
  [ "$(field '.headers["x-a"]')" = "1" ]
}

@test "an option the engine does not know sends the request through curl with it" {
  run rsh 'rest "$API" >/dev/null; GET /echo --http1.1 -H "X-Via: 1"'
  [ "$status" -eq 0 ]
  [[ "$(field '.headers["user-agent"]')" == curl/* ]]
  [ "$(field '.headers["x-via"]')" = 1 ]
}

@test "through curl, statuses still map to exit statuses and stderr" {
  run --separate-stderr rsh 'rest "$API" >/dev/null; GET /users/999 --http1.1'
  [ "$status" -eq 4 ]
  [ "$output" = "" ]
  [[ "$stderr" == *"no user 999"* ]]
}

@test "without the engine's own: through curl, the cookie file is used too" {
  run rsh 'rest "$API" >/dev/null; GET /cookies/set -q viacurl=1 --http1.1 >/dev/null; GET /cookies'
  [ "$(field .cookies.viacurl)" = 1 ]
}

@test "-H, -u, -X and -A are understood" {
  run rsh 'rest "$API" >/dev/null; GET /echo -H "X-One: 1" -u "me:secret" -X PATCH -A agent/1'
  [ "$(field .method)" = PATCH ]
  [ "$(field '.headers["x-one"]')" = 1 ]
  [ "$(field '.headers.authorization')" = "Basic $(printf me:secret | base64)" ]
  [ "$(field '.headers["user-agent"]')" = "agent/1" ]
}

@test "-i puts the response headers before the body" {
  run rsh 'rest "$API" >/dev/null; GET /users/1 -i'
  [[ "${lines[0]}" == "HTTP/1.1 200 OK"* ]]
  [[ "$output" == *'"id":1'* ]]
}

@test "-o writes the body to a file" {
  run rsh 'rest "$API" >/dev/null; cd "$HOME" && GET /binary -o out.bin'
  [ "$status" -eq 0 ]
  [ "$output" = "" ]
  [ "$(od -An -tx1 "$HOME/out.bin" | tr -s ' \n' ' ')" = " 00 01 02 00 ff 0a 00 0a " ]
}

@test "--json, --data-urlencode, --data-binary @file and -d @file" {
  printf 'line1\nline2\n' >"$HOME/data.txt"
  run rsh 'rest "$API" >/dev/null; cd "$HOME"; POST /echo --json "{\"a\":1}"; echo; POST /echo --data-urlencode "q=a b&c"; echo; POST /echo --data-binary @data.txt; echo; POST /echo -d @data.txt'
  [ "$(printf '%s' "${lines[0]}" | jq -r '.headers["content-type"]')" = application/json ]
  [ "$(printf '%s' "${lines[0]}" | jq -r '.body')" = '{"a":1}' ]
  # As real curl encodes it (a space as +).
  [ "$(printf '%s' "${lines[1]}" | jq -r '.body')" = "$(curl -s --data-urlencode 'q=a b&c' "$API/echo" | jq -r '.body')" ]
  [ "$(printf '%s' "${lines[1]}" | jq -r '.body')" = 'q=a+b%26c' ]
  [ "$(printf '%s' "${lines[2]}" | jq -r '.body')" = "$(printf 'line1\nline2\n')" ]
  [ "$(printf '%s' "${lines[2]}" | jq -r '.bodyLength')" = 12 ]
  [ "$(printf '%s' "${lines[3]}" | jq -r '.body')" = 'line1line2' ]
}

@test "redirects are followed, as resty's curl -L does" {
  run rsh 'rest "$API" >/dev/null; GET /redirect | jq length'
  [ "$status" -eq 0 ]
  [ "$output" -ge 1 ]
}

@test "output can be captured with command substitution" {
  run rsh 'rest "$API" >/dev/null; name=$(GET /users/1 | jq -r .name); printf "%s\n" "$name"'
  [ "$output" = "Ada Lovelace" ]
}

# shellcheck disable=SC2016 # the code runs in the shell under test, which expands it
@test "a path with ? that comes back 404 gets a hint naming -q and -Q; -Q sends it as typed" {
  run --separate-stderr rsh 'rest "$API" >/dev/null; GET "/users?id=1"'
  [ "$status" -eq 4 ]
  [[ $stderr == *"hint: the ? in /users?id=1 was sent as %3F"*"-q 'name=value'"*"-Q"* ]]
  run --separate-stderr rsh 'rest "$API" >/dev/null; GET "/users?id=1" -Q'
  [ "$status" -eq 0 ]
  [[ $stderr != *hint* ]]
  # A 404 without ? gets no hint.
  run --separate-stderr rsh 'rest "$API" >/dev/null; GET /nonexistent'
  [ "$status" -eq 4 ]
  [[ $stderr != *hint* ]]
}
