#!/usr/bin/env bash
# Builds the Debian package a dealer installs with apt (README, "Install on a
# server"; docs/operations.md, "Install"), with cargo-deb from crates.io:
#
#   scripts/package.sh [--no-build] [--deb-version VERSION] [--out DIR]
#
# writes DIR/dealership_<version>_<arch>.deb (default DIR: target/debian) and
# DIR/SHA256SUMS, the sums of every dealership_*.deb there. The package holds
#   /usr/bin/dealership            the release binary with the UI embedded
#                                  (built --locked; stripped by cargo-deb)
#   /usr/lib/systemd/system/       the units of systemd/, the program in /usr/bin
#   /etc/dealership/dealership.toml  the default configuration, a conffile (as
#                                  `dealership setup --system` writes it)
#   /usr/share/doc/dealership/     README.md, operations.md, changelog.gz
#                                  (CHANGELOG.md), changelog.Debian.gz
# and the maintainer scripts of packaging/deb/ with cargo-deb's systemd parts
# (Cargo.toml, [package.metadata.deb]). Version: Cargo.toml's with the
# revision 1 (0.1.0-1); --deb-version replaces it (the upgrade test packages
# the same binary as a newer version).
#
# Without --no-build it first runs `cargo build --release --locked` (the UI
# must be built: cd ui && npm install && npm run build). With --no-build it
# packages the release binary as it is (scripts/test.sh, which has just
# built it). cargo-deb is installed with `cargo install --locked` when
# missing. Fails when the package is 20 MB or more.
set -euo pipefail
cd "$(dirname "$0")/.."

CARGO_DEB=3.8.0
MAX_BYTES=20000000

die() {
    echo "package.sh: error: $*" >&2
    exit 1
}

build=yes
deb_version=""
target="${CARGO_TARGET_DIR:-target}"
out="$target/debian"
while [ $# -gt 0 ]; do
    case "$1" in
    --no-build) build=no; shift ;;
    --deb-version) deb_version="${2:?--deb-version needs a version}"; shift 2 ;;
    --out) out="${2:?--out needs a folder}"; shift 2 ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown option $1 (see --help)" ;;
    esac
done

version="$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)"
[ -n "$version" ] || die "no version in Cargo.toml"
deb_version="${deb_version:-$version-1}"

binary="$target/release/dealership"
if [ "$build" = yes ]; then
    [ -f ui/dist/.vite/manifest.json ] || die "the UI is not built: cd ui && npm install --no-audit --no-fund && npm run build"
    echo "--- cargo build --release --locked"
    cargo build --release --locked
fi
[ -x "$binary" ] || die "no release binary at $binary: build it (README), or leave out --no-build"
said="$("$binary" --version)" || die "$binary does not run here"
[ "$said" = "dealership $version" ] ||
    die "$binary says '$said' but Cargo.toml is at $version: build it again (leave out --no-build)"

if ! cargo deb --version 2>/dev/null | grep -q "^cargo-deb $CARGO_DEB\$"; then
    echo "--- cargo install cargo-deb $CARGO_DEB (crates.io)"
    # Built in a folder of its own, not in this project's target folder.
    env -u CARGO_TARGET_DIR cargo install cargo-deb --version "$CARGO_DEB" --locked
fi

# ---------------------------------------------------------------- staged files
# Cargo.toml's assets name target/release/deb-files/, which cargo-deb finds in
# the real target folder (CARGO_TARGET_DIR).
stage="$target/release/deb-files"
rm -rf "$stage"
install -d "$stage"
# The units as install.sh installs them, but for the package's paths.
for unit in systemd/*.service systemd/*.timer; do
    sed -e 's|/usr/local/bin/dealership|/usr/bin/dealership|g' \
        -e 's|/usr/local/share/doc/dealership|/usr/share/doc/dealership|g' \
        "$unit" >"$stage/$(basename "$unit")"
    ! grep -q /usr/local "$stage/$(basename "$unit")" || die "$unit names another /usr/local path"
done
# The default configuration: what `dealership setup --system` writes, taken
# from a scratch root so there is one source for it.
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
"$binary" setup --system --root "$scratch" >/dev/null
install -m 0640 "$scratch/etc/dealership/dealership.toml" "$stage/dealership.toml"
# Debian's changelog of the package: this version, the changes in CHANGELOG.md.
{
    echo "dealership ($deb_version) unstable; urgency=medium"
    echo
    echo "  * dealership $version; the changes are in /usr/share/doc/dealership/changelog.gz."
    echo
    echo " -- $(sed -n 's/^maintainer = "\(.*\)"/\1/p' Cargo.toml | head -n 1)  $(date -R -d "@${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}")"
} >"$stage/changelog.Debian"
gzip -9 -n -f "$stage/changelog.Debian"
# The project's own changelog, under the name Debian gives it.
gzip -9 -n -c CHANGELOG.md >"$stage/changelog.gz"

# ---------------------------------------------------------------- the package
echo "--- cargo deb --no-build --deb-version $deb_version"
install -d "$out"
log="$(mktemp)"
trap 'rm -rf "$scratch" "$log"' EXIT
# cargo-deb warns that packaging/deb/ holds no unit files: they are assets
# (staged above), and its systemd-units entries still write the scripts.
if ! cargo deb --no-build --deb-version "$deb_version" --output "$out/" >"$log" 2>&1; then
    cat "$log" >&2
    die "cargo deb failed (above)"
fi
grep -v 'No usable systemd units found' "$log" || true
deb="$(tail -n 1 "$log")"
[ -f "$deb" ] || die "cargo deb wrote no package ($deb)"

bytes="$(stat -c %s "$deb")"
[ "$bytes" -lt "$MAX_BYTES" ] || die "$deb is $bytes bytes, not under 20 MB"
(cd "$out" && sha256sum dealership_*.deb >SHA256SUMS)
echo "--- $deb: $((bytes / 1000)) kB, version $deb_version"
echo "    $(grep -F "$(basename "$deb")" "$out/SHA256SUMS")  (in $out/SHA256SUMS)"
