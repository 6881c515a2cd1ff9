#!/usr/bin/env bash
# Benchmark of the public API against nginx serving the same bytes.
# See bench/README.md. Exit code 0 when every budget passes, 1 otherwise.
#
# Environment (all optional):
#   BENCH_DURATION       length of each wrk run, wrk syntax (default 10s)
#   BENCH_ROUNDS         dealership/nginx alternations per case (default 5: one
#                        run of either server moves by up to 20 %)
#   BENCH_CONNECTIONS    wrk connections (default 64; the budget is defined at 64)
#   BENCH_THREADS        wrk threads (default 2)
#   BENCH_CARS           cars to load (default 10000)
#   BENCH_NGINX_WORKERS  nginx worker_processes (default auto = one per core)
#   BENCH_SKIP_BUILD=1   use the existing target/release/dealership
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$BENCH_DIR")
DURATION=${BENCH_DURATION:-10s}
ROUNDS=${BENCH_ROUNDS:-5}
CONNECTIONS=${BENCH_CONNECTIONS:-64}
THREADS=${BENCH_THREADS:-2}
CARS=${BENCH_CARS:-10000}
NGINX_WORKERS=${BENCH_NGINX_WORKERS:-auto}
OUT_DIR="$BENCH_DIR/out"

log() { printf '[bench %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

# Seconds of a wrk duration (10s, 2m, 1h, or a plain number of seconds).
case "$DURATION" in
  *[0-9]s) SECS=${DURATION%s} ;;
  *[0-9]m) SECS=$(( ${DURATION%m} * 60 )) ;;
  *[0-9]h) SECS=$(( ${DURATION%h} * 3600 )) ;;
  *[0-9]) SECS=$DURATION; DURATION="${DURATION}s" ;;
  *) die "BENCH_DURATION must look like 10s, got $DURATION" ;;
esac
[[ $SECS =~ ^[0-9]+$ && $SECS -ge 1 ]] || die "BENCH_DURATION must be whole seconds, got $DURATION"
[[ $ROUNDS =~ ^[0-9]+$ && $ROUNDS -ge 1 ]] || die "BENCH_ROUNDS must be a positive integer"

# --- tools --------------------------------------------------------------------
NGINX_BIN=$(command -v nginx || true)
[[ -z $NGINX_BIN && -x /usr/sbin/nginx ]] && NGINX_BIN=/usr/sbin/nginx
missing=()
command -v wrk >/dev/null || missing+=(wrk)
[[ -n $NGINX_BIN ]] || missing+=(nginx)
command -v curl >/dev/null || missing+=(curl)
command -v python3 >/dev/null || missing+=(python3)
if ((${#missing[@]})); then
  log "installing ${missing[*]}"
  SUDO=()
  [[ $EUID -eq 0 ]] || SUDO=(sudo)
  "${SUDO[@]}" apt-get update
  DEBIAN_FRONTEND=noninteractive "${SUDO[@]}" apt-get install -y "${missing[@]}"
  NGINX_BIN=$(command -v nginx || echo /usr/sbin/nginx)
fi
[[ -x $NGINX_BIN ]] || die "nginx not found after installation"

# --- build --------------------------------------------------------------------
BIN="${CARGO_TARGET_DIR:-$ROOT/target}/release/dealership"
if [[ ${BENCH_SKIP_BUILD:-0} != 1 ]]; then
  # A release build embeds the built UI and refuses to start without it.
  log "npm run build (ui), cargo build --release --locked"
  (cd "$ROOT/ui" && { [[ -d node_modules ]] || npm install --no-audit --no-fund; } && npm run --silent build)
  (cd "$ROOT" && cargo build --release --locked)
fi
[[ -x $BIN ]] || die "no release binary at $BIN"

# --- scratch space and cleanup ---------------------------------------------------
WORK=$(mktemp -d -t dealership-bench.XXXXXX)
SERVER_PID=""
NGINX_PID=""
cleanup() {
  local status=$?
  trap - EXIT INT TERM
  for pid in $SERVER_PID $NGINX_PID; do
    kill "$pid" 2>/dev/null || true
  done
  for pid in $SERVER_PID $NGINX_PID; do
    wait "$pid" 2>/dev/null || true
  done
  rm -rf "$WORK"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# --- data ---------------------------------------------------------------------------
DATA="$WORK/data"
DB="$DATA/dealership.db"
# Run from the scratch dir so no ./dealership.toml of the caller is picked up.
(cd "$WORK" && "$BIN" --data "$DATA" migrate) >&2
log "loading $CARS cars"
SLUG=$(python3 "$BENCH_DIR/load_cars.py" "$DB" "$CARS")
[[ -n $SLUG ]] || die "load_cars.py gave no slug"

# --- dealership ------------------------------------------------------------------
PORT=$(free_port)
log "starting dealership on 127.0.0.1:$PORT"
(
  cd "$WORK"
  export DEALERSHIP_LEADS_RATE_LIMIT_PER_MINUTE=0
  export RUST_LOG="${BENCH_RUST_LOG:-info,tower_http=warn}"
  exec "$BIN" --data "$DATA" serve --listen "127.0.0.1:$PORT"
) >"$WORK/server.log" 2>&1 &
SERVER_PID=$!
DEALER="http://127.0.0.1:$PORT"
for _ in $(seq 1 150); do
  curl -fsS --max-time 2 -o /dev/null "$DEALER/api/cars/count" 2>/dev/null && break
  kill -0 "$SERVER_PID" 2>/dev/null || { cat "$WORK/server.log" >&2; die "server exited"; }
  sleep 0.2
done
curl -fsS --max-time 2 -o /dev/null "$DEALER/api/cars/count" \
  || { tail -50 "$WORK/server.log" >&2; die "server does not answer"; }
# The server's peak memory at rest: started, the catalogue read.
sleep 1
PEAK_REST_KB=$(awk '/^VmHWM:/ {print $2}' "/proc/$SERVER_PID/status")

# --- the GET cases: bodies for nginx -------------------------------------------------
CASES=(list list_filtered count slug)
declare -A PATHS=(
  [list]="/api/cars/fast?limit=20"
  [list_filtered]="/api/cars/fast?limit=20&status=used&bodyType=crossover&maxPrice=3000000"
  [count]="/api/cars/count"
  [slug]="/api/cars/slug/$SLUG"
)
WWW="$WORK/www"
NGX="$WORK/nginx"
mkdir -p "$WWW" "$NGX/tmp" "$WORK/wrk"
locations=""
for case in "${CASES[@]}"; do
  url="$DEALER${PATHS[$case]}"
  # Twice: the second answer comes from the server's answer cache, as under wrk.
  code=$(curl -sS --max-time 10 -o "$WWW/$case.first" -w '%{http_code}' "$url")
  [[ $code == 200 ]] || die "$url answered $code: $(cat "$WWW/$case.first")"
  curl -sS --max-time 10 -D "$WWW/$case.headers" -o "$WWW/$case.json" "$url"
  cmp -s "$WWW/$case.first" "$WWW/$case.json" || die "$url: two fetches gave different bodies"
  rm "$WWW/$case.first"
  content_type=$(awk -F': ' 'tolower($1)=="content-type" {sub(/\r$/, "", $2); print $2}' "$WWW/$case.headers")
  [[ -n $content_type ]] || die "$url: no content-type"
  # The same headers as the dealership's answer (ETag, Cache-Control, CSP, ...),
  # except those nginx sets itself.
  add_headers=$(awk -F': ' '
    NR > 1 && NF >= 2 {
      name = $1; value = substr($0, length($1) + 3); sub(/\r$/, "", value)
      lname = tolower(name)
      if (lname ~ /^(date|content-length|content-type|connection|keep-alive|transfer-encoding|server)$/) next
      gsub(/\\/, "\\\\", value); gsub(/"/, "\\\"", value)
      printf "      add_header %s \"%s\" always;\n", name, value
    }' "$WWW/$case.headers")
  locations+="    location = /$case {
      alias $WWW/$case.json;
      types { }
      default_type \"$content_type\";
$add_headers
    }
"
done

# --- nginx ---------------------------------------------------------------------------
NPORT=$(free_port)
user_line=""
[[ $EUID -eq 0 ]] && user_line="user root;"
cat >"$NGX/nginx.conf" <<EOF
# Written by bench/run.sh; serves the dealership's answers as static files.
$user_line
worker_processes $NGINX_WORKERS;
daemon off;
pid $NGX/nginx.pid;
error_log $NGX/error.log warn;
events {
  worker_connections 1024;
}
http {
  # Every request logged, as the dealership logs every request (to a file
  # on both sides): the budget compares them with logging on.
  access_log $NGX/access.log;
  server_tokens off;
  sendfile on;
  tcp_nopush on;
  tcp_nodelay on;
  keepalive_timeout 65;
  keepalive_requests 1000000;
  open_file_cache max=64 inactive=60s;
  etag off;
  client_body_temp_path $NGX/tmp/body;
  proxy_temp_path $NGX/tmp/proxy;
  fastcgi_temp_path $NGX/tmp/fastcgi;
  uwsgi_temp_path $NGX/tmp/uwsgi;
  scgi_temp_path $NGX/tmp/scgi;
  server {
    listen 127.0.0.1:$NPORT;
$locations
  }
}
EOF
"$NGINX_BIN" -t -q -p "$NGX" -e "$NGX/error.log" -c "$NGX/nginx.conf" \
  || { cat "$NGX/nginx.conf" >&2; die "bad nginx config"; }
log "starting nginx on 127.0.0.1:$NPORT (worker_processes $NGINX_WORKERS)"
"$NGINX_BIN" -p "$NGX" -e "$NGX/error.log" -c "$NGX/nginx.conf" >"$NGX/stdout.log" 2>&1 &
NGINX_PID=$!
NGINX="http://127.0.0.1:$NPORT"
for _ in $(seq 1 100); do
  curl -fsS --max-time 2 -o /dev/null "$NGINX/${CASES[0]}" 2>/dev/null && break
  kill -0 "$NGINX_PID" 2>/dev/null || { cat "$NGX/error.log" >&2; die "nginx exited"; }
  sleep 0.1
done
sizes=""
for case in "${CASES[@]}"; do
  curl -fsS --max-time 5 -D "$WWW/$case.nginx-headers" -o "$WWW/$case.nginx" "$NGINX/$case" \
    || die "nginx does not serve /$case"
  cmp -s "$WWW/$case.json" "$WWW/$case.nginx" || die "nginx serves other bytes for $case"
  sizes+=$(printf '  %-14s body %6d B, headers: dealership %4d B, nginx %4d B   %s\n' "$case" \
    "$(stat -c %s "$WWW/$case.json")" "$(stat -c %s "$WWW/$case.headers")" \
    "$(stat -c %s "$WWW/$case.nginx-headers")" "${PATHS[$case]}")$'\n'
done

# --- wrk -----------------------------------------------------------------------------
RESULTS="$WORK/results.tsv"
: >"$RESULTS"
WRK=(wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency)
# CPU accounting, to tell a quiet run from one that shared the cores with other
# work (builds of other people, ...): clock ticks of the whole machine, of the
# two servers, and of this shell's finished children (wrk).
machine_ticks() { awk '/^cpu / { busy = $2 + $3 + $4 + $7 + $8 + $9; print busy, busy + $5 + $6 }' /proc/stat; }
server_ticks() {
  local total=0 pid fields
  for pid in $SERVER_PID $NGINX_PID $(ps -o pid= --ppid "$NGINX_PID" 2>/dev/null); do
    [[ -r /proc/$pid/stat ]] || continue
    read -r -a fields <"/proc/$pid/stat" || continue
    total=$((total + fields[13] + fields[14]))
  done
  echo "$total"
}
children_ticks() { local f; read -r -a f <"/proc/$$/stat"; echo $((f[15] + f[16])); }

run_wrk() { # case side round url [script]
  local case=$1 side=$2 round=$3 url=$4 script=${5:-} out="$WORK/wrk/$1.$2.$3.txt" stored="-"
  local before=0 busy0 total0 busy1 total1 srv0 srv1 kids0 kids1 other
  local cmd=(timeout $((SECS + 60)) "${WRK[@]}")
  [[ -n $script ]] && cmd+=(-s "$script")
  [[ $case == leads_post ]] && before=$(python3 "$BENCH_DIR/report.py" count-leads "$DB")
  read -r busy0 total0 < <(machine_ticks)
  srv0=$(server_ticks)
  kids0=$(children_ticks)
  "${cmd[@]}" "$url" >"$out" 2>&1 || { cat "$out" >&2; die "wrk failed"; }
  kids1=$(children_ticks)
  srv1=$(server_ticks)
  read -r busy1 total1 < <(machine_ticks)
  # Share of the machine's CPU time used by processes other than wrk and the servers.
  other=$(awk -v b=$((busy1 - busy0)) -v t=$((total1 - total0)) -v s=$((srv1 - srv0)) \
    -v k=$((kids1 - kids0)) 'BEGIN { o = t > 0 ? 100 * (b - s - k) / t : 0; printf "%.0f", o < 0 ? 0 : o }')
  if [[ $case == leads_post ]]; then
    sleep 0.5 # answers still in flight when wrk stopped
    stored=$(( $(python3 "$BENCH_DIR/report.py" count-leads "$DB") - before ))
  fi
  local parsed
  parsed=$(python3 "$BENCH_DIR/report.py" parse "$out")
  echo "$case $side $round $parsed $stored $other" >>"$RESULTS"
  read -r rps p99 non2xx sockerr _ <<<"$parsed"
  log "$(printf '%-14s %-10s round %d: %10.1f req/s  p99 %8.2f ms  non-2xx %s  socket errors %s  other cpu %s%%%s' \
    "$case" "$side" "$round" "$rps" "$p99" "$non2xx" "$sockerr" "$other" \
    "$([[ $stored != - ]] && echo "  stored $stored")")"
  sleep 1
}

LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
log "wrk: $THREADS threads, $CONNECTIONS connections, $DURATION per run, $ROUNDS rounds"
for case in "${CASES[@]}"; do
  for round in $(seq 1 "$ROUNDS"); do
    run_wrk "$case" dealership "$round" "$DEALER${PATHS[$case]}"
    run_wrk "$case" nginx "$round" "$NGINX/$case"
  done
done
# The server's peak memory under the cached catalogue cases.
PEAK_KB=$(awk '/^VmHWM:/ {print $2}' "/proc/$SERVER_PID/status")
for round in $(seq 1 "$ROUNDS"); do
  run_wrk list_uncached dealership "$round" "$DEALER/" "$BENCH_DIR/uncached_list.lua"
done
# ... and with the uncached lists too.
PEAK_UNCACHED_KB=$(awk '/^VmHWM:/ {print $2}' "/proc/$SERVER_PID/status")

# POST /api/leads: one valid lead first, then the load.
code=$(curl -sS --max-time 10 -o "$WORK/lead.json" -w '%{http_code}' \
  -H 'Content-Type: application/json' \
  --data '{"type":"auto_credit","name":"Иван","phone":"+79211234567","consent":true}' \
  "$DEALER/api/leads")
[[ $code == 201 ]] || die "POST /api/leads answered $code: $(cat "$WORK/lead.json")"
for round in $(seq 1 "$ROUNDS"); do
  run_wrk leads_post dealership "$round" "$DEALER/api/leads" "$BENCH_DIR/post_lead.lua"
done

# --- report --------------------------------------------------------------------------
mkdir -p "$OUT_DIR"
{
  echo "dealership benchmark, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)$(git -C "$ROOT" diff --quiet HEAD 2>/dev/null || echo ' (uncommitted changes)')"
  echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
  echo "$(wrk -v 2>&1 | head -1 | cut -d' ' -f1-2), $("$NGINX_BIN" -v 2>&1 | sed 's/^nginx version: //') (worker_processes $NGINX_WORKERS)"
  echo "load average (1/5/15 min): $LOAD_START at the start of the wrk runs, $(cut -d' ' -f1-3 /proc/loadavg) at the end"
  echo "wrk -t$THREADS -c$CONNECTIONS -d$DURATION --latency, $ROUNDS rounds alternating dealership/nginx, $CARS cars"
  echo
  echo "answers (the same body from both servers):"
  printf '%s' "$sizes"
  echo "  list_uncached  /api/cars/fast?limit=20&status=used&bodyType=crossover&maxPrice=<varies per request>"
  echo
  PEAK_REST_KB=$PEAK_REST_KB PEAK_KB=$PEAK_KB PEAK_UNCACHED_KB=$PEAK_UNCACHED_KB \
    python3 "$BENCH_DIR/report.py" table "$RESULTS" || true
} | tee "$OUT_DIR/latest.txt"
status=0
grep -q '^ALL BUDGETS PASS$' "$OUT_DIR/latest.txt" || status=1
rm -rf "$OUT_DIR/raw" && mkdir -p "$OUT_DIR/raw"
cp "$WORK"/wrk/*.txt "$RESULTS" "$NGX/nginx.conf" "$OUT_DIR/raw/"
cp "$WORK/server.log" "$OUT_DIR/raw/server.log"
log "table written to $OUT_DIR/latest.txt (raw wrk output in $OUT_DIR/raw/)"
exit "$status"
