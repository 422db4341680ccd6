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
