#!/usr/bin/env bash
# Memory ceiling of the server under a walk of unique public URLs and under the
# list benchmark. See bench/README.md. Prints the figures; exit code 0 when the
# server's peak resident memory (VmHWM) stays under the limit, 1 otherwise.
#
# Environment (all optional):
#   WALK_REQUESTS        requests of the walk (default 16000: 4,000 of each kind
#                        of bench/memory_walk.lua)
#   WALK_CONNECTIONS     connections of the walk (default 8)
#   WALK_BENCH_DURATION  length of each list benchmark after the walk (default 5s)
#   WALK_LIMIT_MB        the ceiling (default 100)
#   BENCH_CARS           cars to load (default 10000)
#   BENCH_SKIP_BUILD=1   use the existing release binary
#   BENCH_BIN            another binary to measure (no build), e.g. an older commit's
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$BENCH_DIR")
REQUESTS=${WALK_REQUESTS:-16000}
CONNECTIONS=${WALK_CONNECTIONS:-8}
BENCH_DURATION=${WALK_BENCH_DURATION:-5s}
LIMIT_MB=${WALK_LIMIT_MB:-100}
CARS=${BENCH_CARS:-10000}
THREADS=2

log() { printf '[walk %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

for tool in wrk curl python3; do
  command -v "$tool" >/dev/null || die "$tool is needed (apt-get install -y wrk curl python3)"
done

BIN="${BENCH_BIN:-${CARGO_TARGET_DIR:-$ROOT/target}/release/dealership}"
if [[ ${BENCH_SKIP_BUILD:-0} != 1 && -z ${BENCH_BIN:-} ]]; then
  log "npm run build (ui), cargo build --release --locked"
  (cd "$ROOT/ui" && { [[ -d node_modules ]] || npm install --no-audit --no-fund; } && npm run --silent build)
  (cd "$ROOT" && cargo build --release --locked)
fi
[[ -x $BIN ]] || die "no release binary at $BIN"

WORK=$(mktemp -d -t dealership-walk.XXXXXX)
SERVER_PID=""
SAMPLER_PID=""
cleanup() {
  local status=$?
  trap - EXIT INT TERM
  for pid in $SAMPLER_PID $SERVER_PID; do kill "$pid" 2>/dev/null || true; done
  for pid in $SAMPLER_PID $SERVER_PID; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$WORK"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

DATA="$WORK/data"
(cd "$WORK" && "$BIN" --data "$DATA" migrate) >&2
log "loading $CARS cars"
python3 "$BENCH_DIR/load_cars.py" "$DATA/dealership.db" "$CARS" >/dev/null

PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
(
  cd "$WORK"
  export RUST_LOG="${BENCH_RUST_LOG:-info,tower_http=warn}"
  exec "$BIN" --data "$DATA" serve --listen "127.0.0.1:$PORT"
) >"$WORK/server.log" 2>&1 &
SERVER_PID=$!
BASE="http://127.0.0.1:$PORT"
for _ in $(seq 1 150); do
  curl -fsS --max-time 2 -o /dev/null "$BASE/api/cars/count" 2>/dev/null && break
  kill -0 "$SERVER_PID" 2>/dev/null || { cat "$WORK/server.log" >&2; die "server exited"; }
  sleep 0.2
done

# kB of a /proc/PID/status field.
status_kb() { awk -v f="$1:" '$1 == f { print $2 }' "/proc/$SERVER_PID/status"; }
mb() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }

# The largest VmRSS seen, sampled every 50 ms into a file.
: >"$WORK/rss"
(
  peak=0
  while kill -0 "$SERVER_PID" 2>/dev/null; do
    rss=$(awk '$1 == "VmRSS:" { print $2 }' "/proc/$SERVER_PID/status" 2>/dev/null || echo 0)
    ((rss > peak)) && { peak=$rss; echo "$peak" >"$WORK/rss"; }
    sleep 0.05
  done
) &
SAMPLER_PID=$!
peak_rss() { cat "$WORK/rss" 2>/dev/null || echo 0; }

START_RSS=$(status_kb VmRSS)
log "server up: VmRSS $(mb "$START_RSS") MB"

# --- the walk -------------------------------------------------------------------
mkdir -p "$WORK/done"
log "walk: $REQUESTS unique URLs from $CONNECTIONS connections"
started=$(date +%s.%N)
WALK_REQUESTS=$REQUESTS WALK_THREADS=$THREADS WALK_DONE_DIR="$WORK/done" \
  wrk -t"$THREADS" -c"$CONNECTIONS" -d600s --timeout 10s -s "$BENCH_DIR/memory_walk.lua" "$BASE/" \
  >"$WORK/walk.txt" 2>&1 &
WRK_PID=$!
while kill -0 "$WRK_PID" 2>/dev/null; do
  (($(find "$WORK/done" -type f | wc -l) >= THREADS)) && { kill -INT "$WRK_PID" 2>/dev/null || true; break; }
  sleep 0.1
done
wait "$WRK_PID" || true
walk_secs=$(awk -v s="$started" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')
WALK_RSS=$(status_kb VmRSS)
WALK_PEAK=$(peak_rss)
statuses=$(awk '/^status / { printf "%s%s: %s", sep, $2, $3; sep = ", " }' "$WORK/walk.txt")
[[ -n $statuses ]] || { cat "$WORK/walk.txt" >&2; die "the walk gave no answers"; }
log "walk done in ${walk_secs}s: $statuses"

# --- the list benchmark -------------------------------------------------------------
log "uncached list: wrk -t2 -c64 -d$BENCH_DURATION (bench/uncached_list.lua)"
wrk -t2 -c64 -d"$BENCH_DURATION" --latency -s "$BENCH_DIR/uncached_list.lua" "$BASE/" >"$WORK/uncached.txt" 2>&1
read -r u_rps u_p99 _ <<<"$(python3 "$BENCH_DIR/report.py" parse "$WORK/uncached.txt")"
log "cached list: wrk -t2 -c64 -d$BENCH_DURATION"
wrk -t2 -c64 -d"$BENCH_DURATION" --latency \
  "$BASE/api/cars/fast?limit=20&status=used&bodyType=crossover&maxPrice=3000000" >"$WORK/cached.txt" 2>&1
read -r c_rps c_p99 _ <<<"$(python3 "$BENCH_DIR/report.py" parse "$WORK/cached.txt")"

END_RSS=$(status_kb VmRSS)
HWM=$(status_kb VmHWM)
PEAK=$(peak_rss)
((PEAK > HWM)) && HWM=$PEAK

OUT_DIR="$BENCH_DIR/out"
mkdir -p "$OUT_DIR"
{
  echo "dealership memory walk, $(date -u +%Y-%m-%dT%H:%M:%SZ), commit $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)"
  echo "binary $BIN"
  echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); $CARS cars"
  echo
  printf '  %-44s %8s MB\n' "VmRSS at start" "$(mb "$START_RSS")"
  printf '  %-44s %8s MB   (%s requests in %ss; %s)\n' "VmRSS after the walk" \
    "$(mb "$WALK_RSS")" "$REQUESTS" "$walk_secs" "$statuses"
  printf '  %-44s %8s MB\n' "  peak sampled during the walk" "$(mb "$WALK_PEAK")"
  printf '  %-44s %8s MB   (uncached %.0f req/s p99 %.1f ms; cached %.0f req/s p99 %.1f ms)\n' \
    "VmRSS after the list benchmark" "$(mb "$END_RSS")" "$u_rps" "$u_p99" "$c_rps" "$c_p99"
  printf '  %-44s %8s MB   (limit %s MB)\n' "VmHWM (peak resident memory of the run)" "$(mb "$HWM")" "$LIMIT_MB"
  echo
  if ((HWM <= LIMIT_MB * 1024)); then echo "MEMORY WITHIN LIMIT"; else echo "MEMORY OVER LIMIT"; fi
} | tee "$OUT_DIR/memory_walk.txt"
((HWM <= LIMIT_MB * 1024))
