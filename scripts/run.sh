#!/usr/bin/env bash
# Builds everything and serves the site with demo data on ./data/dealership.db.
set -euo pipefail
cd "$(dirname "$0")/.."
# The web UI (ui/, Vite) is built first: the binary embeds ui/dist.
if [ ! -d ui/node_modules ]; then
    (cd ui && npm install --no-audit --no-fund)
fi
(cd ui && npm run build)
cargo build --release --locked
exec ./target/release/dealership serve --demo "$@"
