#!/usr/bin/env bats
# --sheet (a call printed as a sheet request) and REST_HISTORY=1 (every call appended to
# $XDG_STATE_HOME/rest/history.sheet). The history is parsed by the engine's sheet parser and
# replayed in test/shell-engine/history.test.ts.

load test_helper

@test "--sheet prints the request as sheet text and sends nothing" {
  run --separate-stderr rsh 'rest "$API" >/dev/null
    POST /echo/x "{\"name\": \"é\"}" -H "Content-Type: application/json" -q a=1 --sheet'
  [ "$status" -eq 0 ]
  [ "$output" = "$(printf 'POST %s/echo/x?a=1\nContent-Type: application/json\n\n{"name": "é"}' "$API")" ]
  # Nothing was sent: the path history has no entry.
  [ ! -e "$HOME/.local/state/rest/paths/127.0.0.1:$API_PORT" ]
}

@test "--sheet: a piped body is printed, a file body is a < line" {
  printf 'line one\nline two\n' >"$BATS_TEST_TMPDIR/body.txt"
  run --separate-stderr rsh_in 'rest "$API" >/dev/null; PUT /echo --sheet' <"$BATS_TEST_TMPDIR/body.txt"
  [ "$status" -eq 0 ]
  [ "$output" = "$(printf 'PUT %s/echo\nContent-Type: application/x-www-form-urlencoded\n\nline one\nline two\n' "$API")" ]
  cd "$BATS_TEST_TMPDIR"
  run --separate-stderr rsh 'rest "$API" >/dev/null; PUT /echo -T body.txt --sheet'
  [ "$output" = "$(printf 'PUT %s/echo\n\n< %s/body.txt' "$API" "$BATS_TEST_TMPDIR")" ]
}

@test "--sheet: a body a sheet cannot hold is a clear error" {
  run --separate-stderr rsh 'rest "$API" >/dev/null; POST /echo "# not a comment" --sheet'
  [ "$status" -eq 2 ]
  [[ "$stderr" == *"starts with #"* ]]
  [ -z "$output" ]
}

@test "REST_HISTORY=1 appends each call, 0600 in a 0700 directory; nothing without it" {
  run rsh 'rest "$API" >/dev/null; GET /echo/nohistory >/dev/null'
  [ ! -e "$HOME/.local/state/rest/history.sheet" ]
  export REST_HISTORY=1
  run rsh 'rest "$API" >/dev/null
    GET /echo/one >/dev/null
    POST /echo/two "{\"a\": 1}" -H "Content-Type: application/json" >/dev/null
    GET /echo/quiet -W >/dev/null
    GET /echo/dry --dry-run >/dev/null
    GET /echo/printed --sheet >/dev/null'
  [ "$status" -eq 0 ]
  local f=$HOME/.local/state/rest/history.sheet
  [ "$(stat -c %a "$f")" = 600 ]
  [ "$(stat -c %a "$HOME/.local/state/rest")" = 700 ]
  run grep -v '^# ' "$f"
  [ "$output" = "$(printf 'GET %s/echo/one\n#\nPOST %s/echo/two\nContent-Type: application/json\n\n{"a": 1}\n#' "$API" "$API")" ]
  # A dated comment before each entry.
  [ "$(grep -c '^# 20[0-9][0-9]-[01][0-9]-[0-3][0-9]T' "$f")" -eq 2 ]
}

@test "REST_HISTORY masks Authorization, Proxy-Authorization, Cookie and a URL password" {
  export REST_HISTORY=1 XDG_STATE_HOME=$BATS_TEST_TMPDIR/state
  run rsh 'rest "$API" >/dev/null
    GET /echo/a -u me:secret1 -b "sid=secret2; theme=secret3" -H "Proxy-Authorization: Bearer secret4" >/dev/null
    rest "http://me:secret5@127.0.0.1:$API_PORT" >/dev/null
    GET /echo/b -H "Authorization: secret6" >/dev/null'
  [ "$status" -eq 0 ]
  local f=$XDG_STATE_HOME/rest/history.sheet
  run cat "$f"
  [[ "$output" != *secret* ]]
  [[ "$output" == *"Authorization: Basic ****"* ]]
  [[ "$output" == *"Cookie: sid=****; theme=****"* ]]
  [[ "$output" == *"Proxy-Authorization: Bearer ****"* ]]
  [[ "$output" == *"GET http://me:****@127.0.0.1:$API_PORT/echo/b"* ]]
  [[ "$output" == *$'\nAuthorization: ****\n'* ]]
}

@test "REST_HISTORY_SECRETS=1 keeps the credentials" {
  export REST_HISTORY=1 REST_HISTORY_SECRETS=1
  run rsh 'rest "$API" >/dev/null; GET /echo/a -H "Authorization: Bearer tok-1" -b "sid=s1" >/dev/null'
  run cat "$HOME/.local/state/rest/history.sheet"
  [[ "$output" == *"Authorization: Bearer tok-1"* ]]
  [[ "$output" == *"Cookie: sid=s1"* ]]
}

@test "REST_HISTORY: a piped body is named in the comment, not kept" {
  export REST_HISTORY=1
  run rsh_in 'rest "$API" >/dev/null; POST /echo/p >/dev/null' <<<"some body"
  [ "$status" -eq 0 ]
  run cat "$HOME/.local/state/rest/history.sheet"
  [[ "${lines[0]}" == *"(body from standard input, not kept)" ]]
  [ "${lines[1]}" = "POST $API/echo/p" ]
  [[ "$output" != *"some body"* ]]
}
