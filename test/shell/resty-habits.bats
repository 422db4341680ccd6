#!/usr/bin/env bats
# A resty user's files and habits (issue 36, item 7; docs/shell.md, "Coming from resty"):
# resty's per-host curl option files in ~/.resty/ and $XDG_CONFIG_HOME/resty/ (resty 3.0's
# README, "Per-Host/Per-Method Curl Configuration Files"), and `resty` as a name for `rest`.

load test_helper

# shellcheck disable=SC2016 # the code runs in the shell under test, which expands it
@test "resty's ~/.resty/HOST:PORT file: its GET and POST lines' curl options are sent, as resty sends them" {
  mkdir -p "$HOME/.resty"
  printf '%s\n' "GET -H 'X-Resty: get-line'" "  POST -H \"X-Resty: post line\" -u me:secret" >"$HOME/.resty/127.0.0.1:$API_PORT"
  run --separate-stderr rsh 'rest "$API" >/dev/null; GET /echo | jq -r ".headers[\"x-resty\"]"; POST /echo x | jq -r ".headers[\"x-resty\"], .headers.authorization"'
  [ "$status" -eq 0 ]
  [ "$output" = "$(printf 'get-line\npost line\nBasic bWU6c2VjcmV0')" ] || { echo "$output / $stderr"; return 1; }
}

# shellcheck disable=SC2016
@test "resty's \$XDG_CONFIG_HOME/resty/HOST:PORT file is read when XDG_CONFIG_HOME is set" {
  export XDG_CONFIG_HOME=$BATS_TEST_TMPDIR/xdg
  mkdir -p "$XDG_CONFIG_HOME/resty"
  printf '%s\n' "GET -H 'X-Resty: from-xdg'" >"$XDG_CONFIG_HOME/resty/127.0.0.1:$API_PORT"
  run --separate-stderr rsh 'rest "$API" >/dev/null; GET /echo | jq -r ".headers[\"x-resty\"]"'
  [ "$output" = from-xdg ] || { echo "$output / $stderr"; return 1; }
}

# shellcheck disable=SC2016
@test "rest's own per-host file wins where both exist: resty's file for that host is then not read" {
  mkdir -p "$HOME/.resty"
  printf '%s\n' "GET -H 'X-Resty: resty' -H 'X-Only-Resty: 1'" >"$HOME/.resty/127.0.0.1:$API_PORT"
  run rsh 'rest "$API" >/dev/null'
  printf '%s\n' "GET -H 'X-Resty: ours'" >"$HOME/.rest/127.0.0.1:$API_PORT"
  # localhost:PORT, the same server, has resty's file only: that one is read.
  printf '%s\n' "GET -H 'X-Resty: resty-localhost'" >"$HOME/.resty/localhost:$API_PORT"
  run --separate-stderr rsh 'rest "$API" >/dev/null; GET /echo | jq -r ".headers[\"x-resty\"], .headers[\"x-only-resty\"]"; rest "localhost:$API_PORT" >/dev/null; GET /echo | jq -r ".headers[\"x-resty\"]"'
  [ "$output" = "$(printf 'ours\nnull\nresty-localhost')" ] || { echo "$output / $stderr"; return 1; }
}

# shellcheck disable=SC2016
@test "resty is a name for rest when nothing else holds it; a resty function already defined is left alone" {
  run --separate-stderr rsh 'resty "$API" && GET /echo | jq -r .path && resty'
  [ "$output" = "$(printf '%s\n/echo\n%s' "$API*" "$API*")" ] || { echo "$output / $stderr"; return 1; }
  run --separate-stderr rsh_raw 'resty() { echo "the real resty"; }; source "$REST_ROOT/shell/rest"; resty x'
  [ "$output" = "the real resty" ] || { echo "$output / $stderr"; return 1; }
  # rest_unload removes the name it added, and only that one.
  run --separate-stderr rsh 'rest_unload; command -v resty || echo gone'
  [ "$output" = gone ]
}
