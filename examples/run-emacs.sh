#!/usr/bin/env bash
# `make emacs`: start the example API and an interactive Emacs on examples/demo.sheet, with
# sheet-mode loaded from this checkout. The API stops when Emacs exits.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=examples/lib-api.sh
. "$root/examples/lib-api.sh"
"${EMACS:-emacs}" -Q -L "$root/elisp" --eval "(require 'sheet-mode)" "$root/examples/demo.sheet"
