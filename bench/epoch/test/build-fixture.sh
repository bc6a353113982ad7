#!/bin/sh
# Rebuilds fixture.wasm from fixture.c (needs Debian's clang-19 and lld-19).
set -e
cd "$(dirname "$0")"
clang-19 --target=wasm32 -ffreestanding -nostdlib -O2 -msimd128 -mbulk-memory -mnontrapping-fptoint \
    -Wl,--no-entry -Wl,--allow-undefined -Wl,--export-table -o fixture.wasm fixture.c
