#!/usr/bin/env bats
# The daemon's call fields (issue 10, per-call cost): without a body on stdin they travel
# urlencoded (curl --data-urlencode), with one as multipart; either way every argument byte
# reaches the request unchanged. docs/shell.md, "The engine daemon".

load test_helper

# A body argument and a -d value holding what urlencoding and multipart treat specially.
# shellcheck disable=SC2016 # the code runs in the shell under test, which expands it
@test "arguments with + % & = ; newlines and non-UTF-8 bytes reach the request byte for byte" {
  start_daemon
  printf 'a+b%%20c&d=e\n\tf;type=x @g caf\351 \377\001z ~' >"$BATS_TEST_TMPDIR/data.bin"
  want=$(base64 <"$BATS_TEST_TMPDIR/data.bin")
  # urlencoded: no stdin body.
  run rsh 'rest "$API" >/dev/null; POST /echo "$(cat "$BATS_TEST_TMPDIR/data.bin")"'
  [ "$status" -eq 0 ]
  [ "$(field .bodyBase64)" = "$want" ]
  run rsh 'rest "$API" >/dev/null; GET /echo -G -d "$(cat "$BATS_TEST_TMPDIR/data.bin")" -H "X-Plus: a+b%41"'
  [ "$status" -eq 0 ]
  [ "$(field '.headers["x-plus"]')" = 'a+b%41' ]
  # multipart: stdin is the body, the -H value travels beside it.
  run rsh_in 'rest "$API" >/dev/null; PUT /echo -H "X-Plus: a+b%41&c=d"' <"$BATS_TEST_TMPDIR/data.bin"
  [ "$status" -eq 0 ]
  [ "$(field .bodyBase64)" = "$want" ]
  [ "$(field '.headers["x-plus"]')" = 'a+b%41&c=d' ]
  # Both went through the daemon: it answered, and no per-call file is left.
  [ -S "$REST_RUNTIME_DIR/engine.sock" ]
  [ -z "$(find "$REST_RUNTIME_DIR" -name 's.*' -o -name 'e.*')" ]
}
