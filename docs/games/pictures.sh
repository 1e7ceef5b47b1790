#!/usr/bin/env bash
# Draws the picture of one position per game into docs/games/<game>.svg with `agon show`.
# The positions come from the first game of `agon tournament --game G --agents greedy
# random --games 2 --seed 3 --threads 1`, cut after a few plies. Run from the repository
# root after `cargo build --release`.
set -euo pipefail
agon=${AGON:-target/release/agon}
show() { "$agon" show --game "$1" --moves "$2" --svg "docs/games/$1.svg"; }
show invector "h4xh5 h1xh2 c3xc4 g4xf4 b2xb1 c2-c3 f2xe2 e6xd6 f6xg6 d1xe1 b6xa6 b5xc5 e2xe1 b3xb4 h6xh7"
show apv "f8-i5 order:d8-a8 e1-f1 order:e3-g2 e8-f6 order:i5-i1 g2-h3 order:f3-f5 i1-g1 order:d7-b7 f2-h2 order:d2-a5 e9-e8 order:g1-f2 h2-h1 order:a5-a6 e7-d6 order:f2-g1 f5-f3 order:h1-i1 f7-f5 order:g1-f2 e2-c3"
show romgon "r3-8>3-6 S6-0>5-1 r3-6>3-4 R3-0>3-2 c4-7>3-7 H4-0>4-1@SW c3-7>4-1x C2-0>2-1 c4-1>5-1x T1-0@NE c5-1>2-1x T1-0@NW c2-1>2-2 R3-2>1-1 c2-2>2-1 R1-1>3-2 c2-1>2-2 R3-2>3-3 h2-7>2-6@E T1-0@NE s6-5>5-5"
show hexstrat "I:d3 mountain R:e2 mountain end I:d5 plains M:d7 plains end I:d4 mountain R:d3 end M:c7 forest I:c5 forest R:e5 mountain I:c5 end I:c4 plains R:f5 plains end I:c4 M:c3 mountain"
show threewill "5 c2-b3 3 a7*b7 miss 2 b2-c2 3 g7*h7 miss 5 b3-a4 5 g7-h6 1 a4-a5 3 f7-g7 4 a5-b6 6 b7-b8 4 e2-f3 2 d7*c7 miss 6 g2-f1 3 a7-b7 2 d2-e2"
show pig "roll 5 roll 1 roll 3 hold roll 2"
show connect4 "d a e f b g c"
