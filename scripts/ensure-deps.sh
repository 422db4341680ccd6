#!/usr/bin/env bash
# Installs what `make demo`, `make test` and `make bench` need on a fresh Debian machine with
# Node 20: npm packages (npm ci) and, when a tool is missing and we are root, Debian packages.
# When not root, prints the exact apt-get command instead and fails.
#
#   scripts/ensure-deps.sh [npm] [emacs] [shell] [all]
set -u
cd "$(dirname "$0")/.." || exit 1

want_npm=0 want_emacs=0 want_shell=0
for a in "${@:-all}"; do
  case "$a" in
    npm) want_npm=1 ;;
    emacs) want_npm=1; want_emacs=1 ;;
    shell) want_npm=1; want_shell=1 ;;
    all) want_npm=1; want_emacs=1; want_shell=1 ;;
    *) printf 'ensure-deps: unknown part %s (npm, emacs, shell, all)\n' "$a" >&2; exit 2 ;;
  esac
done

# Debian package for each command we need.
missing=()
need() { command -v "$1" >/dev/null 2>&1 || missing+=("$2"); }
need jq jq
need curl curl
# A server nobody here wrote, for the suites: Debian's httpbin under gunicorn (test/fixtures/httpbin.mjs).
need gunicorn gunicorn
# A real HTTP proxy for the proxy tests (test/fixtures/proxy.mjs), and openssl for the test
# certificate authorities (test/fixtures/private-ca.mjs, faults.mjs).
need tinyproxy tinyproxy
# A real browser for the HTML report's test (test/engine/sheet-run-html.test.ts, puppeteer-core).
need chromium chromium
need openssl openssl
# Debian's own Python (gunicorn's), not whatever python3 comes first on PATH (pyenv, venvs).
debian_py() { [ -x /usr/bin/python3 ] && /usr/bin/python3 -c "import $1" >/dev/null 2>&1; }
debian_py httpbin || missing+=(python3-httpbin)
debian_py brotli || missing+=(python3-brotli)
# The pseudo-terminal tests (completion, -v on a tty, sheet run's prompts) drive it with pexpect.
debian_py pexpect || missing+=(python3-pexpect)
# Copy as code runs the Python it writes (test/engine/code-export-wire.test.ts, sheet-mode-code-test.el).
debian_py requests || missing+=(python3-requests)
if [ "$want_emacs" = 1 ]; then
  need emacs emacs-nox
  [ -d /usr/share/emacs/site-lisp/elpa-src ] && ls /usr/share/emacs/site-lisp/elpa-src 2>/dev/null | grep -q '^helm-[0-9]' || missing+=(elpa-helm)
  ls /usr/share/emacs/site-lisp/elpa-src 2>/dev/null | grep -q '^package-lint-[0-9]' || missing+=(elpa-package-lint)
fi
if [ "$want_shell" = 1 ]; then
  need zsh zsh
  need bats bats
  need lynx lynx
  need shellcheck shellcheck
fi

if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    printf 'ensure-deps: installing %s\n' "${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    { apt-get update -qq && apt-get install -y -qq "${missing[@]}"; } >/dev/null || {
      printf 'ensure-deps: apt-get install %s failed\n' "${missing[*]}" >&2; exit 1; }
  else
    printf 'ensure-deps: missing %s; run as root:\n  apt-get update && apt-get install -y %s\n' \
      "${missing[*]}" "${missing[*]}" >&2
    exit 1
  fi
fi

if [ "$want_npm" = 1 ]; then
  # node-jq must use the system jq: its own binary download cannot work here.
  export NODE_JQ_SKIP_INSTALL_BINARY=true
  stamp=node_modules/.package-lock.json
  if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ]; then
    printf 'ensure-deps: npm ci\n'
    npm ci --no-audit --no-fund --loglevel=error || { printf 'ensure-deps: npm ci failed\n' >&2; exit 1; }
  fi
fi
exit 0
