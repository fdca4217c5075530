#!/usr/bin/env bash
# Builds the checkers endgame database into the folder named in config.toml ([checkers]
# database): up to 5 pieces by default (145 M indices: well under a minute with the compiled
# kernel and two workers, under 1 GB, about 60 MB on disk), so the proof search has 5 pieces
# at its leaves.
# CHECKERS_DB_PIECES=6 adds the six-piece database (2.56 G indices, slice by slice: about
# 15 minutes on 2 cores, at most about 2.5 GB for both workers, about 0.5 GB on disk); it needs
# the compiled kernel that `pip install -e .` builds with a C compiler (setup.py).
# CHECKERS_DB_PIECES=4 stops at 4 pieces (7 M positions, seconds, about 2 MB), for a small
# machine: it rules the same, proving less.
# Idempotent: piece counts already built are kept (and an interrupted 6-piece build resumes).
set -euo pipefail
cd "$(dirname "$0")/../.."
# In CI (CI set) the default is 6 pieces, so that CI checks the six-piece values and the proofs through them
# on every run (issue 41); elsewhere 5, for a set-up in a minute.
if [ -n "${CI:-}" ] && [ "${CI}" != "false" ] && [ "${CI}" != "0" ]; then default_pieces=6; else default_pieces=5; fi
pieces=${CHECKERS_DB_PIECES:-$default_pieces}
workers=${CHECKERS_DB_WORKERS:-$(nproc 2>/dev/null | awk '{print ($1 > 2 ? 2 : $1)}')}
case "$pieces" in
  4|5|6) ;;
  *) echo "30-checkers-db: CHECKERS_DB_PIECES must be 4, 5 or 6, not '$pieces'" >&2; exit 2 ;;
esac
python3 -c "from engines.checkers.compiled import COMPILED; print('checkers database kernel compiled:', COMPILED)"
python3 -m adjudicator build-db --pieces "$pieces" --workers "$workers" --quiet
