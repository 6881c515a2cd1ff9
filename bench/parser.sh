#!/usr/bin/env bash
# The inventory parser on a 5,000-car feed: generates an Auto.ru dealer XML
# feed (no photos), uploads it to a fresh server as an admin (HTTP Basic),
# and times the preview (POST /api/admin/imports) and the apply
# (POST /api/admin/imports/{id}/apply); then a second preview of a changed
# feed (every tenth price, 100 cars gone, 100 new) and its apply.
#
#   bench/parser.sh                  # target/release/dealership, 5,000 cars
#   PARSER_CARS=500 bench/parser.sh  # a short sanity run
#
# Needs curl and python3. Budget (docs/parser.md): preview < 5 s, apply < 30 s.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BIN="${BIN:-${CARGO_TARGET_DIR:-$ROOT/target}/release/dealership}"
CARS="${PARSER_CARS:-5000}"
[[ -x $BIN ]] || { echo "no binary at $BIN (cargo build --release; build ui/dist first)" >&2; exit 2; }
WORK="$(mktemp -d)"
PID=""
cleanup() { [[ -n $PID ]] && kill "$PID" 2>/dev/null; wait 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT

gen_feed() { # gen_feed OUT CHANGED
  python3 - "$1" "$CARS" "$2" <<'PY'
import random, sys
out, n, changed = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1"
rnd = random.Random(2026)
# The real shape of a new-car dealer feed: catalogue naming (folder_id with
# the generation, modification_id with a model code, complectation_name),
# letter case varying by car, no drive element (front-wheel cars carry no
# token at all), no engine_type, some cars by VIN only, body types beyond
# the six.
brands = {"Haval": [("Jolion", "I Рестайлинг"), ("F7", "I"), ("Dargo", "I")],
          "Chery": [("Tiggo 4", "I Рестайлинг"), ("Tiggo 7 Pro", "I")],
          "Geely": [("Coolray", "I Рестайлинг"), ("Monjaro", "I"), ("Atlas", "II")],
          "LADA": [("Vesta", "I Рестайлинг"), ("Granta", "I Рестайлинг"), ("Largus", "I")],
          "Kia": [("Rio", "IV Рестайлинг"), ("Carnival", "IV")],
          "Toyota": [("Camry", "VIII (XV70)"), ("RAV4", "V (XA50)")]}
bodies = ["Седан", "Хэтчбек 5 дв.", "Внедорожник 5 дв.", "Универсал 5 дв.", "Лифтбек",
          "Минивэн", "Купе", "Пикап Двойная кабина"]
gears = ["AT", "MT", "AMT", "CVT"]
trims = ["Comfort", "Elite", "Prestige", "Luxe", "Tech Plus", None]
ids = list(range(n))
if changed:
    ids = ids[100:] + list(range(n, n + 100))
with open(out, "w", encoding="utf-8") as f:
    f.write('<?xml version="1.0" encoding="UTF-8"?>\n<data>\n<cars>\n')
    for i in ids:
        r = random.Random(i)
        brand = r.choice(sorted(brands)); model, generation = r.choice(brands[brand])
        if r.random() < .3:
            brand = brand.upper()
        price = 1_000_000 + r.randrange(0, 5_000_000, 1000)
        if changed and i % 10 == 0:
            price += 50_000
        run = r.choice([0, 0, r.randrange(5_000, 150_000)])
        vin = "XW" + format(i, "015d")
        key = f"<unique_id>B-{i}</unique_id>" if r.random() < .8 else ""
        trim = r.choice(trims)
        trim = f"<complectation_name>{trim}</complectation_name>" if trim else ""
        mod = (f"{r.randrange(100, 500)} 1.{r.randrange(4, 9)}{'d' if r.random() < .1 else ''} "
               f"{r.choice(gears)} ({r.randrange(100, 250)} л.с.){' 4WD' if r.random() < .3 else ''}")
        f.write(f"""<car>
{key}<mark_id>{brand}</mark_id><folder_id>{model}, {generation}</folder_id>
<modification_id>{mod}</modification_id>{trim}
<body_type>{r.choice(bodies)}</body_type><color>белый</color><year>{r.randrange(2015, 2026)}</year>
<price>{price}</price><currency>RUR</currency><run>{run}</run><vin>{vin}</vin>
<max_discount>{r.randrange(0, 100_000, 1000)}</max_discount>
</car>
""")
    f.write("</cars>\n</data>\n")
PY
}

DATA="$WORK/data"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$BIN" --data "$DATA" migrate >/dev/null
printf 'bench-password\n' | "$BIN" --data "$DATA" user create bench --password-stdin >/dev/null
(cd "$WORK" && RUST_LOG=warn exec "$BIN" --data "$DATA" serve --listen "127.0.0.1:$port" >"$WORK/server.log" 2>&1) &
PID=$!
for _ in $(seq 100); do curl -fs "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
URL="http://127.0.0.1:$port"
gen_feed "$WORK/feed.xml" 0
gen_feed "$WORK/feed2.xml" 1
echo "$CARS cars, feed $(du -h "$WORK/feed.xml" | cut -f1), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"

# timed NAME CURL-ARGS...: runs curl, prints the seconds, keeps the answer in $WORK/answer.json
timed() {
  local name=$1; shift
  local started ended
  started=$(date +%s.%N)
  curl -fsS -u bench:bench-password -o "$WORK/answer.json" "$@"
  ended=$(date +%s.%N)
  python3 - "$name" "$started" "$ended" "$WORK/answer.json" <<'PY'
import json, sys
name, a, b, path = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
run = json.load(open(path))
print(f"{name:16} {b - a:7.2f} s  status {run['status']:8} counts {run['counts']}")
PY
}
run_id() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["id"])' "$WORK/answer.json"; }

timed "preview" -F "file=@$WORK/feed.xml" "$URL/api/admin/imports" | tee "$WORK/times.txt"
timed "apply" -X POST "$URL/api/admin/imports/$(run_id)/apply" | tee -a "$WORK/times.txt"
timed "preview changed" -F "file=@$WORK/feed2.xml;filename=feed.xml" "$URL/api/admin/imports" | tee -a "$WORK/times.txt"
timed "apply changed" -X POST "$URL/api/admin/imports/$(run_id)/apply" | tee -a "$WORK/times.txt"
python3 - "$WORK/times.txt" "$CARS" <<'PY'
import sys
lines = open(sys.argv[1]).read().splitlines()
def secs(prefix): return max(float(l[16:24]) for l in lines if l.startswith(prefix))
preview, apply = max(secs("preview "), secs("preview changed")), max(secs("apply "), secs("apply changed"))
ok = preview < 5 and apply < 30
print(f"{'PASS' if ok else 'FAIL'}: slowest preview {preview:.2f} s (budget 5), slowest apply {apply:.2f} s (budget 30), {sys.argv[2]} cars")
sys.exit(0 if ok else 1)
PY
