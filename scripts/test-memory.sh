#!/usr/bin/env bash
# Memory test (issue 42): the site survives hostile data and floods within its
# memory limit and comes back near its resting size. Run by the boot test
# inside its container against the installed unit (MemoryMax=512M, as
# shipped), or by hand against any running server:
#
#   scripts/test-memory.sh URL ADMIN SLUGS [FEEDS_DIR]
#
# URL the site, ADMIN user:password of an admin, SLUGS a file of the hostile
# cars' slugs (bench/hostile_cars.py prints them; the cars are already in the
# database), FEEDS_DIR holding deep.xml (one car with 50,000 nested elements)
# and big.xml (a 50 MB feed), made by `bench/hostile_feeds.py`, and
# optionally png/*.png (bench/make_png16.py) for an upload flood. The server
# is found by MEMORY_UNIT (a systemd unit: its MainPID, NRestarts, journal)
# or MEMORY_PID (a process). Needs bash and curl only.
#
# It measures the server's resident memory (VmRSS) at rest, samples it every
# 0.2 s through each phase, and prints PASS/FAIL/INFO lines:
#   1. the hostile cars: 64 visitors at once (xargs -P 64) on /?v=N,
#      /new-cars?v=N, the hostile cars' pages and /feeds/avito.xml; every
#      answer is 200 or 503 with Retry-After (counted; a page sent as its
#      shell is counted from the journal);
#   2. the hostile feeds: previews of deep.xml and big.xml as the admin;
#   3. the floods: 500 wrong logins at once, 300 requests with 31 KB headers,
#      4,000 distinct long URLs, 500 half-sent requests held, and the uploads;
# then that the server was never killed (the unit's NRestarts 0, active, the
# same MainPID), that its memory went back under rest + MEMORY_BACK_MB
# (default 96) within 20 s after each phase, and that once the load is over
# it is back near rest: its own memory (RssAnon) at most MEMORY_REST_MB (default 24) over the
# resting size within MEMORY_SETTLE_S seconds (default 30: the rendering
# threads drop their runtimes after 10 s without a page and give the memory
# back; docs/operations.md, "Memory").
# Exit 0 when every check passed.
set -uo pipefail

url="${1:?usage: scripts/test-memory.sh URL ADMIN SLUGS [FEEDS_DIR]}"
admin="${2:?admin user:password}"
slugs_file="${3:?a file of the slugs of the hostile cars}"
feeds="${4:-}"
back_mb="${MEMORY_BACK_MB:-96}"
rest_mb="${MEMORY_REST_MB:-24}"
settle_s="${MEMORY_SETTLE_S:-30}"
visitors="${MEMORY_VISITORS:-64}"
rounds="${MEMORY_ROUNDS:-10}"
failed=0
pass() { echo "PASS $*"; }
bad() { echo "FAIL $*"; failed=1; }
info() { echo "INFO $*"; }

server_pid() {
    if [ -n "${MEMORY_UNIT:-}" ]; then
        systemctl show "$MEMORY_UNIT" -p MainPID --value
    else
        echo "${MEMORY_PID:?MEMORY_UNIT or MEMORY_PID}"
    fi
}
rss_kb() { sed -n 's/^VmRSS:[[:space:]]*\([0-9]*\).*/\1/p' "/proc/$1/status" 2>/dev/null; }
# The process's own memory (heap, stacks): VmRSS less the file pages (the
# binary's code and SQLite's file read through the page cache), which the
# kernel takes back when it needs them.
anon_kb() { sed -n 's/^RssAnon:[[:space:]]*\([0-9]*\).*/\1/p' "/proc/$1/status" 2>/dev/null; }
mb() { echo "$(($1 / 1024)) MB"; }
work="$(mktemp -d)"
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$work"' EXIT

pid="$(server_pid)"
[ -n "$pid" ] && [ "$pid" != 0 ] && [ -r "/proc/$pid/status" ] || { bad "no server process (${pid:-none})"; exit 1; }
restarts0="$( [ -n "${MEMORY_UNIT:-}" ] && systemctl show "$MEMORY_UNIT" -p NRestarts --value || echo 0)"
since="$(date '+%Y-%m-%d %H:%M:%S')"

# Warm: the rendering threads started, the catalogue read.
for path in / /new-cars /api/cars/fast?limit=20; do
    curl -s -o /dev/null --max-time 60 "$url$path"
done
sleep 2
rest="$(rss_kb "$pid")"
rest_anon="$(anon_kb "$pid")"
info "server $pid at rest: VmRSS $(mb "$rest"), RssAnon $(mb "$rest_anon")"

# Samples VmRSS into $work/$1.max until $work/$1.stop exists.
sample() {
    local max=0 now
    while [ ! -e "$work/$1.stop" ]; do
        now="$(rss_kb "$pid")"
        [ -n "$now" ] && [ "$now" -gt "$max" ] && max=$now && echo "$max" >"$work/$1.max"
        sleep 0.2
    done
}
start_sampling() { rm -f "$work/$1.stop"; echo 0 >"$work/$1.max"; sample "$1" & }
stop_sampling() { touch "$work/$1.stop"; wait "$!" 2>/dev/null; cat "$work/$1.max"; }

# Waits until the server is back within $back_mb of rest (20 s at most).
settles() {
    local now
    for _ in $(seq 1 100); do
        now="$(rss_kb "$pid")"
        [ -n "$now" ] && [ "$now" -le $((rest + back_mb * 1024)) ] && break
        sleep 0.2
    done
    echo "${now:-0}"
}

alive() {
    local now
    now="$(server_pid)"
    if [ "$now" != "$pid" ] || [ ! -r "/proc/$pid/status" ]; then
        bad "$1: the server is gone (pid $pid, now ${now:-none})"
        return 1
    fi
    if ! curl -fsS -o /dev/null --max-time 10 "$url/healthz"; then
        bad "$1: /healthz does not answer"
        return 1
    fi
}

# ---------------------------------------------------------------- the hostile cars
mapfile -t slugs <"$slugs_file"
[ "${#slugs[@]}" -gt 0 ] || { bad "no hostile cars in $slugs_file"; exit 1; }
{
    for n in $(seq 1 "$rounds"); do
        for v in $(seq "$((n * visitors))" "$((n * visitors + visitors / 4 - 1))"); do
            echo "$url/?v=$v"
            echo "$url/new-cars?v=$v"
            echo "$url/car/${slugs[$((v % ${#slugs[@]}))]}"
            echo "$url/feeds/avito.xml"
        done
    done
} >"$work/urls"
home_size="$(curl -s -o /dev/null -w '%{size_download}' --max-time 60 "$url/")"
info "the home page with the hostile cars: $((home_size / 1024)) KB"
start_sampling cars
started=$SECONDS
xargs -P "$visitors" -n 1 curl -s -o /dev/null --max-time 120 \
    -w '%{http_code} %header{retry-after}\n' <"$work/urls" >"$work/codes" 2>/dev/null
peak="$(stop_sampling cars)"
took=$((SECONDS - started))
total="$(wc -l <"$work/codes")"
ok="$(grep -c '^200 ' "$work/codes")"
busy="$(grep -c '^503 [0-9]' "$work/codes")"
other="$(grep -v -c -E '^(200 |503 [0-9])' "$work/codes")"
shells="?"
if [ -n "${MEMORY_UNIT:-}" ]; then
    shells="$(journalctl -u "$MEMORY_UNIT" --since "$since" --no-pager -o cat | grep -c 'sent as the shell')"
elif [ -n "${MEMORY_LOG:-}" ]; then
    shells="$(grep -c 'sent as the shell' "$MEMORY_LOG")"
fi
after="$(settles)"
summary="$total requests by $visitors visitors in $took s: $ok 200 ($shells pages sent as their shell), $busy 503 with Retry-After, $other other; VmRSS peak $(mb "$peak"), $(mb "$after") after (rest $(mb "$rest"))"
if alive "hostile cars" && [ "$other" = 0 ] && [ "$ok" -gt 0 ]; then
    pass "hostile cars: $summary"
else
    evidence="$(grep -v -E '^(200 |503 [0-9])' "$work/codes" | sort | uniq -c | head -n 5 | tr '\n' ' ')"
    bad "hostile cars: $summary; other answers: $evidence"
fi
[ "$after" -le $((rest + back_mb * 1024)) ] ||
    bad "hostile cars: VmRSS $(mb "$after") 20 s after the load, more than $back_mb MB over rest ($(mb "$rest"))"

# ---------------------------------------------------------------- the hostile feeds
if [ -n "$feeds" ]; then
    for feed in deep big; do
        [ -f "$feeds/$feed.xml" ] || { bad "no $feeds/$feed.xml"; continue; }
        start_sampling "feed-$feed"
        started=$SECONDS
        code="$(curl -s -o "$work/feed-$feed.json" -w '%{http_code}' --max-time 300 -u "$admin" \
            -F "file=@$feeds/$feed.xml;type=application/xml" "$url/api/admin/imports")"
        peak="$(stop_sampling "feed-$feed")"
        after="$(settles)"
        line="preview of $feed.xml ($(($(stat -c %s "$feeds/$feed.xml") / 1024)) KB): $code in $((SECONDS - started)) s, VmRSS peak $(mb "$peak"), $(mb "$after") after"
        if alive "$feed.xml" && [ "$code" != 000 ] && [ "${code:0:1}" != 5 ]; then
            pass "$line"
        else
            bad "$line: $(head -c 300 "$work/feed-$feed.json")"
        fi
    done
fi

# ---------------------------------------------------------------- the floods
# $1 name, the rest: a command whose output is one status a line.
flood() {
    local name="$1" peak after codes
    shift
    start_sampling "$name"
    started=$SECONDS
    codes="$("$@" 2>/dev/null | sort | uniq -c | sort -rn | awk '{ printf "%s%s x%s", (NR > 1 ? ", " : ""), $2, $1 }')"
    peak="$(stop_sampling "$name")"
    after="$(settles)"
    if alive "$name"; then
        pass "$name: $codes in $((SECONDS - started)) s; VmRSS peak $(mb "$peak"), $(mb "$after") after"
    else
        bad "$name: $codes; VmRSS peak $(mb "$peak")"
    fi
}
logins() {
    seq 1 500 | xargs -P 500 -I{} curl -s -o /dev/null --max-time 60 -w '%{http_code}\n' \
        -u "intruder{}:wrong-password" "$url/api/admin/me"
}
big_headers() {
    local pad
    pad="$(head -c 31000 /dev/zero | tr '\0' a)"
    seq 1 300 | xargs -P 300 -I{} curl -s -o /dev/null --max-time 60 -w '%{http_code}\n' \
        -H "X-Pad: $pad" "$url/?h={}"
}
long_urls() {
    local pad
    pad="$(head -c 7000 /dev/zero | tr '\0' p)"
    seq 1 4000 | sed "s|.*|$url/api/cars/fast?limit=100\&n=&\&p=$pad|" |
        xargs -P 16 -n 1 curl -s -o /dev/null --max-time 60 -w '%{http_code}\n'
}
half_sent() {
    local host port
    host="$(sed -E 's|^https?://([^:/]+).*|\1|' <<<"$url")"
    port="$(sed -E 's|^https?://[^:/]+:([0-9]+).*|\1|' <<<"$url")"
    for n in $(seq 1 500); do
        (exec 3<>"/dev/tcp/$host/$port" && printf 'GET / HTTP/1.1\r\nHost: x\r\n' >&3 && sleep 5) 2>/dev/null &
        [ $((n % 100)) = 0 ] && sleep 0.2
    done
    curl -s -o /dev/null --max-time 30 -w '%{http_code}\n' "$url/robots.txt"
    wait
}
uploads() {
    ls "$feeds"/png/*.png | xargs -P 10 -I{} curl -s -o /dev/null --max-time 120 -w '%{http_code}\n' \
        -u "$admin" -F 'file=@{};type=image/png' "$url/api/objects/upload"
}
flood "500 wrong logins at once" logins
flood "300 requests with 31 KB of headers" big_headers
flood "4,000 distinct 7 KB URLs from 16 connections" long_urls
flood "500 half-sent requests held 5 s, a visitor beside them" half_sent
if [ -n "$feeds" ] && compgen -G "$feeds/png/*.png" >/dev/null; then
    flood "$(ls "$feeds"/png/*.png | wc -l) uploads of 5 MB 16-bit PNGs at once" uploads
fi

# ---------------------------------------------------------------- back near rest
# The answer cache and the drawn fragments keep what they hold (8 and 24 MB
# at most; with the demo data far less); the rest of the process's own
# memory goes back to the system once the load is over (at the latest 10 s
# after it: src/server/trims.rs). Measured as RssAnon: the file pages the load read
# (more of the binary, the database) stay cached and count in VmRSS.
settle_started=$SECONDS
for _ in $(seq 1 $((settle_s * 5))); do
    now="$(anon_kb "$pid")"
    [ -n "$now" ] && [ "$now" -le $((rest_anon + rest_mb * 1024)) ] && break
    sleep 0.2
done
line="RssAnon $(mb "${now:-0}") $((SECONDS - settle_started)) s after the load (rest $(mb "$rest_anon"), bound rest + $rest_mb MB within $settle_s s; VmRSS $(mb "$(rss_kb "$pid")"), rest $(mb "$rest"))"
if [ -n "$now" ] && [ "$now" -le $((rest_anon + rest_mb * 1024)) ]; then
    pass "back near rest: $line"
else
    bad "not back near rest: $line"
fi

# ---------------------------------------------------------------- never killed
if [ -n "${MEMORY_UNIT:-}" ]; then
    restarts="$(systemctl show "$MEMORY_UNIT" -p NRestarts --value)"
    state="$(systemctl show "$MEMORY_UNIT" -p ActiveState --value)"
    result="$(systemctl show "$MEMORY_UNIT" -p Result --value)"
    limit="$(systemctl show "$MEMORY_UNIT" -p MemoryMax --value)"
    if [ "$restarts" = "$restarts0" ] && [ "$state" = active ] && [ "$result" = success ] &&
        [ "$(server_pid)" = "$pid" ]; then
        pass "$MEMORY_UNIT never killed: NRestarts $restarts, $state, result $result, MainPID $pid throughout (MemoryMax $limit)"
    else
        bad "$MEMORY_UNIT: NRestarts $restarts0 -> $restarts, $state, result $result, MainPID $pid -> $(server_pid) (MemoryMax $limit)"
    fi
    oom="$(journalctl -k --since "$since" --no-pager -o cat 2>/dev/null | grep -c -i 'out of memory\|oom-kill' || true)"
    [ "${oom:-0}" = 0 ] || bad "the kernel's log has $oom out-of-memory lines since the test began"
fi
hwm="$(sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\).*/\1/p' "/proc/$pid/status" 2>/dev/null)"
info "server $pid: VmHWM $(mb "${hwm:-0}"), VmRSS now $(mb "$(rss_kb "$pid")") (rest $(mb "$rest"))"
exit "$failed"
