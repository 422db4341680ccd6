#!/usr/bin/env bats
# Issue 39 item 5: after `rest --env NAME`, {{$auth.token("id")}} in a -H value is the token of
# the environment's JetBrains `Security.Auth` entry, asked of a real OAuth2 provider
# (test/fixtures/oauth2-idp.mjs, oauth2-mock-server on 127.0.0.1) once and kept in the state
# directory for the next calls (engine/src/shell-verbs/env.ts, engine/src/tokens/).

load test_helper

setup_file() {
  api_start
  IDP=http://127.0.0.1:$(fixture_start idp oauth2-idp.mjs) || return 1
  export IDP
}
teardown_file() {
  fixture_stop idp
  api_stop
}

project() {
  P=$BATS_TEST_TMPDIR/proj
  mkdir -p "$P"
  cat >"$P/http-client.env.json" <<EOF
{ "dev": { "host": "$API", "Security": { "Auth": { "svc": {
  "Type": "OAuth2", "Grant Type": "Client Credentials", "Token URL": "$IDP/token", "Client ID": "cli" } } } } }
EOF
  printf '{"dev": {"Security": {"Auth": {"svc": {"Client Secret": "s3cret"}}}}}\n' >"$P/http-client.private.env.json"
  cd "$P"
}

@test "rest --env: the auth token in a -H value is the provider's, asked once for two calls" {
  project
  run --separate-stderr rsh 'rest --env dev >/dev/null
    GET /echo/a -H "Authorization: Bearer {{\$auth.token(\"svc\")}}"; echo
    GET /echo/b -H "Authorization: Bearer {{\$auth.token(\"svc\")}}"'
  [ "$status" -eq 0 ]
  local a b
  a=$(jq -r .headers.authorization <<<"${lines[0]}")
  b=$(jq -r .headers.authorization <<<"${lines[1]}")
  [[ $a == "Bearer ey"* ]]
  [ "$a" = "$b" ]
  [ "$(ls "$HOME/.local/state/sheet-rest/tokens" | wc -l)" -eq 1 ]
}

@test "rest --env: an unknown auth id fails before anything is sent, naming the known ones" {
  project
  run --separate-stderr rsh 'rest --env dev >/dev/null; GET /echo/x -H "Authorization: Bearer {{\$auth.token(\"nope\")}}"'
  [ "$status" -ne 0 ]
  [ -z "$output" ]
  [[ $stderr == *'no auth configuration "nope" (environment dev'*'known: svc'* ]]
}

@test "rest --env -v: the auth token is masked in the > lines, sent whole on the wire" {
  project
  run --separate-stderr rsh 'rest --env dev >/dev/null; GET /echo/v -v -H "Authorization: Bearer {{\$auth.token(\"svc\")}}"'
  [ "$status" -eq 0 ]
  local sent
  sent=$(jq -r .headers.authorization <<<"$output")
  [[ $sent == "Bearer ey"* ]]
  [[ $stderr == *'> Authorization: Bearer ****'* ]]
  [[ $stderr != *"${sent#Bearer }"* ]]
}
