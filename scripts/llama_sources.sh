# shellcheck shell=bash disable=SC2034 # its variables are for the scripts that source it
# Sourced by build_peers.sh and device/build_cuda.sh: llama.cpp's sources as reader builds
# programs from them. Needs versions.sh sourced first.

# prepare_llama_source SDIST WORK [PATCH_DIR]: extracts llama.cpp from the llama-cpp-python
# sdist (its sha256 checked) into WORK and applies PATCH_DIR/*.patch (default scripts/patches)
# in order. Sets LLAMA_SRC (the llama.cpp tree) and LLAMA_CXXFLAGS (what compiles its examples
# against it); returns 1 with a message on stderr when the sdist or a patch is wrong.
prepare_llama_source() {
  local sdist=$1 work=$2 patches=${3:-scripts/patches} p
  [ -f "$sdist" ] && [ "$(sha256sum "$sdist" | cut -d' ' -f1)" = "$LLAMA_CPP_PYTHON_SHA256" ] ||
    { echo "$sdist missing or altered" >&2; return 1; }
  local top="llama_cpp_python-$LLAMA_CPP_PYTHON_VERSION/vendor/llama.cpp"
  tar -xzf "$sdist" -C "$work" "$top" || { echo "cannot extract $sdist" >&2; return 1; }
  LLAMA_SRC="$work/$top"
  for p in "$patches"/*.patch; do
    patch -p1 -s -d "$LLAMA_SRC" < "$p" || { echo "patch $p does not apply" >&2; return 1; }
  done
  LLAMA_CXXFLAGS=(-std=c++17 -O2 -DNDEBUG -I"$LLAMA_SRC/include" -I"$LLAMA_SRC/ggml/include"
    -I"$LLAMA_SRC/common" -I"$LLAMA_SRC/vendor")
}

# llama.cpp's speculative programs the peers run, as name:source under LLAMA_SRC.
PEER_EXAMPLES=(llama-speculative-simple:examples/speculative-simple/speculative-simple.cpp
  llama-lookup:examples/lookup/lookup.cpp llama-lookup-create:examples/lookup/lookup-create.cpp)
