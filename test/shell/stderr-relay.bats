#!/usr/bin/env bats
# Where stderr goes through the daemon (issue 30, item 3): an error body reaches the file the
# shell's redirection names, through the shell's own descriptor (its offset moves, in order
# with what the shell writes), in bounded memory, and never lands in the runtime directory.
# The daemon writes a terminal, a pipe or an appended file itself (src/shell-verbs/caller-stderr.ts);
# `2>file` and the rest are relayed by the shell's own curl in segments (src/shell-verbs/relay.ts).

load test_helper

# watch_start / watch_stop: sample the runtime directory's size (du, KiB) while a call runs;
# watched: the largest sample.
watch_start() {
  rm -f "$BATS_TEST_TMPDIR/done"
  (
    m=0
    while [ ! -e "$BATS_TEST_TMPDIR/done" ]; do
      s=$(du -sk "$REST_RUNTIME_DIR" | cut -f1)
      [ "$s" -gt "$m" ] && m=$s
      echo "$m" >"$BATS_TEST_TMPDIR/max"
      sleep 0.05
    done
  ) &
  WATCHER=$!
}
watch_stop() {
  touch "$BATS_TEST_TMPDIR/done"
  wait "$WATCHER"
}
watched() {
  cat "$BATS_TEST_TMPDIR/max"
}

# The pattern bytes of /stream/bytes?n=N as curl gets them.
pattern() {
  curl -s "$API/stream/bytes?n=$1"
}

# shellcheck disable=SC2016 # the code runs in the shell under test, which expands it
@test "a 300 MB error body into 2>file: exact, in order with the shell's own writes; the runtime directory and the daemon stay small" {
  # A fresh daemon, so its peak resident set (VmHWM) is this call's.
  rsh 'rest --stop' || true
  for _ in $(seq 1 50); do
    [ -e "$REST_RUNTIME_DIR/engine.sock" ] || break
    sleep 0.1
  done
  start_daemon
  wait_for "$REST_RUNTIME_DIR/engine.pid"
  local pid err=$BATS_TEST_TMPDIR/err.txt n=$((300 * 1024 * 1024))
  pid=$(cat "$REST_RUNTIME_DIR/engine.pid")
  watch_start
  ERR=$err run rsh 'rest "$API" >/dev/null; { echo before >&2; GET /stream/bytes -q mb=300 -q status=500; echo "rc=$?" >&2; echo after >&2; } 2>"$ERR"'
  watch_stop
  [ "$status" -eq 0 ]
  # before, the body byte for byte (the server's pattern, as curl reads it), then the shell's lines.
  [ "$(stat -c %s "$err")" -eq $((7 + n + 11)) ]
  [ "$(head -c 7 "$err")" = before ]
  [ "$(tail -c 11 "$err")" = "$(printf 'rc=5\nafter')" ]
  tail -c +8 "$err" | head -c "$n" | cmp - <(curl -s "$API/stream/bytes?mb=300&status=500")
  # The socket and the pid file, a few KiB: never the body.
  [ "$(watched)" -lt 64 ] || { echo "runtime dir peaked at $(watched) KiB"; return 1; }
  # Bounded memory: the daemon never held the body (300 MiB); Node and the engine are ~70 MB.
  local hwm
  hwm=$(awk '/^VmHWM/ {print $2}' "/proc/$pid/status")
  echo "daemon VmHWM ${hwm} kB, runtime dir peak $(watched) KiB" >&3
  [ "$hwm" -lt $((200 * 1024)) ]
}

# shellcheck disable=SC2016 # the code runs in the shell under test, which expands it
@test "an endless error body into 2>file, cut by -m 2: curl's 28, the message after the bytes, nothing in the runtime directory" {
  start_daemon
  local err=$BATS_TEST_TMPDIR/err.txt size
  watch_start
  ERR=$err run rsh 'rest "$API" >/dev/null; GET /stream/bytes -q mb=1000000 -q status=500 -m 2 2>"$ERR"'
  watch_stop
  [ "$status" -eq 28 ]
  size=$(stat -c %s "$err")
  [ "$size" -gt 100000 ]
  # The pattern from byte 0, then the message on a line of its own at the end.
  head -c 65536 "$err" | cmp - <(pattern 65536)
  [[ "$(tail -n 1 "$err")" == "rest: "*"/stream/bytes"*"2000 ms"* ]]
  [ "$(watched)" -lt 64 ] || { echo "runtime dir peaked at $(watched) KiB"; return 1; }
  run ls -A "$REST_RUNTIME_DIR"
  [ "$output" = "$(printf 'engine.pid\nengine.sock\nengine.tcp')" ]
}

# shellcheck disable=SC2016 # the code runs in the shell under test, which expands it
@test "2>file keeps the shell's offset call after call, through the daemon and directly, as curl's >&2 would" {
  start_daemon
  local want
  want=$({ pattern 3; echo x; pattern 5; } | od -An -c)
  for mode in '' 1; do
    rm -f "$BATS_TEST_TMPDIR/log"
    MODE=$mode LOG=$BATS_TEST_TMPDIR/log run rsh '[ -n "$MODE" ] && export REST_NO_DAEMON=1; rest "$API" >/dev/null; { GET /stream/bytes -q n=3 -q status=404; echo x >&2; GET /stream/bytes -q n=5 -q status=404; } 2>"$LOG"'
    [ "$status" -eq 4 ] || { echo "mode '$mode': status $status"; return 1; }
    [ "$(od -An -c <"$BATS_TEST_TMPDIR/log")" = "$want" ] || { echo "mode '$mode':"; od -c "$BATS_TEST_TMPDIR/log"; return 1; }
  done
  run ls -A "$REST_RUNTIME_DIR"
  [ "$output" = "$(printf 'engine.pid\nengine.sock\nengine.tcp')" ]
}

# shellcheck disable=SC2016 # the code runs in the shell under test, which expands it
@test ">file 2>&1: -v lines, the body and a later message land in the order they happen" {
  start_daemon
  local out=$BATS_TEST_TMPDIR/out
  OUT=$out run rsh 'rest "$API" >/dev/null; GET /small -v >"$OUT" 2>&1; GET /stream/bytes -q n=4 -q status=500 -i >>"$OUT" 2>&1; GET "/nothing?x" >>"$OUT" 2>&1'
  [ "$status" -eq 4 ]
  # at PATTERN: the byte offset of PATTERN's first match in the file.
  at() { grep -abo -e "$1" "$out" | head -n 1 | cut -d: -f1; }
  [ "$(head -n 1 "$out")" = "> GET /small HTTP/1.1" ]
  local end_v body s500 hint
  # The -v lines end with a lone `<`; the body follows at once, then the 500 (-i), the hint last.
  end_v=$(at '^<$')
  body=$(at '{"id":1,"name":"small","ok":true}')
  s500=$(at 'HTTP/1.1 500')
  hint=$(at 'rest: hint: the ? in /nothing?x')
  [ -n "$end_v" ] && [ -n "$body" ] && [ -n "$s500" ] && [ -n "$hint" ] || { cat -A "$out"; return 1; }
  [ "$body" -eq $((end_v + 2)) ] && [ "$s500" -gt "$body" ] && [ "$hint" -gt "$s500" ]
}

# shellcheck disable=SC2016 # the code runs in the shell under test, which expands it
@test "an upload from stdin with -v and 2>file: the body goes whole, the -v lines reach the file, an echoing server does not wait" {
  start_daemon
  head -c 3000000 /dev/urandom >"$BATS_TEST_TMPDIR/body"
  local want
  want=$(sha256sum <"$BATS_TEST_TMPDIR/body" | cut -d' ' -f1)
  ERR=$BATS_TEST_TMPDIR/err run --separate-stderr rsh_in 'rest "$API" >/dev/null; PUT /stream/upload -v 2>"$ERR"' <"$BATS_TEST_TMPDIR/body"
  [ "$status" -eq 0 ]
  [ "$(field .sha256)" = "$want" ]
  grep -q '^> PUT /stream/upload HTTP/1.1' "$BATS_TEST_TMPDIR/err"
  grep -q '^< HTTP/1.1 200' "$BATS_TEST_TMPDIR/err"
  # A server that answers as it reads (echo): the -v lines come while the upload goes on, and
  # the answer (8 MB, past what the daemon holds back for order) must flow, or both would wait.
  head -c 8000000 /dev/urandom >"$BATS_TEST_TMPDIR/body"
  ERR=$BATS_TEST_TMPDIR/err OUT=$BATS_TEST_TMPDIR/out BODY=$BATS_TEST_TMPDIR/body run rsh 'rest "$API" >/dev/null; cat "$BODY" | POST /stream/echo -v -m 60 >"$OUT" 2>"$ERR"'
  [ "$status" -eq 0 ]
  cmp "$BATS_TEST_TMPDIR/body" "$BATS_TEST_TMPDIR/out"
  grep -q '^> POST /stream/echo HTTP/1.1' "$BATS_TEST_TMPDIR/err"
}

# shellcheck disable=SC2016 # the code runs in the shell under test, which expands it
@test "a closed stderr (2>&-): the body still reaches stdout and the status is the response's, as with curl" {
  start_daemon
  run bash -c 'curl -s -v "$API/small" 2>&-; echo " $?"'
  [ "$output" = '{"id":1,"name":"small","ok":true} 0' ]
  for mode in '' 1; do
    MODE=$mode run rsh '[ -n "$MODE" ] && export REST_NO_DAEMON=1; rest "$API" >/dev/null; GET /small -v 2>&-; echo " $?"; GET /users/999 2>&-; echo "$?"'
    [ "${lines[0]}" = '{"id":1,"name":"small","ok":true} 0' ] || { echo "mode '$mode': $output"; return 1; }
    [ "${lines[1]}" = 4 ]
  done
}
