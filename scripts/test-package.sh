#!/usr/bin/env bash
# Package test (called by scripts/test.sh): the Debian package as a dealer
# gets it and installs it.
#
# 1. Builds it with scripts/package.sh --no-build from the release binary
#    (twice: as Cargo.toml's version, revision 1, and the same binary as
#    revision 2, the "newer build" of the upgrade) and inspects it: its size
#    (under 20 MB) and SHA256SUMS, the control fields (version, dependencies
#    Debian 12 and Ubuntu 24.04 have in their base: no Rust, no Node), every
#    file with its mode, the conffile, the units (the program in /usr/bin),
#    the binary (stripped, the built UI inside), the maintainer scripts, and
#    lintian: no errors.
# 2. Installs it under a real systemd: a Debian 12 root (debootstrapped once,
#    cached and shared with scripts/test-boot.sh: scripts/lib/container.sh)
#    booted with systemd-nspawn, where a one-shot unit does as a dealer does,
#    with `apt-get install -y ./dealership_*.deb` (no terminal, nothing
#    asked) and checks what they would see:
#    - install: the user, the folders and modes, the conffile, the units
#      enabled, the site answering on 127.0.0.1:8080;
#    - `dealership setup --base-url https://auto.example.ru --admin manager
#      --password-stdin --proxy caddy`: its drop-in (the conffile unchanged),
#      the Caddy site file, the service restarted with it (HSTS now), the
#      admin logs in;
#    - a lead is stored (POST /api/leads) and listed for the admin;
#    - the upgrade to revision 2: a backup first, the service restarted,
#      the lead and the configuration kept;
#    - `apt-get remove`: the program and the service gone, the
#      configuration, the data and the backups kept; a reinstall serves the
#      lead again;
#    - `apt-get purge`: the configuration gone, the data and the backups
#      kept and named;
#    - a program older than the database: installing the package over a
#      database migrated by "dealership 9.9.9" fails, naming both versions,
#      and the site is not started; the database is untouched.
#   sudo scripts/test-package.sh [BINARY]   (default: the release build)
# Needs root (debootstrap, systemd-nspawn, apt-get install lintian when
# missing), cargo (cargo-deb is installed when missing) and python3. About
# two minutes once the root is cached; nothing is left behind but that root.
set -euo pipefail
cd "$(dirname "$0")/.."

target="${CARGO_TARGET_DIR:-target}"
binary="${1:-$target/release/dealership}"
fail() {
    echo "test-package: FAILED: $*" >&2
    exit 1
}
[ -x "$binary" ] || fail "no release binary at $binary: cargo build --release --locked first"
[ "$(readlink -f "$binary")" = "$(readlink -f "$target/release/dealership")" ] ||
    fail "package.sh packages $target/release/dealership, not $binary"
[ "$(id -u)" = 0 ] || fail "run me as root (apt-get, debootstrap and systemd-nspawn need it): sudo $0 $*"
if ! command -v lintian >/dev/null; then
    echo "--- apt-get install lintian"
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y lintian
fi

# shellcheck source=scripts/lib/container.sh
. scripts/lib/container.sh
container_init package
started=$SECONDS

version="$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)"
v1="$version-1"
v2="$version-2"
arch="$(dpkg --print-architecture)"

# ---------------------------------------------------------------- build
echo "--- scripts/package.sh --no-build (as $v1, then the same binary as $v2)"
built=$SECONDS
bash scripts/package.sh --no-build --out "$work/v1" || fail "package.sh failed"
echo "    built in $((SECONDS - built)) s"
bash scripts/package.sh --no-build --deb-version "$v2" --out "$work/v2" >/dev/null ||
    fail "package.sh --deb-version $v2 failed"
deb="$work/v1/dealership_${v1}_$arch.deb"
deb2="$work/v2/dealership_${v2}_$arch.deb"
[ -f "$deb" ] || fail "no $deb (the name apt users download)"
[ -f "$deb2" ] || fail "no $deb2"

# ---------------------------------------------------------------- inspect
echo "--- the package: size, sums, control fields"
bytes="$(stat -c %s "$deb")"
[ "$bytes" -lt 20000000 ] || fail "the package is $bytes bytes, not under 20 MB"
echo "    $(basename "$deb"): $bytes bytes"
(cd "$work/v1" && sha256sum --check --strict SHA256SUMS) || fail "SHA256SUMS does not check"
field() { dpkg-deb --field "$deb" "$1"; }
[ "$(field Package)" = dealership ] || fail "Package: $(field Package)"
[ "$(field Version)" = "$v1" ] || fail "Version: $(field Version), not $v1 (Cargo.toml's)"
[ "$(field Architecture)" = "$arch" ] || fail "Architecture: $(field Architecture)"
depends="$(field Depends)"
echo "    Depends: $depends"
# Each one is in the base of Debian 12 and Ubuntu 24.04 (priority required or
# important, or systemd, which both boot with).
for dep in $(tr ',' '\n' <<<"$depends" | sed 's/(.*)//; s/|.*//' | tr -d ' '); do
    case "$dep" in
    libc6 | libgcc-s1 | passwd | systemd | tzdata) ;;
    *) fail "Depends names $dep, which a fresh Debian 12 or Ubuntu 24.04 may lack" ;;
    esac
done
libc="$(grep -o 'libc6 (>= [0-9.]*)' <<<"$depends" | grep -o '[0-9.]*)' | tr -d ')')"
dpkg --compare-versions "${libc:-0}" le 2.36 || fail "needs libc6 $libc; Debian 12 has 2.36"

echo "--- the files and their modes"
listing="$(dpkg-deb --contents "$deb" | awk '{ print $1, $2, $6 }')"
expect_entry() {
    grep -qx -- "$1 0/0 $2" <<<"$listing" || fail "no '$1 root $2' in the package: $(grep -F -- "$2" <<<"$listing" || echo missing)"
}
expect_entry -rwxr-xr-x ./usr/bin/dealership
expect_entry -rw-r----- ./etc/dealership/dealership.toml
for unit in dealership.service dealership-backup.service dealership-backup.timer; do
    expect_entry -rw-r--r-- "./usr/lib/systemd/system/$unit"
done
for doc in README.md operations.md changelog.gz copyright changelog.Debian.gz; do
    expect_entry -rw-r--r-- "./usr/share/doc/dealership/$doc"
done
files="$(grep -c '^-' <<<"$listing")"
[ "$files" = 11 ] || fail "the package holds $files files, not the 11 expected: $(grep '^-' <<<"$listing" | awk '{ print $3 }' | tr '\n' ' ')"
echo "    $files files, modes and owners as expected"

dpkg-deb --raw-extract "$deb" "$work/x"
[ "$(cat "$work/x/DEBIAN/conffiles")" = /etc/dealership/dealership.toml ] ||
    fail "conffiles: $(cat "$work/x/DEBIAN/conffiles")"
install -d "$work/scratch-root"
"$binary" setup --system --root "$work/scratch-root" >/dev/null
cmp -s "$work/x/etc/dealership/dealership.toml" "$work/scratch-root/etc/dealership/dealership.toml" ||
    fail "the conffile is not what dealership setup --system writes"
grep -qx 'data_dir = "/var/lib/dealership"' "$work/x/etc/dealership/dealership.toml" || fail "the conffile's data_dir"
for unit in dealership.service dealership-backup.service dealership-backup.timer; do
    sed -e 's|/usr/local/bin/dealership|/usr/bin/dealership|g' -e 's|/usr/local/share/doc|/usr/share/doc|g' \
        "systemd/$unit" | cmp -s - "$work/x/usr/lib/systemd/system/$unit" ||
        fail "$unit is not systemd/$unit with the package's paths"
done
grep -qx 'ExecStart=/usr/bin/dealership --config /etc/dealership/dealership.toml serve' \
    "$work/x/usr/lib/systemd/system/dealership.service" || fail "dealership.service does not run /usr/bin/dealership"
echo "    conffile, units: as expected"

said="$("$work/x/usr/bin/dealership" --version)"
[ "$said" = "dealership $version" ] || fail "the packaged program says '$said'"
if readelf -S "$work/x/usr/bin/dealership" | grep -q -E '\.symtab|\.debug_'; then
    fail "the packaged program is not stripped"
fi
# The built UI is inside: the name of its entry script (with its content hash).
asset="$(python3 -c 'import json, sys; m = json.load(open(sys.argv[1])); print(next(v["file"] for v in m.values() if v.get("isEntry")))' \
    ui/dist/.vite/manifest.json)" || fail "no entry script in ui/dist/.vite/manifest.json: build the UI"
grep -q -a -F "$asset" "$work/x/usr/bin/dealership" || fail "the packaged program lacks the UI ($asset)"
echo "    /usr/bin/dealership: $said, stripped, $(stat -c %s "$work/x/usr/bin/dealership") bytes, UI $asset inside"

for script in postinst prerm postrm; do
    [ -x "$work/x/DEBIAN/$script" ] || fail "no $script"
    sh -n "$work/x/DEBIAN/$script" || fail "$script is not valid sh"
done
grep -q 'dealership setup --system\|"\$BIN" setup --system' "$work/x/DEBIAN/postinst" || fail "postinst does not run setup --system"
grep -q 'deb-systemd-helper enable dealership.service' "$work/x/DEBIAN/postinst" || fail "postinst does not enable the service"
grep -q 'deb-systemd-helper enable dealership-backup.timer' "$work/x/DEBIAN/postinst" || fail "postinst does not enable the timer"
grep -q 'deb-systemd-invoke stop dealership.service' "$work/x/DEBIAN/prerm" || fail "prerm does not stop the service"
echo "    maintainer scripts: valid sh, setup --system, units enabled and stopped"

echo "--- lintian (errors fail)"
linted=$SECONDS
lint="$(lintian --fail-on error --tag-display-limit 0 "$deb" 2>&1)" || {
    echo "$lint" >&2
    fail "lintian found errors (above)"
}
! grep -q '^E:' <<<"$lint" || fail "lintian: $lint"
echo "$lint" | grep -v 'running with root privileges' | sed 's/^/    /' || true
echo "    lintian: no errors ($((SECONDS - linted)) s)"

# ---------------------------------------------------------------- under systemd
root="$work/root"
container_root "$root"
# Where apt's unprivileged downloader may read them.
install -d -m 0755 "$root/srv/pkgs"
install -m 0644 "$deb" "$deb2" "$root/srv/pkgs/"
# A database a newer program migrated: a migration this one does not know
# (999), recorded as applied by dealership 9.9.9.
"$binary" --data "$work/future" migrate >/dev/null
python3 - "$work/future/dealership.db" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("INSERT INTO refinery_schema_history (version, name, applied_on, checksum) VALUES (999, 'future', '2030-01-01T00:00:00Z', '0')")
db.commit()
db.execute("PRAGMA journal_mode = WAL")  # as a live database is
db.execute("PRAGMA user_version = 9009009")
db.close()
PY
install -m 0644 "$work/future/dealership.db" "$root/srv/future.db"
cat >"$root/srv/pkgs/expect" <<EOF
VERSION=$version
V1=$v1
V2=$v2
DEB1=/srv/pkgs/$(basename "$deb")
DEB2=/srv/pkgs/$(basename "$deb2")
EOF

cat >"$root/usr/local/sbin/package-check" <<'CHECK'
#!/bin/bash
# Runs once at boot (check.service): the package installed, set up,
# upgraded, removed, reinstalled and purged as a dealer does; PASS/FAIL
# lines in /check.result.
set -uo pipefail
. /usr/local/lib/container-check.sh
. /srv/pkgs/expect
CONF=/etc/dealership/dealership.toml
# What `dealership setup` sets: its drop-in, never the conffile.
SET=/etc/dealership/dealership.d/50-setup.toml
PASSWORD=package-test-password-1
export DEBIAN_FRONTEND=noninteractive

apt_get() { apt-get -y -q "$@" </dev/null 2>&1; }
state() { stat -c '%a %U:%G' "$1" 2>/dev/null || echo missing; }
expect_state() {
    if [ "$(state "$1")" = "$2" ]; then pass "$1: $2"; else bad "$1: $(state "$1"), not $2"; fi
}
main_pid() { systemctl show dealership.service -p MainPID --value; }
leads_named() {
    curl -fsS --max-time 10 -u "manager:$PASSWORD" "$URL/api/leads" 2>/dev/null | grep -o 'Покупатель Пакетов' | head -n 1
}

echo "=== apt-get install ./dealership_$V1.deb"
if out="$(apt_get install "$DEB1")"; then
    pass "apt-get install -y $(basename "$DEB1"): exit 0, nothing asked"
else
    evidence "$out"
    bad "apt-get install $(basename "$DEB1") failed (its last lines above)"
fi
printf '%s\n' "$out"
[ "$(dpkg-query -W -f '${Status} ${Version}' dealership 2>&1)" = "install ok installed $V1" ] &&
    pass "dpkg: dealership $V1 installed" || bad "dpkg: $(dpkg-query -W -f '${Status} ${Version}' dealership 2>&1)"
if [ "$(getent passwd dealership | cut -d: -f6,7)" = /var/lib/dealership:/usr/sbin/nologin ]; then
    pass "system user dealership: home /var/lib/dealership, shell nologin"
else
    bad "system user dealership: $(getent passwd dealership || echo missing)"
fi
expect_state /var/lib/dealership "750 dealership:dealership"
expect_state /var/backups/dealership "700 dealership:dealership"
expect_state /etc/dealership "750 root:dealership"
expect_state "$CONF" "640 root:dealership"
expect_state /var/lib/dealership/dealership.db "600 dealership:dealership"
for unit in dealership.service dealership-backup.timer; do
    if [ "$(systemctl is-enabled "$unit")" = enabled ] && systemctl is-active --quiet "$unit"; then
        pass "$unit: enabled, active"
    else
        bad "$unit: $(systemctl is-enabled "$unit"), $(systemctl is-active "$unit")"
    fi
done
if healthy "$URL" 30 dealership.service; then
    pass "the site answers on 127.0.0.1:8080: /healthz 200"
else
    bad "no /healthz on 127.0.0.1:8080 ($(systemctl is-active dealership.service))"
fi
if grep -q 'dealership setup --base-url' <<<"$out"; then
    pass "apt's output says what to run next: dealership setup --base-url ..."
else
    bad "apt's output does not name dealership setup"
fi

echo "=== dealership setup"
before="$(main_pid)"
if out="$(echo "$PASSWORD" | dealership setup --base-url https://auto.example.ru --admin manager --password-stdin --proxy caddy 2>&1)"; then
    pass "dealership setup --base-url https://auto.example.ru --admin manager --password-stdin --proxy caddy: exit 0"
else
    evidence "$out"
    bad "dealership setup failed (above)"
fi
printf '%s\n' "$out"
grep -qx 'base_url = "https://auto.example.ru"' "$SET" && pass "$SET: base_url = \"https://auto.example.ru\"" ||
    bad "$SET: $(grep '^base_url' "$SET" 2>&1)"
grep -qx 'trusted_proxies = \["127.0.0.1", "::1"\]' "$SET" && pass "$SET: the proxy trusted" ||
    bad "$SET: $(grep '^trusted_proxies' "$SET" 2>&1)"
expect_state "$CONF" "640 root:dealership"
expect_state "$SET" "640 root:dealership"
# The conffile as the package shipped it: the upgrade below asks nothing.
if [ "$(md5sum <"$CONF" | cut -d' ' -f1)" = "$(dpkg-query -W -f '${Conffiles}' dealership | awk -v f="$CONF" '$1 == f { print $2 }')" ]; then
    pass "$CONF: the package's conffile, unchanged by setup"
else
    bad "$CONF: changed by setup (dpkg would ask at the upgrade)"
fi
grep -q '^auto.example.ru {' /etc/caddy/dealership.caddy 2>/dev/null && pass "/etc/caddy/dealership.caddy for auto.example.ru" ||
    bad "no Caddy site for auto.example.ru"
if healthy "$URL" 30 dealership.service && [ "$(main_pid)" != "$before" ]; then
    pass "the service restarted (process $before -> $(main_pid)) and answers"
else
    bad "the service did not restart with the new configuration (process $before -> $(main_pid))"
fi
if curl -fsS -D - -o /dev/null "$URL/healthz" | grep -qi '^strict-transport-security: max-age=31536000'; then
    pass "answers carry HSTS: the running site has the https address"
else
    bad "no HSTS: the running site does not have the https address"
fi
code="$(curl -s -o /dev/null -w '%{http_code}' -H 'content-type: application/json' \
    -d "{\"login\":\"manager\",\"password\":\"$PASSWORD\"}" "$URL/api/admin/login")"
[ "$code" = 200 ] && pass "the admin manager logs in: POST /api/admin/login 200" || bad "login of manager: $code"
code="$(curl -s -o /dev/null -w '%{http_code}' -H 'content-type: application/json' \
    -d '{"login":"manager","password":"a wrong one"}' "$URL/api/admin/login")"
[ "$code" = 401 ] && pass "a wrong password: 401" || bad "a wrong password: $code"

echo "=== a lead"
code="$(curl -s -o /dev/null -w '%{http_code}' -H 'content-type: application/json' \
    -d '{"type":"contact_form","name":"Покупатель Пакетов","phone":"+7 (921) 555-12-34","sourceUrl":"https://auto.example.ru/","consent":true}' \
    "$URL/api/leads")"
[ "$code" = 201 ] && pass "POST /api/leads: 201" || bad "POST /api/leads: $code"
[ -n "$(leads_named)" ] && pass "the admin sees the lead (GET /api/leads)" || bad "the lead is not listed for the admin"

echo "=== the upgrade to $V2 (the same binary, a newer package)"
backups="$(ls /var/backups/dealership | wc -l)"
before="$(main_pid)"
if out="$(apt_get install "$DEB2")"; then
    pass "apt-get install -y $(basename "$DEB2"): exit 0"
else
    evidence "$out"
    bad "the upgrade failed (above)"
fi
printf '%s\n' "$out"
[ "$(dpkg-query -W -f '${Version}' dealership)" = "$V2" ] && pass "dpkg: $V2 installed" || bad "dpkg: $(dpkg-query -W -f '${Version}' dealership)"
grep -q "Backing up the data before the upgrade from $V1" <<<"$out" && pass "it said it backs up first" || bad "no backup named in the output"
now="$(ls /var/backups/dealership | wc -l)"
[ "$now" = $((backups + 1)) ] && pass "a backup archive more: $(ls -t /var/backups/dealership | head -n 1)" ||
    bad "backups: $backups before, $now after"
if healthy "$URL" 30 dealership.service && [ "$(main_pid)" != "$before" ]; then
    pass "the new program runs (process $before -> $(main_pid))"
else
    bad "the service after the upgrade: $(systemctl is-active dealership.service), process $(main_pid)"
fi
[ -n "$(leads_named)" ] && pass "the lead is still there" || bad "the lead is gone after the upgrade"
grep -qx 'base_url = "https://auto.example.ru"' "$SET" && pass "the configuration was kept" || bad "the configuration changed"

echo "=== apt-get remove"
if out="$(apt_get remove dealership)"; then pass "apt-get remove -y dealership: exit 0"; else evidence "$out"; bad "remove failed"; fi
printf '%s\n' "$out"
[ ! -e /usr/bin/dealership ] && pass "/usr/bin/dealership removed" || bad "/usr/bin/dealership is still there"
systemctl is-active --quiet dealership.service && bad "dealership.service still runs" || pass "dealership.service stopped"
curl -fsS -o /dev/null --max-time 2 "$URL/healthz" 2>/dev/null && bad "the site still answers" || pass "nothing answers on 127.0.0.1:8080"
[ -f "$CONF" ] && pass "kept: $CONF" || bad "the configuration went"
[ -f /var/lib/dealership/dealership.db ] && pass "kept: /var/lib/dealership/dealership.db" || bad "the database went"
[ "$(ls /var/backups/dealership | wc -l)" = "$now" ] && pass "kept: the $now backup(s)" || bad "the backups changed"
grep -q 'Kept' <<<"$out" && pass "apt's output says what is kept" || bad "apt's output does not say what is kept"

echo "=== reinstall"
if out="$(apt_get install "$DEB2")"; then pass "apt-get install -y $(basename "$DEB2") again: exit 0"; else evidence "$out"; bad "reinstall failed"; fi
if healthy "$URL" 30 dealership.service; then pass "the site answers again"; else bad "no /healthz after the reinstall"; fi
[ -n "$(leads_named)" ] && pass "the lead is served again (the admin's password too)" || bad "the lead is not served after the reinstall"
grep -qx 'base_url = "https://auto.example.ru"' "$SET" && pass "the kept configuration is used" || bad "the configuration changed"

echo "=== apt-get purge"
if out="$(apt_get purge dealership)"; then pass "apt-get purge -y dealership: exit 0"; else evidence "$out"; bad "purge failed"; fi
printf '%s\n' "$out"
[ ! -e /etc/dealership ] && pass "/etc/dealership removed" || bad "/etc/dealership is still there: $(ls -A /etc/dealership)"
[ -f /var/lib/dealership/dealership.db ] && pass "kept: the database" || bad "purge took the database"
[ "$(ls /var/backups/dealership | wc -l)" -ge "$now" ] && pass "kept: the backups" || bad "purge took the backups"
grep -q '/var/lib/dealership' <<<"$out" && grep -q '/var/backups/dealership' <<<"$out" &&
    pass "apt's output names where the data and the backups are" || bad "apt's output does not name the data and the backups"

echo "=== a program older than the database"
install -m 0600 -o dealership -g dealership /srv/future.db /var/lib/dealership/dealership.db
rm -f /var/lib/dealership/dealership.db-wal /var/lib/dealership/dealership.db-shm
sum="$(sha256sum </var/lib/dealership/dealership.db)"
if out="$(apt_get install "$DEB1")"; then
    bad "the package installed over a database of dealership 9.9.9"
else
    pass "apt-get install $(basename "$DEB1") over a newer database: refused (exit non-zero)"
fi
printf '%s\n' "$out"
message="$(grep -m 1 'schema version 999' <<<"$out")"
if grep -q 'dealership 9.9.9' <<<"$message" && grep -q "this dealership $VERSION" <<<"$message"; then
    pass "it names both versions: $message"
else
    bad "no message naming both versions in the output"
fi
systemctl is-active --quiet dealership.service && bad "the site was started" || pass "the site is not started"
[ "$(sha256sum </var/lib/dealership/dealership.db)" = "$sum" ] && pass "the database is untouched" || bad "the database changed"
CHECK
chmod 0755 "$root/usr/local/sbin/package-check"
container_check "$root" /usr/local/sbin/package-check \
    "dealership package test: install, setup, upgrade, remove, reinstall, purge" 420

container_boot "$root" "${BOOT_TIMEOUT:-540}"
container_verdict "$root" test-package
echo "package test: all checks passed in $((SECONDS - started)) s"
