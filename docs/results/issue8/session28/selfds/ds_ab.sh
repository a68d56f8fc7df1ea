#!/bin/bash
# usage: ds_ab.sh ROUND OUT_DIR DATASTORE_A PROFILE_A DATASTORE_B PROFILE_B: the decision slices
# (items 20-27 of the seven sets, greedy), READER with datastore and profile A, then B (B then
# A in even rounds), each with AR. Summarize with session27/copy_ab/rounds.py OUT_DIR.
cd "$(dirname "$0")/../../../../.." || exit 1
r=$1 out=$2 da=$3 pa=$4 db=$5 pb=$6
mkdir -p "$out"
arms="a b"; [ $((r % 2)) = 0 ] && arms="b a"
for v in $arms; do
  if [ $v = a ]; then ds=$da prof=$pa; else ds=$db prof=$pb; fi
  build/bin/reader bench --methods ar,reader --sets rag,gsm8k,mt_bench,summarization,code_edit,humaneval,multi_turn --prompt-offset 20 --prompts 8 -n 128 --datastore "$ds" --profile "$prof" -o "$out/r${r}_$v" > "$out/r${r}_$v.log" 2>&1
  echo "$v done $(date +%T)"
done
