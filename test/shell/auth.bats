#!/usr/bin/env bats
# curl's credentials options in the verbs (docs/networks.md, "Credentials"): -n / --netrc-file
# (the calling shell's HOME, also through the daemon), --digest against python3-httpbin with
# curl --digest beside it, --aws-sigv4 signed as curl signs, and --dry-run carrying them.

load test_helper

setup_file() {
  api_start
  HB=http://127.0.0.1:$(fixture_start hb httpbin.mjs) || return 1
  export HB
}

teardown_file() {
  fixture_stop hb
  api_stop
}

b64() { printf '%s' "$1" | base64; }

# shellcheck disable=SC2016 # the code runs in the shell under test, which expands it
@test "-n sends the calling shell's ~/.netrc credentials, direct and through the daemon" {
  start_daemon
  printf 'machine 127.0.0.1 login ada password "s3 cret"\n' >"$HOME/.netrc"
  run rsh 'REST_NO_DAEMON=1; rest "$API" >/dev/null; GET /echo -n'
  [ "$status" -eq 0 ]
  [ "$(field .headers.authorization)" = "Basic $(b64 'ada:s3 cret')" ]
  run rsh 'rest "$API" >/dev/null; GET /echo --netrc'
  [ "$status" -eq 0 ]
  [ "$(field .headers.authorization)" = "Basic $(b64 'ada:s3 cret')" ]
}

# shellcheck disable=SC2016
@test "--netrc-file reads that file; -u and the request's own Authorization win" {
  printf 'machine elsewhere login x password y\ndefault login bob password pw\n' >"$HOME/n"
  run rsh 'rest "$API" >/dev/null; GET /echo --netrc-file ~/n'
  [ "$(field .headers.authorization)" = "Basic $(b64 'bob:pw')" ]
  run rsh 'rest "$API" >/dev/null; GET /echo --netrc-file ~/n -u me:mine'
  [ "$(field .headers.authorization)" = "Basic $(b64 'me:mine')" ]
  run rsh 'rest "$API" >/dev/null; GET /echo --netrc-file ~/n -H "Authorization: Bearer t"'
  [ "$(field .headers.authorization)" = "Bearer t" ]
}

# shellcheck disable=SC2016
@test "an unreadable or malformed netrc file is curl's exit 26, naming the file and line" {
  run rsh 'REST_NO_DAEMON=1; rest "$API" >/dev/null; GET /echo --netrc-file "$HOME/missing"'
  [ "$status" -eq 26 ]
  [[ "$output" == *"$HOME/missing: cannot read the .netrc file"* ]]
  printf 'machine 127.0.0.1\nlogin "open\n' >"$HOME/bad"
  run rsh 'rest "$API" >/dev/null; GET /echo --netrc-file "$HOME/bad"'
  [ "$status" -eq 26 ]
  [[ "$output" == *"$HOME/bad:2: a quoted word has no closing"* ]]
  run rsh 'rest "$API" >/dev/null; GET /echo --netrc-optional'
  [ "$status" -eq 0 ]
  [ "$(field .headers.authorization)" = null ]
}

# shellcheck disable=SC2016
@test "--digest -u answers httpbin's MD5 and SHA-256 challenges, as curl --digest does" {
  for alg in MD5 SHA-256; do
    run rsh 'rest "$HB" >/dev/null; GET /digest-auth/auth/user/passwd/'"$alg"' --digest -u user:passwd'
    [ "$status" -eq 0 ]
    [ "$(field .authenticated)" = true ]
    [ "$(curl -s -o /dev/null -w '%{http_code}' --digest -u user:passwd "$HB/digest-auth/auth/user/passwd/$alg")" = 200 ]
  done
  run rsh 'rest "$HB" >/dev/null; GET /digest-auth/auth/user/passwd --digest -u user:wrong'
  [ "$status" -eq 4 ]
}

# shellcheck disable=SC2016
@test "--digest takes the credentials of --netrc-file" {
  printf 'machine 127.0.0.1 login user password passwd\n' >"$HOME/n"
  run rsh 'rest "$HB" >/dev/null; GET /digest-auth/auth/user/passwd/SHA-256 --digest --netrc-file ~/n'
  [ "$status" -eq 0 ]
  [ "$(field .authenticated)" = true ]
}

# shellcheck disable=SC2016
@test "--aws-sigv4 signs a POST as curl --aws-sigv4 does (the Content-Type of -d unsigned)" {
  run rsh 'rest "$API" >/dev/null; POST /echo "x=1" --aws-sigv4 aws:amz:us-east-1:execute-api -u AK:SK -H "X-Amz-Date: 20240101T000000Z"'
  [ "$status" -eq 0 ]
  mine=$(field .headers.authorization)
  [[ "$mine" == "AWS4-HMAC-SHA256 Credential=AK/20240101/us-east-1/execute-api/aws4_request, SignedHeaders=host;x-amz-date, Signature="* ]]
  output=$(curl -s --aws-sigv4 aws:amz:us-east-1:execute-api -u AK:SK -H "X-Amz-Date: 20240101T000000Z" -d x=1 "$API/echo")
  [ "$(field .headers.authorization)" = "$mine" ]
}

# shellcheck disable=SC2016
@test "--dry-run carries -n, --netrc-file, --digest and --aws-sigv4 with their -u" {
  run rsh 'rest "$API" >/dev/null; GET /echo -n --dry-run'
  [[ "$output" == *" -n "* ]]
  [[ "$output" != *Authorization* ]]
  run rsh 'rest "$API" >/dev/null; GET /echo --netrc-file /x/n --digest -u u:p --dry-run'
  [[ "$output" == *" --netrc-file /x/n --digest -u u:p "* ]]
  run rsh 'rest "$API" >/dev/null; GET /echo --aws-sigv4 aws:amz:eu-west-1:s3 -u AK:SK --dry-run'
  [[ "$output" == *" --aws-sigv4 aws:amz:eu-west-1:s3 -u AK:SK "* ]]
  [[ "$output" != *Authorization* ]]
}

# shellcheck disable=SC2016
@test "with an option the engine does not perform, the real curl gets --digest and -u" {
  run rsh 'rest "$HB" >/dev/null; GET /digest-auth/auth/user/passwd --digest -u user:passwd --tcp-nodelay'
  [ "$status" -eq 0 ]
  [ "$(field .authenticated)" = true ]
}

# shellcheck disable=SC2016
@test "--sheet writes --digest and --aws-sigv4 as their Authorization lines, which sheet run answers" {
  run rsh 'rest "$HB" >/dev/null; GET /digest-auth/auth/user/passwd --digest -u user:passwd --sheet'
  [ "$status" -eq 0 ]
  [ "${lines[1]}" = "Authorization: Digest user passwd" ]
  printf '%s\n-> expect-status 200\n' "$output" >"$HOME/d.sheet"
  run node "$REST_ROOT/engine/bin/sheet" run "$HOME/d.sheet"
  [ "$status" -eq 0 ]
  run rsh 'rest "$API" >/dev/null; GET /echo --aws-sigv4 aws:amz:eu-west-1:s3 -u AK:SK --sheet'
  [ "${lines[1]}" = "Authorization: AWS AK SK region:eu-west-1 service:s3" ]
}
