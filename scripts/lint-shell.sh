#!/usr/bin/env bash
# The shell front end's lint (run by scripts/lint.sh, `make lint`): shellcheck as bash and
# zsh -n on shell/rest, shell/rest-verbs, shell/rest-daemon, shell/rest-wire, shell/rest-completion and shell/_rest; shellcheck on the bats helper and this script;
# no bare `wait` in a bats test.
set -u
cd "$(dirname "$0")/.." || exit 1
rc=0
shellcheck -s bash shell/rest shell/rest-verbs shell/rest-daemon shell/rest-wire shell/rest-completion || rc=1
zsh -n shell/rest || rc=1
zsh -n shell/rest-verbs || rc=1
zsh -n shell/rest-daemon || rc=1
zsh -n shell/rest-wire || rc=1
zsh -n shell/rest-completion || rc=1
zsh -n shell/_rest || rc=1
shellcheck -s bash test/shell/test_helper.bash scripts/lint-shell.sh || rc=1
# A bare `wait` in a bats test also waits for bats' per-test watchdog (BATS_TEST_TIMEOUT,
# test/run.mjs), a job of the test's shell: the test then lasts the whole limit. Wait on pids.
if grep -nE '^[[:space:]]*wait[[:space:]]*($|[|;&])' test/shell/*.bats; then
  echo "lint-shell: a bare \`wait\` in a bats test waits for bats' watchdog too: wait \"\$pid\"" >&2
  rc=1
fi
[ "$rc" = 0 ] && printf 'lint-shell: clean\n'
exit "$rc"
