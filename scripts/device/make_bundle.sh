#!/usr/bin/env bash
# Packs what the GPU check (scripts/device/check.sh) needs on a lent device machine, which
# fetches nothing and takes at most 64 MiB a call: reader and its model tests built against a
# CUDA llama.cpp, llama.cpp's peer programs built from the same sources, every shared library
# they need beyond the C runtime, the data, the datastore, the profile, and the model in parts.
#
#   scripts/device/make_bundle.sh CUDA_PREFIX READER_BUILD PEERS_BIN FIRST_MIB PART_MIB
#
# Writes .dev/bundle.tar.zst and .dev/model.part.NN: the zstd'd SmolLM2 Q8_0 in a first
# piece of FIRST_MIB MiB (it travels with the bundle) and the rest in PART_MIB MiB pieces.
# .dev/ is git-ignored. README, "GPU", says how the CUDA build was made.
set -euo pipefail
cd "$(dirname "$0")/../.."
[ $# -eq 5 ] || {
  echo "usage: $0 CUDA_PREFIX READER_BUILD PEERS_BIN FIRST_MIB PART_MIB" >&2
  exit 2
}
prefix=$1 build=$2 peers=$3 first=$4 part=$5
model=models/SmolLM2-135M-Instruct.Q8_0.gguf
data=${READER_DATA_DIR:-../shared/data}
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage"/{bin,lib,models} .dev
cp "$build"/bin/reader "$build"/bin/reader_model_tests "$stage/bin/"
cp "$peers"/llama-speculative-simple "$peers"/llama-lookup "$peers"/llama-lookup-create "$stage/bin/"
cp -a "$prefix"/lib/lib*.so* "$stage/lib/"
# Debian's libraries the programs link (fmt, divsufsort, xxhash, cpp-httplib, OpenSSL,
# brotli, gomp): the device's system may lack them. Not the C/C++ runtime: its own is newer.
ldd "$stage"/bin/* 2> /dev/null | awk '$3 ~ /^\/(usr\/)?lib/ {print $3}' | sort -u |
  grep -Ev '/(libc|libm|libstdc\+\+|libgcc_s|libpthread|libdl|librt)\.so' |
  xargs -r cp -L -t "$stage/lib/"
cp models/SmolLM2-135M-Instruct.Q8_0.rds models/SmolLM2-135M-Instruct.Q8_0.profile.json \
  "$stage/models/"
[ -f build/peers/lookup-static-SmolLM2-135M-Instruct.Q8_0.bin ] &&
  cp build/peers/lookup-static-SmolLM2-135M-Instruct.Q8_0.bin "$stage/bin/"
tar -C "$(dirname "$data")" -cf - "$(basename "$data")" | tar -C "$stage" -xf -
tar -C "$stage" -cf - . | zstd -q -19 -T0 -o .dev/bundle.tar.zst -f
# zstd for the device, which has none (with the compression libraries it links).
mkdir -p .dev/tools
# shellcheck disable=SC2046 # one path per library
cp -L "$(command -v zstd)" $(ldd "$(command -v zstd)" | awk '/libzstd|liblzma|liblz4/ {print $3}') .dev/tools/
sha256sum "$model" | cut -d' ' -f1 > .dev/model.sha256
rm -f .dev/model.part.*
zstd -q -10 -T0 -c "$model" > "$stage/model.zst"
head -c "$((first << 20))" "$stage/model.zst" > .dev/model.part.00
tail -c +"$(((first << 20) + 1))" "$stage/model.zst" |
  split -b "${part}M" -d --numeric-suffixes=1 - .dev/model.part.
ls -l .dev
