#!/usr/bin/env bash
# Hostile feeds against the release binary (issue 42): generates feeds of
# every hostile shape, previews each through the admin API
# (POST /api/admin/imports, multipart, HTTP Basic) on a fresh server of its
# own, and measures the wall time of the preview (the upload included) and
# the process's peak memory (VmHWM of /proc/PID/status) above its resting
# size (VmRSS once it answers /healthz, before the upload). Some shapes are
# applied too. Rules: docs/parser.md, "Limits and hostile input".
#
#   bench/hostile_feeds.sh                       # every shape
#   HOSTILE_SHAPES="deep50k cars20k" bench/hostile_feeds.sh
#   BIN=/path/to/dealership bench/hostile_feeds.sh
#   HOSTILE_TIMEOUT=60 (seconds a call may take; default 300)
#
# Budgets (exit 1 when one is passed):
#   - the 50,000-deep car (350 KB): preview < 2 s;
#   - every 50 MB shape: preview < 20 s, apply < 20 s (answered, applied,
#     well within the request timeout of 30 s);
#   - every shape: peak memory < resting + 128 MB, preview and apply alike.
# Needs curl and python3.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BIN="${BIN:-${CARGO_TARGET_DIR:-$ROOT/target}/release/dealership}"
[[ -x $BIN ]] || { echo "no binary at $BIN (cargo build --release; build ui/dist first)" >&2; exit 2; }
SHAPES="${HOSTILE_SHAPES:-deep50k deep50m outside50m wide50m attrs50m text50m texts50m photos50m cars20k cp1251 csvrow50m csvrows50m}"
BUDGET_SMALL_S=2
BUDGET_PREVIEW_S=20
BUDGET_APPLY_S=20
BUDGET_PEAK_MB=128
WORK="$(mktemp -d)"
PID=""
cleanup() { [[ -n $PID ]] && kill "$PID" 2>/dev/null; wait 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT

# gen SHAPE OUT: writes the hostile feed of SHAPE.
gen() {
  python3 - "$1" "$2" <<'PY'
import sys
shape, out = sys.argv[1], sys.argv[2]
MB = 50 * 1024 * 1024 - 64 * 1024  # under parser.max_feed_bytes (50 MB)

def car(i, extra="", photos=""):
    return (f"<car><unique_id>H-{i}</unique_id><mark_id>Haval</mark_id><folder_id>Jolion, I</folder_id>"
            f"<modification_id>1.5 AMT (150 л.с.)</modification_id><body_type>Внедорожник 5 дв.</body_type>"
            f"<year>2024</year><price>{2_000_000 + i}</price><run>0</run><vin>XW{i:015d}</vin>"
            f"{photos}{extra}</car>\n")

head = '<?xml version="1.0" encoding="UTF-8"?>\n<data><cars>\n'
tail = "</cars></data>\n"
with open(out, "wb") as f:
    w = lambda s: f.write(s.encode("utf-8"))
    if shape == "deep50k":  # the issue's car: 50,000 nested elements, 350 KB
        w(head + car(1) + car(2, "<x>" + "<a>" * 50_000 + "</a>" * 50_000 + "</x>") + car(3) + tail)
    elif shape == "deep50m":  # one car nested as deep as 50 MB allows
        n = (MB - 2000) // 7
        w(head + car(1) + car(2, "<x>" + "<a>" * n + "</a>" * n + "</x>") + tail)
    elif shape == "outside50m":  # the same outside the records
        n = (MB - 2000) // 7
        w(head + car(1) + "</cars>" + "<a>" * n + "</a>" * n + "</data>\n")
    elif shape == "wide50m":  # one car of 6 million sibling elements
        w(head + car(1) + "<car><unique_id>W</unique_id>")
        block = "<o>1</o><p/>" * 10_000
        for _ in range(MB // len(block)):
            w(block)
        w("</car>\n" + tail)
    elif shape == "attrs50m":  # one element of millions of attributes
        w(head + car(1) + '<car><unique_id>A</unique_id><images')
        block = "".join(f' a{i}="{i}"' for i in range(10_000))
        for _ in range(MB // len(block)):
            w(block)
        w("/></car>\n" + tail)
    elif shape == "text50m":  # one field of 50 MB
        w(head + car(1) + "<car><unique_id>T</unique_id><description>")
        block = "Ж" * 500_000
        for _ in range(MB // (2 * len(block))):
            w(block)
        w("</description></car>\n" + tail)
    elif shape == "texts50m":  # cars just under a record's limit: 2,000 attributes and a 700 KB text each
        w(head)
        attrs = "".join(f' a{i}="{i}"' for i in range(2_000))
        text = "длинное описание " * 20_000
        i = 0
        while f.tell() < MB - 1_000_000:
            w(car(i, f"<images{attrs}/><description>{text}</description>"))
            i += 1
        w(tail)
    elif shape == "photos50m":  # cars of 10,000 photos each
        w(head)
        i = 0
        while f.tell() < MB - 600_000:
            photos = "<images>" + "".join(f"<image>http://127.0.0.1:9/{i}/{k}.jpg</image>" for k in range(10_000)) + "</images>"
            w(car(i, photos=photos))
            i += 1
        w(tail)
    elif shape == "cars20k":  # 20,000 small cars filling 50 MB
        w(head)
        pad = "<description>" + "хороший автомобиль " * 50 + "</description>"
        for i in range(20_000):
            w(car(i, pad, photos=f"<images><image>http://127.0.0.1:9/{i}.jpg</image></images>"))
        w(tail)
    elif shape == "cp1251":  # windows-1251 cars with long Cyrillic descriptions
        text = ("<?xml version=\"1.0\" encoding=\"windows-1251\"?>\n<data><cars>\n")
        desc = "описание автомобиля " * 40_000
        f.write(text.encode("cp1251"))
        i = 0
        while f.tell() < MB - 1_000_000:
            f.write(car(i, f"<description>{desc}</description>").encode("cp1251"))
            i += 1
        f.write(tail.encode("cp1251"))
    elif shape == "csvrow50m":  # a CSV whose second row is 50 MB
        w("id;brand;model;year;price;body_type;transmission;fuel_type;color\n")
        w("C-1;Лада;Веста;2024;1650000;Седан;Механика;Бензин;белый\n")
        w('C-2;Лада;Веста;2024;1650000;Седан;Механика;Бензин;"')
        block = 'ж;\n""' * 100_000
        for _ in range(MB // (len(block) + 100_000)):
            w(block)
        w('"\n')
    elif shape == "csvrows50m":  # a CSV of rows just under a record's limit
        w("id;brand;model;year;price;body_type;transmission;fuel_type;color\n")
        big = "ж" * 450_000
        i = 0
        while f.tell() < MB - 1_000_000:
            w(f'C-{i};Лада;Веста;2024;1650000;Седан;Механика;Бензин;"{big}"\n')
            i += 1
    else:
        sys.exit(f"unknown shape {shape}")
PY
}

kb() { awk -v k="$1" '$1 == k":" {print $2}' "/proc/$PID/status"; }

start_server() {
  DATA="$WORK/data-$1"
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  "$BIN" --data "$DATA" migrate >/dev/null
  printf 'bench-password\n' | "$BIN" --data "$DATA" user create bench --password-stdin >/dev/null
  (cd "$WORK" && RUST_LOG=warn exec "$BIN" --data "$DATA" serve --listen "127.0.0.1:$port" >"$WORK/server-$1.log" 2>&1) &
  PID=$!
  # HOSTILE_CGROUP=/sys/fs/cgroup/memory/NAME: the server runs in that
  # (existing) memory cgroup, to measure an old binary safely.
  [[ -n ${HOSTILE_CGROUP:-} ]] && echo "$PID" >"$HOSTILE_CGROUP/cgroup.procs"
  for _ in $(seq 100); do curl -fs "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
  URL="http://127.0.0.1:$port"
  sleep 0.5
}

stop_server() { kill "$PID" 2>/dev/null; wait "$PID" 2>/dev/null || true; PID=""; }

# timed OUT CURL-ARGS...: seconds of the call; the answer in OUT
timed() {
  local out=$1; shift
  local started ended
  started=$(date +%s.%N)
  curl -sS --max-time "${HOSTILE_TIMEOUT:-300}" -u bench:bench-password -o "$out" -w '%{http_code}' "$@" >"$out.code" 2>/dev/null || true
  ended=$(date +%s.%N)
  python3 -c "print(f'{$ended - $started:.2f}')"
}

summary() { python3 - "$1" <<'PY'
import json, sys
try:
    run = json.load(open(sys.argv[1]))
except Exception:
    code = open(sys.argv[1] + ".code").read().strip()
    body = open(sys.argv[1], "rb").read()[:100] if __import__("os").path.exists(sys.argv[1]) else b""
    print(f"HTTP {code or 'none'} {body!r}"); sys.exit()
if "status" not in run:
    print(json.dumps(run, ensure_ascii=False)[:160]); sys.exit()
c = run.get("counts", {})
msg = f"{run['status']}: new {c.get('new')}, errors {c.get('errors')}, warnings {c.get('warnings')}"
if run.get("error"):
    msg += f" — {run['error'][:90]}"
elif run.get("errors"):
    msg += f" — {run['errors'][0]['message'][:90]}"
print(msg)
PY
}

echo "binary $BIN, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-11s %8s %8s %9s %9s %9s %9s  %s\n' shape size preview_s apply_s rest_MB prev+MB peak+MB outcome
fail=0
for shape in $SHAPES; do
  feed="$WORK/$shape.feed"
  gen "$shape" "$feed"
  name="$shape.xml"; [[ $shape == csv* ]] && name="$shape.csv"
  size=$(du -m "$feed" | cut -f1)
  start_server "$shape"
  rest=$(kb VmRSS)
  preview=$(timed "$WORK/answer.json" -F "file=@$feed;filename=$name" "$URL/api/admin/imports")
  outcome=$(summary "$WORK/answer.json")
  peak_preview=$(kb VmHWM)
  apply="-"
  applied=""
  status=$(python3 -c 'import json,sys
try: print(json.load(open(sys.argv[1])).get("status",""))
except Exception: print("")' "$WORK/answer.json")
  if [[ $status == preview && $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["counts"]["new"])' "$WORK/answer.json") -gt 1 ]]; then
    id=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["id"])' "$WORK/answer.json")
    apply=$(timed "$WORK/applied.json" -X POST "$URL/api/admin/imports/$id/apply")
    outcome="$outcome; apply $(summary "$WORK/applied.json")"
    applied=$(python3 -c 'import json,sys
try: print(json.load(open(sys.argv[1])).get("status",""))
except Exception: print("")' "$WORK/applied.json")
  fi
  peak=$(kb VmHWM)
  if ! kill -0 "$PID" 2>/dev/null; then outcome="SERVER DIED; $outcome"; peak=999999; fi
  stop_server
  rm -f "$feed"
  above=$(( (peak - rest) / 1024 ))
  printf '%-11s %6sMB %8s %9s %9s %9s %9s  %s\n' "$shape" "$size" "$preview" "$apply" $((rest / 1024)) $(( (peak_preview - rest) / 1024 )) "$above" "$outcome"
  budget=$BUDGET_PREVIEW_S; [[ $shape == deep50k ]] && budget=$BUDGET_SMALL_S
  if python3 -c "import sys; sys.exit(0 if $preview < $budget else 1)"; then :; else echo "  FAIL: preview $preview s, budget $budget s"; fail=1; fi
  if [[ $apply != - && $applied != applied ]]; then echo "  FAIL: apply answered $(cat "$WORK/applied.json.code"), not the applied run"; fail=1; fi
  if [[ $apply != - ]] && ! python3 -c "import sys; sys.exit(0 if $apply < $BUDGET_APPLY_S else 1)"; then echo "  FAIL: apply $apply s, budget $BUDGET_APPLY_S s"; fail=1; fi
  if (( above >= BUDGET_PEAK_MB )); then echo "  FAIL: peak $above MB above rest, budget $BUDGET_PEAK_MB MB"; fail=1; fi
done
if (( fail )); then echo "FAIL"; exit 1; fi
echo "PASS: every preview within its time, every peak under resting + $BUDGET_PEAK_MB MB"
