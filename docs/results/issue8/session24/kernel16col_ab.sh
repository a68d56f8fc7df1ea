#!/bin/bash
# Session 24: READER with the 16-column kernel (the venv's library and profile) against the
# 8-column one (OLD_LIB: a copy of the previous venv library; OLD_PROFILE: the new profile with
# the cost curves of the old build's tune, so that both profiles carry this build's key).
# usage: kernel16col_ab.sh ROUND OUT_DIR   (runs old then new, or new then old on odd rounds)
cd /work/main
r=$1; out=$2; mkdir -p "$out"
args=(--methods ar,reader --sets rag,gsm8k,mt_bench,summarization,code_edit,humaneval,multi_turn
      --prompt-offset 20 --prompts 8 -n 128)
arms=(old new); [ $((r % 2)) = 1 ] && arms=(new old)
for arm in "${arms[@]}"; do
  if [ "$arm" = old ]; then
    flock /tmp/model.lock env LD_LIBRARY_PATH="$OLD_LIB" build/bin/reader bench "${args[@]}" \
      --profile "$OLD_PROFILE" -o "$out/r${r}_old" > "$out/r${r}_old.log" 2>&1
  else
    flock /tmp/model.lock build/bin/reader bench "${args[@]}" -o "$out/r${r}_new" > "$out/r${r}_new.log" 2>&1
  fi
  echo "round $r $arm done $(date +%T)"
done
