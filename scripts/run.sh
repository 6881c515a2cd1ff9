#!/usr/bin/env bash
# Builds everything and serves the site with demo data on ./data/dealership.db.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --locked
exec ./target/release/dealership serve --demo "$@"
