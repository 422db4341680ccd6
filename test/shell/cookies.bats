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
