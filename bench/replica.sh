#!/usr/bin/env bash
# Stored leads per second without and with replication ([replica], Litestream
# to moto's S3 server on loopback): POST /api/leads under wrk
# (bench/post_lead.lua), counting the rows after the run; with replication,
# the site is then stopped (it stops Litestream last, which sends what is
# left) and the replica is restored and counted too. Runs alternate, each on
# a fresh data directory, so both see the same machine.
#
#   eval "$(scripts/test-replica-tools.sh)"      # LITESTREAM_BIN, MOTO_SERVER
#   bench/replica.sh                              # target/release/dealership
#   REPLICA_DURATION=10s REPLICA_ROUNDS=3 REPLICA_CONNECTIONS=64 bench/replica.sh
#
# Needs wrk, curl and python3. Figures: bench/README.md, "Leads with replication".
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BIN="${BIN:-${CARGO_TARGET_DIR:-$ROOT/target}/release/dealership}"
DURATION="${REPLICA_DURATION:-10s}"
ROUNDS="${REPLICA_ROUNDS:-2}"
CONNECTIONS="${REPLICA_CONNECTIONS:-64}"
BUCKET=bench-replica

[[ -x $BIN ]] || { echo "no binary at $BIN (cargo build --release)" >&2; exit 2; }
command -v wrk >/dev/null || { echo "wrk is missing (apt-get install -y wrk)" >&2; exit 2; }
[[ -x ${LITESTREAM_BIN:-} && -x ${MOTO_SERVER:-} ]] ||
  { echo "LITESTREAM_BIN and MOTO_SERVER are not set: eval \"\$(scripts/test-replica-tools.sh)\"" >&2; exit 2; }
WORK="$(mktemp -d)"
PID=""
MOTO=""
cleanup() {
  [[ -n $PID ]] && kill "$PID" 2>/dev/null
  [[ -n $MOTO ]] && kill "$MOTO" 2>/dev/null
  wait 2>/dev/null
  rm -rf "$WORK"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

moto_port=$(free_port)
env -u AWS_CA_BUNDLE "$MOTO_SERVER" -H 127.0.0.1 -p "$moto_port" >"$WORK/moto.log" 2>&1 &
MOTO=$!
for _ in $(seq 100); do curl -fs "http://127.0.0.1:$moto_port/" >/dev/null && break; sleep 0.1; done
curl -fs -X PUT "http://127.0.0.1:$moto_port/$BUCKET" >/dev/null
endpoint="http://127.0.0.1:$moto_port"
printf 'bench-secret\n' >"$WORK/secret"
chmod 600 "$WORK/secret"

# run_one MODE ROUND: prints "MODE ROUND leads/s p99 non-2xx [replicated rows]"
run_one() {
  local mode=$1 round=$2 dir="$WORK/$1-$2" port
  local -a replica=()
  mkdir -p "$dir"
  port=$(free_port)
  if [[ $mode == replicated ]]; then
    replica=(
      DEALERSHIP_REPLICA_ENDPOINT="$endpoint" DEALERSHIP_REPLICA_BUCKET="$BUCKET"
      DEALERSHIP_REPLICA_PATH="$mode-$round" DEALERSHIP_REPLICA_REGION=us-east-1
      DEALERSHIP_REPLICA_ACCESS_KEY_ID=bench DEALERSHIP_REPLICA_SECRET_ACCESS_KEY_FILE="$WORK/secret"
      DEALERSHIP_REPLICA_LITESTREAM_BIN="$LITESTREAM_BIN"
    )
  fi
  "$BIN" --data "$dir/data" migrate >/dev/null
  (cd "$dir" && exec env DEALERSHIP_LEADS_RATE_LIMIT_PER_MINUTE=0 RUST_LOG=warn "${replica[@]}" \
    "$BIN" --data "$dir/data" serve --listen "127.0.0.1:$port" >"$dir/server.log" 2>&1) &
  PID=$!
  for _ in $(seq 100); do curl -fs "http://127.0.0.1:$port/api/settings" >/dev/null && break; sleep 0.1; done
  # Litestream's first snapshot is taken before the load.
  [[ $mode == replicated ]] && sleep 2
  wrk -t2 -c"$CONNECTIONS" -d"$DURATION" --latency -s "$ROOT/bench/post_lead.lua" \
    "http://127.0.0.1:$port/api/leads" >"$dir/wrk.txt"
  kill "$PID"; wait "$PID" 2>/dev/null || true; PID=""
  local replicated=""
  if [[ $mode == replicated ]]; then
    cat >"$dir/restore.yml" <<EOF
dbs:
  - path: $dir/data/dealership.db
    replica:
      type: s3
      bucket: $BUCKET
      path: $mode-$round
      region: us-east-1
      endpoint: $endpoint
      force-path-style: true
EOF
    env -i PATH=/usr/bin:/bin LITESTREAM_ACCESS_KEY_ID=bench LITESTREAM_SECRET_ACCESS_KEY=bench-secret \
      "$LITESTREAM_BIN" restore -config "$dir/restore.yml" -o "$dir/restored.db" "$dir/data/dealership.db" \
      >"$dir/restore.log" 2>&1 || { cat "$dir/restore.log" >&2; exit 1; }
    replicated="$dir/restored.db"
  fi
  python3 - "$dir" "$mode" "$round" "$replicated" <<'EOF'
import re, sqlite3, sys
d, mode, rnd, replicated = sys.argv[1:]
wrk = open(f"{d}/wrk.txt").read()
secs = float(re.search(r"requests in ([\d.]+)s", wrk).group(1))
p99 = re.search(r"99%\s+(\S+)", wrk).group(1)
non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", wrk)
count = lambda path: sqlite3.connect(path).execute("select count(*) from leads").fetchone()[0]
rows = count(f"{d}/data/dealership.db")
line = f"{mode:11} round {rnd}  {rows / secs:8.0f} stored leads/s  p99 {p99:>8}  non-2xx {non2xx.group(1) if non2xx else 0}"
if replicated:
    copied = count(replicated)
    line += f"  in the replica after the stop: {copied} of {rows}"
    if copied != rows:
        line += "  MISSING"
print(line)
EOF
}

echo "wrk -t2 -c$CONNECTIONS -d$DURATION, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $("$LITESTREAM_BIN" version | head -1)"
results="$WORK/results.txt"
for round in $(seq 1 "$ROUNDS"); do
  run_one plain "$round" | tee -a "$results"
  run_one replicated "$round" | tee -a "$results"
done
python3 - "$results" <<'EOF'
import sys
rows = [line.split() for line in open(sys.argv[1])]
mean = lambda mode: sum(float(r[3]) for r in rows if r[0] == mode) / max(1, sum(r[0] == mode for r in rows))
plain, replicated = mean("plain"), mean("replicated")
print(f"mean: {plain:.0f} leads/s plain, {replicated:.0f} replicated ({replicated / plain:.2f} of plain)")
if any("MISSING" in " ".join(r) for r in rows):
    sys.exit("FAIL: the replica lacks stored leads")
EOF
