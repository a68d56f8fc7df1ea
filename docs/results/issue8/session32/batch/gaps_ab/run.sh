#!/bin/bash
exec "$(dirname "$0")/../ab.sh" READER_NO_CLOSE_GAPS /tmp/s32/ab6
