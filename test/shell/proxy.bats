#!/usr/bin/env bats
# Proxies in the shell verbs (docs/networks.md): curl's -x, --noproxy, -U and the calling
# shell's http_proxy / NO_PROXY, direct and through the daemon, checked in the log of a real
# proxy (Debian's tinyproxy on 127.0.0.1, test/fixtures/proxy.mjs).

load test_helper

setup_file() {
  api_start
  local portfile=$BATS_FILE_TMPDIR/proxy-port
  PROXY_LOG=$BATS_FILE_TMPDIR/proxy.log
  node "$REST_ROOT/test/fixtures/proxy.mjs" --port-file "$portfile" --log-file "$PROXY_LOG" >/dev/null 2>&1 3>&- &
  echo $! >"$BATS_FILE_TMPDIR/proxy.pid"
  wait_for "$portfile" || return 1
  PROXY=http://127.0.0.1:$(cat "$portfile")
  export PROXY PROXY_LOG
}

teardown_file() {
  api_stop
  if [ -f "$BATS_FILE_TMPDIR/proxy.pid" ]; then kill "$(cat "$BATS_FILE_TMPDIR/proxy.pid")" 2>/dev/null || true; fi
}

setup() {
  export HOME=$BATS_TEST_TMPDIR/home
  mkdir -p "$HOME"
  unset XDG_CONFIG_HOME XDG_DATA_HOME XDG_STATE_HOME XDG_RUNTIME_DIR REST_NO_PRESERVE_PATH REST_NO_DAEMON _rest_host _REST_PATH \
    REST_HISTORY REST_HISTORY_SECRETS http_proxy https_proxy HTTPS_PROXY all_proxy ALL_PROXY no_proxy NO_PROXY
  export EDITOR=false
}

# proxied MARK: how many requests whose line holds MARK went through the proxy.
proxied() {
  grep -c "Request (file descriptor [0-9]*): GET .*$1" "$PROXY_LOG" || true
}

# shellcheck disable=SC2016 # the code runs in the shell under test, which expands it
@test "-x sends the request through the proxy, direct and through the daemon" {
  run rsh 'REST_NO_DAEMON=1; rest "$API" >/dev/null; GET /small -q t=x-direct -x "$PROXY"'
  [ "$status" -eq 0 ]
  [ "$(field .name)" = small ]
  [ "$(proxied 't=x-direct')" -eq 1 ]
  start_daemon
  run rsh 'rest "$API" >/dev/null; GET /small -q t=x-daemon --proxy "$PROXY"'
  [ "$status" -eq 0 ]
  [ "$(proxied 't=x-daemon')" -eq 1 ]
}

# shellcheck disable=SC2016
@test "the daemon uses the calling shell's http_proxy, not its own" {
  # A daemon started by a shell whose http_proxy points nowhere.
  run rsh 'rest --stop'
  # Until the old daemon is gone: the next call must start a new one.
  for _ in $(seq 1 100); do [ -e "$REST_RUNTIME_DIR/engine.sock" ] || break; sleep 0.1; done
  [ ! -e "$REST_RUNTIME_DIR/engine.sock" ]
  http_proxy=http://127.0.0.1:9 REST_NO_DAEMON='' rsh 'rest "$API" >/dev/null; GET /small -q t=start -x "$PROXY" >/dev/null'
  wait_for "$REST_RUNTIME_DIR/engine.sock"
  run rsh 'rest "$API" >/dev/null; GET /small -q t=no-env'
  [ "$status" -eq 0 ]
  [ "$(proxied 't=no-env')" -eq 0 ]
  run rsh 'export http_proxy=$PROXY; rest "$API" >/dev/null; GET /small -q t=caller-env'
  [ "$status" -eq 0 ]
  [ "$(proxied 't=caller-env')" -eq 1 ]
  [ -S "$REST_RUNTIME_DIR/engine.sock" ]
}

# shellcheck disable=SC2016
@test "NO_PROXY bypasses the proxy, and --noproxy beats it" {
  start_daemon
  run rsh 'export http_proxy=$PROXY NO_PROXY=127.0.0.0/8; rest "$API" >/dev/null; GET /small -q t=bypass'
  [ "$status" -eq 0 ]
  [ "$(proxied 't=bypass')" -eq 0 ]
  run rsh 'export http_proxy=$PROXY NO_PROXY=127.0.0.0/8; rest "$API" >/dev/null; GET /small -q t=noproxy-empty --noproxy ""'
  [ "$status" -eq 0 ]
  [ "$(proxied 't=noproxy-empty')" -eq 1 ]
}

# shellcheck disable=SC2016
@test "a malformed NO_PROXY entry exits 5 naming the variable, and nothing is sent" {
  run rsh 'export http_proxy=$PROXY no_proxy=localhost:8080; rest "$API" >/dev/null; GET /small -q t=malformed'
  [ "$status" -eq 5 ]
  [[ "$output" == *"no_proxy: curl matches host names, never ports"* ]]
  [ "$(proxied 't=malformed')" -eq 0 ]
}

# shellcheck disable=SC2016
@test "--dry-run prints the proxy options" {
  run rsh 'rest "$API" >/dev/null; GET /small --dry-run -x "$PROXY" --noproxy example.org -U u:p'
  [ "$status" -eq 0 ]
  [[ "$output" == *"-x $PROXY --noproxy example.org -U u:p"* ]]
}

# shellcheck disable=SC2016
@test "an option only curl knows goes to curl with the calling shell's proxy variables" {
  start_daemon
  run rsh 'export http_proxy=$PROXY; rest "$API" >/dev/null; GET /small -q t=via-curl --tcp-nodelay'
  [ "$status" -eq 0 ]
  [ "$(field .name)" = small ]
  [ "$(proxied 't=via-curl')" -eq 1 ]
}

# shellcheck disable=SC2016
@test "with proxy variables set, a body from a file still goes through the daemon with its length" {
  start_daemon
  head -c 70000 /dev/zero >"$BATS_TEST_TMPDIR/body"
  run rsh_in 'export http_proxy=$PROXY NO_PROXY=127.0.0.1; rest "$API" >/dev/null; PUT /stream/upload' <"$BATS_TEST_TMPDIR/body"
  [ "$status" -eq 0 ]
  [ "$(field .bytes)" -eq 70000 ]
  [ "$(field .contentLength)" = 70000 ]
  [ -S "$REST_RUNTIME_DIR/engine.sock" ]
}

# shellcheck disable=SC2016
@test "-v names the proxy and where it came from, and the absolute request line it got" {
  run rsh 'export http_proxy=$PROXY; rest "$API" >/dev/null; GET /small -q t=verbose -v'
  [ "$status" -eq 0 ]
  [[ "$output" == *"* Uses proxy $PROXY (from http_proxy)"* ]]
  [[ "$output" == *"> GET $API/small?t=verbose HTTP/1.1"* ]]
  run rsh 'rest "$API" >/dev/null; GET /small -q t=verbose-direct -v'
  [[ "$output" != *"Uses proxy"* ]]
  [[ "$output" == *"> GET /small?t=verbose-direct HTTP/1.1"* ]]
}

# shellcheck disable=SC2016
@test "through the proxy, redirects are followed and the cookie file fills as without it" {
  start_daemon
  run rsh 'export http_proxy=$PROXY; rest "$API" >/dev/null; GET /cookies/set -q viaproxy=1 >/dev/null; GET /redirect/2 -q t=redir >/dev/null; GET /cookies -q t=jar'
  [ "$status" -eq 0 ]
  [ "$(field .cookies.viaproxy)" = 1 ] || { echo "output: $output"; return 1; }
  [ "$(proxied '/redirect/2?t=redir')" -eq 1 ]
  [ "$(proxied '/redirect/1 ')" -ge 1 ]
  [ "$(proxied '/cookies?t=jar')" -eq 1 ]
  grep -q "viaproxy" "$HOME/.rest/c"
}
