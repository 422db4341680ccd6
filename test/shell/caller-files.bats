#!/usr/bin/env bats
# Bodies from and to the calling shell's regular files through the daemon (issue 21, item 6):
# a stdout that is a regular file is written by the daemon itself at the shell's offset, and a
# `< file` body is read by it from the shell's offset (src/shell-verbs/caller-files.ts), so the
# bytes cross one process as with curl; the shell's offsets then move as if it had written or
# read them. `/dev/fd/N` names (`<(...)`) in curl's file options are the caller's files.
# A curl shim on PATH counts what the shell's own curl carries: a body the daemon wrote
# itself never passes through it.

load test_helper

setup() {
  rest_test_env
  # The shim: the real curl, its stdout through tee into $CURL_LOG (its exit status kept).
  mkdir -p "$BATS_TEST_TMPDIR/bin"
  CURL_LOG=$BATS_TEST_TMPDIR/curl.log
  : >"$CURL_LOG"
  printf '#!/bin/bash\n%q "$@" | tee -a %q\nexit "${PIPESTATUS[0]}"\n' "$(command -v curl)" "$CURL_LOG" >"$BATS_TEST_TMPDIR/bin/curl"
  chmod +x "$BATS_TEST_TMPDIR/bin/curl"
  export CURL_LOG SHIM_PATH="$BATS_TEST_TMPDIR/bin:$PATH"
  start_daemon
}

# Bytes the shell's curl wrote since the test began.
carried() {
  stat -c %s "$CURL_LOG"
}

# shellcheck disable=SC2016 # the code runs in the shell under test, which expands it
@test "GET > file: the daemon writes the body itself, between what the shell writes before and after" {
  local f=$BATS_TEST_TMPDIR/out.bin
  F=$f run rsh 'PATH=$SHIM_PATH; rest "$API" >/dev/null; { echo before; GET /stream/bytes -q n=3000000; echo "rc=$?"; echo after; } >"$F"'
  [ "$status" -eq 0 ]
  [ "$(stat -c %s "$f")" -eq $((7 + 3000000 + 5 + 6)) ]
  [ "$(head -c 7 "$f")" = "$(printf 'before\n')" ]
  [ "$(tail -c 11 "$f")" = "$(printf 'rc=0\nafter')" ]
  tail -c +8 "$f" | head -c 3000000 | cmp - <(curl -s "$API/stream/bytes?n=3000000")
  # Not through the shell's curl: only the (empty) answers of the socket.
  [ "$(carried)" -lt 100 ] || { echo "the shell's curl carried $(carried) bytes"; return 1; }
}

# shellcheck disable=SC2016
@test "GET >> file: appended after what the file held, then the shell's own line; through curl a small body still goes through the shell's curl" {
  local f=$BATS_TEST_TMPDIR/log.txt nw
  for nw in 1 ''; do
    printf 'old\n' >"$f"
    : >"$CURL_LOG"
    NW=$nw F=$f run rsh 'PATH=$SHIM_PATH; [ -z "$NW" ] || export REST_NO_WIRE=1; rest "$API" >/dev/null; { GET /stream/bytes -q n=300000; echo; GET /small; echo end; } >>"$F"'
    [ "$status" -eq 0 ]
    cat <(printf 'old\n') <(curl -s "$API/stream/bytes?n=300000") <(echo) <(curl -s "$API/small") <(echo end) | cmp - "$f"
    if [ -n "$nw" ]; then
      # Only the small body (under 256 KiB: an offset move would cost more) passed through curl.
      [ "$(carried)" -eq "$(curl -s "$API/small" | wc -c)" ]
    else
      # Without curl (shell/rest-wire) the daemon appends both.
      [ "$(carried)" -eq 0 ]
    fi
  done
}

# shellcheck disable=SC2016
@test "two calls into one > file keep the shell's offset: each body after the other, nothing overwritten" {
  local f=$BATS_TEST_TMPDIR/two.bin
  F=$f run rsh 'PATH=$SHIM_PATH; rest "$API" >/dev/null; { GET /stream/bytes -q n=70000; GET /small; printf x; } >"$F"'
  [ "$status" -eq 0 ]
  cat <(curl -s "$API/stream/bytes?n=70000") <(curl -s "$API/small") <(printf x) | cmp - "$f"
}

# shellcheck disable=SC2016
@test "> out 2> err, two files: the daemon writes stdout, stderr is relayed, each file in its own order" {
  local f=$BATS_TEST_TMPDIR/out.txt e=$BATS_TEST_TMPDIR/err.txt
  F=$f E=$e run rsh 'PATH=$SHIM_PATH; rest "$API" >/dev/null; { echo a; echo x >&2; GET /stream/bytes -q n=300000; GET /status/404; echo b; echo y >&2; } >"$F" 2>"$E"'
  [ "$status" -eq 0 ]
  cat <(echo a) <(curl -s "$API/stream/bytes?n=300000") <(echo b) | cmp - "$f"
  [ "$(cat "$e")" = "$(printf 'x\n%sy' "$(curl -s "$API/status/404")")" ]
  # The 2xx body did not pass through the shell's curl.
  [ "$(carried)" -lt 300000 ]
}

# shellcheck disable=SC2016
@test "> f 2>&1, one file: stdout falls back to the relay through the shell's curl, -v lines and body in order" {
  local f=$BATS_TEST_TMPDIR/out.txt
  F=$f run rsh 'PATH=$SHIM_PATH; rest "$API" >/dev/null; { echo a; GET /small -v; echo b; } >"$F" 2>&1'
  [ "$status" -eq 0 ]
  [ "$(head -1 "$f")" = a ]
  grep -q '^> GET /small HTTP/1.1' "$f"
  # The -v lines, then the body right before b.
  [ "$(tail -c "$(( $(curl -s "$API/small" | wc -c) + 2 ))" "$f")" = "$(printf '%sb' "$(curl -s "$API/small")")" ]
  [ "$(grep -n '^> GET' "$f" | cut -d: -f1)" -lt "$(grep -n 'small' "$f" | tail -1 | cut -d: -f1)" ]
  [ "$(carried)" -gt 0 ]
}

# shellcheck disable=SC2016
@test "an error body goes to stderr, the > file stays empty and the shell's offset unmoved" {
  local f=$BATS_TEST_TMPDIR/out.txt
  F=$f run rsh 'rest "$API" >/dev/null; { GET /stream/bytes -q n=5000 -q status=500 2>/dev/null; echo "rc=$?"; } >"$F"'
  [ "$status" -eq 0 ]
  [ "$(cat "$f")" = "rc=5" ]
}

# shellcheck disable=SC2016
@test "-o file with a failing call: an error body is written as curl -o writes it; a refused connection leaves no file" {
  local f=$BATS_TEST_TMPDIR/o.bin g=$BATS_TEST_TMPDIR/never.bin
  F=$f run rsh 'rest "$API" >/dev/null; GET /stream/bytes -q n=5000 -q status=500 -o "$F"'
  [ "$status" -eq 5 ]
  curl -s "$API/stream/bytes?n=5000&status=500" | cmp - "$f"
  G=$g run rsh 'rest http://127.0.0.1:1 >/dev/null; GET /x -o "$G"'
  [ "$status" -eq 7 ]
  [ ! -e "$g" ]
}

# shellcheck disable=SC2016
@test "a refused connection with stdout a file: nothing written, the shell's next line at offset 0" {
  local f=$BATS_TEST_TMPDIR/out.txt
  F=$f run rsh 'rest http://127.0.0.1:1 >/dev/null; { GET /x 2>/dev/null; echo "rc=$?"; } >"$F"'
  [ "$(cat "$f")" = "rc=7" ]
}

# shellcheck disable=SC2016
@test "PUT < file: the body from the shell's offset, with its Content-Length as curl -T sends it; the shell's stdin ends after it" {
  local f=$BATS_TEST_TMPDIR/in.txt
  printf 'first line\nthe body\n' >"$f"
  F=$f run rsh 'rest "$API" >/dev/null; { IFS= read -r x; PUT /echo; echo; echo "left: $(cat)"; } <"$F"'
  [ "$status" -eq 0 ]
  output=$(printf '%s\n' "$output" | head -1)
  [ "$(field .body)" = "$(printf 'the body\n')" ]
  [ "$(field '.headers["content-length"]')" = 9 ]
  [ "$(field '.headers["transfer-encoding"] // "none"')" = none ]
  F=$f run rsh 'rest "$API" >/dev/null; { IFS= read -r x; PUT /echo >/dev/null; echo "left: $(cat)"; } <"$F"'
  [ "$output" = "left: " ]
}

# shellcheck disable=SC2016
@test "a 20 MB PUT < file arrives whole, read by the daemon (the shell's curl sends no body part)" {
  local f=$BATS_TEST_TMPDIR/big.bin
  curl -s "$API/stream/bytes?n=20000000" -o "$f"
  F=$f run rsh 'rest "$API" >/dev/null; PUT /stream/upload <"$F"'
  [ "$status" -eq 0 ]
  [ "$(field .bytes)" -eq 20000000 ]
  [ "$(field .sha256)" = "$(sha256sum "$f" | cut -d' ' -f1)" ]
  [ "$(field .contentLength)" = 20000000 ]
}

# shellcheck disable=SC2016
@test "cat file | PUT: the daemon reads the caller's pipe itself, chunked as curl -T - sends it; the shell's curl carries no body" {
  local f=$BATS_TEST_TMPDIR/big.bin
  curl -s "$API/stream/bytes?n=5000000" -o "$f"
  # A shim that records the shell's curl's arguments: no stdin part when the daemon reads the pipe.
  printf '#!/bin/bash\nprintf "%%s\\n" "$@" >>%q\nexec %q "$@"\n' "$BATS_TEST_TMPDIR/args" "$(command -v curl)" >"$BATS_TEST_TMPDIR/bin/curl"
  # Through curl (REST_NO_WIRE=1), then without curl at all (shell/rest-wire).
  for nw in 1 ''; do
    rm -f "$BATS_TEST_TMPDIR/args"
    NW=$nw F=$f run rsh 'PATH=$SHIM_PATH; [ -z "$NW" ] || export REST_NO_WIRE=1; rest "$API" >/dev/null; cat "$F" | PUT /stream/upload'
    [ "$status" -eq 0 ]
    [ "$(field .bytes)" -eq 5000000 ]
    [ "$(field .sha256)" = "$(sha256sum "$f" | cut -d' ' -f1)" ]
    [ "$(field '.contentLength // "none"')" = none ]
    if [ -z "$nw" ]; then
      [ ! -e "$BATS_TEST_TMPDIR/args" ] || { echo "curl ran: $(cat "$BATS_TEST_TMPDIR/args")"; return 1; }
      continue
    fi
    if grep -q '^stdin=@' "$BATS_TEST_TMPDIR/args"; then echo "the shell's curl sent stdin as a part"; return 1; fi
    grep -qx 'in=0' "$BATS_TEST_TMPDIR/args"
  done
}

# shellcheck disable=SC2016
@test "a pipe whose writer pauses, then closes: the whole body is sent, and nothing is left for the shell to read after it" {
  run rsh 'rest "$API" >/dev/null; { printf "first "; sleep 0.3; printf "then the rest"; } | { POST /echo; echo; echo "left: [$(cat)]"; }'
  [ "$status" -eq 0 ]
  [ "${lines[1]}" = "left: []" ]
  output=${lines[0]}
  [ "$(field .body)" = "first then the rest" ]
  [ "$(field '.headers["transfer-encoding"]')" = chunked ]
}

# shellcheck disable=SC2016
@test "stdin a socket (a child of Node with piped stdio): a piped body and PUT -T file both arrive (curl cannot open /dev/stdin on a socket)" {
  local f=$BATS_TEST_TMPDIR/m.bin
  head -c 100000 /dev/urandom >"$f"
  # The shell under test as Node's child: its stdin is one end of a socket pair, carrying "sock body".
  local prog='const r = require("child_process").spawnSync(process.argv[1], process.argv.slice(2), { input: "sock body", stdio: ["pipe", "inherit", "inherit"] }); process.exit(r.status ?? 9)'
  local sh=bash; [ "$REST_TEST_SHELL" = zsh ] && sh=zsh
  local flag=-c; [ "$sh" = zsh ] && flag=-fc
  F=$f run node -e "$prog" "$sh" "$flag" 'source "$REST_ROOT/shell/rest"; [ -S /dev/stdin ] || exit 99; rest "$API" >/dev/null; PUT /echo; echo; PUT /stream/upload -T "$F"'
  [ "$status" -eq 0 ]
  [ "$(printf '%s\n' "${lines[0]}" | jq -r .body)" = "sock body" ]
  [ "$(printf '%s\n' "${lines[1]}" | jq -r .sha256)" = "$(sha256sum "$f" | cut -d' ' -f1)" ]
}

# shellcheck disable=SC2016
@test "--netrc-file <(printf ...) through the daemon reads the caller's process substitution" {
  run rsh 'rest "$API" >/dev/null; GET /echo --netrc-file <(printf "machine 127.0.0.1 login ada password s3cret\n")'
  [ "$status" -eq 0 ]
  [ "$(field .headers.authorization)" = "Basic $(printf 'ada:s3cret' | base64)" ]
}

# shellcheck disable=SC2016
@test "--data-binary @<(printf ...) through the daemon sends the caller's process substitution" {
  run rsh 'rest "$API" >/dev/null; POST /echo --data-binary @<(printf "from a pipe")'
  [ "$status" -eq 0 ]
  [ "$(field .body)" = "from a pipe" ]
}

# shellcheck disable=SC2016
@test "GET | reader: the daemon writes the caller's pipe itself, between the shell's own lines" {
  local f=$BATS_TEST_TMPDIR/out.bin
  F=$f run rsh 'PATH=$SHIM_PATH; rest "$API" >/dev/null; { echo before; GET /stream/bytes -q n=3000000; echo "rc=$?"; echo after; } | cat >"$F"'
  [ "$status" -eq 0 ]
  [ "$(head -c 7 "$f")" = "$(printf 'before\n')" ]
  [ "$(tail -c 11 "$f")" = "$(printf 'rc=0\nafter')" ]
  tail -c +8 "$f" | head -c 3000000 | cmp - <(curl -s "$API/stream/bytes?n=3000000")
  [ "$(carried)" -lt 100 ] || { echo "the shell's curl carried $(carried) bytes"; return 1; }
}

# shellcheck disable=SC2016
@test "a pipe reader that leaves early: curl's status by curl's rule (23 after more than a block, 0 for a short complete body)" {
  run rsh 'rest "$API" >/dev/null; GET /stream/bytes -q n=5000000 | head -c 10 >/dev/null; echo "rc=${PIPESTATUS[0]}${pipestatus[1]}"'
  [ "$output" = "rc=23" ]
  run rsh 'rest "$API" >/dev/null; GET /stream/lines -q ms=200 | head -1; echo "rc=${PIPESTATUS[0]}${pipestatus[1]}"'
  [ "$output" = "$(printf 'first line\nrc=0')" ]
}

# shellcheck disable=SC2016
@test "2>&1 | reader, one pipe behind both streams: relayed through the shell's curl, -v lines before the body" {
  run rsh 'PATH=$SHIM_PATH; export REST_NO_WIRE=1; rest "$API" >/dev/null; GET /small -v 2>&1 | cat'
  [ "$status" -eq 0 ]
  [ "$(printf '%s\n' "$output" | grep -n '^> GET /small' | cut -d: -f1)" -lt "$(printf '%s\n' "$output" | grep -n '"small"' | cut -d: -f1)" ]
  [ "$(carried)" -gt 0 ]
}

# shellcheck disable=SC2016
@test "2>&1 | reader without curl (shell/rest-wire): one writer in the daemon for both streams keeps -v lines, body and message in order" {
  : >"$CURL_LOG"
  run rsh 'PATH=$SHIM_PATH; rest "$API" >/dev/null; { GET /small -v; GET /users/999; echo "rc=$?"; } 2>&1 | cat'
  [ "$status" -eq 0 ]
  # In this order, the bodies on one line as curl writes them (no final newline in a pipe).
  [[ $output == *'> GET /small HTTP/1.1'*'< HTTP/1.1 200 OK'*'"small"'*'no user 999'*'rc=4' ]] || { echo "$output"; return 1; }
  [ "$(carried)" -eq 0 ] || { echo "the shell's curl carried $(carried) bytes"; return 1; }
}
