#!/usr/bin/env bats
# Verb calls without curl (issue 36; shell/rest-wire, engine/src/shell-verbs/wire.ts and
# loopback.ts): bash reaches the daemon through /dev/tcp on its loopback port with the token of
# engine.tcp, zsh through zsocket on its Unix socket; the daemon writes both outputs into the
# shell's own files. A curl shim on PATH logs every curl the shell starts.

load test_helper

setup() {
  rest_test_env
  mkdir -p "$BATS_TEST_TMPDIR/bin"
  printf '#!/bin/bash\necho "$*" >>%q\nexec %q "$@"\n' "$BATS_TEST_TMPDIR/curls" "$(command -v curl)" >"$BATS_TEST_TMPDIR/bin/curl"
  chmod +x "$BATS_TEST_TMPDIR/bin/curl"
  export SHIM_PATH="$BATS_TEST_TMPDIR/bin:$PATH"
  start_daemon
}

# Lines the curl shim logged (0 when it never ran).
curls() {
  if [ -e "$BATS_TEST_TMPDIR/curls" ]; then wc -l <"$BATS_TEST_TMPDIR/curls"; else echo 0; fi
}

# shellcheck disable=SC2016 # the code runs in the shell under test, which expands it
@test "to a pipe and /dev/null no curl starts, the bytes and exit statuses are curl's; a closed stdout is curl's 23, through curl" {
  run rsh 'PATH=$SHIM_PATH; rest "$API" >/dev/null; GET /small | cat; echo " $?"; GET /users/999 2>&1 | cat; echo " ${PIPESTATUS[0]}${pipestatus[1]}"; GET /small >/dev/null; echo "null $?"; GET /small >&-; echo "closed $?"'
  [ "$status" -eq 0 ]
  [ "${lines[0]}" = '{"id":1,"name":"small","ok":true} 0' ]
  [[ ${lines[1]} == *'"error"'*' 4' ]]
  [ "${lines[2]}" = 'null 0' ]
  [ "${lines[3]}" = "closed 23" ] || { echo "$output"; return 1; }
  [ "$(curls)" -eq 1 ] || { cat "$BATS_TEST_TMPDIR/curls"; return 1; }
}

# shellcheck disable=SC2016
@test "stdout a regular file: the daemon writes at the shell's offset, which moves after (dd in bash, sysseek in zsh), no curl" {
  F=$BATS_TEST_TMPDIR/out run rsh 'PATH=$SHIM_PATH; rest "$API" >/dev/null; { echo a; GET /small; echo; GET /users/999 2>/dev/null; echo " $?"; echo b; } >"$F"; echo c >>"$F"; GET /small >>"$F"'
  [ "$status" -eq 0 ]
  [ "$(cat "$BATS_TEST_TMPDIR/out")" = "$(printf 'a\n{"id":1,"name":"small","ok":true}\n 4\nb\nc\n{"id":1,"name":"small","ok":true}')" ]
  [ "$(curls)" -eq 0 ] || { cat "$BATS_TEST_TMPDIR/curls"; return 1; }
}

# shellcheck disable=SC2016
@test "the loopback port greets with the proof of engine.tcp (0600) and serves only with its token: 403 without it" {
  local port tok proof
  [ "$(stat -c %a "$REST_RUNTIME_DIR/engine.tcp")" = 600 ]
  read -r port tok proof <"$REST_RUNTIME_DIR/engine.tcp"
  [[ $port =~ ^[0-9]+$ ]]
  [ "${#tok}" -eq 64 ]
  [ "${#proof}" -eq 64 ]
  [ "$tok" != "$proof" ]
  # ask TOKEN: GET /ping on the port with that X-Rest-Token; prints the greeting, then the status line and the body's last line.
  ask() {
    local g l last=''
    exec 7<>"/dev/tcp/127.0.0.1/$port"
    IFS= read -r -t 5 -u 7 g
    printf 'GET /ping HTTP/1.1\r\nHost: rest\r\nX-Rest-Token: %s\r\nConnection: close\r\n\r\n' "$1" >&7
    IFS= read -r -t 5 -u 7 l
    while IFS= read -r -t 5 -u 7 last || [ -n "$last" ]; do [ -z "$last" ] || break; done
    exec 7>&-
    printf '%s\n%s\n%s\n' "$g" "${l%$'\r'}" "$last"
  }
  # The token with its last digit changed.
  local other=0
  [ "${tok: -1}" != 0 ] || other=1
  run ask "${tok%?}$other"
  [ "${lines[0]}" = "$proof" ]
  [[ ${lines[1]} == 'HTTP/1.1 403'* ]]
  run ask ''
  [[ ${lines[1]} == 'HTTP/1.1 403'* ]]
  run ask "$tok"
  [ "${lines[0]}" = "$proof" ]
  [[ ${lines[1]} == 'HTTP/1.1 200'* ]] || { echo "$output"; return 1; }
}

# shellcheck disable=SC2016
@test "the caller's SIGPIPE trap is the same after a call, and no per-call file stays" {
  # zsh's `trap` lists them all (no -p); none is set but the test's.
  local list='trap -p PIPE'
  [ "$REST_TEST_SHELL" = zsh ] && list=trap
  run rsh "rest \"\$API\" >/dev/null; trap 'echo piped' PIPE; GET /small >/dev/null; $list; trap '' PIPE; GET /small >/dev/null; $list; trap - PIPE; GET /small >/dev/null; $list; echo end"
  [ "$status" -eq 0 ]
  [[ ${lines[0]} == *'echo piped'* ]]
  [[ ${lines[1]} == "trap -- '' "*PIPE ]]
  [ "${lines[2]}" = end ]
  run ls -A "$REST_RUNTIME_DIR"
  [ "$output" = "$(printf 'engine.pid\nengine.sock\nengine.tcp')" ]
}

# shellcheck disable=SC2016
@test "a daemon that closes the connection while the request is written: the shell lives on (no SIGPIPE), the call says so" {
  # A stand-in daemon on a runtime directory of its own: both ways in (engine.sock, engine.tcp),
  # each connection closed as soon as it is accepted, so the request's writes meet a closed
  # connection (EPIPE: SIGPIPE unless ignored).
  local rt=$BATS_TEST_TMPDIR/rt
  mkdir -m 700 "$rt"
  node -e '
    const net = require("net"), fs = require("fs"), dir = process.argv[1];
    const reset = (s) => s.destroy();
    net.createServer(reset).listen(dir + "/engine.sock");
    const t = net.createServer(reset).listen(0, "127.0.0.1", () => {
      fs.writeFileSync(dir + "/engine.tcp", t.address().port + " " + "0".repeat(64) + "\n", { mode: 0o600 });
      fs.writeFileSync(dir + "/engine.pid", process.pid + "\n");
    });' "$rt" 3>&- &
  wait_for "$rt/engine.pid"
  REST_RUNTIME_DIR=$rt run rsh 'rest "$API" >/dev/null; big=$(head -c 8000000 /dev/zero | tr "\0" a); POST /echo "$big" >/dev/null; echo "alive $?"'
  kill "$(cat "$rt/engine.pid")"
  [ "$status" -eq 0 ] || { echo "the shell ended with $status: $output"; return 1; }
  [[ ${lines[-1]} == 'alive '[1-9]* ]]
}

# shellcheck disable=SC2016
@test "a stale engine.tcp (its daemon gone): the call goes through curl, nothing said" {
  local port tok
  read -r port tok <"$REST_RUNTIME_DIR/engine.tcp"
  # A port nobody listens on.
  printf '1 %s\n' "$tok" >"$REST_RUNTIME_DIR/engine.tcp"
  run rsh 'PATH=$SHIM_PATH; rest "$API" >/dev/null; GET /small | cat; echo " $?"'
  printf '%s %s\n' "$port" "$tok" >"$REST_RUNTIME_DIR/engine.tcp"
  [ "$status" -eq 0 ]
  [ "$output" = '{"id":1,"name":"small","ok":true} 0' ]
  if [ "$REST_TEST_SHELL" = bash ]; then [ "$(curls)" -eq 1 ]; else [ "$(curls)" -eq 0 ]; fi
}

# shellcheck disable=SC2016
@test "the caller's strict options: bash set -euo pipefail and noclobber, zsh nounset, ksh_arrays and sh_word_split" {
  local opts='set -euo pipefail; set -C'
  [ "$REST_TEST_SHELL" = zsh ] && opts='setopt nounset ksh_arrays sh_word_split err_exit'
  run rsh "PATH=\$SHIM_PATH; $opts; rest \"\$API\" >/dev/null; GET /small | cat; echo; GET /small | cat; echo; POST /echo '{\"a\":\"é b\"}' | jq -r .body"
  [ "$status" -eq 0 ]
  [ "${lines[0]}" = '{"id":1,"name":"small","ok":true}' ] || { echo "$output"; return 1; }
  [ "${lines[1]}" = '{"id":1,"name":"small","ok":true}' ]
  [ "${lines[2]}" = '{"a":"é b"}' ]
  [ "$(curls)" -eq 0 ]
}

# shellcheck disable=SC2016
@test "a stale engine.tcp whose port another program took: that program is sent nothing (no arguments, no credentials), the call goes through curl" {
  local port tok proof squat=$BATS_TEST_TMPDIR/squat
  read -r port tok proof <"$REST_RUNTIME_DIR/engine.tcp"
  # The squatter greets as a daemon would, with a proof of its own, and keeps what it is sent.
  node -e '
    const net = require("net"), fs = require("fs"), out = process.argv[1];
    const s = net.createServer((c) => { c.write("0".repeat(64) + "\n"); c.on("data", (d) => fs.appendFileSync(out + ".bytes", d)); });
    s.listen(0, "127.0.0.1", () => fs.writeFileSync(out + ".port", String(s.address().port)));' "$squat" 3>&- &
  local pid=$!
  wait_for "$squat.port"
  printf '%s %s %s\n' "$(cat "$squat.port")" "$tok" "$proof" >"$REST_RUNTIME_DIR/engine.tcp"
  run rsh 'PATH=$SHIM_PATH; rest "$API" >/dev/null; GET /small -u me:s3cret | cat; echo " $?"'
  printf '%s %s %s\n' "$port" "$tok" "$proof" >"$REST_RUNTIME_DIR/engine.tcp"
  kill "$pid"
  wait "$pid" 2>/dev/null || true
  [ "$status" -eq 0 ]
  [ "$output" = '{"id":1,"name":"small","ok":true} 0' ]
  [ ! -e "$squat.bytes" ] || { echo "the squatter got: $(cat "$squat.bytes")"; return 1; }
}
