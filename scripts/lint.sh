#!/usr/bin/env bash
# `make lint`: type-check the engine and client library, then each front end's own lint script
# (scripts/lint-elisp.sh: byte-compile, checkdoc, package-lint; scripts/lint-shell.sh:
# shellcheck and zsh -n). Exit 1 when any of them fails.
set -u
cd "$(dirname "$0")/.." || exit 1
rc=0
node_modules/.bin/tsc -p engine/tsconfig.json --noEmit || rc=1
if [ -f client-lib/tsconfig.json ]; then node_modules/.bin/tsc -p client-lib/tsconfig.json --noEmit || rc=1; fi
for part in scripts/lint-elisp.sh scripts/lint-shell.sh; do
  if [ -x "$part" ]; then
    printf '== %s\n' "$part"
    "$part" || rc=1
  fi
done
[ "$rc" = 0 ] && printf 'lint: clean\n'
exit "$rc"
