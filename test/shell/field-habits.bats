#!/usr/bin/env bats
# Habits of a resty and curl user met in the field trial (docs/shell.md, "Habits of resty and
# curl"): each test is one of them, against the example API, through the daemon unless it says.

load test_helper

setup() {
  rest_test_env
  start_daemon
}

# shellcheck disable=SC2016 # the code runs in the shell under test, which expands it
@test "cat ids | while read id; do POST -d ...; done: a call with -d leaves the piped lines to the loop, as curl -d does" {
  run rsh 'rest "$API" >/dev/null; printf "l1\nl2\nl3\n" | while read -r id; do POST /echo -d "id=$id" | jq -r .body; done'
  [ "$status" -eq 0 ]
  [ "$output" = "$(printf 'id=l1\nid=l2\nid=l3')" ]
}

# shellcheck disable=SC2016
@test "while read id; do PUT --json ...; done < file: the same with --json and a file as stdin" {
  printf 'a\nb\n' >"$BATS_TEST_TMPDIR/ids"
  F=$BATS_TEST_TMPDIR/ids run rsh 'rest "$API" >/dev/null; while read -r id; do PUT /echo --json "{\"id\":\"$id\"}" | jq -r .body; done <"$F"'
  [ "$status" -eq 0 ]
  [ "$output" = "$(printf '{"id":"a"}\n{"id":"b"}')" ]
}

# shellcheck disable=SC2016
@test "rest 'http://h/echo*.json'; GET /5 -q a=b: the query goes after the base's suffix (/echo/5.json?a=b), as resty appends it to the whole URL" {
  run rsh 'rest "$API/echo*.json" >/dev/null; GET /5 -q a=b | jq -r .rawPath; GET /5 -q "x=1" -q "y=2" | jq -r .rawPath'
  [ "$status" -eq 0 ]
  [ "$output" = "$(printf '/echo/5.json?a=b\n/echo/5.json?x=1&y=2')" ]
}

# shellcheck disable=SC2016
@test "POST /x -d with its value forgotten: the message names -d, as curl's 'option -d: requires parameter' (not a state file of rest's)" {
  run rsh 'rest "$API" >/dev/null; POST /echo -d'
  [ "$status" -eq 2 ]
  [[ $output == *"-d"* ]]
  [[ $output != *"paths"* ]] || { echo "$output"; return 1; }
  run rsh 'rest "$API" >/dev/null; GET /echo -q'
  [ "$status" -eq 2 ]
  [[ $output == *"-q needs a value"* ]]
}

# shellcheck disable=SC2016
@test "code=\$(GET /x -o /dev/null -w '%{http_code}'): curl's -w text goes to stdout, not into the -o file nor to stderr with an error body" {
  run --separate-stderr rsh 'rest "$API" >/dev/null; GET /echo -o "$HOME/out" -w "code=%{http_code}\n"; echo "rc=$?"; GET /status/404 -w "code=%{http_code}\n"; echo "rc=$?"'
  [ "$status" -eq 0 ]
  [ "$output" = "$(printf 'code=200\nrc=0\ncode=404\nrc=4')" ]
  [[ $stderr != *code=* ]]
  [ "$(jq -r .path "$HOME/out")" = /echo ]
}

# shellcheck disable=SC2016
@test "stdin a socket (a shell run by Node with piped stdio): POST -d in a while-read loop goes through the daemon and leaves the lines to the loop" {
  # A curl shim that logs its arguments: the daemon is reached through the shell's curl, the direct mode never runs it.
  mkdir -p "$BATS_TEST_TMPDIR/bin"
  printf '#!/bin/bash\nprintf "%%s\\n" "$@" >>%q\nexec %q "$@"\n' "$BATS_TEST_TMPDIR/args" "$(command -v curl)" >"$BATS_TEST_TMPDIR/bin/curl"
  chmod +x "$BATS_TEST_TMPDIR/bin/curl"
  local prog='const r = require("child_process").spawnSync(process.argv[1], process.argv.slice(2), { input: "l1\nl2\n", stdio: ["pipe", "inherit", "inherit"] }); process.exit(r.status ?? 9)'
  local sh=bash flag=-c
  [ "$REST_TEST_SHELL" = zsh ] && sh=zsh flag=-fc
  # Through curl (REST_NO_WIRE=1), then without (shell/rest-wire): no curl and no direct run
  # (a node shim as REST_NODE logs one).
  printf '#!/bin/bash\necho direct >>%q\nexec node "$@"\n' "$BATS_TEST_TMPDIR/direct" >"$BATS_TEST_TMPDIR/bin/node-shim"
  chmod +x "$BATS_TEST_TMPDIR/bin/node-shim"
  for nw in 1 ''; do
    rm -f "$BATS_TEST_TMPDIR/args" "$BATS_TEST_TMPDIR/direct"
    NW=$nw REST_NODE=$BATS_TEST_TMPDIR/bin/node-shim SHIM_PATH=$BATS_TEST_TMPDIR/bin:$PATH run node -e "$prog" "$sh" "$flag" 'source "$REST_ROOT/shell/rest"; PATH=$SHIM_PATH; [ -z "$NW" ] || export REST_NO_WIRE=1; [ -S /dev/stdin ] || exit 99; rest "$API" >/dev/null; while read -r id; do POST /echo -d "id=$id" | jq -r .body; done'
    [ "$status" -eq 0 ]
    [ "$output" = "$(printf 'id=l1\nid=l2')" ]
    [ ! -e "$BATS_TEST_TMPDIR/direct" ]
    if [ -n "$nw" ]; then
      [ "$(grep -c -- '--unix-socket' "$BATS_TEST_TMPDIR/args")" -eq 2 ]
    else
      [ ! -e "$BATS_TEST_TMPDIR/args" ]
    fi
  done
}

# shellcheck disable=SC2016
@test "rest --stop --force in another terminal during a call: the call says the daemon was stopped, not 'see rest --stop'" {
  run --separate-stderr rsh 'rest "$API" >/dev/null; GET /small >/dev/null; [ -S "$REST_RUNTIME_DIR/engine.sock" ] || exit 99; (sleep 1; rest --stop --force) & GET /slow -q ms=5000; echo "rc=$?"; wait'
  [ "$output" = rc=8 ] || { echo "$output / $stderr"; return 1; }
  [[ $stderr == *"stopped during the call"* ]] || { echo "$stderr"; return 1; }
  [[ $stderr != *"see rest --stop"* ]]
}

# shellcheck disable=SC2016
@test "GET http://host/path (curl's habit of a whole URL): exit 2, and the hint says how to set the base" {
  run --separate-stderr rsh 'rest "$API" >/dev/null; GET "$API/small"'
  [ "$status" -eq 2 ]
  [[ $stderr == *"rest $API"* ]] || { echo "$stderr"; return 1; }
}

# shellcheck disable=SC2016
@test "POST /x -F f=@file with stdin not a terminal (cron, CI, a while-read loop): the form is the body, stdin is left alone, as curl -F" {
  printf 'file-bytes\n' >"$BATS_TEST_TMPDIR/f.txt"
  F=$BATS_TEST_TMPDIR/f.txt run --separate-stderr rsh 'rest "$API" >/dev/null; POST /echo -F "f=@$F" | jq -r .body | grep -c file-bytes; echo "rc=$?"'
  [ "$output" = "$(printf '1\nrc=0')" ] || { echo "$output / $stderr"; return 1; }
  F=$BATS_TEST_TMPDIR/f.txt run --separate-stderr rsh 'rest "$API" >/dev/null; printf "l1\nl2\n" | while read -r id; do POST /echo -F "id=$id" -F "f=@$F" | jq -r .body | grep -c -e "^$id" -e file-bytes; done'
  [ "$output" = "$(printf '2\n2')" ] || { echo "$output / $stderr"; return 1; }
  run --separate-stderr rsh 'rest "$API" >/dev/null; printf "l1\nl2\n" | while read -r id; do PUT /echo --form-string "id=$id" | jq -r .body | grep -c "^$id"; done'
  [ "$output" = "$(printf '1\n1')" ] || { echo "$output / $stderr"; return 1; }
}

# shellcheck disable=SC2016
@test "POST /x -F f=@file without the daemon (REST_NO_DAEMON=1), stdin a pipe: the form is the body and the loop keeps its lines" {
  printf 'file-bytes\n' >"$BATS_TEST_TMPDIR/f.txt"
  F=$BATS_TEST_TMPDIR/f.txt run --separate-stderr rsh 'export REST_NO_DAEMON=1; rest "$API" >/dev/null; printf "l1\nl2\n" | while read -r id; do POST /echo -F "id=$id" -F "f=@$F" | jq -r .body | grep -c -e "^$id" -e file-bytes; done'
  [ "$output" = "$(printf '2\n2')" ] || { echo "$output / $stderr"; return 1; }
}
