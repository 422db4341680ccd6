# shellcheck shell=bash
# Expects $root (the checkout) to be set by the caller.
# Sourced by run-demo.sh and run-emacs.sh: start the example API on 127.0.0.1 and export
# SHEET_DEMO_BASE (read by examples/demo.sheet's :base); stop it when the script exits.
api_dir=$(mktemp -d "${TMPDIR:-/tmp}/sheet-demo.XXXXXX")
: "${root:?}"
node "$root/test/fixtures/server.mjs" --port-file "$api_dir/port" >"$api_dir/log" 2>&1 &
api_pid=$!
# Stop the API even if this shell is killed without running its traps (a closed terminal).
(
  while kill -0 "$$" 2>/dev/null && kill -0 "$api_pid" 2>/dev/null; do sleep 1; done
  kill "$api_pid" 2>/dev/null
) </dev/null >/dev/null 2>&1 &
stop_api() {
  kill "$api_pid" 2>/dev/null
  wait "$api_pid" 2>/dev/null
  rm -rf "$api_dir"
}
trap stop_api EXIT
trap 'exit 130' INT TERM HUP
for _ in $(seq 1 100); do
  [ -s "$api_dir/port" ] && break
  if ! kill -0 "$api_pid" 2>/dev/null; then
    printf 'the example API did not start:\n' >&2
    cat "$api_dir/log" >&2
    exit 1
  fi
  sleep 0.1
done
if [ ! -s "$api_dir/port" ]; then
  printf 'the example API did not write its port within 10 s\n' >&2
  exit 1
fi
SHEET_DEMO_BASE="http://127.0.0.1:$(cat "$api_dir/port")"
export SHEET_DEMO_BASE
printf 'example API listening on %s\n' "$SHEET_DEMO_BASE"
