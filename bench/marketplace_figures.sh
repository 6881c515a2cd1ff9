#!/usr/bin/env bash
# A group's scale for the marketplaces' figures (issue 44, item 6): builds
# 10,000 cars x 3 channels x 395 days (~11.9 million rows) in a SQLite file
# and times a car's chart and the admin cars list sorted by contacts and by
# views (p50, p99, max) through the domain functions the handlers call;
# also the quiet cars and the nightly refresh of every car's totals.
# The code: benches/marketplace_figures.rs.
#
#   bench/marketplace_figures.sh                       # dev build (SQLite is built
#                                                      # at opt-level 2 there too)
#   BENCH_RELEASE=1 bench/marketplace_figures.sh       # cargo bench (release profile)
#   FIGURES_CARS=1000 bench/marketplace_figures.sh     # a short sanity run
#   FIGURES_DB=/var/tmp/figures.db bench/marketplace_figures.sh   # keep the file
#
# Budget (docs/marketplaces.md): chart and sorted list page under 10 ms p99.
# About 2-3 minutes, most of it building the rows: not run by CI.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ ${BENCH_RELEASE:-} == 1 ]]; then
  exec cargo bench --bench marketplace_figures
fi
exec cargo test --bench marketplace_figures
