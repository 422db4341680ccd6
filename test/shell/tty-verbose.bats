#!/usr/bin/env bats
# On a terminal (a real pseudo-terminal, test/shell/pty-drive.py), through the engine daemon
# and in the direct mode: -v header lines start on a fresh line, and a body without a final
# newline is followed by one on the stream it went to (stdout for 2xx, stderr otherwise), so
# the prompt starts on its own line too (issue 10).

load test_helper

# tty KEYS EXPECT [DAEMON]: type KEYS in an interactive shell that sourced shell/rest.
tty() {
  local mode='export REST_NO_DAEMON=1'
  if [ "${3-}" = daemon ]; then
    start_daemon
    [ -S "$REST_RUNTIME_DIR/engine.sock" ]
    mode=:
  fi
  run /usr/bin/python3 "$BATS_TEST_DIRNAME/pty-drive.py" "$REST_TEST_SHELL" "$mode
source \"\$REST_ROOT/shell/rest\"
rest \"\$API\" >/dev/null" "$1" "$2" 20
}

# The 404 body has no final newline either.
missing_expect='-v\n> GET /nonexistent HTTP/1\.1\n(> [^\n]*\n)*>\n< HTTP/1\.1 404 Not Found\n(< [^\n]*\n)*<\n\{[^\n]*"/nonexistent"\}\n[# ]*\$ '

@test "-v through the daemon, 2xx: the headers come first, as in the direct mode and curl, the body ends its line" {
  # The daemon writes -v to the terminal itself (src/shell-verbs/caller-stderr.ts), before the body.
  tty 'GET /small -v\r' '-v\n> GET /small HTTP/1\.1\n(> [^\n]*\n)*>\n< HTTP/1\.1 200 OK\n(< [^\n]*\n)*<\n\{[^\n]*"ok":true\}\n[# ]*\$ ' daemon
  [ "$status" -eq 0 ]
}

@test "-v through the daemon, 404: no blank line before the headers, the body ends its line" {
  tty 'GET /nonexistent -v\r' "$missing_expect" daemon
  [ "$status" -eq 0 ]
}

@test "-v in the direct mode, 404: the same lines" {
  tty 'GET /nonexistent -v\r' "$missing_expect"
  [ "$status" -eq 0 ]
}

@test "-v in the direct mode, 2xx: the headers come first, the body ends its line" {
  tty 'GET /small -v\r' '-v\n> GET /small HTTP/1\.1\n(> [^\n]*\n)*>\n< HTTP/1\.1 200 OK\n(< [^\n]*\n)*<\n\{[^\n]*"ok":true\}\n[# ]*\$ '
  [ "$status" -eq 0 ]
}

@test "a non-2xx answer with an empty body prints its status line on a terminal, through the daemon and directly" {
  tty 'GET /stream/bytes -q n=0 -q status=404\r' 'status=404\r?\nHTTP/1\.1 404 Not Found\n[# ]*\$ ' daemon
  [ "$status" -eq 0 ]
  tty 'GET /stream/bytes -q n=0 -q status=404\r' 'status=404\r?\nHTTP/1\.1 404 Not Found\n[# ]*\$ '
  [ "$status" -eq 0 ]
}

@test "Ctrl-C during a call leaves \$? at 130, as curl and bash do, and ends the upstream request at once, without curl, through curl and directly" {
  start_daemon
  local mode
  # The shell still runs when the server is asked: a connection to the daemon left open by the
  # shell (without curl, shell/rest-wire) would keep the upstream request hanging.
  for mode in : 'export REST_NO_WIRE=1' 'export REST_NO_DAEMON=1'; do
    run /usr/bin/python3 "$BATS_TEST_DIRNAME/pty-interrupt.py" "$REST_TEST_SHELL" "$mode
source \"\$REST_ROOT/shell/rest\"
rest \"\$API\" >/dev/null" 'GET /stream/hang' 'i=0; while h=$(curl -s "$API/stream/hanging"); [ "$h" != "{\"hanging\":0}" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done; echo "$h"'
    [ "$status" -eq 0 ] || { echo "$mode: $output"; return 1; }
    [ "$output" = '130 {"hanging":0}' ] || { echo "$mode: \$? and the server's count were $output"; return 1; }
  done
}
