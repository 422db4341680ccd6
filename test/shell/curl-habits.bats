#!/usr/bin/env bats
# curl habits that must send what curl sends (issue 21, "curl habits"): each test compares with
# the real curl on the same input where curl can say, against the example API's /echo.

load test_helper

# shellcheck disable=SC2016 # the code runs in the shell under test, which expands it
@test "PATCH, POST and DELETE with -T FILE send their own method with the file as body, as curl -X VERB -T" {
  printf 'file body\n' >"$BATS_TEST_TMPDIR/up.txt"
  local v
  for v in PATCH POST DELETE; do
    V=$v run rsh 'cd "$BATS_TEST_TMPDIR" && rest "$API" >/dev/null && "$V" /echo -T up.txt'
    [ "$status" -eq 0 ]
    [ "$(field .method)" = "$v" ]
    [ "$(field .body)" = "file body" ]
    # curl -X VERB -T sends the same method and body.
    run curl -s -X "$v" -T "$BATS_TEST_TMPDIR/up.txt" "$API/echo"
    [ "$(field .method)" = "$v" ]
  done
}

# shellcheck disable=SC2016 # the code runs in the shell under test, which expands it
@test "the history records the verb of a -T call, not PUT" {
  printf 'x' >"$BATS_TEST_TMPDIR/up.txt"
  run rsh 'cd "$BATS_TEST_TMPDIR" && export REST_HISTORY=1 && rest "$API" >/dev/null && PATCH /echo -T up.txt >/dev/null && cat "$HOME/.local/state/rest/history.sheet"'
  [ "$status" -eq 0 ]
  [[ $output == *"PATCH $API/echo"* ]]
  [[ $output != *"PUT "* ]]
}

# shellcheck disable=SC2016 # the code runs in the shell under test, which expands it
@test "--dry-run with -T FILE or a lone --data-binary @FILE prints a curl that sends the file" {
  printf 'file body\n' >"$BATS_TEST_TMPDIR/up.txt"
  local cmd
  for args in '-T up.txt' '--data-binary @up.txt'; do
    ARGS=$args run rsh 'cd "$BATS_TEST_TMPDIR" && rest "$API" >/dev/null && eval "PATCH /echo $ARGS --dry-run"'
    [ "$status" -eq 0 ]
    [[ $output == *"@up.txt"* ]] || { echo "$args: $output"; return 1; }
    [[ $output != *"--data-binary ''"* ]]
    # The printed command, run by the shell, sends the file's bytes.
    cmd=$output
    run bash -c "cd '$BATS_TEST_TMPDIR' && $cmd"
    [ "$(field .method)" = PATCH ]
    [ "$(field .body)" = "file body" ]
  done
}

# shellcheck disable=SC2016 # the code runs in the shell under test, which expands it
@test "-b NAME=VALUE is sent with the jar's cookies in one Cookie header, as curl -b JAR -b NAME=VALUE" {
  run rsh 'rest "$API" >/dev/null && GET /cookies/set -q fromjar=J >/dev/null && GET /echo -b extra=1'
  [ "$status" -eq 0 ]
  [ "$(field .headers.cookie)" = "fromjar=J; extra=1" ]
  # curl, given the same jar file and string, sends the same header.
  run curl -s -b "$HOME/.rest/c" -b extra=1 "$API/echo"
  [ "$(field .headers.cookie)" = "fromjar=J; extra=1" ]
  # --dry-run keeps -b for the string, so its curl merges it the same way.
  run rsh 'rest "$API" >/dev/null && GET /echo -b extra=1 --dry-run'
  [[ $output == *"-b extra=1"* ]]
  [[ $output != *"Cookie: extra=1"* ]]
}

# shellcheck disable=SC2016 # the code runs in the shell under test, which expands it
@test "-v shows every header sent: the jar's Cookie, Connection and Content-Length, as the server got them" {
  run --separate-stderr rsh 'rest "$API" >/dev/null && GET /cookies/set -q fromjar=J >/dev/null && POST /echo "a=1" -v'
  [ "$status" -eq 0 ]
  local h
  # Every header the server received is on a "> " line of -v (names compared without case).
  for h in $(printf '%s' "$output" | jq -r '.rawHeaders[][0]'); do
    printf '%s\n' "$stderr" | grep -qi "^> $h: " || { echo "-v lacks $h: $stderr"; return 1; }
  done
  printf '%s\n' "$stderr" | grep -q '^> Cookie: fromjar=J$'
  printf '%s\n' "$stderr" | grep -q '^> Connection: keep-alive$'
  printf '%s\n' "$stderr" | grep -q '^> Content-Length: 3$'
}

# shellcheck disable=SC2016 # the code runs in the shell under test, which expands it
@test "--http2 on http://: curl's h2c upgrade offer goes out (Upgrade: h2c, HTTP2-Settings), as real curl sends it" {
  local want
  want=$(curl -s --http2 "$API/echo" | jq -r '.headers.upgrade, .headers.connection, (.headers["http2-settings"] != null)')
  [ "$want" = "$(printf 'h2c\nUpgrade, HTTP2-Settings\ntrue')" ] || { echo "curl: $want"; return 1; }
  for mode in '' 1; do
    MODE=$mode run --separate-stderr rsh '[ -n "$MODE" ] && export REST_NO_DAEMON=1; rest "$API" >/dev/null; GET /echo --http2 | jq -r ".headers.upgrade, .headers.connection, (.headers[\"http2-settings\"] != null)"'
    [ "$output" = "$want" ] || { echo "mode '$mode': $output / $stderr"; return 1; }
  done
}

# shellcheck disable=SC2016
@test "-G --data-urlencode: the query's percent escapes in curl's case (curl 7.88 writes -G data lower-case, a body upper-case), compared with real curl" {
  local want_q want_b
  want_q=$(curl -s -G -d 'x=%C3%A9' --data-urlencode 'b=é /?&' "$API/echo?pre=%C3%A9" | jq -r .rawPath)
  want_b=$(curl -s --data-urlencode 'b=é /?&' "$API/echo" | jq -r .body)
  for mode in '' 1; do
    MODE=$mode run --separate-stderr rsh '[ -n "$MODE" ] && export REST_NO_DAEMON=1; rest "$API" >/dev/null; GET "/echo?pre=%C3%A9" -Q -G -d "x=%C3%A9" --data-urlencode "b=é /?&" | jq -r .rawPath; POST /echo --data-urlencode "b=é /?&" | jq -r .body'
    [ "$output" = "$(printf '%s\n%s' "$want_q" "$want_b")" ] || { echo "mode '$mode': $output / curl: $want_q $want_b / $stderr"; return 1; }
  done
}
