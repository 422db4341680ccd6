#!/usr/bin/env bats
# The fault server (test/fixtures/faults.mjs, 127.0.0.1 only) through the verbs, with the daemon
# and with REST_NO_DAEMON=1: every fault ends within a bound with a message on stderr and a
# non-zero status (which status is docs/shell.md's business, not asserted here). The gzip bomb
# only has to end within its bound. docs/reliability.md, "Fault server".

load test_helper

setup_file() {
  api_start
  local info=$BATS_FILE_TMPDIR/faults.json
  node "$REST_ROOT/test/fixtures/faults.mjs" --info-file "$info" >/dev/null 2>&1 3>&- &
  echo $! >"$BATS_FILE_TMPDIR/faults.pid"
  wait_for "$info"
  FAULTS=$(jq -r .url "$info")
  FAULTS_TLS=$(jq -r .tls "$info")
  FAULTS_REFUSED=$(jq -r .refused "$info")
  export FAULTS FAULTS_TLS FAULTS_REFUSED
}

teardown_file() {
  [ -f "$BATS_FILE_TMPDIR/faults.pid" ] && kill "$(cat "$BATS_FILE_TMPDIR/faults.pid")" 2>/dev/null
  api_stop
}

# fault BASE PATH [SECONDS]: `rest BASE; GET PATH -m 3` with the verbs in the shell under test,
# killed after SECONDS (default 20; status 124 then, which the tests reject as a hang).
fault() {
  local code="source \"\$REST_ROOT/shell/rest\"; rest $1 >/dev/null && GET $2 -m 3 >/dev/null"
  case $REST_TEST_SHELL in
    zsh) timeout "${3:-20}" zsh -f -c "$code" </dev/null ;;
    *) timeout "${3:-20}" bash -c "$code" </dev/null ;;
  esac
}

# hits PATH: how many requests PATH of the fault server got so far.
hits() {
  curl -s "$FAULTS/hits" | jq -r --arg p "$1" '.[$p] // 0'
}

# A fault's outcome: ended in time, not 0, the verbs' message on stderr.
# shellcheck disable=SC2154 # $status and $stderr are set by bats' run
failed_clearly() {
  [ "$status" -ne 124 ] && [ "$status" -ne 0 ] && [[ $stderr == *rest:* ]]
}

# Every fault of the server; each one (but the closed port) must have reached the server.
faults_all() {
  local p before
  run --separate-stderr fault "$FAULTS_REFUSED" /
  failed_clearly || { echo "refused: status $status, stderr: $stderr"; return 1; }
  for p in /reset /slow-headers /short /chunk-garbage /redirect-loop; do
    before=$(hits "$p")
    run --separate-stderr fault "$FAULTS" "$p"
    failed_clearly || { echo "$p: status $status, stderr: $stderr"; return 1; }
    [ "$(hits "$p")" -gt "$before" ] || { echo "$p: the server got no request"; return 1; }
  done
  run --separate-stderr fault "$FAULTS_TLS" /ok
  failed_clearly || { echo "TLS: status $status, stderr: $stderr"; return 1; }
}

# shellcheck disable=SC2016 # the code runs in the shell under test, which expands it
@test "every fault through the daemon: a message on stderr, a failure status, no hang" {
  start_daemon
  faults_all
  # The daemon still serves.
  run rsh 'rest "$API" >/dev/null; GET /small'
  [ "$status" -eq 0 ]
  [ "$(field .name)" = small ]
}

@test "every fault with REST_NO_DAEMON=1: a message on stderr, a failure status, no hang" {
  export REST_NO_DAEMON=1
  faults_all
}

@test "the gzip bomb ends within its bound, through the daemon and directly" {
  start_daemon
  run fault "$FAULTS" /gzip-bomb 60
  [ "$status" -ne 124 ]
  REST_NO_DAEMON=1 run fault "$FAULTS" /gzip-bomb 60
  [ "$status" -ne 124 ]
  [ "$(hits /gzip-bomb)" -ge 2 ]
  run rsh 'rest "$API" >/dev/null; GET /small'
  [ "$status" -eq 0 ]
}
