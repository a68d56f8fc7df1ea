#!/bin/bash
# Sampled A/B of the speculator template: today's tuned profile (chain of 3) against the same
# profile with session 39's wide template; gsm8k and code_edit decision slices, T = 0.8.
# usage: run.sh OUT TUNED.json WIDE.json (WIDE: TUNED with "speculator" [[-1,0],[-1,1],[0,0],[2,0],[3,0]])
OUT=$(realpath -m "$1"); mkdir -p "$OUT"; P_tuned=$(realpath "$2"); P_wide=$(realpath "$3")
cd "$(dirname "$0")/../../../../.."
for r in 1 2; do for s in 1 2 3; do for arm in tuned wide; do
  profile=P_$arm
  ${BIN:-build/bin/reader} bench --methods ar,reader --sets gsm8k,code_edit --prompt-offset 20 --prompts 8 -n 128 \
    --temp 0.8 --seed $s --profile "${!profile}" -o "$OUT/${arm}_r${r}s$s" > "$OUT/${arm}_r${r}s$s.log" 2>&1
  echo "$arm r$r s$s $(date +%T)"
done; done; done
