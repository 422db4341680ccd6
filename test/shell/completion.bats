#!/usr/bin/env bats
# Completion (shell/rest-completion, shell/_rest) in an interactive shell on a real
# pseudo-terminal (test/shell/pty-drive.py), and the per-host path history it reads.

load test_helper

# pty SETUP KEYS EXPECT: run the shell under test interactively (zsh: after compinit), source
# shell/rest, set the base to the API, run SETUP, type KEYS; $output is the transcript.
# GET is then redefined to print its arguments as <arg>, so a test sees the completed line.
# zsh's compinit dump is one per file (compinit writes it in about 2 s, reads it in 0.1 s); the
# fpath is the same in every test that uses it, and the test of compinit after source has its own.
pty() {
  local pre=''
  if [ "$REST_TEST_SHELL" = zsh ]; then pre="autoload -Uz compinit; compinit -u -d \"$BATS_FILE_TMPDIR/.zcd\""; fi
  run /usr/bin/python3 "$BATS_TEST_DIRNAME/pty-drive.py" "$REST_TEST_SHELL" "$pre
source \"\$REST_ROOT/shell/rest\"
rest \"\$API\" >/dev/null
$1" "$2" "$3" 20
}

show_args='GET() { printf "<%s>" "$@"; echo; }'

@test "GET /us<TAB> completes a path used before on this host" {
  pty "GET /users >/dev/null
$show_args" 'GET /us\t\r' '</users>'
  [ "$status" -eq 0 ]
}

@test "the common part of several paths completes, then the rest of one" {
  pty "GET /users >/dev/null; GET /users/1 >/dev/null; GET /small >/dev/null
$show_args" 'GET /us\t/1\r' '</users/1>'
  [ "$status" -eq 0 ]
}

@test "paths of another host are not offered" {
  pty "GET /users >/dev/null
rest 127.0.0.2:1 >/dev/null
$show_args" 'GET /us\t\r' '</us>'
  [ "$status" -eq 0 ]
  [[ "$output" != *"</users>"* ]]
}

@test "rest <TAB> completes a host used before, port included" {
  pty "GET /small >/dev/null
rest() { printf '[%s]' \"\$@\"; echo; }" 'rest 127.0.0.1:\t\r' "\[127\.0\.0\.1:$API_PORT\]"
  [ "$status" -eq 0 ]
}

@test "verb options complete: the verbs' own and the engine's curl options" {
  pty "$show_args" 'GET /x --compr\t --dry\t\r' '</x><--compressed><--dry-run>'
  [ "$status" -eq 0 ]
}

@test "WS options complete WS's own --binary; other verbs' do not offer it" {
  pty "WS() { printf '[%s]' \"\$@\"; echo; }
$show_args" 'WS /chat --bin\t\rGET /x --bin\t\r' '</x><--bin>'
  [ "$status" -eq 0 ]
  [[ "$output" == *"[/chat][--binary]"* ]]
}

@test "rest --env <TAB> offers the environments found from the working directory" {
  mkdir -p "$BATS_TEST_TMPDIR/proj"
  printf '{"dev": {"host": "a"}, "staging": {"host": "b"}}\n' >"$BATS_TEST_TMPDIR/proj/http-client.env.json"
  pty "cd \"$BATS_TEST_TMPDIR/proj\"
rest() { printf '[%s]' \"\$@\"; echo; }" 'rest --env st\t\r' '\[--env\]\[staging\]'
  [ "$status" -eq 0 ]
}

@test "zsh: shell/ in fpath is enough when compinit runs after source (the #compdef line)" {
  run /usr/bin/python3 "$BATS_TEST_DIRNAME/pty-drive.py" zsh "fpath=(\"\$REST_ROOT/shell\" \$fpath)
source \"\$REST_ROOT/shell/rest\"
autoload -Uz compinit; compinit -u -d \"\$HOME/.zcd2\"
rest \"\$API\" >/dev/null
GET /users >/dev/null
$show_args" 'GET /use\t\r' '</users>' 20
  [ "$status" -eq 0 ]
}

@test "the path history: path only, 0600 in a 0700 directory, no 404, not with -W" {
  run rsh 'rest "$API" >/dev/null
    GET "/echo/a?token=secret" >/dev/null
    GET /echo/b -q key=secret >/dev/null
    POST /echo/c "{\"password\": \"secret\"}" -H "Authorization: Bearer secret" >/dev/null
    GET /nothere 2>/dev/null
    GET /echo/hidden -W >/dev/null
    rest_unload; source "$REST_ROOT/shell/rest" -W; GET /echo/quiet >/dev/null; true'
  [ "$status" -eq 0 ]
  local dir=$HOME/.local/state/rest/paths f
  f=$dir/127.0.0.1:$API_PORT
  [ "$(cat "$f")" = "$(printf '/echo/a\n/echo/b\n/echo/c')" ]
  [ "$(stat -c %a "$dir")" = 700 ]
  [ "$(stat -c %a "$HOME/.local/state/rest")" = 700 ]
  [ "$(stat -c %a "$f")" = 600 ]
}

@test "the path history follows XDG_STATE_HOME" {
  export XDG_STATE_HOME=$BATS_TEST_TMPDIR/state
  run rsh 'rest "$API" >/dev/null; GET /echo/x >/dev/null'
  [ "$status" -eq 0 ]
  [ "$(cat "$XDG_STATE_HOME/rest/paths/127.0.0.1:$API_PORT")" = /echo/x ]
}

@test "completion works under the caller's unusual options (bash: set -uf; zsh: ksh_arrays, sh_word_split, no_unset)" {
  local opts='set -uf'
  if [ "$REST_TEST_SHELL" = zsh ]; then opts='setopt ksh_arrays sh_word_split no_unset'; fi
  pty "GET /users >/dev/null; GET /small >/dev/null
$opts
$show_args" 'GET /us\t -\t-dry\t\r' '</users><--dry-run>'
  [ "$status" -eq 0 ]
}

@test "a path with a blank completes quoted, so the line keeps it one word" {
  pty 'GET "/echo/a b" >/dev/null
'"$show_args" 'GET /echo/a\t\r' '</echo/a b>'
  [ "$status" -eq 0 ]
}

@test "a file name with a blank after -o completes quoted" {
  pty 'cd "$BATS_TEST_TMPDIR" && : >"my out.txt"
'"$show_args" 'GET /small -o my\t\r' '</small><-o><my out.txt>'
  [ "$status" -eq 0 ]
}

# shellcheck disable=SC2016 # the code runs in the shell under test, which expands it
@test "--netrc-file completes a file name; --dig completes to --digest" {
  pty 'cd "$BATS_TEST_TMPDIR" && : >"my.netrc"
'"$show_args" 'GET /small --dig\t --netrc-file my.n\t\r' '</small><--digest><--netrc-file><my.netrc>'
  [ "$status" -eq 0 ]
}
