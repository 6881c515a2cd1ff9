# shellcheck shell=bash
# Helpers of a check run once at boot inside the test container
# (scripts/lib/container.sh puts this file at /usr/local/lib/ and the check
# script sources it). A check never stops early: every failure is a FAIL
# line in /check.result; at exit the result is completed, the service's
# journal saved to /check.journal, and the container powered off.
RESULT=/check.result
URL=http://127.0.0.1:8080
failed=0
: >"$RESULT.partial"
pass() { echo "PASS $*" | tee -a "$RESULT.partial"; }
bad() { echo "FAIL $*" | tee -a "$RESULT.partial"; failed=1; }
info() { echo "INFO $*" | tee -a "$RESULT.partial"; }
# The last lines of an output, indented, into the result (for a FAIL line).
evidence() { printf '%s\n' "$1" | tail -n "${2:-15}" | sed 's/^/    /' >>"$RESULT.partial"; }
finish() {
    if [ "$failed" = 0 ]; then echo "RESULT PASS" >>"$RESULT.partial"; else echo "RESULT FAIL" >>"$RESULT.partial"; fi
    # For the report on failure: the service's journal as the container saw it.
    journalctl -b -u dealership.service --no-pager -o short-monotonic >/check.journal 2>&1 || true
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
