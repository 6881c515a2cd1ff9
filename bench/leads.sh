#!/usr/bin/env bash
# Stored leads per second with synchronous=FULL: POST /api/leads under wrk
# (bench/post_lead.lua, 64 connections), counting the rows in the database
# after the run. Each binary gets a fresh data directory; with two binaries
# (BIN and REF_BIN) the runs alternate so both see the same machine.
#
#   bench/leads.sh                                   # target/release/dealership
#   REF_BIN=/path/to/old/dealership bench/leads.sh   # before/after, side by side
#   LEADS_DURATION=10s LEADS_ROUNDS=3 LEADS_CONNECTIONS=64 bench/leads.sh
#
# Needs wrk, curl and python3. Budget: at least 2,000 stored leads a second.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BIN="${BIN:-${CARGO_TARGET_DIR:-$ROOT/target}/release/dealership}"
REF_BIN="${REF_BIN:-}"
DURATION="${LEADS_DURATION:-10s}"
ROUNDS="${LEADS_ROUNDS:-2}"
CONNECTIONS="${LEADS_CONNECTIONS:-64}"
BUDGET=2000

[[ -x $BIN ]] || { echo "no binary at $BIN (cargo build --release)" >&2; exit 2; }
command -v wrk >/dev/null || { echo "wrk is missing (apt-get install -y wrk)" >&2; exit 2; }
WORK="$(mktemp -d)"
PID=""
cleanup() { [[ -n $PID ]] && kill "$PID" 2>/dev/null; wait 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# run_one NAME BIN ROUND: prints "NAME ROUND leads/s p99"
run_one() {
  local name=$1 bin=$2 round=$3 dir="$WORK/$1-$3" port
  mkdir -p "$dir"
  port=$(free_port)
  "$bin" --data "$dir/data" migrate >/dev/null
  (cd "$dir" && DEALERSHIP_LEADS_RATE_LIMIT_PER_MINUTE=0 RUST_LOG=warn \
    exec "$bin" --data "$dir/data" serve --listen "127.0.0.1:$port" >"$dir/server.log" 2>&1) &
  PID=$!
  for _ in $(seq 100); do curl -fs "http://127.0.0.1:$port/api/settings" >/dev/null && break; sleep 0.1; done
  wrk -t2 -c"$CONNECTIONS" -d"$DURATION" --latency -s "$ROOT/bench/post_lead.lua" \
    "http://127.0.0.1:$port/api/leads" >"$dir/wrk.txt"
  kill "$PID"; wait "$PID" 2>/dev/null || true; PID=""
  python3 - "$dir" "$name" "$round" <<'EOF'
import re, sqlite3, sys
d, name, rnd = sys.argv[1:]
wrk = open(f"{d}/wrk.txt").read()
secs = float(re.search(r"requests in ([\d.]+)s", wrk).group(1))
p99 = re.search(r"99%\s+(\S+)", wrk).group(1)
non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", wrk)
rows = sqlite3.connect(f"{d}/data/dealership.db").execute("select count(*) from leads").fetchone()[0]
print(f"{name:10} round {rnd}  {rows / secs:8.0f} stored leads/s  p99 {p99:>8}  non-2xx {non2xx.group(1) if non2xx else 0}")
EOF
}

echo "wrk -t2 -c$CONNECTIONS -d$DURATION, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
results="$WORK/results.txt"
for round in $(seq 1 "$ROUNDS"); do
  run_one current "$BIN" "$round" | tee -a "$results"
  [[ -n $REF_BIN ]] && run_one reference "$REF_BIN" "$round" | tee -a "$results"
done
worst=$(awk '$1=="current" {print $4}' "$results" | sort -n | head -1)
if (( ${worst%.*} >= BUDGET )); then
  echo "PASS: at least $BUDGET stored leads/s in every round (worst $worst)"
else
  echo "FAIL: $worst stored leads/s in the worst round (budget $BUDGET)"; exit 1
fi
