#!/usr/bin/env bash
# Cold pages: public pages no one has asked for yet, timed one at a time on
# 10,000 cars, against the same binary drawing every page whole (no fragment
# store) side by side; then each route's first and second page over the
# wire (brotli), the second with the `styles` cookie a browser has after its
# first page. See bench/README.md, "Cold pages". Writes bench/out/cold.txt.
#
# Environment (all optional):
#   BENCH_SKIP_BUILD=1  use the existing release binary (ui/dist built)
#   BENCH_CARS          cars (default 10000)
#   BENCH_PER_ROUTE     addresses per route (default 30)
#   BENCH_RATIO         budget: the cold p99 with cards ahead at most this
#                       share of the p99 drawing whole (default 0.5)
#   BENCH_SECOND_KB     budget: every route's second page at most this many
#                       KB in brotli (default 15)
#   BENCH_OVER_10MS     budget: the share of cold pages with cards ahead
#                       over 10 ms at most this (default 0.01: the issue's
#                       "under 10 ms at p99")
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$BENCH_DIR")
CARS=${BENCH_CARS:-10000}
PER_ROUTE=${BENCH_PER_ROUTE:-30}
RATIO=${BENCH_RATIO:-0.5}
SECOND_KB=${BENCH_SECOND_KB:-15}
OVER_10MS=${BENCH_OVER_10MS:-0.01}
OUT_DIR="$BENCH_DIR/out"

log() { printf '[cold %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

BIN="${CARGO_TARGET_DIR:-$ROOT/target}/release/dealership"
if [[ ${BENCH_SKIP_BUILD:-0} != 1 ]]; then
  log "npm run build (ui), cargo build --release --locked"
  (cd "$ROOT/ui" && { [[ -d node_modules ]] || npm install --no-audit --no-fund; } && npm run --silent build)
  (cd "$ROOT" && cargo build --release --locked)
fi
[[ -x $BIN ]] || die "no release binary at $BIN"

WORK=$(mktemp -d -t dealership-cold.XXXXXX)
declare -A PID=() URL=()
cleanup() {
  local status=$?
  trap - EXIT INT TERM
  for pid in "${PID[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PID[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$WORK"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# start NAME FRAGMENT_MB
start() {
  local name=$1 mb=$2 port
  port=$(free_port)
  cp -a "$WORK/data" "$WORK/$name"
  (
    cd "$WORK"
    export DEALERSHIP_PAGES_FRAGMENT_CACHE_MB=$mb DEALERSHIP_LEADS_RATE_LIMIT_PER_MINUTE=0
    export RUST_LOG=warn,dealership::http::held=info
    exec "$BIN" --data "$WORK/$name" serve --listen "127.0.0.1:$port"
  ) >"$WORK/$name.log" 2>&1 &
  PID[$name]=$!
  URL[$name]="http://127.0.0.1:$port"
  for _ in $(seq 1 300); do
    curl -fsS --max-time 2 -o /dev/null "${URL[$name]}/api/cars/count" 2>/dev/null && break
    sleep 0.2
  done
  # The first page starts the rendering threads (and the cards ahead).
  curl -fsS --max-time 30 -o /dev/null "${URL[$name]}/consent" || die "$name does not answer"
}

log "loading $CARS cars"
(cd "$WORK" && "$BIN" --data "$WORK/data" migrate) >&2
python3 "$BENCH_DIR/load_cars.py" "$WORK/data/dealership.db" "$CARS" >/dev/null
start ahead 24
start whole 0

log "waiting for the cards drawn ahead"
started=$(date +%s)
until grep -q "none waiting" "$WORK/ahead.log"; do
  (($(date +%s) - started < 300)) || die "the cards ahead were not drawn within 300 s"
  sleep 1
done
AHEAD_S=$(($(date +%s) - started))
DRAWN=$(grep -o 'cards drawn ahead: [0-9]*' "$WORK/ahead.log" | tail -1 | grep -o '[0-9]*$')
log "$DRAWN cards drawn ahead in ${AHEAD_S} s"

mkdir -p "$OUT_DIR"
LOAD=$(cut -d' ' -f1-3 /proc/loadavg)
python3 "$BENCH_DIR/cold_pages.py" "${URL[ahead]}" "${URL[whole]}" --per-route "$PER_ROUTE" \
  --out "$WORK/cold.json" | tee "$WORK/cold.txt" >&2
# Then the server as shipped alone, on addresses neither run asked for: the
# other server's drawing (its collections run beside the next request) took
# 1-2 ms from every page of this one on two cores, which a visitor's server
# does not have beside it.
kill "${PID[whole]}" 2>/dev/null || true
wait "${PID[whole]}" 2>/dev/null || true
unset 'PID[whole]'
log "the server as shipped alone"
python3 "$BENCH_DIR/cold_pages.py" "${URL[ahead]}" --per-route "$PER_ROUTE" --skip "$PER_ROUTE" \
  --out "$WORK/alone.json" | tee -a "$WORK/cold.txt" >&2

# Each route's first and second page over the wire, brotli.
HASH=$(curl -fsS "${URL[ahead]}/" | grep -o '/assets/main-[A-Za-z0-9_-]*\.css' | head -1 \
  | sed 's|/assets/main-||; s|\.css||')
[[ -n $HASH ]] || die "no inline stylesheet in the home page"
SLUG=$(curl -fsS "${URL[ahead]}/api/cars/fast?limit=1" | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["slug"])')
SIZES="$WORK/sizes.txt"
: >"$SIZES"
for path in / /new-cars /used-cars /lease-cars "/used-cars?page=2" /trade-in /auto-credit \
  /auto-selection "/car/$SLUG" /brand/kia /body-type/crossover /consent /privacy /favorites /compare; do
  first=$(curl -fsS -H 'Accept-Encoding: br' "${URL[ahead]}$path" | wc -c)
  second=$(curl -fsS -H 'Accept-Encoding: br' -H "Cookie: styles=$HASH" "${URL[ahead]}$path" | wc -c)
  echo "$path $first $second" >>"$SIZES"
done

status=0
python3 - "$WORK/cold.json" "${URL[ahead]}" "${URL[whole]}" "$SIZES" "$RATIO" "$SECOND_KB" \
  "$DRAWN" "$AHEAD_S" "$LOAD" "$OVER_10MS" "$WORK/alone.json" >"$OUT_DIR/cold.txt" <<'EOF' || status=1
import json, sys
timings_file, ahead, whole, sizes_file, ratio, second_kb, drawn, ahead_s, load, over_share, alone_file = sys.argv[1:]
timings = json.load(open(timings_file))
def p99(values):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(0.99 * (len(ordered) - 1))))]
every = {side: [ms for values in timings[url].values() for ms in values] for side, url in (("ahead", ahead), ("whole", whole))}
failed = []
print(f"cold pages, 10,000 cars; {drawn} cards drawn ahead in {ahead_s} s; load {load}")
print(f"{'route':<11} {'ahead p50':>10} {'ahead p99':>10} {'whole p50':>10} {'whole p99':>10}")
for route in timings[ahead]:
    a, w = timings[ahead][route], timings[whole][route]
    print(f"{route:<11} {sorted(a)[len(a)//2]:>10.2f} {p99(a):>10.2f} {sorted(w)[len(w)//2]:>10.2f} {p99(w):>10.2f}")
a99, w99 = p99(every["ahead"]), p99(every["whole"])
over = sum(ms > 10 for ms in every["ahead"])
print(f"{'all':<11} {sorted(every['ahead'])[len(every['ahead'])//2]:>10.2f} {a99:>10.2f} "
      f"{sorted(every['whole'])[len(every['whole'])//2]:>10.2f} {w99:>10.2f}")
print(f"pages over 10 ms with cards ahead, side by side: {over} of {len(every['ahead'])}")
alone = [ms for values in json.load(open(alone_file))[ahead].values() for ms in values]
alone_over = sum(ms > 10 for ms in alone)
print(f"{'alone':<11} {sorted(alone)[len(alone)//2]:>10.2f} {p99(alone):>10.2f}   (the server as shipped alone, new addresses)")
over_verdict = "ok" if alone_over / len(alone) <= float(over_share) else "OVER"
if over_verdict != "ok":
    failed.append("over 10 ms")
print(f"budget: pages over 10 ms, the server alone <= {float(over_share):.0%}: {alone_over} of {len(alone)} {over_verdict}")
verdict = "ok" if a99 <= float(ratio) * w99 else "OVER"
if verdict != "ok":
    failed.append("cold p99")
print(f"budget: cold p99 with cards ahead <= {ratio} x drawing whole: {a99:.2f} / {w99:.2f} = {a99 / w99:.2f} {verdict}")
print()
print(f"{'page':<40} {'first br B':>10} {'second br B':>11}")
for line in open(sizes_file):
    path, first, second = line.split()
    mark = "" if int(second) <= float(second_kb) * 1024 else "  OVER"
    if mark:
        failed.append(path)
    print(f"{path:<40} {first:>10} {second:>11}{mark}")
print(f"budget: every second page <= {second_kb} KB brotli: {'ok' if not [f for f in failed if f.startswith('/')] else 'OVER'}")
sys.exit(1 if failed else 0)
EOF
cat "$OUT_DIR/cold.txt"
exit $status
