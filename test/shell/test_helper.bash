# shellcheck shell=bash
# Shared by every test/shell/*.bats file. Each test runs the verbs inside $REST_TEST_SHELL
# (bash, or zsh -f), sourcing shell/rest, against the example API on 127.0.0.1, with its own
# HOME, no XDG variables, and the engine daemon in a runtime directory of this test file.

bats_require_minimum_version 1.5.0

REST_TEST_SHELL=${REST_TEST_SHELL:-bash}
REST_ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
export REST_ROOT REST_TEST_SHELL

# Start the example API and make a short runtime dir (Unix socket paths are limited in length).
api_start() {
  local portfile=$BATS_FILE_TMPDIR/port
  node "$REST_ROOT/test/fixtures/server.mjs" --port-file "$portfile" >/dev/null 2>&1 3>&- &
  echo $! >"$BATS_FILE_TMPDIR/server.pid"
  local _
  for _ in $(seq 1 100); do
    [ -s "$portfile" ] && break
    sleep 0.1
  done
  [ -s "$portfile" ] || return 1
  API_PORT=$(cat "$portfile")
  API=http://127.0.0.1:$API_PORT
  REST_RUNTIME_DIR=$(mktemp -d /tmp/rest-rt.XXXXXX)
  export API_PORT API REST_RUNTIME_DIR
  export REST_DAEMON_IDLE=20
}

# Stop the daemon of this file's runtime dir and the API.
api_stop() {
  local pid
  if [ -n "${REST_RUNTIME_DIR-}" ] && [ -f "$REST_RUNTIME_DIR/engine.pid" ]; then
    pid=$(cat "$REST_RUNTIME_DIR/engine.pid")
    kill "$pid" 2>/dev/null || true
    for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  fi
  if [ -f "$BATS_FILE_TMPDIR/server.pid" ]; then
    kill "$(cat "$BATS_FILE_TMPDIR/server.pid")" 2>/dev/null || true
  fi
  [ -n "${REST_RUNTIME_DIR-}" ] && rm -rf "$REST_RUNTIME_DIR"
  return 0
}

# fixture_start NAME SCRIPT [ARG...]: start test/fixtures/SCRIPT with --port-file (and ARGs),
# its pid in $BATS_FILE_TMPDIR/NAME.pid; print the port it listens on once written (at most
# 20 s, gunicorn's start on a loaded machine), or fail. fixture_stop NAME ends it.
fixture_start() {
  local name=$1 script=$2 portfile=$BATS_FILE_TMPDIR/$1-port _
  shift 2
  node "$REST_ROOT/test/fixtures/$script" --port-file "$portfile" "$@" >/dev/null 2>&1 3>&- &
  echo $! >"$BATS_FILE_TMPDIR/$name.pid"
  for _ in $(seq 1 200); do
    [ -s "$portfile" ] && { cat "$portfile"; return 0; }
    sleep 0.1
  done
  return 1
}

fixture_stop() {
  kill "$(cat "$BATS_FILE_TMPDIR/$1.pid")" 2>/dev/null || true
}

setup_file() { api_start; }
teardown_file() { api_stop; }

# A test's own HOME and none of the caller's rest state (every test's setup; a file with a
# setup of its own calls it first).
rest_test_env() {
  export HOME=$BATS_TEST_TMPDIR/home
  mkdir -p "$HOME"
  unset XDG_CONFIG_HOME XDG_DATA_HOME XDG_STATE_HOME XDG_RUNTIME_DIR REST_NO_PRESERVE_PATH REST_NO_DAEMON _rest_host _REST_PATH \
    REST_HISTORY REST_HISTORY_SECRETS
  export EDITOR=false
}

setup() { rest_test_env; }

# kill_tree PID: SIGKILL PID and every process below it (children first found, then killed).
kill_tree() {
  local p
  for p in $(pgrep -P "$1"); do kill_tree "$p"; done
  kill -KILL "$1" 2>/dev/null || true
}

# kill_test_jobs: the test's background jobs still running when it ends (a failed check before
# its `wait`), killed with what they started. A job left running holds bats' output open, and
# bats then waits for it to end: a gated stream never released hangs the whole run.
# bats' own per-test watchdog (BATS_TEST_TIMEOUT, test/run.mjs) is a job of the test's shell
# too, a subshell waiting on `sleep $BATS_TEST_TIMEOUT`: it is left alone (bats ends it; killed,
# it would mark the test timed out).
kill_test_jobs() {
  local p
  for p in $(jobs -p); do
    if [ -n "${BATS_TEST_TIMEOUT-}" ] && pgrep -P "$p" -fx "sleep $BATS_TEST_TIMEOUT" >/dev/null; then continue; fi
    kill_tree "$p"
  done
}

# Every test's teardown (a file with a teardown of its own calls kill_test_jobs in it).
teardown() { kill_test_jobs; }

# rsh CODE: run CODE in the shell under test after `source shell/rest` (no arguments).
rsh() {
  local pre="source \"\$REST_ROOT/shell/rest\""
  case $REST_TEST_SHELL in
    zsh) zsh -f -c "$pre; $1" </dev/null ;;
    *) bash -c "$pre; $1" </dev/null ;;
  esac
}

# rsh_in CODE: as rsh, with the test's standard input passed through.
rsh_in() {
  local pre="source \"\$REST_ROOT/shell/rest\""
  case $REST_TEST_SHELL in
    zsh) zsh -f -c "$pre; $1" ;;
    *) bash -c "$pre; $1" ;;
  esac
}

# rsh_raw CODE: run CODE in the shell under test without sourcing anything first.
rsh_raw() {
  case $REST_TEST_SHELL in
    zsh) zsh -f -c "$1" </dev/null ;;
    *) bash -c "$1" </dev/null ;;
  esac
}

# wait_for FILE: until FILE exists, at most 15 s (a daemon starts in under a second on an
# idle machine, much later on a loaded one).
wait_for() {
  local _
  for _ in $(seq 1 150); do
    [ -e "$1" ] && return 0
    sleep 0.1
  done
  return 1
}

# clean_network_env: for the network tests (ca.bats, tls-sockets.bats): a fresh HOME, none of
# the caller's rest state and none of its proxy or CA variables, so only what a test sets counts.
clean_network_env() {
  export HOME=$BATS_TEST_TMPDIR/home
  mkdir -p "$HOME"
  unset XDG_CONFIG_HOME XDG_DATA_HOME XDG_STATE_HOME XDG_RUNTIME_DIR REST_NO_PRESERVE_PATH REST_NO_DAEMON _rest_host _REST_PATH \
    REST_HISTORY REST_HISTORY_SECRETS CURL_CA_BUNDLE SSL_CERT_FILE NODE_EXTRA_CA_CERTS http_proxy https_proxy HTTPS_PROXY all_proxy ALL_PROXY
  export EDITOR=false
}

# start_daemon: make one call so the daemon of $REST_RUNTIME_DIR runs, and wait for its socket.
# A second call if it did not come up: a daemon that started while the bundle was being
# rebuilt (make build-engine elsewhere in this tree) stops at once.
# shellcheck disable=SC2016 # the code runs in the shell under test, which expands it
start_daemon() {
  rsh 'rest "$API" >/dev/null; GET /small >/dev/null'
  wait_for "$REST_RUNTIME_DIR/engine.sock" && return 0
  rsh 'rest "$API" >/dev/null; GET /small >/dev/null'
  wait_for "$REST_RUNTIME_DIR/engine.sock"
}

# A JSON field of $output (the echo route's answer).
# shellcheck disable=SC2154 # $output is set by bats' run
field() {
  printf '%s' "$output" | jq -r "$1"
}
