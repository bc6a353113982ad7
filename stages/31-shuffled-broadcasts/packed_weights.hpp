// The weights of every linear layer, packed in the order the GEMM reads them
// (gemm.hpp), made at build time from the model file by
// build-time/make_packed_weights.cpp and embedded like the vocabulary blob.
//
// A layer's packing: its output rows in blocks of B (the last block filled up
// with zero rows) and, in a block, for each pair of inputs (2i, 2i + 1), 2B
// bytes: for each output o of the block in turn, its two weights w[o][2i],
// w[o][2i + 1]. Widened to int16, eight of those bytes are four int32 lanes,
// lane j holding output o + j's pair: exactly what i32x4.dot_i16x8 multiplies
// by a token's pair of activations repeated over the four lanes. Moving bytes
// changes no value, so the integer sums are stage 00's.
//
// The blob (little-endian):
//   header, 64 bytes: char[4] "BXPW", u32 version = 1, u32 B, u32 entries,
//                     u64 size of the model file it was made from, 40 bytes 0
//   entries x 32 bytes: u64 offset of the layer's weight tensor in the model
//                     file, u64 offset of its packing in the blob (a multiple
//                     of 64), u32 rows, u32 cols, u64 0
//   the packings, in the order of the entries.
// This header has no SIMD in it: the generator, a program for the build
// machine, includes it too.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "common/model/model_view.hpp"

namespace bx::stage::packed {
// The helpers in an unnamed namespace, as in gemm.hpp: a unit test binary
// that includes several stages' headers gets each stage's own.
namespace {

inline constexpr char kMagic[4] = {'B', 'X', 'P', 'W'};
inline constexpr std::uint32_t kVersion = 1;
inline constexpr std::size_t kHeaderBytes = 64;
inline constexpr std::size_t kEntryBytes = 32;

// The block width the build packs for: the stage's tile (gemm.hpp, 8 outputs).
inline constexpr int kShippedBlockOutputs = 8;

inline std::size_t block_count(int rows, int block_outputs) {
    return static_cast<std::size_t>((rows + block_outputs - 1) / block_outputs);
}

// Bytes of one layer's packing.
inline std::size_t packed_size(int rows, int cols, int block_outputs) {
    return block_count(rows, block_outputs) * static_cast<std::size_t>(block_outputs) * static_cast<std::size_t>(cols);
}

// Packs rows x cols int8 weights (row-major, a row per output; cols even)
// into out[0 .. packed_size): see the top of this file.
inline void pack(const std::int8_t* w, int rows, int cols, int block_outputs, std::int8_t* out) {
    const std::size_t k = static_cast<std::size_t>(cols), width = static_cast<std::size_t>(block_outputs);
    for (std::size_t i = 0; i < packed_size(rows, cols, block_outputs); ++i) out[i] = 0;
    for (std::size_t o = 0; o < static_cast<std::size_t>(rows); ++o) {
        std::int8_t* block = out + (o / width) * width * k;
        const std::size_t lane = o % width;
        for (std::size_t c = 0; c < k; ++c) block[(c / 2) * 2 * width + lane * 2 + c % 2] = w[o * k + c];
    }
}

// Every linear layer of a model, in the blob's order: per layer q, k, v, o,
// ffn_in, ffn_out, then the classifier.
inline std::vector<const LinearView*> linear_layers(const ModelView& model) {
    std::vector<const LinearView*> out;
    for (const LayerView& layer : model.layers)
        for (const LinearView* linear : {&layer.q, &layer.k, &layer.v, &layer.o, &layer.ffn_in, &layer.ffn_out})
            out.push_back(linear);
    out.push_back(&model.cls);
    return out;
}

}  // namespace

// The packing of `layer` for blocks of `block_outputs`: from the embedded blob
// when the layer is the embedded model's and the blob was packed for that
// width; otherwise packed here, once per layer and width, and kept (a model
// passed with --model, or a sweep shape other than the shipped one).
const std::int8_t* weights_for(const LinearView& layer, int block_outputs);

// The blob the build made (packed_weights.cpp).
std::span<const char> embedded_blob();

}  // namespace bx::stage::packed
