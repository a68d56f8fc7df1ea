#!/bin/bash
exec "$(dirname "$0")/../ab.sh" READER_OLD_TRIM /tmp/s32/ab5
