#!/usr/bin/env bash
# The 3- and 4-piece Syzygy tables (and the 3-piece Gaviota tables) that python-chess ships
# in its PyPI source distribution (data/syzygy/regular/, data/gaviota/), into data/syzygy/
# and data/gaviota/ (both gitignored). Idempotent: does nothing when the 70 Syzygy files
# are already there. Needs only PyPI. config.toml [tablebases] may add larger sets.
set -euo pipefail
cd "$(dirname "$0")/../.."

VERSION=1.11.2
DEST_SYZYGY=data/syzygy
DEST_GAVIOTA=data/gaviota

have=$( (find "$DEST_SYZYGY" -maxdepth 1 -name '*.rtb[wz]' 2>/dev/null || true) | wc -l)
if [ "$have" -ge 70 ]; then
  exit 0
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 -m pip download -q --disable-pip-version-check --no-deps --no-binary :all: \
  -d "$work" "chess==$VERSION"
archive=$(find "$work" -maxdepth 1 -name "chess-$VERSION.tar.gz" | head -n 1)
if [ -z "$archive" ]; then
  echo "20-tablebases: the chess $VERSION source distribution was not downloaded" >&2
  exit 1
fi
mkdir -p "$DEST_SYZYGY" "$DEST_GAVIOTA"
tar -xzf "$archive" -C "$work" "chess-$VERSION/data/syzygy/regular" "chess-$VERSION/data/gaviota"
cp "$work/chess-$VERSION/data/syzygy/regular/"*.rtb[wz] "$DEST_SYZYGY/"
cp "$work/chess-$VERSION/data/gaviota/"*.gtb.cp4 "$DEST_GAVIOTA/"
count=$(find "$DEST_SYZYGY" -maxdepth 1 -name '*.rtb[wz]' | wc -l)
echo "20-tablebases: $count Syzygy files in $DEST_SYZYGY"
