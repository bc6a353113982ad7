// A kernel ladder: every stage's version of one kernel, side by side. Each
// version is a rung, compiled from its stage's own header in a translation
// unit of its own (CMake writes one per distinct version: bench/CMakeLists.txt),
// where it registers itself here before main() runs. The stages' kernels sit
// in unnamed namespaces, so twenty copies of `gelu::in_place` in one program
// never meet.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "common/model/model_view.hpp"

namespace bx::ladder {

// The kernels. Each signature is what the forward pass asks of it.
// GEMM: y[rows x layer.rows] = layer(x[rows x layer.cols]), quantising x on the way.
using GemmRun = std::function<void(const float* x, int rows, float* y)>;
using GemmMaker = GemmRun (*)(const bx::LinearView& layer);
using InPlace = void (*)(float* values, std::size_t count);                // GELU, exp
using QuantiseRow = float (*)(const float* x, int n, std::int8_t* q);       // bytes and s_in
// Attention of one layer: ctx[256 x 384] from Q, K and V [256 x 384], every head.
using AttentionRun = void (*)(const float* q, const float* k, const float* v, float* ctx);
// LayerNorm of `rows` rows of 384, in place.
using NormRows = void (*)(float* x, int rows, const float* gamma, const float* beta);

struct Rung {
    std::string stage;   // the first stage with this code, e.g. "13-packed-activations"
    std::string stages;  // every stage that has it, e.g. "13-15"
    GemmMaker gemm = nullptr;
    InPlace in_place = nullptr;
    QuantiseRow quantise = nullptr;
    AttentionRun attention = nullptr;
    NormRows norm = nullptr;
    std::string code{};  // the hash of the rung's code (CMake's), "" for the scalar rung
};

// A stage's rung with the code hash CMake computed for it (BX_RUNG_CODE): the
// results record it, and the freshness test compares it with today's code.
inline Rung coded(Rung rung, const char* code) {
    rung.code = code;
    return rung;
}

enum class Kernel { gemm, gelu, exp, quantise, attention, layernorm };
inline constexpr int kKernels = 6;
const char* kernel_name(Kernel kernel);

// The rungs of one kernel, lowest stage first (the scalar reference is 00's).
std::vector<Rung>& rungs(Kernel kernel);
inline bool add_rung(Kernel kernel, Rung rung) {
    rungs(kernel).push_back(std::move(rung));
    return true;
}

}  // namespace bx::ladder
