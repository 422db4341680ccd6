#!/usr/bin/env bats
# The HTTP version the server answered with (docs/shell.md, -v and -i): Python's
# `python3 -m http.server` (test/fixtures/python-http-server.mjs) answers HTTP/1.0, and the
# verbs say so as curl does, direct and through the daemon.

load test_helper

setup_file() {
  api_start
  node "$REST_ROOT/test/fixtures/python-http-server.mjs" --port-file "$BATS_FILE_TMPDIR/py-port" >/dev/null 2>&1 3>&- &
  echo $! >"$BATS_FILE_TMPDIR/py.pid"
  local _
  for _ in $(seq 1 150); do
    [ -s "$BATS_FILE_TMPDIR/py-port" ] && break
    sleep 0.1
  done
  PY=http://127.0.0.1:$(cat "$BATS_FILE_TMPDIR/py-port")
  export PY
}

teardown_file() {
  kill "$(cat "$BATS_FILE_TMPDIR/py.pid")" 2>/dev/null || true
  api_stop
}

# shellcheck disable=SC2016 # the code runs in the shell under test, which expands it
@test "-v and -i show http.server's HTTP/1.0 status line, as curl does, direct and through the daemon" {
  run curl -sv "$PY/hello.txt"
  [[ "$output" == *"< HTTP/1.0 200 OK"* ]]
  run rsh 'REST_NO_DAEMON=1; rest "$PY" >/dev/null; GET /hello.txt -v 2>&1'
  [ "$status" -eq 0 ]
  [[ "$output" == *"< HTTP/1.0 200 OK"* ]]
  [[ "$output" != *"< HTTP/1.1"* ]]
  [[ "$output" == *"hello from http.server"* ]]
  start_daemon
  run rsh 'rest "$PY" >/dev/null; GET /hello.txt -i'
  [ "$status" -eq 0 ]
  [[ "$output" == "HTTP/1.0 200 OK"* ]]
  run rsh 'rest "$PY" >/dev/null; GET /hello.txt -v 2>&1'
  [ "$status" -eq 0 ]
  [[ "$output" == *"< HTTP/1.0 200 OK"* ]]
  # The example API (node:http) still answers HTTP/1.1.
  run rsh 'rest "$API" >/dev/null; GET /small -i'
  [[ "$output" == "HTTP/1.1 200 OK"* ]]
}
