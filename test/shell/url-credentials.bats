#!/usr/bin/env bats
# A base URL with credentials (rest http://user:password@host) sends Basic auth as curl does
# (docs/shell.md): the request line and Host carry none; -u wins.

load test_helper

# shellcheck disable=SC2016 # the code runs in the shell under test, which expands it
@test "credentials in the base URL are sent as Basic auth, not in the URL" {
  run rsh 'rest "http://ad%40a:s3cret@127.0.0.1:$API_PORT" >/dev/null; GET /echo'
  [ "$status" -eq 0 ]
  [ "$(field .headers.authorization)" = "Basic $(printf 'ad@a:s3cret' | base64)" ]
  [ "$(field .rawPath)" = /echo ]
  [ "$(field .headers.host)" = "127.0.0.1:$API_PORT" ]
}

# shellcheck disable=SC2016
@test "-u wins over the base URL's credentials" {
  run rsh 'rest "http://ada:s3cret@127.0.0.1:$API_PORT" >/dev/null; GET /echo -u bob:pw'
  [ "$status" -eq 0 ]
  [ "$(field .headers.authorization)" = "Basic $(printf 'bob:pw' | base64)" ]
}

# shellcheck disable=SC2016
@test "--dry-run prints the credentials as a header, as curl would send them" {
  run rsh 'rest "http://ada:s3cret@127.0.0.1:$API_PORT" >/dev/null; GET /echo --dry-run'
  [ "$status" -eq 0 ]
  [[ "$output" == *"Authorization: Basic $(printf 'ada:s3cret' | base64)"* ]]
  [[ "$output" != *"ada:s3cret@"* ]]
}
