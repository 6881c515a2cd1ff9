# shellcheck shell=bash
# A Debian 12 root booted under a real systemd (systemd-nspawn, systemd as
# PID 1, its own network with only loopback, or the host's), for the tests
# that need one:
# scripts/test-boot.sh (install.sh) and scripts/test-package.sh (the .deb).
# Sourced by them, which have `set -euo pipefail` and a fail() function.
#
#   container_init NAME       tools (debootstrap, systemd-nspawn: apt-get
#                             install when missing), the scratch folder $work
#                             (removed at exit with whatever is mounted in
#                             it), the interrupt trap
#   container_track PID       a background job the exit trap stops (TERM)
#   container_root DIR        DIR: a fresh copy of the debootstrapped root,
#                             which is built once and cached (below)
#   container_check ROOT SCRIPT DESCRIPTION SECONDS
#                             makes SCRIPT run once at boot (check.service),
#                             with the helpers of container-check.sh
#   container_boot ROOT SECONDS [host]
#                             boots ROOT until the check powers it off: on
#                             its own network with only loopback, or with
#                             host on the host's (no --private-network), so
#                             that it reaches a server on the host's
#                             loopback (and anything it listens on is on
#                             the host's: use a free port, not 8080)
#   container_verdict ROOT NAME    prints the check's PASS/FAIL lines and
#                             fails unless all passed (journals on failure)
#
# The root (debootstrap bookworm, minbase with systemd, systemd-sysv, dbus
# and curl) is built once and kept in $DEALERSHIP_ROOT_CACHE (default
# /var/tmp/dealership-roots), rebuilt when older than 7 days; each test works
# on its own copy, so the boot test and the package test debootstrap once
# between them. Delete the folder freely. The mirror is the one apt uses here
# (deb.debian.org when none is named; DEBOOTSTRAP_MIRROR overrides).

CONTAINER_SUITE=bookworm
CONTAINER_INCLUDE=systemd,systemd-sysv,dbus,curl
CONTAINER_CACHE="${DEALERSHIP_ROOT_CACHE:-/var/tmp/dealership-roots}"
CONTAINER_LIB="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CONTAINER_JOBS=()
CONTAINER_MOUNTS=()
work=""

container_init() {
    local name="$1" missing=()
    [ "$(id -u)" = 0 ] || fail "run me as root (debootstrap and systemd-nspawn need it): sudo $0"
    command -v debootstrap >/dev/null || missing+=(debootstrap)
    command -v systemd-nspawn >/dev/null || missing+=(systemd-container)
    if [ ${#missing[@]} -gt 0 ]; then
        command -v apt-get >/dev/null || fail "the test needs ${missing[*]}, and there is no apt-get"
        echo "--- apt-get install ${missing[*]}"
        apt-get update
        DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}"
    fi
    work="$(mktemp -d "${TMPDIR:-/var/tmp}/dealership-$name.XXXXXX")"
    CONTAINER_MOUNTS+=("$work/")
    trap container_cleanup EXIT
    trap 'exit 130' INT TERM
}

# Long steps run in the background and are waited for, so that an interrupt
# reaches the trap at once (a background job of a script ignores SIGINT, and
# debootstrap carries on after one): the trap stops them with TERM (to
# timeout, TERM has nspawn shut the container down in order).
container_track() {
    CONTAINER_JOBS+=("$1")
}

container_stop() {
    if [ -n "$1" ] && kill -0 "$1" 2>/dev/null; then
        kill -TERM "$1" 2>/dev/null || true
        wait "$1" 2>/dev/null || true
    fi
}

container_cleanup() {
    local job prefix
    for job in "${CONTAINER_JOBS[@]}"; do
        container_stop "$job"
    done
    # What an interrupted debootstrap left mounted (/proc, /sys), deepest first.
    for prefix in "${CONTAINER_MOUNTS[@]}"; do
        awk -v w="$prefix" 'index($2, w) == 1 { print $2 }' /proc/self/mounts | sort -r |
            while read -r mount; do umount -l "$mount" 2>/dev/null || true; done
    done
    # --one-file-system: never follow a mount into the host.
    if [ -n "$work" ]; then
        rm -rf --one-file-system "$work" || echo "could not remove $work" >&2
    fi
    if [ -n "${CONTAINER_BUILDING:-}" ]; then
        rm -rf --one-file-system "$CONTAINER_BUILDING" || true
    fi
}

# Waits for a tracked background job; its exit status.
container_wait() {
    local rc=0
    wait "$1" || rc=$?
    return "$rc"
}

container_mirror() {
    local mirror="${DEBOOTSTRAP_MIRROR:-}"
    if [ -z "$mirror" ]; then
        mirror="$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null |
            grep -v '^[[:space:]]*#' | grep -o -E 'https?://[^[:space:]]+/debian/?([[:space:]]|$)' |
            head -n 1 | tr -d '[:space:]' || true)"
        mirror="${mirror:-http://deb.debian.org/debian}"
    fi
    echo "$mirror"
}

# $1: a fresh copy of the cached root (built first when there is none).
container_root() {
    local dest="$1" cached started=$SECONDS mirror rc=0 pid
    cached="$CONTAINER_CACHE/$CONTAINER_SUITE-minbase-${CONTAINER_INCLUDE//,/-}"
    install -d -m 0700 "$CONTAINER_CACHE"
    # One build at a time; a second test waits for it and copies it.
    exec 9>"$CONTAINER_CACHE/.lock"
    flock 9
    if [ -d "$cached" ] && [ -n "$(find "$cached" -maxdepth 0 -mtime +7)" ]; then
        echo "--- the cached root is older than 7 days: building it again"
        rm -rf --one-file-system "$cached"
    fi
    if [ -d "$cached" ]; then
        echo "--- debootstrapped root from the cache ($cached)"
    else
        mirror="$(container_mirror)"
        echo "--- debootstrap $CONTAINER_SUITE (minbase, $CONTAINER_INCLUDE) from $mirror, cached in $CONTAINER_CACHE"
        CONTAINER_BUILDING="$CONTAINER_CACHE/.building.$$"
        CONTAINER_MOUNTS+=("$CONTAINER_BUILDING/")
        rm -rf --one-file-system "$CONTAINER_BUILDING"
        debootstrap --variant=minbase --include="$CONTAINER_INCLUDE" \
            "$CONTAINER_SUITE" "$CONTAINER_BUILDING" "$mirror" >"$work/debootstrap.log" 2>&1 </dev/null &
        pid=$!
        container_track "$pid"
        container_wait "$pid" || rc=$?
        if [ "$rc" != 0 ]; then
            tail -n 30 "$work/debootstrap.log" >&2
            fail "debootstrap could not build the root (exit $rc, log above)"
        fi
        # Caches of apt, not needed to boot.
        rm -rf "$CONTAINER_BUILDING"/var/cache/apt/archives/*.deb
        mv "$CONTAINER_BUILDING" "$cached"
        CONTAINER_BUILDING=""
        echo "    root built in $((SECONDS - started)) s"
    fi
    cp -a --reflink=auto "$cached" "$dest"
    flock -u 9
    echo "    copied to $dest ($((SECONDS - started)) s in all)"
}

# Makes $2 (a script inside the root) run once at boot as check.service,
# which writes /check.result and powers the container off; the script
# sources /usr/local/lib/container-check.sh (pass, bad, info, healthy).
container_check() {
    local root="$1" script="$2" description="$3" seconds="$4"
    install -d "$root/usr/local/lib"
    install -m 0644 "$CONTAINER_LIB/container-check.sh" "$root/usr/local/lib/container-check.sh"
    # The journal kept on disk, so it can be read here after the container stops.
    install -d "$root/var/log/journal"
    rm -f "$root/check.result"
    cat >"$root/etc/systemd/system/check.service" <<UNIT
[Unit]
Description=$description
After=network.target
# Stopped one way or another, the container goes down with it.
FailureAction=poweroff

[Service]
Type=oneshot
ExecStart=$script
TimeoutStartSec=$seconds
StandardOutput=journal+console
StandardError=journal+console

[Install]
WantedBy=multi-user.target
UNIT
    ln -sf /etc/systemd/system/check.service "$root/etc/systemd/system/multi-user.target.wants/check.service"
}

# Boots $1 until it powers off (at most $2 seconds); $3 = host: on the
# host's network.
container_boot() {
    local root="$1" seconds="$2" network="${3:-private}" booted=$SECONDS pid rc=0 private=()
    case "$network" in
    private) private=(--private-network) ;;
    host) ;;
    *) fail "container_boot: the network is private or host, not $network" ;;
    esac
    echo "--- booting the root with systemd-nspawn (at most $seconds s, $network network)"
    timeout -k 20 "$seconds" systemd-nspawn -D "$root" -b --register=no --keep-unit \
        --console=pipe "${private[@]}" >"$work/console.log" 2>&1 </dev/null &
    pid=$!
    container_track "$pid"
    container_wait "$pid" || rc=$?
    echo "    container ran $((SECONDS - booted)) s (systemd-nspawn exit $rc)"
    CONTAINER_EXIT=$rc
}

container_journals() {
    local root="$1" unit
    for unit in dealership.service check.service; do
        echo "--- journal of the container: $unit (last 40 lines)" >&2
        journalctl -D "$root/var/log/journal" -u "$unit" --no-pager -n 40 -o cat >&2 2>&1 || true
    done
    [ -s "$root/check.journal" ] && { echo "--- /check.journal (last 40 lines)" >&2; tail -n 40 "$root/check.journal" >&2; }
    echo "--- systemd-nspawn output (last 20 lines)" >&2
    tail -n 20 "$work/console.log" >&2 || true
}

# Prints the evidence; fails unless every check passed.
container_verdict() {
    local root="$1" name="$2"
    if [ ! -s "$root/check.result" ]; then
        [ "${CONTAINER_EXIT:-0}" != 124 ] || echo "$name: the container did not stop in time" >&2
        container_journals "$root"
        fail "no result: check.service did not finish in the container"
    fi
    echo "--- evidence (/check.result)"
    cat "$root/check.result"
    if grep -q '^FAIL' "$root/check.result" || ! grep -qx 'RESULT PASS' "$root/check.result"; then
        container_journals "$root"
        fail "checks failed under systemd (FAIL lines above)"
    fi
}
