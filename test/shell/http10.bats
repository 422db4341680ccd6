#!/usr/bin/env bats
# The HTTP version the server answered with (docs/shell.md, -v and -i): Python's
# `python3 -m http.server` (test/fixtures/python-http-server.mjs) answers HTTP/1.0, and the
# verbs say so as curl does, direct and through the daemon.

load test_helper

setup_file() {
  api_start
  PY=http://127.0.0.1:$(fixture_start py python-http-server.mjs) || return 1
  export PY
}

teardown_file() {
  fixture_stop py
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

# shellcheck disable=SC2016
@test "a rendered directory listing lists its links as URLs of the server (resty rewrites lynx's file:// references to the host), not lynx's temporary files" {
  run rsh 'rest "$PY" >/dev/null; GET /'
  [ "$status" -eq 0 ]
  [[ $output == *"$PY/hello.txt"* ]] || { echo "$output"; return 1; }
  [[ $output != *"file://"* ]]
}
