#!/usr/bin/env bash
# Boot test (called by scripts/test.sh): proves that the installed service,
# under systemd/dealership.service exactly as shipped (MemoryDenyWriteExecute=yes
# and the rest of its confinement), serves public pages drawn on the server by
# the embedded JavaScript interpreter.
#
# It takes a minimal Debian 12 root (debootstrap, cached and shared with
# scripts/test-package.sh: scripts/lib/container.sh), puts the release binary
# and the project's install files into it, and boots it with systemd-nspawn
# (a real systemd as PID 1, its own network with only loopback). In there a
# one-shot unit, check.service, does what an admin does:
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
# writes PASS/FAIL lines to /check.result and powers the container off.
# This script then prints those lines (and the journal on failure) and exits 0
# only when every check passed.
#   sudo scripts/test-boot.sh BINARY        (the release build)
# Needs root, debootstrap and systemd-nspawn (installed with apt-get when
# missing), and a Debian mirror the first time (the one apt uses;
# DEBOOTSTRAP_MIRROR overrides). BOOT_TIMEOUT (seconds, default 300) bounds
# the boot; nothing is left behind but the cached root.
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
    ./install.sh --base-url http://localhost:8080 --admin manager --admin-password-stdin 2>&1)"; then
    pass "install.sh --base-url http://localhost:8080 --admin manager --admin-password-stdin: exit 0, service started"
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
CHECK
chmod 0755 "$root/usr/local/sbin/boot-check"

container_check "$root" /usr/local/sbin/boot-check \
    "dealership boot test: install.sh, demo data, server-drawn pages" 240

# ---------------------------------------------------------------- boot
container_boot "$root" "${BOOT_TIMEOUT:-300}"
container_verdict "$root" test-boot
echo "boot test: all checks passed in $((SECONDS - started)) s"
