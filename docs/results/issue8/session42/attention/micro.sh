#!/bin/bash
# ndecode medians (docs/results/issue8/session41/steps/ndecode.cpp, built as that README builds its probes),
# libraries alternated within each (L, n): rounds x L x n x lib. LIB_A, LIB_B, LIB_C: folders
# holding a libggml-cpu.so.0 built from the patched sdist.   NDECODE=... micro.sh > OUT
M=${MODEL:-models/SmolLM2-135M-Instruct.Q8_0.gguf}
for r in $(seq 1 ${ROUNDS:-4}); do for L in ${LS:-150 400 1000 2000}; do for n in ${NS:-1 2 4 8}; do for lib in ${LIBS:-A B C}; do
  d=LIB_$lib; d=${!d}
  echo "$r $L $n $lib $(LD_LIBRARY_PATH=$d $NDECODE $M $n $L ${REPS:-40} 2>/dev/null | awk '{print $5}')"
done; done; done; done
