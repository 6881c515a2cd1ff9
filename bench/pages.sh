#!/usr/bin/env bash
# Server-drawn pages: cached pages against a cached API answer, cache misses,
# the server's memory, each with server_render on and off side by side; then
# the render alone in QuickJS (benches/render.rs) and in V8 (render_v8.mjs).
# See bench/README.md, "Server-drawn pages". Prints a summary table and writes
# it to bench/out/pages.txt.
#
# Environment (all optional):
#   BENCH_DURATION      length of each wrk run (default 10s)
#   BENCH_ROUNDS        on/off alternations per case (default 2)
#   BENCH_CONNECTIONS   wrk connections (default 64)
#   BENCH_THREADS       wrk threads (default 2)
#   BENCH_CARS          cars in the big database (default 10000)
#   BENCH_MISS_CONNECTIONS  wrk connections of the cache-miss runs (default "64 1")
#   BENCH_SKIP_BUILD=1  use the existing release binary
#   BENCH_RENDER=0      skip the render-alone part (cargo bench, node); cargo
#                       bench builds the bench profile (long after source changes)
#   RENDER_ITERATIONS   renders per page in the render-alone part (default 300)
#   BENCH_DEMO_DIR      keep the demo data directory here and reuse it next time
#                       (its creation takes about 2 minutes, mostly pictures)
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$BENCH_DIR")
DURATION=${BENCH_DURATION:-10s}
ROUNDS=${BENCH_ROUNDS:-2}
CONNECTIONS=${BENCH_CONNECTIONS:-64}
THREADS=${BENCH_THREADS:-2}
CARS=${BENCH_CARS:-10000}
MISS_CONNECTIONS=${BENCH_MISS_CONNECTIONS:-64 1}
OUT_DIR="$BENCH_DIR/out"

log() { printf '[pages %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

case "$DURATION" in
  *[0-9]s) SECS=${DURATION%s} ;;
  *[0-9]m) SECS=$(( ${DURATION%m} * 60 )) ;;
  *[0-9]) SECS=$DURATION; DURATION="${DURATION}s" ;;
  *) die "BENCH_DURATION must look like 10s, got $DURATION" ;;
esac
[[ $SECS =~ ^[0-9]+$ && $SECS -ge 1 ]] || die "BENCH_DURATION must be whole seconds, got $DURATION"
[[ $ROUNDS =~ ^[0-9]+$ && $ROUNDS -ge 1 ]] || die "BENCH_ROUNDS must be a positive integer"

# --- tools --------------------------------------------------------------------
missing=()
command -v wrk >/dev/null || missing+=(wrk)
command -v curl >/dev/null || missing+=(curl)
command -v python3 >/dev/null || missing+=(python3)
if ((${#missing[@]})); then
  log "installing ${missing[*]}"
  SUDO=()
  [[ $EUID -eq 0 ]] || SUDO=(sudo)
  "${SUDO[@]}" apt-get update
  DEBIAN_FRONTEND=noninteractive "${SUDO[@]}" apt-get install -y "${missing[@]}"
fi

# --- build --------------------------------------------------------------------
BIN="${CARGO_TARGET_DIR:-$ROOT/target}/release/dealership"
if [[ ${BENCH_SKIP_BUILD:-0} != 1 ]]; then
  log "npm run build (ui), cargo build --release --locked"
  (cd "$ROOT/ui" && { [[ -d node_modules ]] || npm install --no-audit --no-fund; } && npm run --silent build)
  (cd "$ROOT" && cargo build --release --locked)
fi
[[ -x $BIN ]] || die "no release binary at $BIN"
[[ -f $ROOT/ui/dist-server/render.js ]] || die "no ui/dist-server/render.js (npm run build in ui/)"

# --- scratch space and cleanup ---------------------------------------------------
WORK=$(mktemp -d -t dealership-pages.XXXXXX)
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

# start_server NAME DATA_DIR RENDER(true|false) [serve arguments...]
start_server() {
  local name=$1 data=$2 render=$3 port
  shift 3
  port=$(free_port)
  (
    cd "$WORK"
    export DEALERSHIP_PAGES_SERVER_RENDER=$render
    export DEALERSHIP_LEADS_RATE_LIMIT_PER_MINUTE=0
    export RUST_LOG="${BENCH_RUST_LOG:-info,tower_http=warn}"
    exec "$BIN" --data "$data" serve --listen "127.0.0.1:$port" "$@"
  ) >"$WORK/$name.log" 2>&1 &
  PID[$name]=$!
  URL[$name]="http://127.0.0.1:$port"
  for _ in $(seq 1 1500); do
    curl -fsS --max-time 2 -o /dev/null "${URL[$name]}/api/cars/count" 2>/dev/null && break
    kill -0 "${PID[$name]}" 2>/dev/null || { cat "$WORK/$name.log" >&2; die "server $name exited"; }
    sleep 0.2
  done
  curl -fsS --max-time 2 -o /dev/null "${URL[$name]}/api/cars/count" \
    || { tail -50 "$WORK/$name.log" >&2; die "server $name does not answer"; }
  log "server $name (server_render=$render) on ${URL[$name]}, pid ${PID[$name]}"
}

stop_server() {
  local name=$1
  kill "${PID[$name]}" 2>/dev/null || true
  wait "${PID[$name]}" 2>/dev/null || true
  unset "PID[$name]"
}

status_kb() { # PID FIELD -> kB
  awk -v f="$2:" '$1 == f { print $2 }' "/proc/$1/status"
}

# --- data: 10,000 cars and the demo dealership, each copied for both servers -------
BIG="$WORK/big"
(cd "$WORK" && "$BIN" --data "$BIG" migrate) >&2
log "loading $CARS cars"
SLUG=$(python3 "$BENCH_DIR/load_cars.py" "$BIG/dealership.db" "$CARS")
[[ -n $SLUG ]] || die "load_cars.py gave no slug"

if [[ -n ${BENCH_DEMO_DIR:-} && -f $BENCH_DEMO_DIR/dealership.db ]]; then
  log "demo data from $BENCH_DEMO_DIR"
  cp -a "$BENCH_DEMO_DIR" "$WORK/demo"
else
  log "creating the demo data (serve --demo, first start; about 2 minutes, most of it pictures)"
  start_server demo-seed "$WORK/demo" true --demo
  stop_server demo-seed
  if [[ -n ${BENCH_DEMO_DIR:-} ]]; then
    rm -rf "$BENCH_DEMO_DIR" && mkdir -p "$(dirname "$BENCH_DEMO_DIR")" && cp -a "$WORK/demo" "$BENCH_DEMO_DIR" && rm -f "$BENCH_DEMO_DIR/dealership.lock"
  fi
fi

# A server locks its data directory, so each gets its own copy of the same files.
for name in big demo; do
  for side in on off; do
    cp -a "$WORK/$name" "$WORK/$name-$side"
    rm -f "$WORK/$name-$side/dealership.lock"
  done
done

for name in big demo; do
  start_server "$name-on" "$WORK/$name-on" true
  start_server "$name-off" "$WORK/$name-off" false
done
sleep 1

MEMORY="$WORK/memory.tsv"
: >"$MEMORY"
memory_step() { # STEP
  local name
  for name in big-on big-off demo-on demo-off; do
    [[ -n ${PID[$name]:-} ]] || continue
    echo "$name $1 $(status_kb "${PID[$name]}" VmRSS) $(status_kb "${PID[$name]}" VmHWM)" >>"$MEMORY"
  done
}
memory_step started

# --- every public page once (the memory step), checking on draws and off does not -----
PAGES_DIR="$WORK/pages"
mkdir -p "$PAGES_DIR"
declare -A CAR_SLUG=([big]="$SLUG") BRAND_SLUG=()
for name in big demo; do
  curl -fsS --max-time 10 -o "$WORK/$name-cars.json" "${URL[$name-on]}/api/cars/fast?limit=1"
  [[ -n ${CAR_SLUG[$name]:-} ]] || CAR_SLUG[$name]=$(python3 "$BENCH_DIR/pages_report.py" first-slug "$WORK/$name-cars.json")
  curl -fsS --max-time 10 -o "$WORK/$name-brands.json" "${URL[$name-on]}/api/brands/fast"
  BRAND_SLUG[$name]=$(python3 "$BENCH_DIR/pages_report.py" first-slug "$WORK/$name-brands.json")
done
public_pages() { # DATA_NAME
  echo / /new-cars /used-cars /lease-cars /trade-in /auto-credit /auto-selection \
    "/car/${CAR_SLUG[$1]}" "/brand/${BRAND_SLUG[$1]}" /body-type/crossover \
    /consent /privacy /favorites /compare /no-such-page
}
WALK_REPORT=""
for name in big demo; do
  for side in on off; do
    drawn=0 shells=0 bytes=0
    for path in $(public_pages "$name"); do
      file="$PAGES_DIR/$name-$side$(echo "$path" | tr '/?=&' '____').html"
      code=$(curl -sS --max-time 30 -o "$file" -w '%{http_code}' "${URL[$name-$side]}$path")
      [[ $code == 200 || ( $path == /no-such-page && $code == 404 ) ]] \
        || die "$name-$side $path answered $code"
      bytes=$((bytes + $(stat -c %s "$file")))
      if grep -qF '<div id="app"><noscript>' "$file"; then
        shells=$((shells + 1))
      else
        drawn=$((drawn + 1))
      fi
    done
    WALK_REPORT+=$(printf '  %-9s %2d pages drawn, %2d shells, %8d B in all' "$name-$side" "$drawn" "$shells" "$bytes")$'\n'
    [[ $side == on && $shells -gt 0 ]] && log "WARNING: $name-on sent $shells of its pages as the shell"
    [[ $side == off && $drawn -gt 0 ]] && die "$name-off drew $drawn pages with server_render=false"
  done
done
sleep 0.5
memory_step every_page_once

# --- the page data for the render-alone part --------------------------------------------
RENDER_DATA="$OUT_DIR/render-data"
rm -rf "$RENDER_DATA" && mkdir -p "$RENDER_DATA"
capture() { # NAME SERVER PATH
  local name=$1 server=$2 path=$3 drawn
  curl -fsS --max-time 30 -o "$WORK/capture.html" "${URL[$server]}$path" || die "capture $server $path"
  drawn=$(python3 "$BENCH_DIR/pages_report.py" extract "$WORK/capture.html" "$RENDER_DATA/$name.json")
  printf '%s\n' "$path" >"$RENDER_DATA/$name.url"
  log "captured $name: $path from $server ($drawn, data $(stat -c %s "$RENDER_DATA/$name.json") B)"
}
capture home_demo demo-on /
capture home_10k big-on /
capture new_cars_10k big-on /new-cars
capture car_10k big-on "/car/$SLUG"
capture used_cars_10k big-on "/used-cars?price=3000000&page=2"

# --- wrk -------------------------------------------------------------------------------
RESULTS="$WORK/results.tsv"
: >"$RESULTS"
mkdir -p "$WORK/wrk"
machine_ticks() { awk '/^cpu / { busy = $2 + $3 + $4 + $7 + $8 + $9; print busy, busy + $5 + $6 }' /proc/stat; }
pid_ticks() { local f; read -r -a f <"/proc/$1/stat"; echo $((f[13] + f[14])); }
children_ticks() { local f; read -r -a f <"/proc/$$/stat"; echo $((f[15] + f[16])); }
TICK_US=$((1000000 / $(getconf CLK_TCK)))

run_wrk() { # kind case side round server url [script] [connections]
  local kind=$1 case=$2 side=$3 round=$4 server=$5 url=$6 script=${7:-} conns=${8:-$CONNECTIONS}
  local out="$WORK/wrk/$kind.$case.$side.$round.txt" cmd busy0 total0 busy1 total1 srv0 srv1 kids0 kids1
  local threads=$THREADS
  ((conns < threads)) && threads=$conns
  cmd=(timeout $((SECS + 60)) wrk -t"$threads" -c"$conns" -d"$DURATION" --latency)
  [[ -n $script ]] && cmd+=(-s "$script")
  [[ $case == *_br ]] && cmd+=(-H "Accept-Encoding: br")
  read -r busy0 total0 < <(machine_ticks)
  srv0=$(pid_ticks "${PID[$server]}")
  kids0=$(children_ticks)
  "${cmd[@]}" "$url" >"$out" 2>&1 || { cat "$out" >&2; die "wrk failed"; }
  kids1=$(children_ticks)
  srv1=$(pid_ticks "${PID[$server]}")
  read -r busy1 total1 < <(machine_ticks)
  local parsed rps p50 p99 non2xx sockerr requests bare cpu_us other
  parsed=$(python3 "$BENCH_DIR/pages_report.py" parse "$out")
  read -r rps p50 p99 non2xx sockerr requests bare <<<"$parsed"
  cpu_us=$(awk -v t=$((srv1 - srv0)) -v n="$requests" -v u="$TICK_US" 'BEGIN { printf "%.1f", (n > 0 ? t * u / n : 0) }')
  other=$(awk -v b=$((busy1 - busy0)) -v t=$((total1 - total0)) -v s=$((srv1 - srv0)) \
    -v k=$((kids1 - kids0)) 'BEGIN { o = (t > 0 ? 100 * (b - s - k) / t : 0); printf "%.0f", (o < 0 ? 0 : o) }')
  echo "$kind $case $side $round $rps $p50 $p99 $non2xx $sockerr $requests $bare $cpu_us $other" >>"$RESULTS"
  log "$(printf '%-6s %-12s render %-3s round %d: %9.1f req/s  p50 %7.2f ms  p99 %7.2f ms  CPU/answer %6.0f us  errors %s  bare %s  other cpu %s%%' \
    "$kind" "$case" "$side" "$round" "$rps" "$p50" "$p99" "$cpu_us" "$((non2xx + sockerr))" "$bare" "$other")"
  sleep 1
}

# NAME_br: the same URL asked with Accept-Encoding: br, as a browser asks (the
# cache keeps the brotli form next to the plain one).
CASES=(api home new_cars car home_demo api_br home_br new_cars_br car_br)
declare -A CASE_DATA=() CASE_PATH=()
for case in "${CASES[@]}"; do
  CASE_DATA[$case]=big
  case ${case%_br} in
    api) CASE_PATH[$case]="/api/cars/fast?limit=20&status=used&bodyType=crossover&maxPrice=3000000" ;;
    home) CASE_PATH[$case]="/" ;;
    new_cars) CASE_PATH[$case]="/new-cars" ;;
    car) CASE_PATH[$case]="/car/$SLUG" ;;
    home_demo) CASE_PATH[$case]="/"; CASE_DATA[$case]=demo ;;
  esac
done
SIZES=""
for case in "${CASES[@]}"; do
  enc=()
  [[ $case == *_br ]] && enc=(-H "Accept-Encoding: br")
  for side in on off; do
    server="${CASE_DATA[$case]}-$side"
    # Twice: the second answer is the cached one wrk gets.
    curl -fsS --max-time 30 "${enc[@]}" -o /dev/null "${URL[$server]}${CASE_PATH[$case]}" || die "$server ${CASE_PATH[$case]}"
    curl -fsS --max-time 30 "${enc[@]}" -D "$WORK/$case.$side.headers" -o "$WORK/$case.$side.body" "${URL[$server]}${CASE_PATH[$case]}"
    if [[ $case == *_br ]] && ! grep -qi '^content-encoding: br' "$WORK/$case.$side.headers"; then
      log "WARNING: $server ${CASE_PATH[$case]}: no brotli form"
    fi
  done
  SIZES+=$(printf '  %-12s on %7d B, off %7d B   %s (%s data)' "$case" "$(stat -c %s "$WORK/$case.on.body")" \
    "$(stat -c %s "$WORK/$case.off.body")" "${CASE_PATH[$case]}" "${CASE_DATA[$case]}")$'\n'
done

LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
log "wrk: $THREADS threads, $CONNECTIONS connections, $DURATION per run, $ROUNDS rounds; load $LOAD_START"
for case in "${CASES[@]}"; do
  for round in $(seq 1 "$ROUNDS"); do
    for side in on off; do
      server="${CASE_DATA[$case]}-$side"
      run_wrk cached "$case" "$side" "$round" "$server" "${URL[$server]}${CASE_PATH[$case]}"
    done
  done
done
memory_step after_cached_wrk
# At 64 connections a miss waits for the rendering threads (queueing); at one
# connection its latency is its own cost.
for conns in $MISS_CONNECTIONS; do
  for round in $(seq 1 "$ROUNDS"); do
    for side in on off; do
      run_wrk miss "used_cars_c$conns" "$side" "$round" "big-$side" "${URL[big-$side]}/" "$BENCH_DIR/pages_miss.lua" "$conns"
    done
  done
done
memory_step after_misses
LOAD_END=$(cut -d' ' -f1-3 /proc/loadavg)
QUEUE_FULL=$(grep -c 'page rendering queue full' "$WORK/big-on.log" || true)
RENDER_ERRORS=$(grep -c 'ERROR.*render' "$WORK/big-on.log" || true)

mkdir -p "$OUT_DIR"
rm -rf "$OUT_DIR/pages-raw" && mkdir -p "$OUT_DIR/pages-raw"
cp "$WORK"/wrk/*.txt "$RESULTS" "$MEMORY" "$WORK"/*.log "$OUT_DIR/pages-raw/"
{
  printf 'every public page once:\n%s' "$WALK_REPORT"
  printf "cached answers' sizes:\n%s" "$SIZES"
  echo "load: $LOAD_START -> $LOAD_END; queue full $QUEUE_FULL; render errors $RENDER_ERRORS"
} >"$OUT_DIR/pages-raw/info.txt"

# --- the render alone: servers stopped, so the cores are free ----------------------------
for name in big-on big-off demo-on demo-off; do stop_server "$name"; done
RENDER_TSV="$WORK/render.tsv"
: >"$RENDER_TSV"
RENDER_LOAD=""
if [[ ${BENCH_RENDER:-1} != 0 ]]; then
  RENDER_LOAD=$(cut -d' ' -f1-3 /proc/loadavg)
  log "cargo bench --bench render (QuickJS), load $RENDER_LOAD"
  (cd "$ROOT" && RENDER_DATA_DIR="$RENDER_DATA" RENDER_TSV="$RENDER_TSV" cargo bench --locked --bench render) \
    >"$OUT_DIR/pages-raw/render-quickjs.txt" 2>"$OUT_DIR/pages-raw/render-quickjs.err" \
    || { tail -30 "$OUT_DIR/pages-raw/render-quickjs.err" >&2; die "cargo bench --bench render failed"; }
  cat "$OUT_DIR/pages-raw/render-quickjs.txt" >&2
  if command -v node >/dev/null; then
    for flags in "" "--jitless"; do
      log "node $flags bench/render_v8.mjs (V8)"
      # shellcheck disable=SC2086
      RENDER_DATA_DIR="$RENDER_DATA" RENDER_TSV="$RENDER_TSV" node --expose-gc $flags "$BENCH_DIR/render_v8.mjs" \
        >"$OUT_DIR/pages-raw/render-v8$flags.txt" || die "render_v8.mjs $flags failed"
      cat "$OUT_DIR/pages-raw/render-v8$flags.txt" >&2
    done
  else
    log "no node: V8 comparison skipped"
  fi
  RENDER_LOAD+=" -> $(cut -d' ' -f1-3 /proc/loadavg)"
fi

# --- report --------------------------------------------------------------------------
{
  echo "server-drawn pages benchmark, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)$(git -C "$ROOT" diff --quiet HEAD 2>/dev/null || echo ' (uncommitted changes)')"
  echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
  echo "$(wrk -v 2>&1 | head -1 | cut -d' ' -f1-2), wrk -t$THREADS -c$CONNECTIONS -d$DURATION --latency (misses also at -c1), $ROUNDS rounds alternating on/off"
  echo "load average (1/5/15 min): $LOAD_START at the start of the wrk runs, $LOAD_END at the end${RENDER_LOAD:+; render-alone part: $RENDER_LOAD}"
  echo "data: big = $CARS cars (load_cars.py), demo = serve --demo; each server its own copy of the same files"
  echo
  echo "every public page once (the same servers then answer the wrk runs):"
  printf '%s' "$WALK_REPORT"
  echo "cached answers' sizes (identity encoding):"
  printf '%s' "$SIZES"
  echo "rendering queue full during the runs: $QUEUE_FULL times; render errors: $RENDER_ERRORS"
  echo
  python3 "$BENCH_DIR/pages_report.py" table "$RESULTS" "$MEMORY" "$RENDER_TSV"
} | tee "$OUT_DIR/pages.txt"
cp "$RENDER_TSV" "$OUT_DIR/pages-raw/" 2>/dev/null || true
log "summary written to $OUT_DIR/pages.txt (raw outputs in $OUT_DIR/pages-raw/, page data in $RENDER_DATA/)"
