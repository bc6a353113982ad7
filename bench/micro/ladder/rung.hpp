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

// The four kernels. Each signature is what the forward pass asks of it.
// GEMM: y[rows x layer.rows] = layer(x[rows x layer.cols]), quantising x on the way.
using GemmRun = std::function<void(const float* x, int rows, float* y)>;
using GemmMaker = GemmRun (*)(const bx::LinearView& layer);
using InPlace = void (*)(float* values, std::size_t count);                // GELU, exp
using QuantiseRow = float (*)(const float* x, int n, std::int8_t* q);       // bytes and s_in

struct Rung {
    std::string stage;   // the first stage with this code, e.g. "13-packed-activations"
    std::string stages;  // every stage that has it, e.g. "13-15"
    GemmMaker gemm = nullptr;
    InPlace in_place = nullptr;
    QuantiseRow quantise = nullptr;
};

enum class Kernel { gemm, gelu, exp, quantise };
const char* kernel_name(Kernel kernel);

// The rungs of one kernel, lowest stage first (the scalar reference is 00's).
std::vector<Rung>& rungs(Kernel kernel);
inline bool add_rung(Kernel kernel, Rung rung) {
    rungs(kernel).push_back(std::move(rung));
    return true;
}

}  // namespace bx::ladder
