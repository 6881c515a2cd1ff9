#!/usr/bin/env bash
# The staff tools under a large history: GET /api/admin/response-times and
# GET /api/admin/checks next to GET /api/admin/dashboard (the reference: the
# admin's existing summary) on the release binary, with 10,000 cars and
# STAFF_LEADS leads (default 20,000 over the last 28 days, nine in ten
# answered, each with its first status change in the audit trail).
#
#   bench/staff.sh                          # needs a release build (ui/dist first)
#   STAFF_LEADS=50000 BENCH_DURATION=5s bench/staff.sh
#
# Prints requests/s and latency per route (wrk, logged-in session cookie).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BIN="${BIN:-${CARGO_TARGET_DIR:-$ROOT/target}/release/dealership}"
LEADS="${STAFF_LEADS:-20000}"
DURATION="${BENCH_DURATION:-10s}"
CONNECTIONS="${BENCH_CONNECTIONS:-16}"
[[ -x $BIN ]] || { echo "no binary at $BIN (cargo build --release; build ui/dist first)" >&2; exit 2; }
command -v wrk >/dev/null || { echo "wrk is missing (apt-get install -y wrk)" >&2; exit 2; }
WORK="$(mktemp -d)"
PID=""
cleanup() { [[ -n $PID ]] && kill "$PID" 2>/dev/null; wait 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT

DATA="$WORK/data"
"$BIN" --data "$DATA" migrate >/dev/null
printf 'bench-password\n' | "$BIN" --data "$DATA" user create bench --password-stdin >/dev/null
python3 "$ROOT/bench/load_cars.py" "$DATA/dealership.db" 10000 >/dev/null
python3 - "$DATA/dealership.db" "$LEADS" <<'PY'
import random, sqlite3, sys, uuid
from datetime import datetime, timedelta, timezone
db, n = sys.argv[1], int(sys.argv[2])
rnd = random.Random(2026)
now = datetime.now(timezone.utc)
stamp = lambda t: t.strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
users = ["anna", "boris", "vera", "gleb", "dina"]
types = ["auto_credit", "trade_in", "auto_selection", "contact_form", "test_drive"]
con = sqlite3.connect(db)
leads, audit = [], []
for i in range(n):
    at = now - timedelta(minutes=rnd.randrange(0, 28 * 24 * 60))
    lead = str(uuid.UUID(int=rnd.getrandbits(128)))
    answered = rnd.random() < 0.9 and at < now - timedelta(minutes=5)
    status = rnd.choice(["in_progress", "completed"]) if answered else "new"
    leads.append((lead, rnd.choice(types), status, f"Клиент {i}", f"+7921{i:07d}",
                  1, stamp(at), "127.0.0.1", stamp(at), stamp(at)))
    if answered:
        later = min(at + timedelta(minutes=int(rnd.expovariate(1 / 40)) + 1), now)
        audit.append((stamp(later), rnd.choice(users), "status", "lead", lead,
                      "Статус заявки изменён"))
con.executemany("""INSERT INTO leads (id, type, status, name, phone, consent_version,
    consent_at, consent_ip, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?)""", leads)
con.executemany("""INSERT INTO audit_log (at, username, action, object_type, object_id, summary)
    VALUES (?,?,?,?,?,?)""", audit)
con.commit()
print(f"{len(leads)} leads, {len(audit)} answered", file=sys.stderr)
PY
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
(cd "$WORK" && RUST_LOG=warn exec "$BIN" --data "$DATA" serve --listen "127.0.0.1:$port" >"$WORK/server.log" 2>&1) &
PID=$!
for _ in $(seq 100); do curl -fs "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
URL="http://127.0.0.1:$port"
curl -fsS -c "$WORK/cookies" -H 'Content-Type: application/json' \
  -d '{"login":"bench","password":"bench-password"}' "$URL/api/admin/login" >/dev/null
COOKIE=$(awk '$6 == "dealership_session" {print "dealership_session=" $7}' "$WORK/cookies")
[[ -n $COOKIE ]] || { echo "login failed" >&2; exit 1; }
echo "10000 cars, $LEADS leads, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), wrk -t2 -c$CONNECTIONS -d$DURATION"
printf '%-28s %10s %10s %10s %10s\n' route "req/s" "p50 ms" "p99 ms" "bytes"
for route in /api/admin/dashboard /api/admin/response-times /api/admin/checks; do
  bytes=$(curl -fsS -H "Cookie: $COOKIE" "$URL$route" | wc -c)
  wrk -t2 -c"$CONNECTIONS" -d"$DURATION" --latency -H "Cookie: $COOKIE" "$URL$route" >"$WORK/wrk.txt"
  python3 - "$route" "$bytes" "$WORK/wrk.txt" <<'PY'
import re, sys
route, size, text = sys.argv[1], sys.argv[2], open(sys.argv[3]).read()
def ms(label):
    m = re.search(rf"^\s*{label}%\s+([\d.]+)(us|ms|s)\s*$", text, re.M)
    v, unit = float(m.group(1)), m.group(2)
    return v / 1000 if unit == "us" else v * 1000 if unit == "s" else v
rps = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
bad = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
note = f"  NON-2xx: {bad.group(1)}" if bad else ""
print(f"{route:28} {rps:10.0f} {ms('50'):10.2f} {ms('99'):10.2f} {size:>10}{note}")
PY
done
echo "server RSS: $(ps -o rss= -p "$PID" | awk '{printf "%.0f MB", $1/1024}')"
