#!/usr/bin/env bash
# bench/build_cha.sh: copied from the team's shared tools (build-cha.sh, not part of the project) so
# that bench/unwinnable.py can say how to build its reference. A MEASURING INSTRUMENT ONLY: nothing in
# the project runs or links CHA; bench/unwinnable.py --cha PATH runs it beside our analysis.
#
# Getting the sources (network to GitHub, or any copy of the two repositories):
#   git clone --bare https://github.com/miguel-ambrona/D3-Chess /tmp/D3-Chess.git
#   git clone --bare https://github.com/official-stockfish/Stockfish /tmp/Stockfish.git
#   bash bench/build_cha.sh /tmp/D3-Chess.git /tmp/Stockfish.git /tmp/cha-build   # -> /tmp/cha-build/cha
#   python3 bench/unwinnable.py --cha /tmp/cha-build/cha
# CHA is GPL-3.0 (as Stockfish is); it is built outside the repository and never shipped with it.
#
# The original header follows.
# Build the reference unwinnability analyser (CHA, miguel-ambrona/D3-Chess, C++) offline, for
# side-by-side speed and agreement checks. It is a measuring instrument, not a dependency.
#   build-cha.sh CHA_GIT_DIR STOCKFISH_GIT_DIR OUT_DIR
# CHA_GIT_DIR / STOCKFISH_GIT_DIR: git directories of miguel-ambrona/D3-Chess and
# official-stockfish/Stockfish. OUT_DIR/cha is the binary.
# Stockfish is pinned at 51deae8 as CHA's Makefile asks; its NNUE net is replaced by an empty
# placeholder (CHA never evaluates), and 'make all' skips the download step.
set -euo pipefail
M=$(cd "$1" && pwd); S=$(cd "$2" && pwd); W=$(mkdir -p "$3" && cd "$3" && pwd); P=$W/prefix
cd "$W"; rm -rf src && mkdir src && cd src
for f in $(git --git-dir="$M" ls-tree -r HEAD --name-only); do
  mkdir -p "$(dirname "$f")"; git --git-dir="$M" show "HEAD:$f" > "$f" 2>/dev/null || echo "skipped $f"
done
cd "$W"; rm -rf Stockfish && mkdir Stockfish && git --git-dir="$S" archive 51deae8 | tar -x -C Stockfish
cd Stockfish/src
touch nn-62ef826d1a6d.nnue
sed -i '/^OBJS/i SRCS += stockfish.cpp' Makefile
cp "$W/src/lib/stockfish/stockfish."* .
make -j2 ARCH=x86-64 all >/dev/null
g++ -Wl,--no-as-needed -lpthread -shared -o libstockfish.so -fPIC ./*.o
mkdir -p "$P/lib" "$P/include/stockfish"; cp libstockfish.so "$P/lib/"
find . -name "*.h" -exec cp --parents {} "$P/include/stockfish/" \;
cd "$W/src/src"
g++ -o cha util.cpp semistatic.cpp dynamic.cpp cha.cpp main.cpp -lpthread -O3 \
    -I"$P/include/stockfish" -L"$P/lib" -Wl,-rpath,"$P/lib" -lstockfish
cp cha "$W/cha"
echo "8/8/8/8/8/8/8/K6k w - - white" | "$W/cha" | head -2
