#!/usr/bin/env bash
# `make demo`: start the example API, send every request of examples/demo.sheet through batch
# Emacs with the real sheet-mode and engine, print each response buffer, stop the API.
# Exit 0 only when every request got its response.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=examples/lib-api.sh
. "$root/examples/lib-api.sh"
if [ ! -f "$root/engine/dist/engine.cjs" ]; then
  printf 'the engine is not built: run "make build" first\n' >&2
  exit 1
fi
"${EMACS:-emacs}" --batch -Q -L "$root/elisp" -l "$root/examples/run-demo.el" "$root/examples/demo.sheet"
