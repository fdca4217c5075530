#!/usr/bin/env bash
# A small public PGN corpus for the reader's corpus test: the PGN files shipped in
# python-chess's source distribution (from PyPI). Larger collections can be pointed
# at with ADJUDICATOR_PGN_CORPUS. Idempotent; a failed download skips the step (and the
# corpus test then fails, naming it).
set -uo pipefail
cd "$(dirname "$0")/../.."
dest=data/corpus/python-chess
if ls "$dest"/*.pgn >/dev/null 2>&1; then
  exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if python3 -m pip download -q --disable-pip-version-check --no-deps --no-binary :all: chess==1.11.2 -d "$tmp" >/dev/null 2>&1; then
  mkdir -p "$dest"
  tar -xzf "$tmp"/chess-1.11.2.tar.gz -C "$tmp" --wildcards 'chess-1.11.2/data/pgn/*.pgn' 'chess-1.11.2/fuzz/corpus/pgn/*.pgn' 2>/dev/null
  cp "$tmp"/chess-1.11.2/data/pgn/*.pgn "$dest"/ 2>/dev/null
  for f in "$tmp"/chess-1.11.2/fuzz/corpus/pgn/*.pgn; do cp "$f" "$dest/fuzz-$(basename "$f")"; done 2>/dev/null
  echo "pgn corpus: $(ls "$dest" | wc -l) files from the python-chess sdist in $dest"
else
  echo "pgn corpus: python-chess sdist not downloadable; tests/test_record_corpus.py fails until this step succeeds or ADJUDICATOR_PGN_CORPUS names a folder"
fi
exit 0
