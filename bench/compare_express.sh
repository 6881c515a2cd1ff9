#!/usr/bin/env bash
# The cache-miss benchmark side by side: the dealership and a plain Express +
# better-sqlite3 app (bench/express/) serving the same filtered list, with the
# same SQL, over the same database file, each measured with wrk and
# bench/uncached_list.lua (a different maxPrice on every request). Prints
# requests/s, p99 and the ratio. See bench/README.md.
#
# Environment (all optional):
#   BENCH_DURATION      length of each wrk run (default 10s)
#   BENCH_ROUNDS        alternations dealership/express (default 2)
#   BENCH_CONNECTIONS   wrk connections (default 64)
#   BENCH_THREADS       wrk threads (default 2)
#   BENCH_CARS          cars to load (default 10000)
#   EXPRESS_WORKERS     Express processes to compare with, space separated
#                       (default "1 2": one process, then two under node:cluster)
#   BENCH_SKIP_BUILD=1  use the existing release binary
#   BENCH_BIN           another binary to measure (no build), e.g. an older commit's
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$BENCH_DIR")
DURATION=${BENCH_DURATION:-10s}
ROUNDS=${BENCH_ROUNDS:-2}
CONNECTIONS=${BENCH_CONNECTIONS:-64}
THREADS=${BENCH_THREADS:-2}
CARS=${BENCH_CARS:-10000}
WORKER_COUNTS=${EXPRESS_WORKERS:-1 2}

log() { printf '[compare %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

for tool in wrk curl python3 node npm; do
  command -v "$tool" >/dev/null || die "$tool is needed (apt-get install -y wrk curl python3 nodejs npm)"
done

BIN="${BENCH_BIN:-${CARGO_TARGET_DIR:-$ROOT/target}/release/dealership}"
if [[ ${BENCH_SKIP_BUILD:-0} != 1 && -z ${BENCH_BIN:-} ]]; then
  log "npm run build (ui), cargo build --release --locked"
  (cd "$ROOT/ui" && { [[ -d node_modules ]] || npm install --no-audit --no-fund; } && npm run --silent build)
  (cd "$ROOT" && cargo build --release --locked)
fi
[[ -x $BIN ]] || die "no release binary at $BIN"
log "npm install (bench/express)"
(cd "$BENCH_DIR/express" && npm install --no-audit --no-fund --silent) >&2

WORK=$(mktemp -d -t dealership-compare.XXXXXX)
PIDS=()
cleanup() {
  local status=$?
  trap - EXIT INT TERM
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$WORK"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
wait_for() { # url pid log
  for _ in $(seq 1 150); do
    curl -fsS --max-time 2 -o /dev/null "$1" 2>/dev/null && return 0
    kill -0 "$2" 2>/dev/null || { cat "$3" >&2; die "server exited"; }
    sleep 0.2
  done
  die "$1 does not answer"
}

DATA="$WORK/data"
DB="$DATA/dealership.db"
(cd "$WORK" && "$BIN" --data "$DATA" migrate) >&2
log "loading $CARS cars"
python3 "$BENCH_DIR/load_cars.py" "$DB" "$CARS" >/dev/null

PORT=$(free_port)
(
  cd "$WORK"
  export RUST_LOG="${BENCH_RUST_LOG:-info,tower_http=warn}"
  exec "$BIN" --data "$DATA" serve --listen "127.0.0.1:$PORT"
) >"$WORK/dealership.log" 2>&1 &
DEALER_PID=$!
PIDS+=("$DEALER_PID")
declare -A SIDE_PID=([dealership]=$DEALER_PID)
PROBE="/api/cars/fast?limit=20&status=used&bodyType=crossover&maxPrice=3000000"
wait_for "http://127.0.0.1:$PORT$PROBE" "$DEALER_PID" "$WORK/dealership.log"

declare -A EXPRESS_PORT
for workers in $WORKER_COUNTS; do
  port=$(free_port)
  node "$BENCH_DIR/express/server.js" "$DB" "$port" "$workers" >"$WORK/express-$workers.log" 2>&1 &
  PIDS+=("$!")
  SIDE_PID[express-$workers]=$!
  EXPRESS_PORT[$workers]=$port
  wait_for "http://127.0.0.1:$port$PROBE" "$!" "$WORK/express-$workers.log"
done

# The same answer from both: the same cars in the same order, field by field.
curl -fsS "http://127.0.0.1:$PORT$PROBE" >"$WORK/dealership.json"
for workers in $WORKER_COUNTS; do
  curl -fsS "http://127.0.0.1:${EXPRESS_PORT[$workers]}$PROBE" >"$WORK/express-$workers.json"
  python3 - "$WORK/dealership.json" "$WORK/express-$workers.json" <<'EOF' || die "Express answers differently"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
if a != b:
    sys.exit(f"{len(a)} cars vs {len(b)}; first differing: "
             f"{next(((x, y) for x, y in zip(a, b) if x != y), None)}")
EOF
done
log "both serve the same $(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))))' "$WORK/dealership.json") cars for $PROBE"

RESULTS="$WORK/results"
: >"$RESULTS"
machine_ticks() { awk '/^cpu / { busy = $2 + $3 + $4 + $7 + $8 + $9; print busy, busy + $5 + $6 }' /proc/stat; }
tree_ticks() { # ticks of the given pids and their children
  local total=0 pid f
  for pid in "$@" $(for p in "$@"; do ps -o pid= --ppid "$p" 2>/dev/null; done); do
    [[ -r /proc/$pid/stat ]] || continue
    read -r -a f <"/proc/$pid/stat" || continue
    total=$((total + f[13] + f[14]))
  done
  echo "$total"
}
children_ticks() { local f; read -r -a f <"/proc/$$/stat"; echo $((f[15] + f[16])); }

run() { # side url
  local side=$1 url=$2 out="$WORK/wrk.$1.$RANDOM.txt" b0 t0 b1 t1 s0 s1 k0 k1 m0 m1 other
  read -r b0 t0 < <(machine_ticks); s0=$(tree_ticks "${PIDS[@]}"); k0=$(children_ticks)
  m0=$(tree_ticks "${SIDE_PID[$side]}")
  timeout 120 wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency \
    -s "$BENCH_DIR/uncached_list.lua" "$url" >"$out" 2>&1 || { cat "$out" >&2; die "wrk failed"; }
  m1=$(tree_ticks "${SIDE_PID[$side]}")
  k1=$(children_ticks); s1=$(tree_ticks "${PIDS[@]}"); read -r b1 t1 < <(machine_ticks)
  other=$(awk -v b=$((b1 - b0)) -v t=$((t1 - t0)) -v s=$((s1 - s0)) -v k=$((k1 - k0)) \
    'BEGIN { o = t > 0 ? 100 * (b - s - k) / t : 0; printf "%.0f", o < 0 ? 0 : o }')
  read -r rps p99 non2xx sockerr requests _ <<<"$(python3 "$BENCH_DIR/report.py" parse "$out")"
  # The server's own CPU time per answer (user + system, its processes only):
  # steadier than requests/s on a shared machine.
  local cpu_us
  cpu_us=$(awk -v t=$((m1 - m0)) -v hz="$(getconf CLK_TCK)" -v n="$requests" 'BEGIN { printf "%.0f", (n > 0 ? t * 1e6 / hz / n : 0) }')
  # Timeouts (wrk's 2 s) are a result, shown in the table; a wrong answer is not.
  ((non2xx == 0)) || { cat "$out" >&2; die "$side: $non2xx non-2xx answers"; }
  echo "$side $rps $p99 $other $sockerr $cpu_us" >>"$RESULTS"
  log "$(printf '%-12s %10.0f req/s  p99 %7.2f ms  socket errors %s  cpu %s us/answer  other cpu %s%%' "$side" "$rps" "$p99" "$sockerr" "$cpu_us" "$other")"
  sleep 1
}

log "wrk -t$THREADS -c$CONNECTIONS -d$DURATION, bench/uncached_list.lua, $ROUNDS rounds"
for round in $(seq 1 "$ROUNDS"); do
  run dealership "http://127.0.0.1:$PORT/"
  for workers in $WORKER_COUNTS; do
    run "express-$workers" "http://127.0.0.1:${EXPRESS_PORT[$workers]}/"
  done
done

OUT_DIR="$BENCH_DIR/out"
mkdir -p "$OUT_DIR"
{
  echo "cache misses, dealership vs Express + better-sqlite3, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown), node $(node --version), express $(node -p 'require(process.argv[1]).version' "$BENCH_DIR/express/node_modules/express/package.json"), better-sqlite3 $(node -p 'require(process.argv[1]).version' "$BENCH_DIR/express/node_modules/better-sqlite3/package.json")"
  echo "binary $BIN"
  echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); $CARS cars"
  echo "wrk -t$THREADS -c$CONNECTIONS -d$DURATION --latency -s uncached_list.lua, $ROUNDS rounds"
  echo
  python3 - "$RESULTS" <<'EOF'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    side, rps, p99, other, errors, cpu = line.split()
    rows.setdefault(side, []).append((float(rps), float(p99), float(other), int(errors), float(cpu)))
print(f"  {'server':<14} {'req/s (median)':>15} {'p99 ms (worst)':>15} {'socket errors':>14} {'cpu us/answer':>14} {'other cpu':>10} {'ratio':>8} {'cpu ratio':>10}")
base = statistics.median(r[0] for r in rows["dealership"])
base_cpu = statistics.median(r[4] for r in rows["dealership"])
for side, runs in rows.items():
    rps = statistics.median(r[0] for r in runs)
    p99 = max(r[1] for r in runs)
    other = max(r[2] for r in runs)
    errors = sum(r[3] for r in runs)
    cpu = statistics.median(r[4] for r in runs)
    ratio = "" if side == "dealership" else f"{base / rps:.1f}x"
    cpu_ratio = "" if side == "dealership" or base_cpu == 0 else f"{cpu / base_cpu:.1f}x"
    print(f"  {side:<14} {rps:>15.0f} {p99:>15.2f} {errors:>14} {cpu:>14.0f} {other:>9.0f}% {ratio:>8} {cpu_ratio:>10}")
print()
print("ratio: dealership requests/s over that server's; cpu us/answer: the server's own CPU time")
print("(user + system) per answer, median; cpu ratio: that server's over the dealership's;")
print("other cpu: the largest share of the")
print("machine taken by other processes during a run (above 10 % the figures are noisy).")
EOF
} | tee "$OUT_DIR/compare_express.txt"
