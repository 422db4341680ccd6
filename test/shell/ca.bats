#!/usr/bin/env bats
# Private certificate authorities in the shell verbs (docs/networks.md): curl's --cacert and the
# calling shell's CURL_CA_BUNDLE, SSL_CERT_FILE, NODE_EXTRA_CA_CERTS, direct and through the
# daemon, against an HTTPS server signed by a CA made with openssl (test/fixtures/private-ca.mjs).

load test_helper

setup_file() {
  api_start
  CA_DIR=$BATS_FILE_TMPDIR/ca
  mkdir -p "$CA_DIR"
  node "$REST_ROOT/test/fixtures/private-ca.mjs" --dir "$CA_DIR" >/dev/null 2>&1 3>&- &
  echo $! >"$BATS_FILE_TMPDIR/ca.pid"
  wait_for "$CA_DIR/port" || return 1
  TLS=https://127.0.0.1:$(cat "$CA_DIR/port")
  export CA_DIR TLS
}

teardown_file() {
  api_stop
  if [ -f "$BATS_FILE_TMPDIR/ca.pid" ]; then kill "$(cat "$BATS_FILE_TMPDIR/ca.pid")" 2>/dev/null || true; fi
}

setup() {
  clean_network_env
}

# shellcheck disable=SC2016 # the code runs in the shell under test, which expands it
@test "--cacert trusts the private CA, direct and through the daemon; without it exit 60" {
  run rsh 'REST_NO_DAEMON=1; rest "$TLS" >/dev/null; GET /direct'
  [ "$status" -eq 60 ]
  run rsh 'REST_NO_DAEMON=1; rest "$TLS" >/dev/null; GET /direct --cacert "$CA_DIR/ca.pem"'
  [ "$status" -eq 0 ]
  [ "$(field .path)" = /direct ]
  start_daemon
  run rsh 'rest "$TLS" >/dev/null; cd "$CA_DIR" && GET /daemon --cacert ca.pem'
  [ "$status" -eq 0 ]
  [ "$(field .path)" = /daemon ]
  [ -S "$REST_RUNTIME_DIR/engine.sock" ]
}

# shellcheck disable=SC2016
@test "the daemon uses the calling shell's CA variables, never its own" {
  run rsh 'rest --stop'
  # Until the old daemon is gone: the next call must start a new one.
  for _ in $(seq 1 100); do [ -e "$REST_RUNTIME_DIR/engine.sock" ] || break; sleep 0.1; done
  [ ! -e "$REST_RUNTIME_DIR/engine.sock" ]
  # A daemon started by a shell that trusts the CA through NODE_EXTRA_CA_CERTS.
  NODE_EXTRA_CA_CERTS=$CA_DIR/ca.pem rsh 'rest "$API" >/dev/null; GET /small >/dev/null'
  wait_for "$REST_RUNTIME_DIR/engine.sock"
  run rsh 'rest "$TLS" >/dev/null; GET /no-env'
  [ "$status" -eq 60 ]
  run rsh 'export SSL_CERT_FILE=$CA_DIR/ca.pem; rest "$TLS" >/dev/null; GET /ssl-cert-file'
  [ "$status" -eq 0 ]
  run rsh 'export CURL_CA_BUNDLE=$CA_DIR/other.pem SSL_CERT_FILE=$CA_DIR/ca.pem; rest "$TLS" >/dev/null; GET /bundle-first'
  [ "$status" -eq 60 ]
  run rsh 'export NODE_EXTRA_CA_CERTS=$CA_DIR/ca.pem; rest "$TLS" >/dev/null; GET /extra'
  [ "$status" -eq 0 ]
  [ -S "$REST_RUNTIME_DIR/engine.sock" ]
}

# shellcheck disable=SC2016
@test "an unreadable CA file exits 77 naming the variable and the file" {
  run rsh 'export CURL_CA_BUNDLE=$CA_DIR/missing.pem; rest "$TLS" >/dev/null; GET /x'
  [ "$status" -eq 77 ]
  [[ "$output" == *"CURL_CA_BUNDLE $CA_DIR/missing.pem: cannot read the CA file (ENOENT)"* ]]
}

# shellcheck disable=SC2016
@test "--dry-run prints --cacert, and the curl fallback trusts the same CA" {
  run rsh 'rest "$TLS" >/dev/null; GET /x --dry-run --cacert "$CA_DIR/ca.pem"'
  [ "$status" -eq 0 ]
  [[ "$output" == *"--cacert $CA_DIR/ca.pem"* ]]
  run rsh 'rest "$TLS" >/dev/null; GET /fallback --tcp-nodelay --cacert "$CA_DIR/ca.pem"'
  [ "$status" -eq 0 ]
  [ "$(field .path)" = /fallback ]
  run rsh 'export CURL_CA_BUNDLE=$CA_DIR/ca.pem; rest "$TLS" >/dev/null; GET /fallback-env --tcp-nodelay'
  [ "$status" -eq 0 ]
  [ "$(field .path)" = /fallback-env ]
}

# shellcheck disable=SC2016
@test "--cacert FILE that does not exist: curl's exit 77, and the hint does not ask to unset a variable that was never set" {
  run --separate-stderr rsh 'rest "$TLS" >/dev/null; GET /x --cacert "$HOME/no-such.pem"'
  [ "$status" -eq 77 ]
  [[ $stderr == *"--cacert"*"no-such.pem"* ]]
  [[ $stderr != *"unset the variable"* ]] || { echo "$stderr"; return 1; }
}
