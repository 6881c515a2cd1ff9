#!/usr/bin/env bash
# A year of a busy salon's calls (issue 45, item 7): 100,000 calls taken
# through the webhook's path into one SQLite file, then the leads list, a
# person's history and the response-time figures timed (p50, p99, max), and
# a burst of webhooks stored at once through the group commit, none lost.
# The code: benches/calls.rs.
#
#   bench/calls.sh                      # dev build (SQLite at opt-level 2 there too)
#   BENCH_RELEASE=1 bench/calls.sh      # cargo bench (release profile)
#   CALLS=10000 bench/calls.sh          # a short sanity run
#
# Budget (docs/calls.md, "At scale"): each read under 10 ms p99; the burst
# over 100 calls a second with every call stored. About a minute: not run by CI.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ ${BENCH_RELEASE:-} == 1 ]]; then
  exec cargo bench --bench calls
fi
exec cargo test --bench calls
