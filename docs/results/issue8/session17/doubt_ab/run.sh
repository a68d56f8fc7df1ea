#!/bin/bash
# usage: run.sh ROUND VARIANT...   VARIANT: base (doubt factor 0.7, the rule as committed),
# D085 (0.85) or D10 (1.0: no doubt). Session 16's decision loop with knob.diff's RX_DOUBT set;
# outputs /tmp/ab/r<ROUND>_<VARIANT>.
loop="$(cd "$(dirname "$0")" && pwd)/../../session16/token_record_ab/run.sh"
r=$1; shift
for v in "$@"; do
  case $v in
    base) RX_DOUBT=0.7 "$loop" "$r" base;;
    D085) RX_DOUBT=0.85 "$loop" "$r" D085;;
    D10) RX_DOUBT=1.0 "$loop" "$r" D10;;
    *) echo "unknown variant $v" >&2; exit 2;;
  esac
done
