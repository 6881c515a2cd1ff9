#!/usr/bin/env bash
# Lead notifications (docs/notifications.md), two figures:
#
# 1. Latency: time from POST /api/leads (sent one at a time) to the e-mail in
#    the hands of a local SMTP server (tests/fixtures/smtp_sink.py, Debian's
#    python3-aiosmtpd), p50/p99 over NOTIFY_MAILS leads. Goal: p99 under 1 s.
# 2. Throughput: stored leads/s under wrk (bench/post_lead.lua) with e-mail on
#    while the mail server is down (every delivery failing and retrying),
#    against the same with no channel enabled. Goal: within 10 %.
#
#   bench/notify.sh                    # target/release/dealership
#   NOTIFY_MAILS=200 NOTIFY_DURATION=10s NOTIFY_CONNECTIONS=64 bench/notify.sh
#
# Needs wrk, curl, /usr/bin/python3 with aiosmtpd.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BIN="${BIN:-${CARGO_TARGET_DIR:-$ROOT/target}/release/dealership}"
MAILS="${NOTIFY_MAILS:-200}"
DURATION="${NOTIFY_DURATION:-10s}"
CONNECTIONS="${NOTIFY_CONNECTIONS:-64}"

[[ -x $BIN ]] || { echo "no binary at $BIN (cargo build --release)" >&2; exit 2; }
BIN="$(realpath "$BIN")"   # the servers start in their own folders
command -v wrk >/dev/null || { echo "wrk is missing (apt-get install -y wrk)" >&2; exit 2; }
/usr/bin/python3 -c 'import aiosmtpd' || { echo "apt-get install -y python3-aiosmtpd" >&2; exit 2; }
WORK="$(mktemp -d)"
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# start_server DIR PORT SMTP_PORT|"" : starts a server with e-mail on (or no channel)
start_server() {
  local dir=$1 port=$2 smtp=$3
  mkdir -p "$dir"
  "$BIN" --data "$dir/data" migrate >/dev/null
  # The same settings in every run (an e-mail address, notifications on): the
  # runs differ only in whether [smtp] is set, so the channel is on or off.
  python3 - "$dir/data/dealership.db" <<'EOF'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("""INSERT INTO settings (id, salon_name, phone, address, notification_email,
    from_email, email_notifications_enabled, updated_at)
    VALUES (1, 'Bench', '+7', 'SPb', 'sales@bench.example', 'robot@bench.example', 1,
    '2026-01-01T00:00:00.000Z')""")
c.commit()
EOF
  (cd "$dir" && DEALERSHIP_LEADS_RATE_LIMIT_PER_MINUTE=0 RUST_LOG=warn \
    DEALERSHIP_SMTP_HOST="${smtp:+127.0.0.1}" DEALERSHIP_SMTP_PORT="${smtp:-587}" \
    DEALERSHIP_SMTP_SECURITY=none \
    exec "$BIN" --data "$dir/data" serve --listen "127.0.0.1:$port" >"$dir/server.log" 2>&1) &
  PIDS+=($!)
  for _ in $(seq 100); do curl -fs "http://127.0.0.1:$port/api/settings" >/dev/null && break; sleep 0.1; done
}

echo "$(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"

# 1. Latency to the mailbox.
smtp_port=$(free_port); port=$(free_port)
mkdir -p "$WORK/mailbox"
# The sink runs until its stdin closes: a pipe held open by a sleep that the
# cleanup kills (a process substitution's sleep would outlive the script).
mkfifo "$WORK/sink.in"
sleep 100000 >"$WORK/sink.in" &
PIDS+=($!)
/usr/bin/python3 "$ROOT/tests/fixtures/smtp_sink.py" "$smtp_port" "$WORK/mailbox" <"$WORK/sink.in" >"$WORK/sink.out" &
PIDS+=($!)
for _ in $(seq 100); do grep -q ready "$WORK/sink.out" 2>/dev/null && break; sleep 0.1; done
start_server "$WORK/latency" "$port" "$smtp_port"
/usr/bin/python3 - "$port" "$WORK/mailbox" "$MAILS" <<'EOF'
import json, os, sys, time, urllib.request
port, box, count = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
sent = {}
for i in range(count):
    body = json.dumps({"type": "auto_credit", "name": f"Клиент {i}", "phone": f"+7999{i:07d}",
                       "consent": True}).encode()
    request = urllib.request.Request(f"http://127.0.0.1:{port}/api/leads", data=body,
                                     headers={"Content-Type": "application/json"})
    started = time.time()
    lead = json.load(urllib.request.urlopen(request))["id"]
    sent[lead] = started
    time.sleep(0.02)
deadline = time.time() + 30
latencies = {}
while time.time() < deadline and len(latencies) < count:
    for name in os.listdir(box):
        if name.startswith(".") or not name.endswith(".json"):
            continue
        mail = json.load(open(os.path.join(box, name)))
        for lead, started in sent.items():
            if lead in mail["message_id"] and lead not in latencies:
                latencies[lead] = mail["received"] - started
    time.sleep(0.1)
values = sorted(latencies.values())
if not values:
    sys.exit("no mail arrived")
p = lambda q: values[min(len(values) - 1, int(q * len(values)))]
print(f"latency to the mailbox: {len(values)}/{count} mails, p50 {p(0.5)*1000:.0f} ms, "
      f"p99 {p(0.99)*1000:.0f} ms, max {values[-1]*1000:.0f} ms "
      f"({'PASS' if p(0.99) < 1 else 'FAIL'}: goal p99 < 1 s)")
EOF

# 2. Leads/s with the mail server down vs no channel.
rate() {
  local name=$1 smtp=$2 dir="$WORK/$1" port
  port=$(free_port)
  start_server "$dir" "$port" "$smtp"
  wrk -t2 -c"$CONNECTIONS" -d"$DURATION" --latency -s "$ROOT/bench/post_lead.lua" \
    "http://127.0.0.1:$port/api/leads" >"$dir/wrk.txt"
  python3 - "$dir" "$name" <<'EOF'
import re, sqlite3, sys
d, name = sys.argv[1:]
wrk = open(f"{d}/wrk.txt").read()
secs = float(re.search(r"requests in ([\d.]+)s", wrk).group(1))
p99 = re.search(r"99%\s+(\S+)", wrk).group(1)
db = sqlite3.connect(f"{d}/data/dealership.db")
rows = db.execute("select count(*) from leads").fetchone()[0]
queued = db.execute("select count(*) from outbox").fetchone()[0]
print(f"{name:16} {rows / secs:8.0f} stored leads/s  p99 {p99:>8}  outbox rows {queued}")
print(f"{rows / secs:.0f}", file=open(f"{d}/rate", "w"))
EOF
  kill "${PIDS[-1]}" 2>/dev/null || true   # this run's server: the next one runs alone
}
# Side by side, alternating (no-channel, mail-down, mail-down, no-channel),
# so a machine that gets busier or quieter meanwhile weighs on both alike.
down_port=$(free_port)   # nothing listens there
rate no-channel-1 ""
rate mail-down-1 "$down_port"
rate mail-down-2 "$down_port"
rate no-channel-2 ""
python3 - "$WORK" <<'EOF'
import sys
w = sys.argv[1]
r = lambda n: float(open(f"{w}/{n}/rate").read())
base = r("no-channel-1") + r("no-channel-2")
down = r("mail-down-1") + r("mail-down-2")
change = (down - base) / base * 100
print(f"mail server down vs no channel: {change:+.1f} % "
      f"({'PASS' if change >= -10 else 'FAIL'}: goal within 10 %)")
EOF
