#!/usr/bin/env bash
# Contract test (called by scripts/test.sh): the server answers exactly what
# its OpenAPI document (/api/openapi.json) says. Schemathesis (a pinned 4.x,
# installed with pip into a virtualenv under the cargo target directory)
# generates requests for every operation from the document, valid and
# invalid ones, and runs every check on the answers: no 5xx, every status
# code and body documented, schema-valid requests accepted and
# schema-violating ones refused, headers and content types as documented.
# Any failure fails the build.
#
#   scripts/test-contract.sh BINARY       (the release build)
#
# The server runs with demo data on a scratch data directory, with an admin
# user whose HTTP Basic credentials go with every request (admin routes take
# Basic; CSRF applies to cookie sessions only), and with the leads' rate limit
# and the login lockout turned off: the run sends hundreds of leads and wrong
# logins from one address, which would otherwise answer 429 to everything.
# CONTRACT_EXAMPLES (default 10) bounds the examples per operation, which
# keeps the run under 3 minutes on 2 cores. Nothing is left behind.
set -euo pipefail
cd "$(dirname "$0")/.."

SCHEMATHESIS_VERSION=4.32.5
binary="${1:-}"
[ -n "$binary" ] || { echo "usage: scripts/test-contract.sh BINARY (the release build)" >&2; exit 2; }
[ -x "$binary" ] || { echo "no binary at $binary: cargo build --release first" >&2; exit 1; }
binary="$(readlink -f "$binary")"
examples="${CONTRACT_EXAMPLES:-10}"

# ---------------------------------------------------------------- schemathesis
# Debian's python3 needs python3-venv for a virtualenv.
if ! /usr/bin/python3 -c 'import ensurepip, venv' 2>/dev/null; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        apt-get update
        DEBIAN_FRONTEND=noninteractive apt-get install -y python3-venv
    else
        echo "The contract test needs Debian's python3-venv: sudo apt-get install -y python3-venv" >&2
        exit 1
    fi
fi
venv="$(readlink -f "${CARGO_TARGET_DIR:-target}")/schemathesis-venv"
st="$venv/bin/schemathesis"
if ! "$st" --version 2>/dev/null | grep -qx "schemathesis, version $SCHEMATHESIS_VERSION"; then
    rm -rf "$venv"
    /usr/bin/python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
fi

# ---------------------------------------------------------------- the server
data="$(mktemp -d "${TMPDIR:-/tmp}/dealership-contract.XXXXXX")"
server=""
cleanup() {
    if [ -n "$server" ] && kill -0 "$server" 2>/dev/null; then
        kill -TERM "$server" 2>/dev/null || true
        wait "$server" 2>/dev/null || true
    fi
    rm -rf "$data"
}
trap cleanup EXIT

password="contract-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
printf '%s\n' "$password" | "$binary" --data "$data" user create contract --password-stdin >/dev/null
port="$(/usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
base="http://127.0.0.1:$port"
DEALERSHIP_BASE_URL="$base" \
    DEALERSHIP_LEADS_RATE_LIMIT_PER_MINUTE=0 \
    DEALERSHIP_ADMIN_LOGIN_FAILURES_PER_LOGIN=0 \
    DEALERSHIP_ADMIN_LOGIN_FAILURES_PER_ADDRESS=0 \
    RUST_LOG=warn \
    "$binary" --data "$data" serve --demo --listen "127.0.0.1:$port" >"$data/server.log" 2>&1 &
server=$!
# The demo draws its pictures on first start: allow for a slow machine.
for _ in $(seq 1 600); do
    curl -sf -o /dev/null "$base/healthz" && break
    kill -0 "$server" 2>/dev/null || { cat "$data/server.log" >&2; echo "test-contract: the server exited" >&2; exit 1; }
    sleep 0.5
done
curl -sf -o /dev/null "$base/healthz" || { cat "$data/server.log" >&2; echo "test-contract: the server did not start" >&2; exit 1; }

# ---------------------------------------------------------------- the run
# Left out, each because it ends the run's own access rather than for what
# it answers:
#   PUT /api/admin/me/password            a right guess of the current password
#                                         would change the credentials the run uses;
#   POST /api/admin/users/{id}/password   a reset gives the run's user a temporary
#                                         password it must change first (403 after);
#   PUT /api/admin/users/{id}             blocks or demotes the run's user,
#   DELETE /api/admin/users/{id}          deletes it: schemathesis takes ids from
#                                         earlier answers (GET /api/admin/users), so
#                                         it finds the run's own account.
# The rest, the other deletions and the retention run included, work on the
# demo data.
# Run in the scratch directory: schemathesis keeps a cache (.schemathesis/)
# in the working directory.
config="$PWD/scripts/schemathesis.toml"
status=0
(cd "$data" && "$st" --config-file "$config" run "$base/api/openapi.json" \
    --checks all \
    --max-examples "$examples" \
    --workers 2 \
    --seed 27 \
    --auth "contract:$password" \
    --exclude-operation-id change_own_password \
    --exclude-operation-id reset_password \
    --exclude-operation-id change_user \
    --exclude-operation-id delete_user \
    --request-timeout 30 \
    --report junit --report-dir "$data/report") || status=$?
if [ "$status" != 0 ]; then
    echo "--- server log (last 50 lines)" >&2
    tail -n 50 "$data/server.log" >&2
    echo "test-contract: FAILED: the server and /api/openapi.json disagree (see above)" >&2
    exit 1
fi
echo "test-contract: the server answers as its OpenAPI document says"
