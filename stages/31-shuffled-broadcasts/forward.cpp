// The forward pass: the embeddings, the encoder layers (Q, K and V on one
// quantised input, attention, the output projection, add and LayerNorm, the
// feed-forward layers with GELU between them, add and LayerNorm), then the
// classifier. The kernels are in their own files: the int8 GEMM and its
// quantised rows (gemm.hpp, quantize.hpp), attention (attention.hpp), softmax
// (softmax.hpp), LayerNorm (norm.hpp) and GELU (gelu.hpp, through gelu.cpp).
// The GEMM reads each layer's weights as the build packed them
// (packed_weights.hpp).
//
// Why the logits are bit for bit stage 00's: integer addition is associative,
// so the GEMM's int32 sums may be taken in any order; every float value gets
// the same operations in the same order as in stage 00, however the work is
// split into tiles, lanes and rows. One shortcut skips work: the last layer
// computes only the `live` rows, whose logits are the only ones read. Keys and
// values still cover all 256 positions, pads included: the model was trained
// attending to them, so skipping them would change the logits.
//
// What is still slow: buffers are allocated on every call.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "common/stage/gelu_kernel.hpp"
#include "common/stage/stage.hpp"
#include "attention.hpp"
#include "gemm.hpp"
#include "norm.hpp"
#include "packed_weights.hpp"
#include "softmax.hpp"

namespace bx::stage {
namespace {

constexpr int kRows = kWindow;  // every layer but the last runs on all 256 positions

// 1/sqrt(32) rounded to f32: attention scores are scaled by multiplying.
constexpr float kAttentionScale = 0.17677669529663687f;

// The word id used for an id outside the vocabulary. The tokenizer never
// produces one; this only keeps a bad caller from reading outside the model.
constexpr std::int32_t kUnknownId = 3;

// The product on the layer's packed weights (packed_weights.hpp): the build's
// packing of the embedded model.
void gemm(const LinearView& layer, const QuantizedRows& x, int rows, float* y) {
    gemm(layer, packed::weights_for(layer, kBlockOutputs), x, rows, y);
}

// y[t][o] = bias[o] + (float(acc) * s_in[t]) * scale[o] for `rows` input rows.
// Quantises all input rows first (dynamic, per row), then the tiled int8
// product (gemm.hpp). The integer acc is stage 00's, whatever the tiling.
void linear(const LinearView& layer, const float* x, int rows, float* y) {
    QuantizedRows quantized;
    quantize_rows(x, rows, layer.cols, quantized);
    gemm(layer, quantized, rows, y);
}

// LayerNorm of the first `rows` rows of x, in place: four rows at a time, so
// their sums run side by side (norm.hpp); the rows left at the end one by one.
constexpr int kNormRows = 4;
void norm_rows(float* x, int rows, const NormView& ln) {
    int t = 0;
    for (; t + kNormRows <= rows; t += kNormRows)
        norm::layer_norm_rows<kNormRows>(x + t * kHidden, kHidden, ln.gamma, ln.beta, x + t * kHidden);
    for (; t < rows; ++t) norm::layer_norm_rows<1>(x + t * kHidden, kHidden, ln.gamma, ln.beta, x + t * kHidden);
}

// Word (dequantised int8 row) + position + token type 0 for every row, then
// LayerNorm.
void embed(const ModelView& model, const std::int32_t* ids, float* x) {
    for (int t = 0; t < kRows; ++t) {
        std::int32_t id = ids[t];
        if (id < 0 || id >= model.vocab) id = kUnknownId;
        const std::int8_t* word = model.word_w + static_cast<std::size_t>(id) * kHidden;
        const float word_scale = model.word_scale[id];
        const float* pos = model.pos + t * kHidden;
        float* row = x + t * kHidden;
        for (int c = 0; c < kHidden; ++c)
            row[c] = ((static_cast<float>(word[c]) * word_scale) + pos[c]) + model.type[c];
    }
    norm_rows(x, kRows, model.emb_ln);
}

// Query rows i0 .. i0+R-1 of one head (columns off .. off+31): scores eight
// keys at a time for all R rows, each row's softmax, then its context. Each
// row gets exactly the operations, in the order, it got one row at a time.
template <int R>
void attention_rows(const float* q, int i0, int off, const float* kt_head, const float* v, float* scores, float* ctx) {
    score_rows<R>(q + i0 * kHidden + off, kt_head, kRows, kAttentionScale, scores);
    softmax::rows_in_place<R>(scores, kRows);  // softmax.hpp: the R rows' sums side by side
    weighted_values_rows<R>(scores, v + off, kRows, ctx + i0 * kHidden + off);
}

// Scaled dot-product attention over all 256 positions, one head at a time and
// kQueryRows query rows per pass (attention.hpp); the rows left at the end go
// one by one. Pads are real keys and values here: the model was trained
// attending to them, so dropping them would change the logits. Only the first
// `rows` query rows are computed; every one of them still sees all 256 keys.
void attention(const float* q, const float* k, const float* v, int rows, float* ctx) {
    std::vector<float> scores(std::size_t{kQueryRows} * kRows);
    std::vector<float> kt(std::size_t{kRows} * kHidden);
    transpose_keys(k, kRows, kt.data());  // once per layer: kt[h][d][j]
    for (int h = 0; h < kHeads; ++h) {
        const int off = h * kHeadDim;
        const float* kt_head = kt.data() + std::size_t{kRows} * off;
        int i = 0;
        for (; i + kQueryRows <= rows; i += kQueryRows)
            attention_rows<kQueryRows>(q, i, off, kt_head, v, scores.data(), ctx);
        for (; i < rows; ++i) attention_rows<1>(q, i, off, kt_head, v, scores.data(), ctx);
    }
}

// x <- LN(x + y) for the first `rows` rows; the residual add is element by element.
void add_and_norm(float* x, const float* y, int rows, const NormView& norm) {
    for (std::size_t i = 0; i < static_cast<std::size_t>(rows) * kHidden; ++i) x[i] = x[i] + y[i];
    norm_rows(x, rows, norm);
}

}  // namespace

void forward(const ModelView& model, const std::int32_t* ids, int live, float* logits, Profile& prof) {
    PhaseTimer timer(prof);
    live = std::clamp(live, 1, kRows);  // the contract says 1..256; never write outside logits

    const std::size_t hidden_size = std::size_t{kRows} * kHidden;
    std::vector<float> x(hidden_size), q(hidden_size), k(hidden_size), v(hidden_size);
    std::vector<float> ctx(hidden_size), proj(hidden_size);
    std::vector<float> ffn(std::size_t{kRows} * kFfn);
    QuantizedRows xq;  // the layer input, quantised once for Q, K and V

    embed(model, ids, x.data());
    timer.lap(Phase::Other);

    for (int l = 0; l < kLayers; ++l) {
        const LayerView& layer = model.layers[l];
        // The rows this layer must produce: all of them feed the next layer's
        // keys and values, except in the last layer, whose outputs only reach
        // the classifier, and only the live rows' logits are ever read.
        const int rows = l + 1 == kLayers ? live : kRows;

        // Q, K and V read the same LayerNorm output: quantise it once and run
        // the three products on the same int8 rows and scales. Each row's
        // quantisation depends on that row alone, so Q, which in the last
        // layer needs only the first `rows`, reads the first `rows` of them.
        quantize_rows(x.data(), kRows, kHidden, xq);
        gemm(layer.q, xq, rows, q.data());
        gemm(layer.k, xq, kRows, k.data());  // keys and values: always all
        gemm(layer.v, xq, kRows, v.data());  // 256, since pads are attended to
        timer.lap(Phase::Matmul);

        attention(q.data(), k.data(), v.data(), rows, ctx.data());
        timer.lap(Phase::Attention);

        linear(layer.o, ctx.data(), rows, proj.data());
        timer.lap(Phase::Matmul);

        add_and_norm(x.data(), proj.data(), rows, layer.attn_ln);  // x is now `a`
        timer.lap(Phase::Other);

        linear(layer.ffn_in, x.data(), rows, ffn.data());
        timer.lap(Phase::Matmul);

        gelu_in_place(ffn.data(), std::size_t{kFfn} * static_cast<std::size_t>(rows));  // gelu.cpp
        timer.lap(Phase::Other);

        linear(layer.ffn_out, ffn.data(), rows, proj.data());
        timer.lap(Phase::Matmul);

        add_and_norm(x.data(), proj.data(), rows, layer.ffn_ln);  // x is now `h`
        timer.lap(Phase::Other);
    }

    linear(model.cls, x.data(), live, logits);  // live rows only: rows >= live stay unwritten
    timer.lap(Phase::Matmul);
}

}  // namespace bx::stage
