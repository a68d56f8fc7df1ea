#!/bin/bash
# usage: copy_ab.sh ROUND OUT_DIR PROFILE_A PROFILE_B: the decision slices (items 20-27 of the
# seven sets, greedy), READER under profile A then B (B then A in even rounds), each with AR.
cd "$(dirname "$0")/../../../../.." || exit 1
r=$1 out=$2 pa=$3 pb=$4
arms="a b"; [ $((r % 2)) = 0 ] && arms="b a"
for v in $arms; do
  if [ $v = a ]; then prof=$pa; else prof=$pb; fi
  build/bin/reader bench --methods ar,reader --sets rag,gsm8k,mt_bench,summarization,code_edit,humaneval,multi_turn --prompt-offset 20 --prompts 8 -n 128 --profile "$prof" -o "$out/r${r}_$v" > "$out/r${r}_$v.log" 2>&1
  echo "$v done $(date +%T)"
done
