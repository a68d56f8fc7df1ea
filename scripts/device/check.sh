#!/usr/bin/env bash
# The GPU check, run on a lent device machine over the bundle from make_bundle.sh (README,
# "GPU"). The tool sends at most 64 MiB a call and drops what a call carried at the next, so
# each call's pieces are kept in a stash outside the working tree, and the model comes in
# parts over three calls to one warm machine (names relative to the repository):
#
#   carry .dev/tools .dev/bundle.tar.zst .dev/model.part.00 .dev/model.sha256:  check.sh sanity
#   carry .dev/model.part.01:  check.sh stash
#   carry .dev/model.part.02:  check.sh run     (or: check.sh probe, check.sh pad)
#
#   sanity  the machine, and whether the bundle's programs load
#   run     model tests on the GPU, then reader bench with the two best peers
#   probe   reader against AR with llama.cpp's graph cache and CUDA graphs on and off and
#           with no drafts, and reader against AR on every set's first 10 prompts
#   pad     the padded-decode tests on the GPU, then reader against AR without and with
#           --pad-decodes, alternated over two rounds (session 30)
#
# Results go to $OUT (the tool fetches them back). zstd travels in .dev/tools: the device
# image has none. The working tree travels with every call and counts against the 64 MiB:
# move docs/results (over 50 MB) aside for the calls, and back after.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
ROOT=$PWD
OUTD=${OUT:-/tmp/reader-gpu-out}
mkdir -p "$OUTD"
# What each call carries is gone at the next one: keep it outside the working tree.
S=/tmp/reader-stash
mkdir -p $S && cp -a .dev/. $S/
B=$S/b
export PATH=$PATH:$S/tools LD_LIBRARY_PATH=$S/tools
if [ ! -x $B/bin/reader ] && [ -f $S/bundle.tar.zst ]; then
  mkdir -p $B && zstd -dc $S/bundle.tar.zst | tar -x -C $B || { echo "no bundle"; exit 1; }
fi
cublas=$(ldconfig -p | awk '/libcublas\.so\.13 /{print $NF; exit}')
for d in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib; do
  [ -z "$cublas" ] && [ -f $d/libcublas.so.13 ] && cublas=$d/libcublas.so.13
done
[ -z "$cublas" ] && cublas=$(find / -xdev -name libcublas.so.13 2> /dev/null | head -1)
cuda_dir=$(dirname "${cublas:-/x/x}")
export LD_LIBRARY_PATH=$B/lib:$cuda_dir:$S/tools
# The build's compiled-in paths (models/, the peers) are under /work/main.
if [ "$ROOT" != /work/main ] && [ ! -e /work/main ]; then mkdir -p /work && ln -s "$ROOT" /work/main; fi

case "${1:-}" in
  sanity)
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv
    lscpu | grep -E '^(Model name|CPU\(s\))'
    grep -o -w -E 'avx512f|avx512_vnni|amx_tile|avx2' /proc/cpuinfo | sort | uniq -c
    ldd --version | head -1
    echo "cublas: ${cublas:-not found}; root $ROOT"
    ldd $B/bin/reader $B/bin/llama-speculative-simple | grep 'not found'
    $B/bin/reader --help | head -2
    ls -l $S
    ;;
  stash) ls -l $S ;;
  run | probe | pad)
    mkdir -p models
    m=models/SmolLM2-135M-Instruct.Q8_0.gguf
    sha_ok() { [ -f "$1" ] && [ "$(sha256sum "$1" | cut -d' ' -f1)" = "$(cat $S/model.sha256)" ]; }
    if ! sha_ok $m; then
      cat $S/model.part.* | zstd -dc > $m.tmp && sha_ok $m.tmp && mv $m.tmp $m ||
        { echo "model parts missing or sha256 mismatch"; exit 1; }
    fi
    for f in "$B"/models/*; do [ -e "models/${f##*/}" ] || cp "$f" models/; done
    export READER_DATA_DIR=$B/data READER_PEERS_DIR=$B/bin
    export READER_GPU_LAYERS=${GPU_LAYERS:--1}
    nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader
    ;;&
  probe)
    bench() { # name, then extra flags; three prompts of three sets, no peers
      timeout 120 $B/bin/reader bench --methods ar,reader --sets rag,mt_bench,code_edit \
        --prompts 3 -n 128 -o "$OUTD/probe/$1" "${@:2}" > "$OUTD/probe/$1.log" 2>&1
      echo "== $1 (exit $?)"
      grep -E '^\| (rag|mt_bench|code_edit) ' "$OUTD/probe/$1/bench.md"
    }
    mkdir -p "$OUTD/probe"
    bench default
    bench default_again
    bench graph_cache_0 --graph-cache 0
    GGML_CUDA_DISABLE_GRAPHS=1 bench no_cuda_graphs
    # READER drafting nothing: what its step costs beyond AR's
    echo '{"speculator": [], "d_search": 0, "d_deep": 0}' > "$OUTD/no_drafts.json"
    bench no_drafts --tree "$OUTD/no_drafts.json"
    for report in report report_again; do
      timeout 200 $B/bin/reader bench --methods ar,reader \
        --sets rag,humaneval,gsm8k,mt_bench,code_edit,multi_turn,summarization --prompts 10 \
        -n 128 -o "$OUTD/probe/$report" > "$OUTD/probe/$report.log" 2>&1
      echo "== $report (exit $?)"
      cat "$OUTD/probe/$report/bench.md"
    done
    tar -C "$OUTD" -czf "$OUTD/probe.tar.gz" probe && rm -rf "$OUTD/probe"
    ;;
  pad)
    echo "== padded-decode tests on the GPU"
    timeout 90 $B/bin/reader_model_tests --gtest_brief=1 \
      --gtest_filter='Models/GraphCache.PaddedDecodesLeaveTheBatchAlone/0:Models/Lossless.*/smollm2_reader_padded' \
      2>&1 | grep -v '^\[ *OK' | tee "$OUTD/pad_tests.log" | tail -12
    mkdir -p "$OUTD/pad"
    for round in 1 2; do
      for mode in off on; do
        pad=() && [ $mode = on ] && pad=(--pad-decodes)
        timeout 120 $B/bin/reader bench --methods ar,reader "${pad[@]}" \
          --sets rag,humaneval,gsm8k,mt_bench,code_edit,multi_turn,summarization --prompts 5 \
          -n 128 -o "$OUTD/pad/${mode}_$round" > "$OUTD/pad/${mode}_$round.log" 2>&1
        echo "== pad $mode, round $round (exit $?)"
        grep -E "^\| [a-z0-9_]+ \|" "$OUTD/pad/${mode}_$round/bench.md" | head -16
      done
    done
    tar -C "$OUTD" -czf "$OUTD/pad.tar.gz" pad && rm -rf "$OUTD/pad"
    ;;
  run)
    echo "== model tests on the GPU"
    timeout "${TESTS_TIMEOUT:-150}" $B/bin/reader_model_tests --gtest_brief=1 \
      --gtest_filter="${TESTS:-Models/TreeDecode.*/0:Models/GraphCache.Logits*/0:Models/Determinism.GreedyIsRepeatable/0:Models/Lossless.*/smollm2_reader:Models/Lossless.*/smollm2_reader_trees}" \
      2>&1 | grep -v '^\[ *OK' | tee "$OUTD/tests.log" | tail -40
    echo "== bench: reader, AR and the two best peers, all on the GPU"
    timeout "${BENCH_TIMEOUT:-240}" $B/bin/reader bench --methods ar,reader \
      --sets rag,humaneval,gsm8k,mt_bench,code_edit,multi_turn,summarization \
      --prompts "${PROMPTS:-3}" -n 128 --peers --peer-configs "llama:ngram-map-k n3 m8,llama-lookup" \
      -o "$OUTD/bench" > "$OUTD/bench.log" 2>&1
    echo "bench exit $?"
    tail -30 "$OUTD/bench.log"
    cat "$OUTD/bench/bench.md" 2> /dev/null | head -60
    tar -C "$OUTD" -czf "$OUTD/bench.tar.gz" bench && rm -rf "$OUTD/bench"
    ;;
  *) echo "usage: $0 sanity|stash|run|probe|pad" >&2; exit 2 ;;
esac
