#!/usr/bin/env bash
# Builds coinop's Dockerfile with Podman and runs the image as an operator would: waits for its
# HEALTHCHECK to pass, checks the user, PID 1, the data volume and the web listener's forwarding,
# stops it with SIGTERM (exit 0), starts it again on the same volume (the generated admin token is
# kept), and, with SMOKE_DATABASE_URL, runs it on Postgres with the admin token and secrets key
# supplied as compose.yaml supplies them. docs/operating/container.md says what it exercised.
#
#   scripts/container/smoke.sh
#
# Needs root and podman (Debian: apt-get install -y podman runc mmdebstrap). Environment:
#   NODE_IMAGE           base image (default localhost/coinop-node:24-bookworm-slim, built by
#                        local-node-image.sh beside this script when missing)
#   IMAGE                tag to build (default localhost/coinop:smoke); SKIP_BUILD=1 runs it as is
#   COINOP_PACKAGES      passed to the build as is (the workspaces packed for run time)
#   SMOKE_PORT           first of three free host ports for api, auth, web (default 18480)
#   SMOKE_DATABASE_URL   a Postgres database the container may migrate (reached from the host's
#                        network, as the sandbox's Podman runs with netns=host)
#   CONTAINERS_CONF      Podman settings (default sandbox-containers.conf beside this script)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
export CONTAINERS_CONF=${CONTAINERS_CONF:-$here/sandbox-containers.conf}
node_image=${NODE_IMAGE:-localhost/coinop-node:24-bookworm-slim}
image=${IMAGE:-localhost/coinop:smoke}
run_image=$image
api_port=${SMOKE_PORT:-18480}
auth_port=$((api_port + 1))
web_port=$((api_port + 2))
run_id=coinop-smoke-$$
failures=0
checks=0

log() { printf '\n==> %s\n' "$*"; }
check() { # check <description> <command...>: one line per check, ok or FAIL
  local what=$1
  shift
  checks=$((checks + 1))
  if "$@"; then
    echo "ok   $what"
  else
    echo "FAIL $what"
    failures=$((failures + 1))
  fi
}
# must <description> <command...>: a check the later ones need; the run stops when it fails.
must() {
  local before=$failures
  check "$@"
  if ((failures > before)); then
    echo
    echo "container smoke: $((checks - failures)) passed, $failures failed (stopped early)"
    exit 1
  fi
}
cleanup() {
  podman rm --force --ignore "$run_id" "$run_id-pg" >/dev/null 2>&1 || true
  podman volume rm --force "$run_id" "$run_id-pg" >/dev/null 2>&1 || true
  rm -rf "${work:-}"
}
trap cleanup EXIT
work=$(mktemp -d "${TMPDIR:-/tmp}/coinop-smoke.XXXXXX")

if [[ ${SKIP_BUILD:-} != 1 ]]; then
  if ! podman image exists "$node_image"; then
    log "no $node_image: building the stand-in"
    "$here/local-node-image.sh" "$node_image"
  fi
  log "podman build (base $node_image)"
  build_args=(--build-arg "NODE_IMAGE=$node_image")
  [[ -n ${COINOP_PACKAGES:-} ]] && build_args+=(--build-arg "COINOP_PACKAGES=$COINOP_PACKAGES")
  # Docker's image format: the OCI format has no HEALTHCHECK, and Podman would drop it.
  started=$SECONDS
  podman build --format docker "${build_args[@]}" --tag "$image" "$root"
  echo "built $image in $((SECONDS - started)) s"
fi
ports=(-e "COINOP_API_PORT=$api_port" -e "COINOP_AUTH_PORT=$auth_port" -e "COINOP_WEB_PORT=$web_port")

# wait_healthy <container>: runs the image's HEALTHCHECK until it passes (90 s at most).
wait_healthy() {
  local deadline=$((SECONDS + 90))
  until podman healthcheck run "$1" >/dev/null 2>&1; do
    if ((SECONDS > deadline)) || [[ $(podman inspect --format '{{.State.Running}}' "$1") != true ]]; then
      podman logs "$1" 2>&1 | tail -n 20
      return 1
    fi
    sleep 1
  done
}
# Output is read whole before it is matched: `grep -q` in a pipe stops reading early, and
# pipefail would then count the writer's SIGPIPE as a failure.
logs_have() {
  local logs
  logs=$(podman logs "$1" 2>&1)
  grep -q -- "$2" <<<"$logs"
}
readyz_is_ready() {
  local body
  body=$(curl -sf "http://127.0.0.1:$1/readyz") &&
    [[ $body == '{"status":"ready","checks":{"database":"ok","migrations":"current"}}' ]]
}
exits_zero_on_sigterm() {
  podman stop --time 30 "$1" >/dev/null
  [[ $(podman inspect --format '{{.State.ExitCode}}' "$1") == 0 ]] &&
    logs_have "$1" '^coinop: SIGTERM: closing listeners, then the database$'
}
in_container() { podman exec "$run_id" "$@"; }
volume_is_empty() {
  local files
  files=$(podman exec "$1" ls -A /var/lib/coinop) && [[ -z $files ]]
}
web_serves_app_and_forwards() {
  local page
  page=$(curl -sf "http://127.0.0.1:$web_port/") && grep -qi '<html' <<<"$page" &&
    curl -sf -o /dev/null "http://127.0.0.1:$web_port/api/catalog/games"
}

log "run on the embedded database, data in volume $run_id"
podman volume create "$run_id" >/dev/null
podman run --detach --name "$run_id" "${ports[@]}" -v "$run_id:/var/lib/coinop" "$run_image" >/dev/null
must "HEALTHCHECK passes" wait_healthy "$run_id"
check "/readyz: ready, database ok, migrations current" readyz_is_ready "$api_port"
check "runs as coinop (uid 10001)" test "$(in_container id -u):$(in_container id -un)" = 10001:coinop
check "PID 1 is tini, running coinop serve" \
  test "$(in_container cat /proc/1/cmdline | tr '\0' ' ')" = '/usr/bin/tini -- coinop serve '
check "the volume holds the embedded database, admin token and secrets key, owned by coinop" \
  test "$(in_container stat -c '%U %a %n' /var/lib/coinop/admin-token /var/lib/coinop/secrets-key \
    /var/lib/coinop/pglite | tr '\n' ,)" = \
  'coinop 600 /var/lib/coinop/admin-token,coinop 600 /var/lib/coinop/secrets-key,coinop 700 /var/lib/coinop/pglite,'
check "the web listener serves the app and forwards /api" web_serves_app_and_forwards
check "SIGTERM: drains, exit code 0" exits_zero_on_sigterm "$run_id"

log "restart on the same volume"
podman start "$run_id" >/dev/null
must "HEALTHCHECK passes again" wait_healthy "$run_id"
check "the admin token generated at the first start is kept" \
  logs_have "$run_id" 'using the admin token in /var/lib/coinop/admin-token'
check "SIGTERM again: exit code 0" exits_zero_on_sigterm "$run_id"

if [[ -n ${SMOKE_DATABASE_URL:-} ]]; then
  log "run on Postgres, admin token and secrets key supplied as compose.yaml supplies them"
  openssl rand -hex 32 >"$work/secrets-key"
  chown 10001:10001 "$work/secrets-key"
  chmod 600 "$work/secrets-key"
  podman volume create "$run_id-pg" >/dev/null
  podman run --detach --name "$run_id-pg" "${ports[@]}" \
    -e "DATABASE_URL=$SMOKE_DATABASE_URL" -e "COINOP_ADMIN_TOKEN=$(openssl rand -hex 32)" \
    -e COINOP_SECRETS_KEY_FILE=/run/secrets/coinop_secrets_key \
    -v "$work/secrets-key:/run/secrets/coinop_secrets_key:ro" \
    -v "$run_id-pg:/var/lib/coinop" "$run_image" >/dev/null
  must "HEALTHCHECK passes on Postgres" wait_healthy "$run_id-pg"
  check "/readyz on Postgres: ready" readyz_is_ready "$api_port"
  check "nothing generated into the volume" volume_is_empty "$run_id-pg"
  check "SIGTERM: exit code 0" exits_zero_on_sigterm "$run_id-pg"
fi

echo
echo "container smoke: $((checks - failures)) passed, $failures failed"
((failures == 0))
