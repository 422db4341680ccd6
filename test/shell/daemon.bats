#!/usr/bin/env bats
# The engine daemon: socket permissions, direct mode, fallback, idle stop.

load test_helper

@test "the first call starts a daemon whose socket is private" {
  run rsh 'rest "$API" >/dev/null; GET /small >/dev/null'
  [ "$status" -eq 0 ]
  wait_for "$REST_RUNTIME_DIR/engine.sock"
  [ -S "$REST_RUNTIME_DIR/engine.sock" ]
  [ "$(stat -c %a "$REST_RUNTIME_DIR")" = 700 ]
  [ "$(stat -c %a "$REST_RUNTIME_DIR/engine.sock")" = 600 ]
  run curl -s --unix-socket "$REST_RUNTIME_DIR/engine.sock" http://rest/ping
  [ "$output" = pong ]
}

@test "later calls go through the daemon" {
  start_daemon
  # A node that cannot run: only the daemon can answer.
  run rsh 'REST_NODE=/bin/false; GET /small'
  [ "$status" -eq 0 ]
  [ "$(field .name)" = small ]
}

@test "REST_NO_DAEMON runs the engine directly and starts no daemon" {
  export REST_RUNTIME_DIR=$BATS_TEST_TMPDIR/rt REST_NO_DAEMON=1
  run rsh 'rest "$API" >/dev/null; GET /small; echo; GET /users/999'
  [ "$status" -eq 4 ]
  [ "$(printf '%s' "${lines[0]}" | jq -r .name)" = small ]
  sleep 0.5
  [ ! -e "$REST_RUNTIME_DIR/engine.sock" ]
}

@test "a stale socket falls back to the direct mode, piped body included" {
  local rt
  rt=$(mktemp -d /tmp/rest-rt.XXXXXX)
  export REST_RUNTIME_DIR=$rt
  # A socket file nobody listens on.
  node -e 'const s=require("net").createServer().listen(process.argv[1],()=>{process.exit(0)})' "$rt/engine.sock"
  [ -S "$rt/engine.sock" ]
  # A piped body, kept for the direct mode after the daemon did not answer.
  run rsh 'rest "$API" >/dev/null; printf "piped body" | POST /echo'
  [ "$status" -eq 0 ]
  [ "$(field .body)" = "piped body" ]
  REST_RUNTIME_DIR=$rt rsh 'rest --stop'
  for _ in $(seq 1 30); do [ -e "$rt/engine.pid" ] || break; sleep 0.1; done
  rm -rf "$rt"
}

@test "the daemon stops when idle and removes its socket" {
  local rt
  rt=$(mktemp -d /tmp/rest-rt.XXXXXX)
  export REST_RUNTIME_DIR=$rt REST_DAEMON_IDLE=2
  run rsh 'rest "$API" >/dev/null; GET /small >/dev/null'
  wait_for "$rt/engine.sock"
  for _ in $(seq 1 100); do [ -e "$rt/engine.sock" ] || break; sleep 0.1; done
  [ ! -e "$rt/engine.sock" ]
  sleep 0.3
  if pgrep -f -- "daemon --dir $rt " >/dev/null; then echo "a daemon still runs for $rt"; return 1; fi
  rm -rf "$rt"
}

@test "rest --stop stops the daemon" {
  local rt
  rt=$(mktemp -d /tmp/rest-rt.XXXXXX)
  export REST_RUNTIME_DIR=$rt
  start_daemon
  wait_for "$rt/engine.pid"
  pid=$(cat "$rt/engine.pid")
  run rsh 'rest --stop'
  [ "$status" -eq 0 ]
  for _ in $(seq 1 30); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$pid" 2>/dev/null; then echo "the daemon ($pid) still runs"; return 1; fi
  rm -rf "$rt"
}

@test "the daemon refuses a runtime directory other users can open" {
  local rt
  rt=$(mktemp -d /tmp/rest-rt.XXXXXX)
  chmod 755 "$rt"
  run node "$REST_ROOT/engine/dist/rest-cli.cjs" daemon --dir "$rt" --idle 1
  [ "$status" -eq 8 ]
  [[ "$output" == *0700* ]]
  [ ! -e "$rt/engine.sock" ]
  rm -rf "$rt"
}

@test "the verbs still work when the runtime directory is unsafe" {
  local rt
  rt=$(mktemp -d /tmp/rest-rt.XXXXXX)
  chmod 777 "$rt"
  export REST_RUNTIME_DIR=$rt
  run rsh 'rest "$API" >/dev/null; GET /small'
  [ "$status" -eq 0 ]
  [ "$(field .name)" = small ]
  sleep 0.5
  [ ! -e "$rt/engine.sock" ]
  rm -rf "$rt"
}

@test "concurrent calls from one shell keep their outputs and statuses apart" {
  start_daemon
  run rsh 'REST_NODE=/bin/false
    for i in 1 2 3 4 5 6; do { GET "/echo/$i" -q "status=40$i" 2>"$HOME/err.$i"; echo $? >"$HOME/rc.$i"; } & done; wait
    for i in 1 2 3 4 5 6; do printf "%s %s " "$(jq -r .path "$HOME/err.$i")" "$(cat "$HOME/rc.$i")"; done'
  [ "$output" = "/echo/1 4 /echo/2 4 /echo/3 4 /echo/4 4 /echo/5 4 /echo/6 4 " ]
}

@test "the daemon stops when its runtime directory is removed" {
  local rt
  rt=$(mktemp -d /tmp/rest-rt.XXXXXX)
  export REST_RUNTIME_DIR=$rt
  start_daemon
  wait_for "$rt/engine.pid"
  pid=$(cat "$rt/engine.pid")
  rm -rf "$rt"
  for _ in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$pid" 2>/dev/null; then echo "the daemon ($pid) still runs"; return 1; fi
  [ ! -e "$rt" ]
}

# shellcheck disable=SC2016
@test "a rebuilt engine (npm i -g, make build): the idle daemon stops by itself, so the next call, in any shell, runs the new one" {
  local rt bundle
  rt=$(mktemp -d /tmp/rest-rt.XXXXXX)
  bundle=$BATS_TEST_TMPDIR/rest-cli.cjs
  cp "$REST_ROOT/engine/dist/rest-cli.cjs" "$bundle"
  export REST_RUNTIME_DIR=$rt REST_ENGINE=$bundle
  start_daemon
  wait_for "$rt/engine.pid"
  pid=$(cat "$rt/engine.pid")
  touch -d '+1 minute' "$bundle"
  for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$pid" 2>/dev/null; then echo "the old daemon ($pid) still serves"; return 1; fi
  rm -rf "$rt"
}

# stop_during_call WAIT MS: in the shell under test, GET /stream/lines?ms=MS (a line, then the
# second MS later) with `rest --stop` (REST_STOP_WAIT=WAIT, or $STOP_ARGS) run once the first
# line arrived; prints the body, rc=STATUS of the call, and the daemon's pid before.
# shellcheck disable=SC2016 # the code runs in the shell under test, which expands it
stop_during_call() {
  WAIT=$1 MS=$2 rsh 'rest "$API" >/dev/null; GET /small >/dev/null; [ -S "$REST_RUNTIME_DIR/engine.sock" ] || exit 99
    printf "pid=%s\n" "$(cat "$REST_RUNTIME_DIR/engine.pid")"
    GET "/stream/lines?ms=$MS" -Q | { IFS= read -r first; REST_STOP_WAIT=$WAIT rest --stop ${STOP_ARGS-} 2>"$HOME/stop.err"; echo "stop=$?"; printf "%s\n" "$first"; command cat; }
    echo "rc=${PIPESTATUS[0]-}${pipestatus[1]-}"'
}

# wait_gone PID: until the process is gone, at most 15 s.
wait_gone() {
  local _
  for _ in $(seq 1 150); do kill -0 "$1" 2>/dev/null || return 0; sleep 0.1; done
  return 1
}

@test "rest --stop while another terminal's call is in flight: the call ends whole (0), rest --stop says it runs and offers --force, and the daemon stops after it" {
  export REST_RUNTIME_DIR
  REST_RUNTIME_DIR=$(mktemp -d /tmp/rest-rt.XXXXXX)
  start_daemon
  run --separate-stderr stop_during_call 30 1500
  local pid=${output%%$'\n'*}
  pid=${pid#pid=}
  [ "${output#*$'\n'}" = "$(printf 'stop=0\nfirst line\nsecond line\nrc=0')" ] || { echo "$output / $stderr"; return 1; }
  grep -q '1 call in flight' "$HOME/stop.err" || { cat "$HOME/stop.err"; return 1; }
  grep -q -- '--force' "$HOME/stop.err"
  wait_gone "$pid" || { echo "the daemon ($pid) still runs"; return 1; }
  [ ! -e "$REST_RUNTIME_DIR/engine.sock" ]
  rm -rf "$REST_RUNTIME_DIR"
}

@test "rest --stop waits at most REST_STOP_WAIT seconds: a call still running then is cut (8) and says the daemon stopped" {
  export REST_RUNTIME_DIR
  REST_RUNTIME_DIR=$(mktemp -d /tmp/rest-rt.XXXXXX)
  start_daemon
  local t0=$SECONDS
  run --separate-stderr stop_during_call 1 20000
  [ $((SECONDS - t0)) -lt 15 ] || { echo "took $((SECONDS - t0)) s"; return 1; }
  [[ $output == *$'stop=0\nfirst line\nrc=8' ]] || { echo "$output / $stderr"; return 1; }
  [[ $stderr == *"stopped during the call"* ]]
  grep -q 'at most 1 s' "$HOME/stop.err" || { cat "$HOME/stop.err"; return 1; }
  rm -rf "$REST_RUNTIME_DIR"
}

@test "rest --stop --force cuts the calls in flight at once and says how many; a bad REST_STOP_WAIT is named (2)" {
  export REST_RUNTIME_DIR
  REST_RUNTIME_DIR=$(mktemp -d /tmp/rest-rt.XXXXXX)
  start_daemon
  STOP_ARGS=--force run --separate-stderr stop_during_call 30 20000
  [[ $output == *$'stop=0\nfirst line\nrc=8' ]] || { echo "$output / $stderr"; return 1; }
  grep -q '1 call in flight was cut' "$HOME/stop.err" || { cat "$HOME/stop.err"; return 1; }
  run --separate-stderr rsh 'REST_STOP_WAIT=soon rest --stop'
  [ "$status" -eq 2 ]
  [[ $stderr == *"REST_STOP_WAIT=soon"* ]]
  rm -rf "$REST_RUNTIME_DIR"
}
