#!/usr/bin/env bats
# The WS verb (issue 40): a WebSocket session on the base URL with ws://, stdin lines sent as
# messages, each received message on its own stdout line (websocat's convention), curl-like
# exit statuses; against test/fixtures/ws-server.mjs on 127.0.0.1, in bash and zsh.

load test_helper

setup_file() {
  api_start
  WS_PORT=$(fixture_start ws ws-server.mjs)
  export WS_PORT
}
teardown_file() {
  fixture_stop ws
  api_stop
}

# shellcheck disable=SC2016 # the code runs in the shell under test, which expands it
@test "WS sends each stdin line as a message and prints each received message on its own line" {
  run --separate-stderr rsh 'rest "127.0.0.1:$WS_PORT" >/dev/null; printf "first\n{\"a\": 1}\nthird\n" | WS /echo'
  [ "$status" -eq 0 ] || { echo "status $status: $stderr"; return 1; }
  [ "$output" = $'first\n{"a": 1}\nthird' ]
  [ -z "$stderr" ]
}

# shellcheck disable=SC2016
@test "WS --binary sends standard input as binary messages; a binary message comes back as its bytes" {
  run --separate-stderr rsh 'set -o pipefail; rest "127.0.0.1:$WS_PORT" >/dev/null; printf "\\000\\001\\002\\377" | WS /echo --binary | od -An -tx1'
  [ "$status" -eq 0 ] || { echo "status $status: $stderr"; return 1; }
  [ "$(echo $output)" = "00 01 02 ff 0a" ] || { echo "output: $output"; return 1; }
  [ -z "$stderr" ]
}

# shellcheck disable=SC2016
@test "WS prints what the server pushes, in order, and exits 0 once both sides are done" {
  run --separate-stderr rsh 'rest "127.0.0.1:$WS_PORT" >/dev/null; printf "push 3 50\n" | WS /push'
  [ "$status" -eq 0 ] || { echo "status $status: $stderr"; return 1; }
  [ "$output" = $'hello\npush 1\npush 2\npush 3' ]
}

# shellcheck disable=SC2016
@test "WS ends when the server closes, even while stdin stays open, and names a close code other than 1000" {
  # stdin a FIFO whose writer keeps it open for 20 s; WS's own time is measured in the shell.
  mkfifo "$BATS_TEST_TMPDIR/in"
  run --separate-stderr rsh 'rest "127.0.0.1:$WS_PORT" >/dev/null; { echo subscribe; exec sleep 20; } >"$BATS_TEST_TMPDIR/in" 2>/dev/null & w=$!; t0=$SECONDS; WS /close4001 <"$BATS_TEST_TMPDIR/in"; rc=$?; echo "took $((SECONDS - t0))" >&2; kill $w; exit $rc'
  [ "$status" -eq 56 ] || { echo "status $status: $stderr"; return 1; }
  [[ $stderr == *"ws://127.0.0.1:$WS_PORT/close4001: the server closed the connection with 4001 (topic not allowed)"* ]]
  local took=${stderr##*took }
  [ "$took" -lt 15 ] || { echo "WS took $took s"; return 1; }
}

# shellcheck disable=SC2016
@test "WS shows a refused handshake as the other verbs show an error status: body on stderr, the status digit" {
  run --separate-stderr rsh 'rest "127.0.0.1:$WS_PORT" >/dev/null; WS /refuse </dev/null'
  [ "$status" -eq 4 ]
  [ -z "$output" ]
  [[ $stderr == *"no token"* ]]
  [[ $stderr == *"the server refused the WebSocket handshake: 401 Unauthorized"* ]]
}

# shellcheck disable=SC2016
@test "WS keeps the cookie jar: a Set-Cookie of the handshake goes with the next handshake" {
  run --separate-stderr rsh 'rest "127.0.0.1:$WS_PORT" >/dev/null; WS /cookie </dev/null; WS /cookie </dev/null'
  [ "$status" -eq 0 ]
  [ "$output" = $'none\nws=1' ]
}

# shellcheck disable=SC2016
@test "WS to a port nobody listens on exits 7 as curl, naming the ws:// URL" {
  run --separate-stderr rsh 'rest "127.0.0.1:1" >/dev/null; WS /x </dev/null'
  [ "$status" -eq 7 ]
  [[ $stderr == *"ws://127.0.0.1:1/x: connection refused"* ]]
}

# shellcheck disable=SC2016
@test "WS with no base URL is a usage error" {
  run --separate-stderr rsh 'WS /x </dev/null'
  [ "$status" -eq 2 ]
  [[ $stderr == *"no base URL"* ]]
}
