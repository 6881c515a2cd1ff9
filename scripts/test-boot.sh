#!/usr/bin/env bash
# Boot test (called by scripts/test.sh): proves that the installed service,
# under systemd/dealership.service exactly as shipped (MemoryDenyWriteExecute=yes
# and the rest of its confinement), serves public pages drawn on the server by
# the embedded JavaScript interpreter.
#
# It builds a minimal Debian 12 root with debootstrap, puts the release binary
# and the project's install files into it, and boots it with systemd-nspawn
# (a real systemd as PID 1, on the host's network). In there a
# one-shot unit, boot-check.service, does what an admin does:
#   - runs install.sh (user, configuration, units; it starts the service),
#   - moves a demo dealership in as an admin moves a site: `dealership
#     restore` of a backup, run as the service user with the service stopped,
#     then starts the service again (the unit itself is never edited). The
#     backup is made here, while debootstrap runs: `serve --demo` fills a
#     scratch data directory (drawing its pictures takes a minute or two),
#     `backup` archives it;
#   - checks: the installed unit equals systemd/dealership.service and has no
#     drop-ins, `systemctl show` says MemoryDenyWriteExecute=yes, the server
#     runs under a seccomp filter, / and /new-cars arrive with <div id="app">
#     drawn (an <h1, car links) and without the "enable JavaScript" notice,
#     and the service's journal has no page-renderer errors;
#   - replication (issue 28): sets [replica] to moto's S3 server on the
#     host's loopback (the container shares the host's network for it, so the
#     site listens on a free port, not 8080), with Litestream installed by
#     install.sh --litestream; a lead and the demo pictures reach the bucket,
#     and `dealership restore --from-replica` into a new directory has them;
# writes PASS/FAIL lines to /boot-check.result and powers the container off.
# This script then prints those lines (and the journal on failure) and exits 0
# only when every check passed.
#   sudo scripts/test-boot.sh BINARY        (the release build)
# Needs root, debootstrap and systemd-nspawn (installed with apt-get when
# missing), and a Debian mirror (the one apt uses; DEBOOTSTRAP_MIRROR overrides).
# BOOT_TIMEOUT (seconds, default 400) bounds the boot; nothing is left behind.
set -euo pipefail
cd "$(dirname "$0")/.."

binary="${1:-}"
[ -n "$binary" ] || { echo "usage: scripts/test-boot.sh BINARY (the release build)" >&2; exit 2; }
[ -x "$binary" ] || { echo "no binary at $binary: cargo build --release first" >&2; exit 1; }
binary="$(readlink -f "$binary")"
fail() {
    echo "test-boot: FAILED: $*" >&2
    exit 1
}
[ "$(id -u)" = 0 ] || fail "run me as root (debootstrap and systemd-nspawn need it): sudo $0 $*"

# ---------------------------------------------------------------- tools
missing=()
command -v debootstrap >/dev/null || missing+=(debootstrap)
command -v systemd-nspawn >/dev/null || missing+=(systemd-container)
if [ ${#missing[@]} -gt 0 ]; then
    command -v apt-get >/dev/null || fail "the boot test needs ${missing[*]}, and there is no apt-get"
    echo "--- apt-get install ${missing[*]}"
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}"
fi

# The Debian mirror apt uses here (deb.debian.org when none is named).
mirror="${DEBOOTSTRAP_MIRROR:-}"
if [ -z "$mirror" ]; then
    mirror="$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null |
        grep -v '^[[:space:]]*#' | grep -o -E 'https?://[^[:space:]]+/debian/?([[:space:]]|$)' |
        head -n 1 | tr -d '[:space:]' || true)"
    mirror="${mirror:-http://deb.debian.org/debian}"
fi

# ---------------------------------------------------------------- scratch space
work="$(mktemp -d "${TMPDIR:-/var/tmp}/dealership-boot.XXXXXX")"
root="$work/root"
# The long steps run in the background and are waited for, so that an
# interrupt reaches the trap at once (a background job of a script ignores
# SIGINT, and debootstrap carries on after one): the trap stops them with TERM
# (to timeout, TERM has nspawn shut the container down in order).
seeder="" bootstrap="" nspawn=""
stop() {
    if [ -n "$1" ] && kill -0 "$1" 2>/dev/null; then
        kill -TERM "$1" 2>/dev/null || true
        wait "$1" 2>/dev/null || true
    fi
}
cleanup() {
    stop "${moto:-}"
    stop "$seeder"
    stop "$bootstrap"
    stop "$nspawn"
    # What an interrupted debootstrap left mounted (/proc, /sys), deepest first.
    awk -v w="$work/" 'index($2, w) == 1 { print $2 }' /proc/self/mounts | sort -r |
        while read -r mount; do umount -l "$mount" 2>/dev/null || true; done
    # --one-file-system: never follow a mount into the host.
    rm -rf --one-file-system "$work" || echo "test-boot: could not remove $work" >&2
}
trap cleanup EXIT
trap 'exit 130' INT TERM

started=$SECONDS
# The demo data, drawn while debootstrap runs: `serve --demo` seeds an empty
# data directory before it listens (on a free port; it is stopped once the
# seed is logged). The environment is emptied so no DEALERSHIP_* setting of
# this shell leaks in.
echo "--- serve --demo into a scratch data directory (in the background)"
install -d -m 0700 "$work/seed"
env -i PATH="$PATH" "$binary" --config dealership.toml --data "$work/seed" \
    serve --demo --listen 127.0.0.1:0 >"$work/seed.log" 2>&1 </dev/null &
seeder=$!

echo "--- debootstrap bookworm (minbase, systemd, dbus, curl) from $mirror"
debootstrap --variant=minbase --include=systemd,systemd-sysv,dbus,curl \
    bookworm "$root" "$mirror" >"$work/debootstrap.log" 2>&1 </dev/null &
bootstrap=$!
rc=0
wait "$bootstrap" || rc=$?
bootstrap=""
if [ "$rc" != 0 ]; then
    tail -n 30 "$work/debootstrap.log" >&2
    fail "debootstrap could not build the root (exit $rc, log above)"
fi
echo "    root built in $((SECONDS - started)) s"

for _ in $(seq 1 600); do
    grep -q 'demo data created' "$work/seed.log" && break
    kill -0 "$seeder" 2>/dev/null || break
    sleep 0.5
done
kill -TERM "$seeder" 2>/dev/null || true
wait "$seeder" 2>/dev/null || true
seeder=""
grep -q 'demo data created' "$work/seed.log" || {
    tail -n 20 "$work/seed.log" >&2
    fail "serve --demo did not create the demo data (its log above)"
}
echo "    $(grep -o 'demo data created.*' "$work/seed.log" | head -n 1) (done after $((SECONDS - started)) s)"
env -i PATH="$PATH" "$binary" --config dealership.toml --data "$work/seed" \
    backup "$work/demo.tar.gz" >"$work/backup.log" 2>&1 || {
    cat "$work/backup.log" >&2
    fail "backup of the demo data failed"
}

# ---------------------------------------------------------------- the project
# Laid out as an admin has it after building: install.sh finds the program in
# target/release/ and the configuration template and units next to it.
src="$root/root/dealership"
install -d "$src/target/release" "$src/systemd" "$src/docs"
install -m 0755 "$binary" "$src/target/release/dealership"
install -m 0755 install.sh "$src/install.sh"
install -m 0644 dealership.toml "$src/dealership.toml"
install -m 0644 systemd/* "$src/systemd/"
install -m 0644 docs/operations.md "$src/docs/operations.md"
# Where the service user can read it (/root cannot be).
install -m 0644 "$work/demo.tar.gz" "$root/srv/demo-backup.tar.gz"
# The journal kept on disk, so it can be read here after the container stops.
install -d "$root/var/log/journal"
rm -f "$root/boot-check.result"

# ---------------------------------------------------------------- replication (issue 28)
# moto's S3 server on the host's loopback, reached from the container (it
# shares the host's network), and the Litestream program install.sh takes.
eval "$(bash scripts/test-replica-tools.sh)"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
replica_port="$(free_port)"
site_port="$(free_port)"
env -u AWS_CA_BUNDLE "$MOTO_SERVER" -H 127.0.0.1 -p "$replica_port" >"$work/moto.log" 2>&1 </dev/null &
moto=$!
for _ in $(seq 1 120); do
    curl -fsS -o /dev/null "http://127.0.0.1:$replica_port/" 2>/dev/null && break
    sleep 0.25
done
curl -fsS -o /dev/null -X PUT "http://127.0.0.1:$replica_port/boot-replica" ||
    fail "moto's S3 server did not start on port $replica_port ($(tail -n 5 "$work/moto.log"))"
install -m 0755 "$LITESTREAM_BIN" "$root/srv/litestream"
printf 'SITE_PORT=%s\nREPLICA_ENDPOINT=http://127.0.0.1:%s\n' "$site_port" "$replica_port" \
    >"$root/srv/boot-replica.env"

# ---------------------------------------------------------------- the check, inside
cat >"$root/usr/local/sbin/boot-check" <<'CHECK'
#!/bin/bash
# Runs once at boot (boot-check.service): install, demo data, checks; writes
# PASS/FAIL lines to /boot-check.result, then powers off. Never stops early:
# every failure is a FAIL line.
set -uo pipefail
RESULT=/boot-check.result
SRC=/root/dealership
BIN=/usr/local/bin/dealership
CONF=/etc/dealership/dealership.toml
# SITE_PORT, REPLICA_ENDPOINT (written by the host, see "replication").
. /srv/boot-replica.env
URL=http://127.0.0.1:$SITE_PORT
failed=0
: >"$RESULT.partial"
pass() { echo "PASS $*" | tee -a "$RESULT.partial"; }
bad() { echo "FAIL $*" | tee -a "$RESULT.partial"; failed=1; }
info() { echo "INFO $*" | tee -a "$RESULT.partial"; }
finish() {
    if [ "$failed" = 0 ]; then echo "RESULT PASS" >>"$RESULT.partial"; else echo "RESULT FAIL" >>"$RESULT.partial"; fi
    # For the report on failure: the service's journal as the container saw it.
    journalctl -b -u dealership.service --no-pager -o short-monotonic >/boot-check.journal 2>&1 || true
    mv -f "$RESULT.partial" "$RESULT"
    sync
    systemctl --no-block poweroff
}
trap finish EXIT

# Waits up to $2 seconds for $1/healthz to answer 200; gives up at once when
# $3 names a process that has ended or a unit that systemd keeps restarting.
healthy() {
    local i
    for i in $(seq 1 "$(($2 * 4))"); do
        curl -fsS -o /dev/null --max-time 2 "$1/healthz" 2>/dev/null && return 0
        case "${3:-}" in
        "") ;;
        *.service) [ "$(systemctl show "$3" -p NRestarts --value)" -lt 2 ] || return 1 ;;
        *) kill -0 "$3" 2>/dev/null || return 1 ;;
        esac
        sleep 0.25
    done
    return 1
}

# Fetches $1 and checks that <div id="app"> holds drawn markup: an <h1 and,
# with $2 = yes, a link to a car; no "enable JavaScript" notice. With $3 =
# soft a shortfall is an INFO line, not a FAIL.
page() {
    local path="$1" links="$2" miss=bad html app h1 cars
    [ "${3:-}" != soft ] || miss=info
    if ! html="$(curl -fsS --max-time 20 "$URL$path" 2>&1)"; then
        $miss "GET $path: $html"
        return
    fi
    # What follows <div id="app"> up to the end of the body. (Here-strings,
    # not pipes, into grep -q: under pipefail an early-stopping grep fails.)
    app="$(tr '\n' ' ' <<<"$html" | sed -n 's|.*<div id="app">\(.*\)</body>.*|\1|p')"
    if [ -z "$app" ]; then
        $miss "GET $path: no <div id=\"app\"> in the page"
        return
    fi
    if grep -q 'Для работы сайта включите JavaScript' <<<"$html"; then
        $miss "GET $path: the page says \"Для работы сайта включите JavaScript\" (sent undrawn)"
        return
    fi
    if ! grep -q '<h1' <<<"$app"; then
        $miss "GET $path: <div id=\"app\"> has no <h1: ${app:0:200}"
        return
    fi
    h1="$(grep -o '<h1[^>]*>[^<]*' <<<"$app" | head -n 1 | sed 's/<h1[^>]*>//')"
    cars="$(grep -o 'href="/car/[^"]*"' <<<"$app" | sort -u | wc -l)"
    if [ "$links" = yes ] && [ "$cars" -lt 1 ]; then
        $miss "GET $path: drawn (h1 \"$h1\") but no href=\"/car/ link in <div id=\"app\">"
        return
    fi
    pass "GET $path: 200, <div id=\"app\"> drawn (${#app} characters), h1 \"$h1\", $cars distinct /car/ links, no JavaScript notice"
}

echo "=== install.sh, as an admin runs it"
cd "$SRC"
if out="$(echo 'boot-test-password-1' |
    ./install.sh --base-url "http://localhost:$SITE_PORT" --listen "127.0.0.1:$SITE_PORT" \
        --litestream /srv/litestream --admin manager --admin-password-stdin 2>&1)"; then
    pass "install.sh --base-url http://localhost:$SITE_PORT --listen 127.0.0.1:$SITE_PORT --litestream /srv/litestream --admin manager --admin-password-stdin: exit 0, service started"
else
    printf '%s\n' "$out" | tail -n 15 | sed 's/^/    /' >>"$RESULT.partial"
    bad "install.sh failed (its last lines above)"
fi
printf '%s\n' "$out"

if cmp -s "$SRC/systemd/dealership.service" /etc/systemd/system/dealership.service; then
    pass "/etc/systemd/system/dealership.service is systemd/dealership.service byte for byte"
else
    bad "/etc/systemd/system/dealership.service differs from systemd/dealership.service"
fi
dropins="$(systemctl show dealership.service -p DropInPaths --value)"
if [ -z "$dropins" ]; then
    pass "dealership.service has no drop-ins"
else
    bad "dealership.service has drop-ins: $dropins"
fi
mdwe="$(systemctl show dealership.service -p MemoryDenyWriteExecute)"
if [ "$mdwe" = MemoryDenyWriteExecute=yes ]; then
    pass "systemctl show dealership -p MemoryDenyWriteExecute: $mdwe"
else
    bad "systemctl show dealership -p MemoryDenyWriteExecute: $mdwe"
fi

if healthy "$URL" 60 dealership.service; then
    pass "fresh install (empty database): /healthz 200"
    # Not required: an empty site may draw its home page differently.
    page / no soft
else
    bad "fresh install: no /healthz ($(systemctl is-active dealership.service), restarted $(systemctl show dealership.service -p NRestarts --value) times)"
fi

echo "=== demo data: a backup restored as the service user, the service stopped"
# The unit is not edited: the data comes in as when a site moves servers.
systemctl stop dealership.service
if out="$(runuser -u dealership -- "$BIN" --config "$CONF" restore /srv/demo-backup.tar.gz 2>&1)"; then
    pass "runuser -u dealership -- dealership restore (demo data): $(head -n 1 <<<"$out")"
else
    bad "restore of the demo data failed: $(tr '\n' ' ' <<<"$out")"
fi

echo "=== the service, unit unchanged, with the demo data"
if ! systemctl start dealership.service; then
    bad "systemctl start dealership.service failed"
fi
if healthy "$URL" 60 dealership.service; then
    pass "dealership.service active, /healthz 200"
else
    bad "dealership.service: no /healthz ($(systemctl is-active dealership.service), restarted $(systemctl show dealership.service -p NRestarts --value) times)"
fi
pid="$(systemctl show dealership.service -p MainPID --value)"
if [ -n "$pid" ] && [ "$pid" != 0 ] && [ -r "/proc/$pid/status" ]; then
    seccomp="$(sed -n 's/^Seccomp:[[:space:]]*//p' "/proc/$pid/status")"
    filters="$(sed -n 's/^Seccomp_filters:[[:space:]]*//p' "/proc/$pid/status")"
    nnp="$(sed -n 's/^NoNewPrivs:[[:space:]]*//p' "/proc/$pid/status")"
    # Mode 2: filtered. MemoryDenyWriteExecute is one of these filters.
    if [ "$seccomp" = 2 ]; then
        pass "server process $pid: Seccomp 2 (filtered, $filters filters), NoNewPrivs $nnp, user $(stat -c %U "/proc/$pid")"
    else
        bad "server process $pid: Seccomp ${seccomp:-?}, not filtered"
    fi
else
    bad "no server process (MainPID ${pid:-?})"
fi
page / no
page /new-cars yes

# Requests are logged asynchronously: a moment for the journal.
sleep 1
log="$(journalctl -b -u dealership.service --no-pager -o cat)"
# render.rs logs "page renderer: ...", "page rendering thread/queue ..." and
# "rendering URL: error".
errors="$(grep -E 'page render|rendering /' <<<"$log" || true)"
if [ -z "$errors" ]; then
    pass "journal of dealership.service: no page-renderer errors ($(grep -c -E 'GET /(new-cars)? 200' <<<"$log") page requests logged)"
else
    head -n 10 <<<"$errors" | sed 's/^/    /' >>"$RESULT.partial"
    bad "journal of dealership.service has page-renderer errors (above)"
fi
# Anything else the service warned about, for the record.
others="$(grep -E '(WARN|ERROR)' <<<"$log" | grep -v -E 'page render|rendering /' | sort -u | head -n 5 || true)"
[ -z "$others" ] || info "other warnings in the journal: $(tr '\n' '|' <<<"$others")"

echo "=== replication: [replica] to the host's S3 server, under the unit as shipped"
replication() {
    local bucket="$REPLICA_ENDPOINT/boot-replica" phone="+79215550199" out i listing
    systemctl stop dealership.service
    install -m 0600 -o dealership -g dealership /dev/null /etc/dealership/replica-secret
    echo 'boot-secret' >/etc/dealership/replica-secret
    sed -i "/^\[replica\]/a endpoint = \"$REPLICA_ENDPOINT\"\nbucket = \"boot-replica\"\npath = \"site\"\nregion = \"us-east-1\"\naccess_key_id = \"boot-key\"\nsecret_access_key_file = \"/etc/dealership/replica-secret\"" "$CONF"
    systemctl start dealership.service
    if ! healthy "$URL" 60 dealership.service; then
        bad "with [replica]: no /healthz ($(systemctl is-active dealership.service))"
        return
    fi
    if out="$(curl -fsS --max-time 10 -H 'Content-Type: application/json' -d \
        "{\"type\":\"auto_selection\",\"name\":\"Репликация\",\"phone\":\"$phone\",\"sourceUrl\":\"http://localhost/\",\"consent\":true}" \
        "$URL/api/leads" 2>&1)"; then
        pass "with [replica]: /healthz 200, a lead taken ($phone)"
    else
        bad "with [replica]: the lead was refused: $out"
    fi
    # Litestream's files and the demo pictures in the bucket.
    for i in $(seq 1 120); do
        out="$(runuser -u dealership -- "$BIN" --config "$CONF" check 2>&1 || true)"
        grep -q 'every picture is in the bucket' <<<"$out" && break
        sleep 0.5
    done
    listing="$(curl -fsS "$bucket?list-type=2&prefix=site/" || true)"
    if grep -q '<Key>site/0000/' <<<"$listing" && grep -q '<Key>site/media/' <<<"$listing"; then
        pass "the bucket holds Litestream's files and the pictures ($(grep -o '<Key>' <<<"$listing" | wc -l) keys)"
    else
        bad "the bucket lacks Litestream's files or the pictures: ${listing:0:300}"
    fi
    if grep -q 'PROBLEM' <<<"$out" || ! grep -q 'every picture is in the bucket' <<<"$out"; then
        bad "dealership check with [replica]: $(grep -E 'PROBLEM|replication' <<<"$out" | tr '\n' '|')"
    else
        pass "dealership check: $(grep -o 'replication: the bucket .* answers' <<<"$out" | head -n 1), every picture in the bucket"
    fi
    if journalctl -b -u dealership.service --no-pager -o cat | grep -q 'litestream: .*level=ERROR'; then
        info "Litestream logged errors: $(journalctl -b -u dealership.service --no-pager -o cat | grep 'litestream: .*level=ERROR' | head -n 3 | tr '\n' '|')"
    fi
    # A clean stop sends the last writes; a new directory is filled from the bucket.
    systemctl stop dealership.service
    install -d -m 0750 -o dealership -g dealership /var/lib/dealership-restored
    if out="$(runuser -u dealership -- "$BIN" --config "$CONF" --data /var/lib/dealership-restored \
        restore --from-replica 2>&1)"; then
        if grep -q -a -F "$phone" /var/lib/dealership-restored/dealership.db && ! grep -q WARNING <<<"$out"; then
            pass "restore --from-replica: the lead is there, every picture: $(head -n 1 <<<"$out")"
        else
            bad "restore --from-replica lacks the lead or pictures: $(tr '\n' ' ' <<<"$out")"
        fi
    else
        bad "restore --from-replica failed: $(tr '\n' ' ' <<<"$out")"
    fi
    systemctl start dealership.service
}
replication
CHECK
chmod 0755 "$root/usr/local/sbin/boot-check"

cat >"$root/etc/systemd/system/boot-check.service" <<'UNIT'
[Unit]
Description=dealership boot test: install.sh, demo data, server-drawn pages
After=network.target
# Stopped one way or another, the container goes down with it.
FailureAction=poweroff

[Service]
Type=oneshot
ExecStart=/usr/local/sbin/boot-check
TimeoutStartSec=330
StandardOutput=journal+console
StandardError=journal+console

[Install]
WantedBy=multi-user.target
UNIT
ln -sf /etc/systemd/system/boot-check.service "$root/etc/systemd/system/multi-user.target.wants/boot-check.service"

# ---------------------------------------------------------------- boot
boot_timeout="${BOOT_TIMEOUT:-400}"
echo "--- booting the root with systemd-nspawn (at most $boot_timeout s)"
booted=$SECONDS
# The host's network (no --private-network): moto listens on its loopback.
timeout -k 20 "$boot_timeout" systemd-nspawn -D "$root" -b --register=no --keep-unit \
    --console=pipe >"$work/console.log" 2>&1 </dev/null &
nspawn=$!
rc=0
wait "$nspawn" || rc=$?
nspawn=""
echo "    container ran $((SECONDS - booted)) s (systemd-nspawn exit $rc)"

journal() {
    echo "--- journal of the container: dealership.service (last 40 lines)" >&2
    journalctl -D "$root/var/log/journal" -u dealership.service --no-pager -n 40 >&2 2>&1 ||
        tail -n 40 "$root/boot-check.journal" >&2 2>/dev/null || true
    echo "--- journal of the container: boot-check.service (last 40 lines)" >&2
    journalctl -D "$root/var/log/journal" -u boot-check.service --no-pager -n 40 -o cat >&2 2>&1 || true
    echo "--- systemd-nspawn output (last 20 lines)" >&2
    tail -n 20 "$work/console.log" >&2 || true
}

if [ ! -s "$root/boot-check.result" ]; then
    [ "$rc" != 124 ] || echo "test-boot: the container did not stop within $boot_timeout s" >&2
    journal
    fail "no result: boot-check.service did not finish in the container"
fi
echo "--- evidence (/boot-check.result)"
cat "$root/boot-check.result"
if grep -q '^FAIL' "$root/boot-check.result" || ! grep -qx 'RESULT PASS' "$root/boot-check.result"; then
    journal
    fail "checks failed under systemd (FAIL lines above)"
fi
echo "boot test: all checks passed in $((SECONDS - started)) s"
