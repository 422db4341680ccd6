#!/usr/bin/env bats
# The cookie file: saved and sent automatically, curl's Netscape format, -j.

load test_helper

@test "cookies set by the server are sent on later calls, across terminals" {
  rsh 'rest "$API" >/dev/null; GET /cookies/set -q a=1 >/dev/null'
  run rsh 'GET /cookies'
  [ "$status" -eq 0 ]
  [ "$(field .cookies.a)" = 1 ]
}

@test "the cookie file is in the Netscape format curl reads" {
  rsh 'rest "$API" >/dev/null; GET /cookies/persistent >/dev/null'
  [ "$(head -n 1 "$HOME/.rest/c")" = "# Netscape HTTP Cookie File" ]
  grep -q "$(printf '\tkeep\tyes$')" "$HOME/.rest/c"
  run curl -s -b "$HOME/.rest/c" "$API/cookies"
  [ "$(field .cookies.keep)" = yes ]
}

@test "cookies curl wrote are sent by the verbs" {
  mkdir -p "$HOME/.rest"
  curl -s -c "$HOME/.rest/c" "$API/cookies/set?fromcurl=1" >/dev/null
  run rsh 'rest "$API" >/dev/null; GET /cookies'
  [ "$(field .cookies.fromcurl)" = 1 ]
}

@test "-j discards session cookies and keeps persistent ones" {
  rsh 'rest "$API" >/dev/null; GET /cookies/set -q s=1 >/dev/null; GET /cookies/persistent >/dev/null'
  run rsh 'GET /cookies -j'
  [ "$(field .cookies.s)" = null ]
  [ "$(field .cookies.keep)" = yes ]
  run rsh 'GET /cookies'
  [ "$(field .cookies.s)" = null ]
}

@test "-b name=value sends a cookie for one request" {
  run rsh 'rest "$API" >/dev/null; GET /cookies -b "one=off"; echo; GET /cookies'
  [ "$(printf '%s' "${lines[0]}" | jq -r .cookies.one)" = off ]
  [ "$(printf '%s' "${lines[1]}" | jq -r .cookies.one)" = null ]
}

@test "-c writes the cookies to another file" {
  run rsh 'rest "$API" >/dev/null; GET /cookies/set -q other=1 -c "$HOME/jar" >/dev/null'
  grep -q other "$HOME/jar"
  [ ! -e "$HOME/.rest/c" ] || ! grep -q other "$HOME/.rest/c"
}

# shellcheck disable=SC2016 # the code runs in the shell under test, which expands it
@test "cookies from a -b jar go out in curl's order (longer path, longer name, newer first), compared with real curl on the same jar" {
  local jar=$BATS_TEST_TMPDIR/jar
  printf '127.0.0.1\tFALSE\t/\tFALSE\t0\tzeta\t1\n127.0.0.1\tFALSE\t/\tFALSE\t0\talpha\t2\n127.0.0.1\tFALSE\t/echo\tFALSE\t0\tmid\t3\n127.0.0.1\tFALSE\t/\tFALSE\t0\tbeta\t4\n127.0.0.1\tFALSE\t/\tFALSE\t0\ta1\t5\n127.0.0.1\tFALSE\t/\tFALSE\t0\tb1\t6\n' >"$jar"
  local want
  want=$(curl -s -b "$jar" -b q=9 "$API/echo" | jq -r .headers.cookie)
  [ "$want" = "mid=3; alpha=2; beta=4; zeta=1; b1=6; a1=5; q=9" ] || { echo "curl: $want"; return 1; }
  for mode in '' 1; do
    MODE=$mode J=$jar run --separate-stderr rsh '[ -n "$MODE" ] && export REST_NO_DAEMON=1; rest "$API" >/dev/null; GET /echo -b "$J" -b q=9 | jq -r .headers.cookie'
    [ "$output" = "$want" ] || { echo "mode '$mode': $output / $stderr"; return 1; }
  done
}

# shellcheck disable=SC2016
@test "-H 'Host: name' picks the jar's cookies of that name, as curl matches them (and stores Set-Cookie under it), compared with real curl" {
  local jar=$BATS_TEST_TMPDIR/jar
  printf 'example.test\tFALSE\t/\tFALSE\t0\tforhost\tyes\n127.0.0.1\tFALSE\t/\tFALSE\t0\tforip\tyes\n' >"$jar"
  local want
  want=$(curl -s -b "$jar" -H 'Host: example.test' "$API/echo" | jq -r .headers.cookie)
  [ "$want" = "forhost=yes" ] || { echo "curl: $want"; return 1; }
  J=$jar run --separate-stderr rsh 'rest "$API" >/dev/null; GET /echo -b "$J" -H "Host: example.test" | jq -r .headers.cookie'
  [ "$output" = "$want" ] || { echo "$output / $stderr"; return 1; }
  # A cookie the server sets is kept under the Host header's name, as curl -c keeps it.
  curl -s -c "$BATS_TEST_TMPDIR/curl-jar" -H 'Host: example.test' "$API/cookies/persistent" >/dev/null
  grep -q "^example.test$(printf '\t')" "$BATS_TEST_TMPDIR/curl-jar"
  run --separate-stderr rsh 'rest "$API" >/dev/null; GET /cookies/persistent -H "Host: example.test" >/dev/null'
  grep -q "^example.test$(printf '\t')" "$HOME/.rest/c" || { cat "$HOME/.rest/c"; return 1; }
}
