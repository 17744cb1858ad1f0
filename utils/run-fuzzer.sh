#!/usr/bin/env bash
# Runs build-san/bin/dl-fuzz (libFuzzer over parse -> verify -> dl-to-llvm,
# see tools/dl-fuzz) for SECONDS (first argument, default 120; 0 skips),
# seeded with every .mlir test split at its `// -----` separators. The
# corpus it grows is kept in build-san/fuzz-corpus; a crashing input is
# written to build-san/fuzz-artifacts/ and fails the run: reduce it and add
# it as a regression test (test/Tools/dl-fuzz/).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-120}"
[ "$seconds" -gt 0 ] || { echo "== fuzzer skipped"; exit 0; }
fuzzer=build-san/bin/dl-fuzz
[ -x "$fuzzer" ] || { echo "error: $fuzzer missing; run utils/run-sanitizer-tests.sh" >&2; exit 1; }

seeds=build-san/fuzz-seeds
rm -rf "$seeds" && mkdir -p "$seeds" build-san/fuzz-corpus build-san/fuzz-artifacts
python3 - "$seeds" <<'PY'
import pathlib, sys
out = pathlib.Path(sys.argv[1])
for path in sorted(pathlib.Path("test").rglob("*.mlir")):
    for i, chunk in enumerate(path.read_text().split("// -----")):
        if "dl." in chunk:
            (out / f"{path.stem}-{i}.mlir").write_text(chunk)
PY
echo "== fuzzing for ${seconds} s ($(ls "$seeds" | wc -l) seeds)"
set +e
# libFuzzer pulls libstdc++ ahead of the shared ASan runtime: preload it.
LD_PRELOAD="$(clang-22 -print-file-name=libclang_rt.asan-x86_64.so)" \
ASAN_OPTIONS=detect_leaks=0:allow_user_poisoning=0 "$fuzzer" build-san/fuzz-corpus "$seeds" \
  -max_total_time="$seconds" -timeout=60 -rss_limit_mb=6144 \
  -max_len=16384 -print_final_stats=1 \
  -artifact_prefix=build-san/fuzz-artifacts/ 2>&1 | tail -n 25
status=${PIPESTATUS[0]}
set -e
if [ "$status" -ne 0 ]; then
  echo "error: dl-fuzz found a crash (exit $status); inputs in build-san/fuzz-artifacts/" >&2
  exit "$status"
fi
