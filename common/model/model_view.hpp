// bx::ModelView: typed pointers into the bytes of a .bxm model file
// (assets/model/FORMAT.md), used where they lie. Opening one copies nothing and
// allocates nothing: it reads the 64-byte header and the tensor table, checks
// them, and hands out pointers. That is why "loading" the 23 MB model costs
// well under a millisecond (the post measured 0.7 ms for the same idea).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace bx {

// The fixed shape of the model. The file states them too; the reader insists
// they match, so code may use these constants for loop bounds and buffers.
inline constexpr int kHidden = 384;
inline constexpr int kLayers = 6;
inline constexpr int kHeads = 12;
inline constexpr int kHeadDim = kHidden / kHeads;  // 32
inline constexpr int kFfn = 1536;
inline constexpr int kLabels = 81;
inline constexpr int kMaxPositions = 256;

// One quantised linear layer: y[o] = bias[o] + (acc * s_in) * scale[o], where
// acc = sum_k q[k] * w[o * cols + k]. Rows are outputs, row-major.
struct LinearView {
    const std::int8_t* w = nullptr;  // rows x cols
    const float* scale = nullptr;    // rows: per-output-row weight scale
    const float* bias = nullptr;     // rows
    int rows = 0;                    // outputs
    int cols = 0;                    // inputs
};

struct NormView {
    const float* gamma = nullptr;  // kHidden
    const float* beta = nullptr;   // kHidden
};

struct LayerView {
    LinearView q, k, v, o;
    NormView attn_ln;
    LinearView ffn_in, ffn_out;
    NormView ffn_ln;
};

struct ModelView {
    int vocab = 0;
    int type_vocab = 0;

    // Embeddings: word rows are int8 with one scale per vocabulary row.
    const std::int8_t* word_w = nullptr;  // vocab x kHidden
    const float* word_scale = nullptr;    // vocab
    const float* pos = nullptr;           // kMaxPositions x kHidden
    const float* type = nullptr;          // type_vocab x kHidden (only row 0 is used)
    NormView emb_ln;

    LayerView layers[kLayers];
    LinearView cls;  // kLabels x kHidden

    // "O", "B-GIVEN_NAME", ...: views into the file's label block.
    std::string_view label_names[kLabels];

    // Checks magic, version, header fields, label names, every tensor's name,
    // dtype, shape, 64-byte alignment and bounds, then points into `data`
    // (which must stay alive and unchanged, and be at least 4-byte aligned).
    // On failure: nullopt, and *error (if given) says what is wrong and where.
    static std::optional<ModelView> open(const void* data, std::size_t size, std::string* error);
};

}  // namespace bx
