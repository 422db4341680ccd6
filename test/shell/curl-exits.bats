#!/usr/bin/env bats
# Exit statuses a curl user expects (issue 21, item 3), compared with the real curl's in the
# same run, through the daemon and directly: a reader that leaves after the body it wanted
# (`GET /x | head -1`), with and without pipefail; a refused connection; https:// to a port
# that speaks plain HTTP.

load test_helper

# The silent port of the connect-timeout test, stopped whatever the test's outcome.
teardown() {
  kill_test_jobs
  [ ! -f "$BATS_FILE_TMPDIR/silent.pid" ] || fixture_stop silent
}

# curl_pipe URL: curl's own status when `head -1` reads its output (PIPESTATUS[0]).
curl_pipe() {
  curl -s "$1" | head -1 >/dev/null
  echo "${PIPESTATUS[0]}"
}

# verb_pipe MODE PATH: the verb's status in the same pipe, then the pipeline's under pipefail.
# MODE 1: REST_NO_DAEMON=1.
# shellcheck disable=SC2016 # the code runs in the shell under test, which expands it
verb_pipe() {
  MODE=$1 P=$2 rsh '[ -n "$MODE" ] && export REST_NO_DAEMON=1; rest "$API" >/dev/null
    GET "$P" -Q | head -1 >/dev/null; echo "${PIPESTATUS[0]-}${pipestatus[1]-}"
    set -o pipefail; GET "$P" -Q | head -1 >/dev/null; echo "$?"'
}

@test "a reader that leaves after the line it wanted: curl's status, with and without pipefail, daemon and direct" {
  start_daemon
  # A body of one curl block (<= 4 KiB) arriving in 20 writes, one of two lines with a pause
  # between: curl writes it once, at the end, and exits 0. 20 MB: curl's write fails, 23.
  local p want got
  for p in /stream/records '/stream/lines?ms=300' '/stream/bytes?mb=20'; do
    want=$(curl_pipe "$API$p")
    case $p in
      /stream/bytes*) [ "$want" -eq 23 ] ;;
      *) [ "$want" -eq 0 ] ;;
    esac
    for mode in '' 1; do
      got=$(verb_pipe "$mode" "$p")
      [ "$got" = "$(printf '%s\n%s' "$want" "$want")" ] || { echo "$p mode '$mode': curl $want, verb and pipefail: $got"; return 1; }
    done
  done
  # The daemon still serves.
  run rsh 'rest "$API" >/dev/null; GET /small'
  [ "$(field .name)" = small ]
}

# verb_pipe_loop MODE PATH: the verb's status in `GET PATH | head -1`, 10 calls, on one line.
# shellcheck disable=SC2016 # the code runs in the shell under test, which expands it
verb_pipe_loop() {
  MODE=$1 P=$2 rsh '[ -n "$MODE" ] && export REST_NO_DAEMON=1; rest "$API" >/dev/null
    for i in 1 2 3 4 5 6 7 8 9 10; do
      GET "$P" -Q | head -1 >/dev/null; printf "%s " "${PIPESTATUS[0]-}${pipestatus[1]-}"
    done'
}

@test "a 3.5 KB body in 20 delayed chunks read by head -1: 0 every time (one curl block); over 64 KiB: 23 every time" {
  start_daemon
  # httpbin's /stream/20 as rest sends it (about 4 KB): 20 records of a fixed size, 5 ms apart.
  # The size must not depend on the request's headers (a cookie jar makes httpbin's echo grow
  # past the block, and then 23 is curl's answer too).
  local small='/stream/records?n=20&ms=5&pad=90' large='/stream/records?n=20&ms=5&pad=3500' size mode got
  size=$(curl -s "$API$small" | wc -c)
  [ "$size" -gt 3000 ] && [ "$size" -le 4096 ] || { echo "small body: $size bytes"; return 1; }
  size=$(curl -s "$API$large" | wc -c)
  [ "$size" -gt 65536 ] || { echo "large body: $size bytes"; return 1; }
  [ "$(curl_pipe "$API$small")" -eq 0 ]
  [ "$(curl_pipe "$API$large")" -eq 23 ]
  for mode in 1 ''; do
    got=$(verb_pipe_loop "$mode" "$small")
    [ "$got" = '0 0 0 0 0 0 0 0 0 0 ' ] || { echo "small, mode '$mode' (1: direct): $got"; return 1; }
    got=$(verb_pipe_loop "$mode" "$large")
    [ "$got" = '23 23 23 23 23 23 23 23 23 23 ' ] || { echo "large, mode '$mode' (1: direct): $got"; return 1; }
  done
}

# shellcheck disable=SC2016 # the code runs in the shell under test, which expands it
@test "a refused connection through the daemon: curl's 7, said once, never retried in a direct engine" {
  start_daemon
  local port log=$BATS_TEST_TMPDIR/node-runs
  # A port nothing listens on: bound, then closed.
  port=$(node -e 's=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
  # A direct run would go through REST_NODE: this one records it.
  printf '#!/bin/sh\necho run >>"%s"\nexec node "$@"\n' "$log" >"$BATS_TEST_TMPDIR/node"
  chmod +x "$BATS_TEST_TMPDIR/node"
  PORT=$port REST_NODE=$BATS_TEST_TMPDIR/node run --separate-stderr rsh 'rest "http://127.0.0.1:$PORT" >/dev/null; GET /x'
  [ "$status" -eq 7 ]
  [ "$(printf '%s\n' "$stderr" | grep -c 'connection refused')" -eq 1 ]
  [ ! -e "$log" ]
  run curl -s "http://127.0.0.1:$port/x"
  [ "$status" -eq 7 ]
}

# shellcheck disable=SC2016 # the code runs in the shell under test, which expands it
@test "https:// to a port that speaks plain HTTP: curl's 35 before any timeout and one sentence that says use http://, daemon and direct" {
  start_daemon
  run curl -s -m 5 "https://127.0.0.1:$API_PORT/small"
  [ "$status" -eq 35 ]
  for mode in '' 1; do
    # -m 5: a client that waited for the handshake would end with 28 instead.
    MODE=$mode run --separate-stderr rsh '[ -n "$MODE" ] && export REST_NO_DAEMON=1; rest "https://127.0.0.1:$API_PORT" >/dev/null; GET /small -m 5'
    [ "$status" -eq 35 ] || { echo "mode '$mode': status $status, stderr: $stderr"; return 1; }
    [[ $stderr == *"https://127.0.0.1:$API_PORT/small: the server at 127.0.0.1:$API_PORT answered in plain HTTP, not TLS; use http://"* ]]
    [[ $stderr != *"wrong version number"* ]]
    [ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ]
  done
}

# shellcheck disable=SC2016 # the code runs in the shell under test, which expands it
@test "https:// to a port that never answers TLS: curl's 28 and 'SSL connection timeout', the connect timeout named and --connect-timeout honoured, daemon and direct" {
  start_daemon
  local port t0 default=$BATS_TEST_TMPDIR/default
  port=$(fixture_start silent silent-port.mjs)
  # Without the option: the default (10 s), waited in full beside the cases below, not after them.
  PORT=$port rsh 'rest "https://127.0.0.1:$PORT" >/dev/null; GET /x' 2>"$default.err" 3>&- &
  local default_job=$!
  run --separate-stderr curl -sS --connect-timeout 1 "https://127.0.0.1:$port/x"
  [ "$status" -eq 28 ]
  [[ $stderr == *"SSL connection timeout"* ]]
  for mode in '' 1; do
    t0=$SECONDS
    MODE=$mode PORT=$port run --separate-stderr rsh '[ -n "$MODE" ] && export REST_NO_DAEMON=1; rest "https://127.0.0.1:$PORT" >/dev/null; GET /x --connect-timeout 1'
    [ "$status" -eq 28 ] || { echo "mode '$mode': status $status, stderr: $stderr"; return 1; }
    # 1 s, not the default 10 s (a direct run adds a Node start).
    [ $((SECONDS - t0)) -lt 8 ] || { echo "mode '$mode': $((SECONDS - t0)) s"; return 1; }
    [[ $stderr == *"https://127.0.0.1:$port/x: SSL connection timeout"* ]] || { echo "$stderr"; return 1; }
    [[ $stderr == *"--connect-timeout"* ]]
    [[ $stderr != *UND_ERR* && $stderr != *"Connect Timeout Error"* ]] || { echo "$stderr"; return 1; }
  done
  # -m shorter than the connect timeout: -m is the limit named.
  PORT=$port run --separate-stderr rsh 'rest "https://127.0.0.1:$PORT" >/dev/null; GET /x -m 1'
  [ "$status" -eq 28 ]
  [[ $stderr == *"-m/--max-time 1 s"* ]] || { echo "$stderr"; return 1; }
  # --dry-run carries it to curl.
  PORT=$port run rsh 'rest "https://127.0.0.1:$PORT" >/dev/null; GET /x --connect-timeout 2.5 --dry-run'
  [[ $output == *"--connect-timeout 2.5"* ]] || { echo "$output"; return 1; }
  # The default, said with its value.
  status=0
  wait "$default_job" || status=$?
  stderr=$(cat "$default.err")
  [ "$status" -eq 28 ] || { echo "default: status $status, stderr: $stderr"; return 1; }
  [[ $stderr == *"10 s"*"--connect-timeout SECONDS"* ]] || { echo "$stderr"; return 1; }
}
