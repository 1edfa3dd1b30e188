#!/bin/sh
# Installs the Debian packages filterlab needs, only when one is missing.
# Called by every `make` run (when it remakes build/config.mk); safe to run
# any time.
#   sh .ci/deps.sh                      the packages every target needs,
#                                       librocksdb-dev (the RocksDB engine,
#                                       SPEC 15) among them
#   sh .ci/deps.sh --optional PKG...    these instead (`make bench` asks for
#                                       librocksdb-dev); the caller ignores
#                                       a failure
set -e
need="libxxhash-dev clang libclang-rt-14-dev gnuplot-nox librocksdb-dev libleveldb-dev"
if [ "${1:-}" = --optional ]; then shift; need="$*"; fi
missing=""
for p in $need; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done
[ -z "$missing" ] && exit 0
echo "filterlab: installing missing Debian packages:$missing"
if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1; then SUDO=sudo; else
        echo "filterlab: not root and no sudo; run: apt-get install$missing" >&2
        exit 1
    fi
else
    SUDO=
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends $missing
