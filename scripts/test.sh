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

# The UI and browser tests (issue 4) add their steps below.
