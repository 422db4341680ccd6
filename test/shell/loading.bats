#!/usr/bin/env bats
# Loading shell/rest, the base URL, the rc file, default options, per-host files, directories.

load test_helper

@test "sourcing rest prints nothing" {
  run rsh_raw 'source "$REST_ROOT/shell/rest"; source "$REST_ROOT/shell/rest" -W "$API"; source "$REST_ROOT/shell/rest" "$API" -H "X-A: 1"'
  [ "$status" -eq 0 ]
  [ "$output" = "" ]
}

@test "rest with a remote without scheme prints the base with http:// and a star" {
  run rsh 'rest localhost:8080'
  [ "$status" -eq 0 ]
  [ "$output" = "http://localhost:8080*" ]
}

@test "rest keeps a star that is already in the remote" {
  run rsh 'rest "https://example.org/api*.json"'
  [ "$output" = "https://example.org/api*.json" ]
}

@test "rest alone prints the base" {
  run rsh 'rest localhost:9 >/dev/null; rest'
  [ "$status" -eq 0 ]
  [ "$output" = "http://localhost:9*" ]
}

@test "rest writes the base to the rc file host" {
  run rsh 'rest localhost:8080 >/dev/null'
  [ "$(cat "$HOME/.rest/host")" = "http://localhost:8080*" ]
}

@test "a new terminal starts from the rc file" {
  rsh 'rest localhost:7777 >/dev/null'
  run rsh 'rest'
  [ "$output" = "http://localhost:7777*" ]
}

@test "a re-source keeps the base of this terminal" {
  run rsh 'rest localhost:1111 >/dev/null; printf "%s\n" "http://other:2*" >"$HOME/.rest/host"; source "$REST_ROOT/shell/rest"; rest; printf "%s\n" "$_rest_host"'
  [ "${lines[0]}" = "http://localhost:1111*" ]
  [ "${lines[1]}" = "http://localhost:1111*" ]
}

@test "source with -W does not write the rc file, and later rest calls do not either" {
  run rsh_raw 'source "$REST_ROOT/shell/rest" -W localhost:3333; rest localhost:4444 >/dev/null; rest'
  [ "$output" = "http://localhost:4444*" ]
  [ ! -e "$HOME/.rest/host" ]
}

@test "source with a remote sets the base" {
  run rsh_raw 'source "$REST_ROOT/shell/rest" localhost:5555; rest'
  [ "$output" = "http://localhost:5555*" ]
  [ "$(cat "$HOME/.rest/host")" = "http://localhost:5555*" ]
}

@test "default options from rest go on every request" {
  run rsh 'rest "$API" -H "X-Default: yes" >/dev/null; GET /echo'
  [ "$status" -eq 0 ]
  [ "$(field '.headers["x-default"]')" = "yes" ]
}

@test "default options are replaced at each rest call" {
  run rsh 'rest "$API" -H "X-Default: yes" >/dev/null; rest "$API" >/dev/null; GET /echo'
  [ "$(field '.headers["x-default"]')" = "null" ]
}

@test "rest -v prints the base and the default options" {
  run rsh 'rest localhost:8080 -H "X-A: 1" -u "me:pw" >/dev/null; rest -v'
  [ "${lines[0]}" = "http://localhost:8080*" ]
  [ "${lines[1]}" = "-H" ]
  [ "${lines[2]}" = "X-A: 1" ]
  [ "${lines[3]}" = "-u" ]
  [ "${lines[4]}" = "me:pw" ]
}

@test "the per-host file adds its options to requests of that verb, quoting honoured" {
  mkdir -p "$HOME/.rest"
  printf '%s\n' "GET -H 'X-Host: a b' -H \"X-Two: \\\"q\\\"\"" "POST -H 'X-Post: 1'" >"$HOME/.rest/127.0.0.1:$API_PORT"
  run rsh 'rest "$API" >/dev/null; GET /echo'
  [ "$(field '.headers["x-host"]')" = "a b" ]
  [ "$(field '.headers["x-two"]')" = '"q"' ]
  [ "$(field '.headers["x-post"]')" = "null" ]
}

@test "the rest file applies to every host" {
  mkdir -p "$HOME/.rest"
  printf '%s\n' 'GET -H "X-All: 1"' >"$HOME/.rest/rest"
  run rsh 'rest "$API" >/dev/null; GET /echo'
  [ "$(field '.headers["x-all"]')" = "1" ]
}

@test "options merge in order: rest file, host file, defaults, the request's own" {
  mkdir -p "$HOME/.rest"
  printf '%s\n' 'GET -H "X-Order: rest-file"' >"$HOME/.rest/rest"
  printf '%s\n' 'GET -H "X-Order: host-file"' >"$HOME/.rest/127.0.0.1:$API_PORT"
  run rsh 'rest "$API" -H "X-Order: default" >/dev/null; GET /echo -H "X-Order: request"'
  [ "$(field '[.rawHeaders[] | select(.[0] == "X-Order") | .[1]] | join(",")')" = "rest-file,host-file,default,request" ]
}

@test "per-host files are loaded when rest runs, not at each request" {
  mkdir -p "$HOME/.rest"
  run rsh 'rest "$API" >/dev/null; printf "%s\n" "GET -H \"X-Late: 1\"" >"$HOME/.rest/127.0.0.1:$API_PORT"; GET /echo; echo; rest "$API" >/dev/null; GET /echo'
  [ "$(printf '%s' "${lines[0]}" | jq -r '.headers["x-late"]')" = "null" ]
  [ "$(printf '%s' "${lines[1]}" | jq -r '.headers["x-late"]')" = "1" ]
}

@test "with XDG variables the rc file goes to XDG_CONFIG_HOME and cookies to XDG_DATA_HOME" {
  export XDG_CONFIG_HOME=$BATS_TEST_TMPDIR/config XDG_DATA_HOME=$BATS_TEST_TMPDIR/data
  run rsh 'rest "$API" >/dev/null; GET /cookies/set -q xdg=1 >/dev/null'
  [ "$status" -eq 0 ]
  [ "$(cat "$XDG_CONFIG_HOME/rest/host")" = "$API*" ]
  grep -q 'xdg' "$XDG_DATA_HOME/rest/c"
  [ ! -e "$HOME/.rest" ]
}

@test "without XDG variables both directories are ~/.rest" {
  run rsh 'rest "$API" >/dev/null; GET /cookies/set -q home=1 >/dev/null'
  [ "$(cat "$HOME/.rest/host")" = "$API*" ]
  grep -q 'home' "$HOME/.rest/c"
}

@test "rest --migrate moves an old ~/.rest into the XDG directories, with a backup" {
  mkdir -p "$HOME/.rest"
  printf '%s\n' "$API*" >"$HOME/.rest/host"
  printf '%s\n' 'GET -H "X-Migrated: 1"' >"$HOME/.rest/127.0.0.1:$API_PORT"
  printf '# Netscape HTTP Cookie File\n127.0.0.1\tFALSE\t/\tFALSE\t0\told\tcookie\n' >"$HOME/.rest/c"
  export XDG_CONFIG_HOME=$BATS_TEST_TMPDIR/config XDG_DATA_HOME=$BATS_TEST_TMPDIR/data
  run rsh 'rest --migrate'
  [ "$status" -eq 0 ]
  [ -f "$XDG_CONFIG_HOME/rest/host" ]
  [ -f "$XDG_CONFIG_HOME/rest/127.0.0.1:$API_PORT" ]
  [ -f "$XDG_DATA_HOME/rest/c" ]
  [ ! -e "$XDG_CONFIG_HOME/rest/c" ]
  [ ! -e "$HOME/.rest" ]
  [ -f "$HOME/.rest.backup/c" ]
  run rsh 'GET /echo; echo; GET /cookies'
  [ "$(printf '%s' "${lines[0]}" | jq -r '.headers["x-migrated"]')" = "1" ]
  [ "$(printf '%s' "${lines[1]}" | jq -r '.cookies.old')" = "cookie" ]
}

@test "the verbs are shell functions that shadow commands of the same name" {
  run rsh 'for f in HEAD OPTIONS GET DELETE PUT PATCH POST TRACE rest; do type "$f" | head -n 1; done'
  [ "$status" -eq 0 ]
  [ "$(printf '%s\n' "$output" | grep -c function)" -eq 9 ]
}

@test "rest_unload removes the functions and the variables" {
  run rsh 'rest localhost:1 >/dev/null; rest_unload; for f in GET POST rest _rest_request; do if typeset -f "$f" >/dev/null 2>&1; then echo "left $f"; fi; done; echo "host=${_rest_host-unset}"'
  [ "$status" -eq 0 ]
  [ "$output" = "host=unset" ]
}

@test "the functions survive strict caller options and leave them unchanged" {
  if [ "$REST_TEST_SHELL" = zsh ]; then
    opts='setopt err_exit no_unset pipe_fail no_glob ksh_arrays sh_word_split'
  else
    opts='set -euo pipefail -f'
  fi
  run rsh "rest \"\$API\" >/dev/null; $opts; IFS=:; before=\$(set -o); x=\$(GET /echo -q 'a=1'); after=\$(set -o); [ \"\$before\" = \"\$after\" ] && echo same-options; [ \"\$IFS\" = : ] && echo same-ifs; printf '%s\n' \"\$x\" | jq -r .query.a"
  [ "$status" -eq 0 ]
  [ "${lines[0]}" = same-options ]
  [ "${lines[1]}" = same-ifs ]
  [ "${lines[2]}" = 1 ]
}

@test "user data is never evaluated" {
  run rsh 'rest "$API" >/dev/null; POST "/echo/\$(touch pwned1)" "\$(touch pwned2); \`touch pwned3\`" -H "X-Evil: \$(touch pwned4)"'
  [ "$status" -eq 0 ]
  [ ! -e pwned1 ] && [ ! -e pwned2 ] && [ ! -e pwned3 ] && [ ! -e pwned4 ]
  [ "$(field .body)" = '$(touch pwned2); `touch pwned3`' ]
  [ "$(field '.headers["x-evil"]')" = '$(touch pwned4)' ]
}

@test "sourcing works under strict caller options" {
  if [ "$REST_TEST_SHELL" = zsh ]; then
    opts='setopt err_exit no_unset pipe_fail no_glob ksh_arrays sh_word_split'
  else
    opts='set -euo pipefail -f'
  fi
  run rsh_raw "$opts; IFS=:; source \"\$REST_ROOT/shell/rest\" \"\$API\"; GET /echo -q a=2 | jq -r .query.a"
  [ "$status" -eq 0 ]
  [ "$output" = 2 ]
}

@test "a per-host line with an unterminated quote is a clear error, exit 2" {
  mkdir -p "$HOME/.rest"
  printf '%s\n' "GET -H 'X-Broken: 1" >"$HOME/.rest/127.0.0.1:$API_PORT"
  run --separate-stderr rsh 'rest "$API" >/dev/null; GET /echo'
  [ "$status" -eq 2 ]
  [[ "$stderr" == *"unterminated single quote"* ]]
}

# shellcheck disable=SC2016 # the code runs in the shell under test, which expands it
@test "REST_DAEMON=eager: source starts the daemon in the background and prints nothing" {
  [ ! -e "$REST_RUNTIME_DIR/engine.sock" ] || { kill "$(cat "$REST_RUNTIME_DIR/engine.pid")"; sleep 0.5; }
  run --separate-stderr rsh_raw 'export REST_DAEMON=eager; source "$REST_ROOT/shell/rest"; echo sourced'
  [ "$status" -eq 0 ]
  [ "$output" = sourced ]
  [ -z "$stderr" ]
  # Started without any call.
  wait_for "$REST_RUNTIME_DIR/engine.sock"
  [ -S "$REST_RUNTIME_DIR/engine.sock" ]
  run rsh 'rest "$API" >/dev/null; GET /small'
  [ "$status" -eq 0 ]
  [ "$(field .name)" = small ]
}

@test "sheet shell-path answers without the CLI bundle (a few kB loaded, not the engine)" {
  local copy=$BATS_TEST_TMPDIR/pkg
  mkdir -p "$copy/bin" "$copy/dist" "$copy/shell"
  cp "$REST_ROOT/engine/bin/sheet" "$REST_ROOT/engine/bin/package.json" "$copy/bin/"
  cp "$REST_ROOT/engine/dist/shell-path.cjs" "$copy/dist/"
  cp "$REST_ROOT/shell/rest" "$copy/shell/"
  # No dist/sheet.cjs here: loading it would fail.
  run node "$copy/bin/sheet" shell-path
  [ "$status" -eq 0 ]
  [ "$output" = "$copy/shell/rest" ]
  [ "$(wc -c <"$REST_ROOT/engine/dist/shell-path.cjs")" -lt 20000 ]
}
