#!/usr/bin/env bats
# One cookie file, several writers at once (docs/reliability.md, "Concurrent cookie jar"):
# no call fails and no cookie is lost; a file that cannot be written is a warning, not a failure
# of a request that was sent.

load test_helper

# writer NAME CALLS [ENV]: in the background, the shell under test makes CALLS calls that each
# set a new cookie NAME_i, with ENV (e.g. REST_NO_DAEMON=1) set; one "FAIL NAME_i status" line on
# stdout per failed call, stderr to $HOME/err.
# shellcheck disable=SC2016 # the code runs in the shell under test, which expands it
writer() {
  rsh "${3:+export $3; }rest \"\$API\" >/dev/null; for i in \$(seq 1 $2); do GET /cookies/set -q \"$1_\$i=1\" >/dev/null 2>>\"\$HOME/err\" || echo \"FAIL $1_\$i \$?\"; done" &
}

# 4 shells through the daemon and 2 with REST_NO_DAEMON=1, all at once.
all_writers() {
  local w pids=()
  for w in 1 2 3 4; do writer "d$w" 10; pids+=("$!"); done
  for w in 1 2; do writer "n$w" 5 REST_NO_DAEMON=1; pids+=("$!"); done
  wait "${pids[@]}"
}

@test "4 shells through the daemon and 2 direct, at once: every call succeeds, every cookie is kept" {
  start_daemon
  run all_writers
  [ -z "$output" ]
  [ ! -s "$HOME/err" ]
  local n
  n=$(grep -cE $'\t[dn][0-9]_[0-9]+\t1$' "$HOME/.rest/c")
  [ "$n" -eq 50 ]
  [ "$(stat -c %a "$HOME/.rest/c")" = 600 ]
  [ -z "$(find "$HOME/.rest" -name '*.tmp' -o -name '*.lock')" ]
}

@test "a cookie file that cannot be written: the response and its status, a warning on stderr" {
  echo x >"$HOME/blocker"
  run --separate-stderr rsh 'rest "$API" >/dev/null; GET /cookies/set -q a=1 -c "$HOME/blocker/jar"'
  [ "$status" -eq 0 ]
  [ "$(field '.set[0]')" = "a=1; Path=/" ]
  [[ $stderr == *"warning: cookies not saved to $HOME/blocker/jar"* ]]
  export REST_NO_DAEMON=1
  run --separate-stderr rsh 'rest "$API" >/dev/null; GET /cookies/set -q a=1 -c "$HOME/blocker/jar"'
  [ "$status" -eq 0 ]
  [[ $stderr == *"warning: cookies not saved"* ]]
}
