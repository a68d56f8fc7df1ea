#!/usr/bin/env bash
# Sets everything up (idempotent) and runs the main job: READER against autoregressive
# decoding on a built-in example, printing both speeds and checking the outputs match.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
scripts/setup.sh
exec build/bin/reader demo "$@"
