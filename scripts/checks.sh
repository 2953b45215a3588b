#!/usr/bin/env bash
# `npm run checks`: the checks that need no server (lint, format, the server's and the console's
# types, the OpenAPI document and the console's generated client, the console's unit tests), in
# two lanes at once (one per core: they are single-threaded). Each lane's output is printed
# whole when it ends, so the two do not interleave; the run fails when either lane fails.
set -uo pipefail
cd "$(dirname "$0")/.."

lane() {
  local log status=0
  log=$(mktemp)
  for script in "$@"; do
    echo "> npm run $script" >>"$log"
    npm run --silent "$script" >>"$log" 2>&1 || { status=$?; break; }
  done
  cat "$log"
  rm -f "$log"
  return "$status"
}

lane lint typecheck:web &
a=$!
lane format:check typecheck openapi:lint test:web-units &
b=$!
wait "$a"; sa=$?
wait "$b"; sb=$?
if [ "$sa" -ne 0 ] || [ "$sb" -ne 0 ]; then
  echo "checks failed" >&2
  exit 1
fi
echo "checks passed"
