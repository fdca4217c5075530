#!/usr/bin/env bash
# Builds the checkers endgame database into the folder named in config.toml ([checkers]
# database): up to 4 pieces by default (about 7 M positions, seconds, about 2 MB).
# Opt-in: CHECKERS_DB_PIECES=5 builds the 5-piece database as well (145 M indices, a few
# minutes and under 1 GB with CHECKERS_DB_WORKERS=2, about 60 MB on disk); the proof
# search then has 5 pieces at its leaves. A machine without it rules the same, proving less.
# Idempotent: piece counts already built are kept.
set -euo pipefail
cd "$(dirname "$0")/../.."
pieces=${CHECKERS_DB_PIECES:-4}
workers=${CHECKERS_DB_WORKERS:-1}
case "$pieces" in
  4|5) ;;
  *) echo "30-checkers-db: CHECKERS_DB_PIECES must be 4 or 5, not '$pieces'" >&2; exit 2 ;;
esac
python3 -m adjudicator build-db --pieces "$pieces" --workers "$workers" --quiet
