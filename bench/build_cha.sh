#!/usr/bin/env bash
# Build CHA, the reference unwinnability analyser (miguel-ambrona/D3-Chess, C++), from its public source,
# for bench/unwinnable.py --cha (side-by-side speed and agreement). A measuring instrument, never a dependency.
#
#   bench/build_cha.sh OUT_DIR                                  # clones both sources from GitHub (network)
#   bench/build_cha.sh OUT_DIR CHA_GIT_DIR STOCKFISH_GIT_DIR    # offline: git directories already here
#   JOBS=1 bench/build_cha.sh ...                               # make's parallel jobs (default 2)
#
# Sources: https://github.com/miguel-ambrona/D3-Chess (CHA, its HEAD) and
# https://github.com/official-stockfish/Stockfish (pinned at 51deae8, as CHA's Makefile asks; its NNUE net is
# replaced by an empty placeholder: CHA never evaluates, and 'make all' skips the download step).
# OUT_DIR/cha is the binary; then: python bench/unwinnable.py --cha OUT_DIR/cha
# CHA is GPL-3.0 (as Stockfish is): built outside the repository, never linked, run or shipped by the project.
#
# Copied (issue 40) from the team's ../shared/tools/build-cha.sh, which benches may not read; changes: the
# arguments' order (OUT_DIR first), the clone when no git directories are given, and JOBS.
set -euo pipefail
[ $# -ge 1 ] || { sed -n '2,8p' "$0"; exit 2; }
W=$(mkdir -p "$1" && cd "$1" && pwd); P=$W/prefix
if [ $# -ge 3 ]; then
  M=$(cd "$2" && pwd); S=$(cd "$3" && pwd)
else
  rm -rf "$W/git" && mkdir -p "$W/git"
  git clone --bare --quiet https://github.com/miguel-ambrona/D3-Chess "$W/git/D3-Chess"
  git clone --bare --quiet https://github.com/official-stockfish/Stockfish "$W/git/Stockfish"
  M=$W/git/D3-Chess; S=$W/git/Stockfish
fi
cd "$W"; rm -rf src && mkdir src && cd src
for f in $(git --git-dir="$M" ls-tree -r HEAD --name-only); do
  mkdir -p "$(dirname "$f")"; git --git-dir="$M" show "HEAD:$f" > "$f" 2>/dev/null || echo "skipped $f"
done
cd "$W"; rm -rf Stockfish && mkdir Stockfish && git --git-dir="$S" archive 51deae8 | tar -x -C Stockfish
cd Stockfish/src
touch nn-62ef826d1a6d.nnue
sed -i '/^OBJS/i SRCS += stockfish.cpp' Makefile
cp "$W/src/lib/stockfish/stockfish."* .
make -j"${JOBS:-2}" ARCH=x86-64 all >/dev/null
g++ -Wl,--no-as-needed -lpthread -shared -o libstockfish.so -fPIC ./*.o
mkdir -p "$P/lib" "$P/include/stockfish"; cp libstockfish.so "$P/lib/"
find . -name "*.h" -exec cp --parents {} "$P/include/stockfish/" \;
cd "$W/src/src"
g++ -o cha util.cpp semistatic.cpp dynamic.cpp cha.cpp main.cpp -lpthread -O3 \
    -I"$P/include/stockfish" -L"$P/lib" -Wl,-rpath,"$P/lib" -lstockfish
cp cha "$W/cha"
echo "8/8/8/8/8/8/8/K6k w - - white" | "$W/cha" | head -2
