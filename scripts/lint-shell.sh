#!/usr/bin/env bash
# The shell front end's lint (run by scripts/lint.sh, `make lint`): shellcheck as bash and
# zsh -n on shell/rest, shell/rest-verbs, shell/rest-daemon, shell/rest-completion and shell/_rest; shellcheck on the bats helper and this script.
set -u
cd "$(dirname "$0")/.." || exit 1
rc=0
shellcheck -s bash shell/rest shell/rest-verbs shell/rest-daemon shell/rest-completion || rc=1
zsh -n shell/rest || rc=1
zsh -n shell/rest-verbs || rc=1
zsh -n shell/rest-daemon || rc=1
zsh -n shell/rest-completion || rc=1
zsh -n shell/_rest || rc=1
shellcheck -s bash test/shell/test_helper.bash scripts/lint-shell.sh || rc=1
[ "$rc" = 0 ] && printf 'lint-shell: clean\n'
exit "$rc"
