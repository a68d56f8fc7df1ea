#!/bin/bash
# Session 16's A/B loop on the decision slices (items 20-27 of every set), greedy (unless
# GREEDY=0, session 46) and (unless SAMPLED=0) at T = 0.8 with seed = round, over ROUNDS
# (default "1 2 3"), the two arms' order swapped in round SWAP_ROUND (default 2).
# usage: ARMS="a b" BIN_A=... PROFILE_A=... BIN_B=... PROFILE_B=... run.sh
# (arm names in lower case, their variables in upper case). Output in /tmp/ab/r<round>_<arm>[T];
# session43/unverified_ab/sum.py reads it.
cd "$(dirname "$0")/../../../../.." || exit 1
mkdir -p /tmp/ab
read -r first second <<< "$ARMS"
# One bench run of arm $arm in round $r, labelled $1, with more bench arguments $2.
bench() {
  local bin=BIN_${arm^^} profile=PROFILE_${arm^^}
  READER_BIN=${!bin} BENCH_ARGS="--profile ${!profile} $2" \
    bash docs/results/issue8/session16/token_record_ab/run.sh "$r" "$1"
}
for r in ${ROUNDS:-1 2 3}; do
  for arm in $first $second; do
    [ "$r" = "${SWAP_ROUND:-2}" ] && { [ $arm = $first ] && arm=$second || arm=$first; }
    [ "${GREEDY:-1}" = 0 ] || bench "$arm" ""
    [ "${SAMPLED:-1}" = 0 ] || bench "${arm}T" "--temp 0.8 --seed $r"
  done
done
