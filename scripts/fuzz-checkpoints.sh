#!/usr/bin/env bash
# Fuzzes the checkpoint decoder beyond what `cargo test` runs (1,000,000 mutations): ITERATIONS
# mutated checkpoints (default 20,000,000) from SEED (default 1; `cargo test` uses another), in
# the release build. Bit flips, truncation, splicing and payload edits behind a recomputed
# checksum; it fails on a panic, an error that is not one line naming the file, or an
# allocation over 100 MB (the test binary's allocator refuses it, which aborts). A failing
# input is written to the temporary folder and named in the failure.
#   scripts/fuzz-checkpoints.sh [ITERATIONS] [SEED]
set -euo pipefail
cd "$(dirname "$0")/.."
iterations=${1:-20000000}
seed=${2:-1}
echo "fuzzing $iterations mutated checkpoints, seed $seed (release build)..."
CKGA_FUZZ_ITERATIONS=$iterations CKGA_FUZZ_SEED=$seed \
  cargo test --release --quiet --test checkpoint_fuzz -- --nocapture
