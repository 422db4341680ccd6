#!/usr/bin/env bats
# Live streams through the shell verbs (issue 40, items 4 and 6): GET on a Server-Sent Events
# stream writes each event as it arrives, as `curl -N` does, to a file, a pipe and a terminal,
# through the daemon and the direct path, in bash and zsh; a stream cut short says how many
# events came. The server (test/fixtures/streams.mjs, 127.0.0.1) writes event 2 only when
# GET /release asks, and answers how many streams were waiting: "released 1" proves event 1
# was out while the server still held event 2 back.

load test_helper

setup_file() {
  api_start
  STREAMS="http://127.0.0.1:$(fixture_start streams streams.mjs)"
  export STREAMS
}

teardown_file() {
  fixture_stop streams
  api_stop
}

# until_in FILE TEXT: wait (at most 15 s) until FILE holds TEXT.
until_in() {
  local _
  for _ in $(seq 1 150); do
    grep -qF "$2" "$1" 2>/dev/null && return 0
    sleep 0.1
  done
  return 1
}

# daemon_mode MODE: '' through the daemon (started), 1 the direct engine process.
daemon_mode() {
  if [ -n "$1" ]; then
    export REST_NO_DAEMON=1
  else
    unset REST_NO_DAEMON
    start_daemon
  fi
}

@test "GET writes SSE event 1 to a file and a pipe before the server sends event 2, daemon and direct" {
  for mode in '' 1; do
    daemon_mode "$mode"
    for how in file pipe; do
      out=$BATS_TEST_TMPDIR/out-$how-$mode
      : >"$out"
      if [ "$how" = file ]; then
        OUT=$out rsh 'rest "$STREAMS" >/dev/null; GET /sse/gated -q n=2 >"$OUT"' &
      else
        OUT=$out rsh 'rest "$STREAMS" >/dev/null; GET /sse/gated -q n=2 | cat >"$OUT"' &
      fi
      pid=$!
      until_in "$out" 'data: {"n":1}'
      ! grep -qF '"n":2' "$out"
      [ "$(curl -s "$STREAMS/release")" = "released 1" ]
      wait "$pid"
      until_in "$out" 'data: {"n":2}'
    done
  done
}

@test "GET shows SSE event 1 on a terminal before the server sends event 2, daemon and direct" {
  for mode in '' 1; do
    daemon_mode "$mode"
    run python3 "$BATS_TEST_DIRNAME/pty-drive.py" "$REST_TEST_SHELL" \
      "${mode:+export REST_NO_DAEMON=1; }source \"$REST_ROOT/shell/rest\"; rest $STREAMS >/dev/null" \
      'GET /sse/gated -q n=2\r' 'data: \{"n":1\}'
    [ "$status" -eq 0 ]
    [[ "$output" != *'"n":2'* ]]
    # The shell is gone; the server had event 2 still held back for it.
    [ "$(curl -s "$STREAMS/release")" = "released 1" ]
  done
}

@test "a stalled stream ended by -m keeps its events and says how many came, exit 28" {
  for mode in '' 1; do
    daemon_mode "$mode"
    run --separate-stderr rsh 'rest "$STREAMS" >/dev/null; GET /sse/stall -m 1'
    [ "$status" -eq 28 ]
    [ "$output" = 'data: {"n":1}' ]
    [[ "$stderr" == *"no complete response within 1000 ms; the stream had sent 1 event"* ]]
  done
}

@test "a stream closed in the middle of an event keeps what came and says how many events, exit 18" {
  for mode in '' 1; do
    daemon_mode "$mode"
    run --separate-stderr rsh 'rest "$STREAMS" >/dev/null; GET /sse/cut'
    [ "$status" -eq 18 ]
    [[ "$output" == *'data: {"n":2,"par'* ]]
    [[ "$stderr" == *"the stream had sent 1 event"* ]]
  done
}
