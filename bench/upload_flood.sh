#!/usr/bin/env bash
# Upload flood: ten parallel uploads just inside the limits (6324x6324,
# 16-bit RGBA PNG, each just under 5 MB) against the release binary, while
# the server's memory is sampled. Prints the answers, the resident memory
# before, the peak (VmHWM from /proc/PID/status) and the time, and exits
# non-zero when the peak is over the budget or an upload fails with anything
# but the busy answer (429).
#
#   bench/upload_flood.sh
#   FLOOD_UPLOADS=20 FLOOD_LIMIT_MB=400 BENCH_SKIP_BUILD=1 bench/upload_flood.sh
#
# Environment (all optional):
#   FLOOD_UPLOADS      parallel uploads (default 10)
#   FLOOD_LIMIT_MB     peak resident memory budget in MB (default 400)
#   FLOOD_SIDE         side of the square picture (default 6324: 40 megapixels)
#   BENCH_SKIP_BUILD=1 use the existing release binary
set -euo pipefail
cd "$(dirname "$0")/.."
UPLOADS=${FLOOD_UPLOADS:-10}
LIMIT_MB=${FLOOD_LIMIT_MB:-400}
SIDE=${FLOOD_SIDE:-6324}

for tool in curl python3; do
  command -v "$tool" >/dev/null || { echo "needs $tool" >&2; exit 2; }
done

BIN="${CARGO_TARGET_DIR:-target}/release/dealership"
if [[ ${BENCH_SKIP_BUILD:-0} != 1 ]]; then
  # A release build embeds the built UI and refuses to start without it.
  (cd ui && { [ -d node_modules ] || npm install --no-audit --no-fund; } && npm run --silent build)
  cargo build --release --locked -q
fi
[[ -x $BIN ]] || { echo "no release binary at $BIN" >&2; exit 2; }

work=$(mktemp -d -t dealership-flood.XXXXXX)
server_pid=""
cleanup() {
  [[ -n $server_pid ]] && kill "$server_pid" 2>/dev/null || true
  [[ -n $server_pid ]] && wait "$server_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

echo "making $UPLOADS ${SIDE}x${SIDE} 16-bit RGBA PNGs..." >&2
python3 bench/make_png16.py "$work/png" "$UPLOADS" "$SIDE" "$SIDE" >/dev/null
file_size=$(stat -c %s "$work/png/flood-0.png")

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
data="$work/data"
"$BIN" --data "$data" migrate >/dev/null
printf 'bench-password\n' | "$BIN" --data "$data" user create bench --password-stdin >/dev/null
(cd "$work" && exec "$BIN" --data "$data" serve --listen "127.0.0.1:$port") 2>"$work/server.log" &
server_pid=$!
for _ in $(seq 100); do
  curl -fs "http://127.0.0.1:$port/api/settings" >/dev/null && break
  sleep 0.1
done
kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.log" >&2; exit 2; }

# One login, as the admin panel does: the uploads then carry the session
# cookie and CSRF token, so no password is hashed during the flood (Basic
# credentials would hash one per upload).
curl -fsS -c "$work/cookies" -H 'Content-Type: application/json' \
  -d '{"login":"bench","password":"bench-password"}' \
  "http://127.0.0.1:$port/api/admin/login" >"$work/login.json"
csrf=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["csrfToken"])' "$work/login.json")

status_kb() { awk -v k="$1:" '$1 == k {print $2}' "/proc/$server_pid/status"; }
before_kb=$(status_kb VmRSS)

# Samples the resident memory every 50 ms (VmHWM is the peak anyway; the
# samples show when it happened).
(
  while kill -0 "$server_pid" 2>/dev/null; do
    printf '%s %s\n' "$(date +%s%N)" "$(awk '$1 == "VmRSS:" {print $2}' "/proc/$server_pid/status" 2>/dev/null)"
    sleep 0.05
  done
) >"$work/rss.txt" &
sampler=$!

start=$(date +%s%N)
for i in $(seq 0 $((UPLOADS - 1))); do
  curl -sS -o "$work/answer-$i.json" -w '%{http_code} %{time_total}\n' \
    -b "$work/cookies" -H "X-CSRF-Token: $csrf" \
    -F "file=@$work/png/flood-$i.png;type=image/png" \
    "http://127.0.0.1:$port/api/objects/upload" >"$work/status-$i.txt" 2>&1 &
done
wait $(jobs -p | grep -v "^$sampler\$" | grep -v "^$server_pid\$") 2>/dev/null || true
elapsed_ms=$(( ($(date +%s%N) - start) / 1000000 ))
peak_kb=$(status_kb VmHWM)
after_kb=$(status_kb VmRSS)
kill "$sampler" 2>/dev/null || true

created=0; busy=0; other=0
for i in $(seq 0 $((UPLOADS - 1))); do
  read -r code secs <"$work/status-$i.txt" || true
  case "$code" in
    201) created=$((created + 1)) ;;
    429) busy=$((busy + 1)) ;;
    *) other=$((other + 1)); echo "upload $i: $code $(cat "$work/answer-$i.json" 2>/dev/null)" ;;
  esac
  printf 'upload %2d: %s in %ss\n' "$i" "$code" "$secs"
done
busy_message=$(cat "$work"/answer-*.json | python3 -c '
import json, sys
for line in sys.stdin.read().replace("}{", "}\n{").splitlines():
    try:
        error = json.loads(line).get("error")
    except ValueError:
        continue
    if error:
        print(error); break' || true)

mb() { python3 -c "print(f'{$1/1024:.0f}')"; }
cat <<REPORT
upload flood, $(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) cores
$UPLOADS parallel uploads of a ${SIDE}x${SIDE} 16-bit RGBA PNG, $file_size bytes each
answers: $created stored (201), $busy busy (429), $other other; ${elapsed_ms} ms in all
${busy_message:+busy answer: $busy_message
}server resident memory: before $(mb "$before_kb") MB, peak (VmHWM) $(mb "$peak_kb") MB, after $(mb "$after_kb") MB; budget $LIMIT_MB MB
REPORT
status=0
if (( peak_kb > LIMIT_MB * 1024 )); then
  echo "BUDGET FAILED: peak over $LIMIT_MB MB"; status=1
fi
if (( other > 0 || created == 0 )); then
  echo "FAILED: uploads answered other than 201/429, or none stored"; status=1
fi
[[ $status -eq 0 ]] && echo "budget: PASS"
exit $status
