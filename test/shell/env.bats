#!/usr/bin/env bats
# rest --env NAME: the environments of .http files (http-client.env.json,
# http-client.private.env.json, .vscode/settings.json) for the verbs: the base URL from
# baseUrl/host, {{name}} in paths, queries, headers and bodies (engine/src/shell-verbs/env.ts).

load test_helper

# A project with JetBrains files at its root and a VS Code settings file; the test runs from a
# subdirectory (the files are found walking up).
project() {
  P=$BATS_TEST_TMPDIR/proj
  mkdir -p "$P/sub/deeper" "$P/.vscode"
  cat >"$P/http-client.env.json" <<EOF
{
  "\$shared": { "version": "v1" },
  "dev": { "host": "$API", "user": "ada", "who": "{{user}}-{{version}}" },
  "nobase": { "user": "bob" }
}
EOF
  printf '{"dev": {"token": "private-tok"}}\n' >"$P/http-client.private.env.json"
  cat >"$P/.vscode/settings.json" <<EOF
{
  // VS Code REST Client
  "rest-client.environmentVariables": {
    "\$shared": { "lang": "fr" },
    "vs": { "baseUrl": "$API/echo", "user": "vsuser" }
  }
}
EOF
  cd "$P/sub/deeper"
}

@test "rest --env NAME sets the base from host and substitutes {{name}} everywhere" {
  project
  run --separate-stderr rsh 'rest --env dev
    POST "/echo/{{user}}" "{\"who\": \"{{who}}\", \"lang\": \"{{lang}}\"}" -q "v={{version}}" \
      -H "Authorization: Bearer {{token}}" -H "Content-Type: application/json"'
  [ "$status" -eq 0 ]
  [ "${lines[0]}" = "$API*" ]
  local json=${lines[1]}
  [ "$(jq -r .rawPath <<<"$json")" = "/echo/ada?v=v1" ]
  [ "$(jq -r .headers.authorization <<<"$json")" = "Bearer private-tok" ]
  [ "$(jq -r .body <<<"$json")" = '{"who": "ada-v1", "lang": "fr"}' ]
}

@test "rest --env with VS Code's settings: baseUrl" {
  project
  run --separate-stderr rsh 'rest --env vs >/dev/null; GET "/{{user}}"'
  [ "$status" -eq 0 ]
  [ "$(field .rawPath)" = "/echo/vsuser" ]
}

@test "rest --env NAME remote: the remote wins; an environment without a base keeps the base" {
  project
  run --separate-stderr rsh 'rest --env dev "$API/echo/x*" >/dev/null; GET "/{{user}}"
    echo; rest "$API/echo" >/dev/null; rest --env nobase; GET "/{{user}}"'
  [ "$status" -eq 0 ]
  [ "$(jq -r .rawPath <<<"${lines[0]}")" = "/echo/x/ada" ]
  [ "${lines[1]}" = "$API/echo*" ]
  [ "$(jq -r .rawPath <<<"${lines[2]}")" = "/echo/bob" ]
}

@test "rest --env lists the environments, the chosen one marked" {
  project
  run --separate-stderr rsh 'rest --env dev >/dev/null; rest --env'
  [ "$status" -eq 0 ]
  [ "$output" = "$(printf '* dev\n  nobase\n  vs')" ]
}

@test "an unknown environment is a usage error naming the known ones; nothing changes" {
  project
  run --separate-stderr rsh 'rest "$API" >/dev/null; rest --env prod; echo "rc=$?"; rest'
  [[ "$stderr" == *'no environment named "prod"'*"dev, nobase, vs"* ]]
  [ "${lines[0]}" = "rc=2" ]
  [ "${lines[1]}" = "$API*" ]
}

@test "an undefined {{name}} fails before sending, naming it; rest --no-env sends {{ as typed" {
  project
  run --separate-stderr rsh 'rest --env dev >/dev/null; GET "/echo/{{nope}}"; echo "rc=$?"
    rest --no-env; GET "/echo/{{nope}}"'
  [[ "$stderr" == *"{{nope}} is not defined"* ]]
  [ "${lines[0]}" = "rc=2" ]
  [ "$(jq -r .rawPath <<<"${lines[1]}")" = "/echo/%7B%7Bnope%7D%7D" ]
}

@test "without rest --env, {{...}} is sent as typed" {
  run --separate-stderr rsh 'rest "$API" >/dev/null; POST /echo "{{x}}"'
  [ "$(field .body)" = "{{x}}" ]
}

# shellcheck disable=SC2016 # the code runs in the shell under test, which expands it
@test "the environment applies inside its project only: outside, said once and not used; back inside, used again" {
  project
  run --separate-stderr rsh 'rest --env dev >/dev/null
    cd "$BATS_TEST_TMPDIR" && GET "/echo/{{user}}" >o1; GET "/echo/{{user}}" >o2
    jq -r .rawPath o1 o2; cd "$OLDPWD" && GET "/echo/{{user}}" | jq -r .rawPath'
  [ "$status" -eq 0 ]
  # Outside: {{user}} as typed (encoded), no "no environment named dev" failure.
  [ "${lines[0]}" = "/echo/%7B%7Buser%7D%7D" ]
  [ "${lines[1]}" = "/echo/%7B%7Buser%7D%7D" ]
  [ "${lines[2]}" = "/echo/ada" ]
  [ "$(printf '%s\n' "$stderr" | grep -c 'belongs to .*proj and does not apply here')" -eq 1 ]
  [[ $stderr != *"no environment named"* ]]
}

# shellcheck disable=SC2016 # the code runs in the shell under test, which expands it
@test "rest NEWBASE clears the environment chosen for the old base" {
  project
  run --separate-stderr rsh 'rest --env dev >/dev/null; rest "$API" >/dev/null; GET "/echo/{{user}}" | jq -r .rawPath'
  [ "$status" -eq 0 ]
  [ "$output" = "/echo/%7B%7Buser%7D%7D" ]
}
