// The forward pass: the embeddings, the encoder layers (Q, K and V, attention, the output
// projection, add and LayerNorm, the feed-forward layers with GELU between them, add and
// LayerNorm), then the classifier. Each linear layer quantises its input rows once, up front, and
// runs the int8 GEMM in register tiles of 4 tokens x 2 output rows (gemm.hpp); Q, K and V are
// three linear layers, so the LayerNorm output they share is quantised three times. Attention
// (attention.hpp) takes one query row at a time: it scores four keys per step against K,
// transposed once per layer, runs softmax (a scalar loop, here), then P.V with the lanes across
// the head dimension. LayerNorm (common/maths/layer_norm.hpp) runs one row at a time, GELU
// (common/maths/gelu.hpp) one value at a time.
//
// Why the logits are bit for bit stage 00's: integer addition is associative, so the GEMM's int32
// sums may be taken in any order, and a row's int8 values and scale depend on that row alone, so
// quantising all the rows up front gives stage 00's bytes. Every float value gets the same
// operations in the same order as in stage 00, however the work is split into tiles, lanes and
// rows: each attention lane sums its own key's products over d, or its own dimension's over the
// keys, in stage 00's order, and wasm has no fused multiply-add to round them differently. One
// shortcut skips work: the last layer computes only the `live` rows, whose logits are the only
// ones read. Keys and values still cover all 256 positions, pads included: the model was trained
// attending to them, so skipping them would change the logits.
//
// What is still slow:
//  - Q, K and V quantise the same LayerNorm output three times per layer;
//  - attention takes one query row at a time, so every key and value vector is loaded again for
//    each row;
//  - softmax, GELU and the quantiser are scalar, one value at a time;
//  - buffers are allocated on every call.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "common/maths/expf.hpp"
#include "common/maths/gelu.hpp"
#include "common/maths/layer_norm.hpp"
#include "common/stage/stage.hpp"
#include "attention.hpp"
#include "gemm.hpp"

namespace bx::stage {
namespace {

constexpr int kRows = kWindow;  // every layer but the last runs on all 256 positions

// 1/sqrt(32) rounded to f32: attention scores are scaled by multiplying.
constexpr float kAttentionScale = 0.17677669529663687f;

// The word id used for an id outside the vocabulary. The tokenizer never
// produces one; this only keeps a bad caller from reading outside the model.
constexpr std::int32_t kUnknownId = 3;

// y[t][o] = bias[o] + (float(acc) * s_in[t]) * scale[o] for `rows` input rows.
// Quantises all input rows first (dynamic, per row), then the tiled int8
// product (gemm.hpp). The integer acc is stage 00's, whatever the tiling.
void linear(const LinearView& layer, const float* x, int rows, float* y) {
    QuantizedRows quantized;
    quantize_rows(x, rows, layer.cols, quantized);
    gemm(layer, quantized, rows, y);
}

// Word (dequantised int8 row) + position + token type 0, then LayerNorm.
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
        layer_norm_scalar(row, kHidden, model.emb_ln.gamma, model.emb_ln.beta, row);
    }
}

// Scaled dot-product attention over all 256 positions, one head and one query
// row at a time. Pads are real keys and values here: the model was trained
// attending to them, so dropping them would change the logits. Only the first
// `rows` query rows are computed; every one of them still sees all 256 keys.
// The scores and P.V use the SIMD kernels of attention.hpp.
void attention(const float* q, const float* k, const float* v, int rows, float* ctx) {
    std::vector<float> scores(kRows);
    std::vector<float> kt(std::size_t{kRows} * kHidden);
    transpose_keys(k, kRows, kt.data());  // once per layer: kt[h][d][j]
    for (int h = 0; h < kHeads; ++h) {
        const int off = h * kHeadDim;
        for (int i = 0; i < rows; ++i) {
            const float* qi = q + i * kHidden + off;
            // Scores: four keys at a time, each lane's d-sum in order 0..31, then the scale.
            score_4_keys(qi, kt.data() + std::size_t{kRows} * off, kRows, kAttentionScale, scores.data());
            // Softmax, shifted by the row max so exp cannot overflow.
            float m = scores[0];
            for (int j = 1; j < kRows; ++j)
                if (scores[j] > m) m = scores[j];
            float z = 0.0f;
            for (int j = 0; j < kRows; ++j) {
                scores[j] = bx_expf(scores[j] - m);
                z += scores[j];
            }
            for (int j = 0; j < kRows; ++j) scores[j] = scores[j] / z;
            // Context: lanes across d, each the sum over keys j in order, from 0.
            weighted_values(scores.data(), v + off, kRows, ctx + i * kHidden + off);
        }
    }
}

// x <- LN(x + y) for the first `rows` rows; the residual add is element by element.
void add_and_norm(float* x, const float* y, int rows, const NormView& norm) {
    for (int t = 0; t < rows; ++t) {
        float* row = x + t * kHidden;
        const float* add = y + t * kHidden;
        for (int c = 0; c < kHidden; ++c) row[c] = row[c] + add[c];
        layer_norm_scalar(row, kHidden, norm.gamma, norm.beta, row);
    }
}

}  // namespace

void forward(const ModelView& model, const std::int32_t* ids, int live, float* logits, Profile& prof) {
    PhaseTimer timer(prof);
    live = std::clamp(live, 1, kRows);  // the contract says 1..256; never write outside logits

    const std::size_t hidden_size = std::size_t{kRows} * kHidden;
    std::vector<float> x(hidden_size), q(hidden_size), k(hidden_size), v(hidden_size);
    std::vector<float> ctx(hidden_size), proj(hidden_size);
    std::vector<float> ffn(std::size_t{kRows} * kFfn);

    embed(model, ids, x.data());
    timer.lap(Phase::Other);

    for (int l = 0; l < kLayers; ++l) {
        const LayerView& layer = model.layers[l];
        // The rows this layer must produce: all of them feed the next layer's
        // keys and values, except in the last layer, whose outputs only reach
        // the classifier, and only the live rows' logits are ever read.
        const int rows = l + 1 == kLayers ? live : kRows;

        // Each projection quantises x again: the naive starting point.
        linear(layer.q, x.data(), rows, q.data());
        linear(layer.k, x.data(), kRows, k.data());  // keys and values: always all
        linear(layer.v, x.data(), kRows, v.data());  // 256, since pads are attended to
        timer.lap(Phase::Matmul);

        attention(q.data(), k.data(), v.data(), rows, ctx.data());
        timer.lap(Phase::Attention);

        linear(layer.o, ctx.data(), rows, proj.data());
        timer.lap(Phase::Matmul);

        add_and_norm(x.data(), proj.data(), rows, layer.attn_ln);  // x is now `a`
        timer.lap(Phase::Other);

        linear(layer.ffn_in, x.data(), rows, ffn.data());
        timer.lap(Phase::Matmul);

        for (std::size_t i = 0; i < std::size_t{kFfn} * static_cast<std::size_t>(rows); ++i)
            ffn[i] = gelu_scalar(ffn[i]);
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
