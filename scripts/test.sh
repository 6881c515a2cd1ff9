#!/usr/bin/env bash
# Runs every check and test of the project. This is the README's test command
# and what CI runs (through .ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n==> %s\n' "$*"; }

step "cargo fmt --check"
cargo fmt --all -- --check

step "cargo clippy"
cargo clippy --all-targets --locked -- -D warnings

step "cargo test"
cargo test --locked

# The web UI (ui/): lint, types, unit tests, build; then browser tests
# against the release binary (which embeds ui/dist) with demo data.
if [ ! -d ui/node_modules ]; then
    step "npm install (ui)"
    (cd ui && npm install --no-audit --no-fund)
fi

step "ui: biome lint"
(cd ui && npm run --silent lint)

step "ui: tsc --noEmit"
(cd ui && npm run --silent typecheck)

step "ui: vitest"
(cd ui && npm run --silent test)

step "ui: vite build"
(cd ui && npm run --silent build)

step "ui: JavaScript budget"
(cd ui && npm run --silent size)

step "browser tests (release binary, demo data, chromium)"
cargo build --release --locked
(cd ui && npm run --silent e2e)
