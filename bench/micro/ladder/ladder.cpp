#include "bench/micro/ladder/ladder.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>

#include "common/maths/expf.hpp"
#include "common/maths/gelu.hpp"
#include "common/maths/layer_norm.hpp"
#include "common/maths/quantize.hpp"
#include "tests/unit/attention_reference.hpp"
#include "tests/unit/gemm_reference.hpp"

namespace bx::ladder {

const char* kernel_name(Kernel kernel) {
    switch (kernel) {
        case Kernel::gemm: return "gemm";
        case Kernel::gelu: return "gelu";
        case Kernel::exp: return "exp";
        case Kernel::quantise: return "quantise";
        case Kernel::attention: return "attention";
        case Kernel::layernorm: return "layernorm";
    }
    return "?";
}

std::vector<Rung>& rungs(Kernel kernel) {
    static std::vector<Rung> lists[kKernels];
    return lists[static_cast<int>(kernel)];
}

namespace {

constexpr int kTokens = 256, kHidden = 384, kInner = 1536;

std::uint32_t bits(float x) {
    std::uint32_t b;
    std::memcpy(&b, &x, sizeof b);
    return b;
}

std::string hex(float x) {
    char text[64];
    std::snprintf(text, sizeof text, "%.9g (0x%08x)", static_cast<double>(x), static_cast<unsigned>(bits(x)));
    return text;
}

// Values every element-wise check adds to the timing inputs.
std::vector<float> edge_values() {
    const float inf = std::numeric_limits<float>::infinity();
    std::vector<float> v = {0.0f, -0.0f, 1e-45f, -1e-45f, 1e-38f, -1e-38f, 1e-30f, 0.5f, -0.5f, 1.0f, -1.0f,
                            1.25f, -1.25f, 2.0f, -2.0f, 3.5f, -3.5f, 6.0f, -6.0f, 9.0f, -9.0f, 10.0f, -10.0f,
                            87.0f, 88.7f, 89.0f, -87.0f, -88.0f, -103.0f, -104.0f, -110.0f, 1e30f, -1e30f,
                            inf, -inf, std::numeric_limits<float>::quiet_NaN()};
    for (float x = -12.0f; x <= 12.0f; x += 0.0625f) v.push_back(x);  // every range's ends, on a grid
    return v;
}

}  // namespace

struct Workload::Data {
    std::unique_ptr<bx::test::OwnedLinear> layer;  // gemm
    std::vector<float> k, v;                       // attention (inputs holds Q)
    std::vector<float> gamma, beta;                // layernorm
    std::vector<float> inputs;                     // every kernel: the timing inputs
    std::vector<float> checked;                    // inputs + edge values (element-wise kernels)
    std::vector<float> reference;                  // the reference's results on `checked` (gemm: on inputs)
    mutable std::vector<float> scratch;            // in-place passes
    mutable std::vector<std::int8_t> bytes;        // quantiser passes
};

Workload::Workload(Kernel kernel) : kernel_(kernel), data_(std::make_unique<Data>()) {
    Data& d = *data_;
    std::mt19937 rng(20261205u + static_cast<unsigned>(kernel));
    switch (kernel) {
        case Kernel::gemm: {
            d.layer = std::make_unique<bx::test::OwnedLinear>(kInner, kHidden, rng);
            d.inputs = bx::test::random_rows(kTokens, kHidden, rng);
            d.reference = bx::test::reference_linear(d.layer->view, d.inputs, kTokens);
            d.scratch.resize(d.reference.size());
            break;
        }
        case Kernel::gelu: {
            std::normal_distribution<float> pre_activation(-0.3f, 1.6f);
            d.inputs.resize(static_cast<std::size_t>(kTokens) * kInner);
            for (float& x : d.inputs) x = pre_activation(rng);
            break;
        }
        case Kernel::exp: {
            // Scores minus their row's maximum: mostly a few units below 0, some far.
            std::exponential_distribution<float> below_max(0.4f);
            d.inputs.resize(static_cast<std::size_t>(kTokens) * kTokens);
            for (float& x : d.inputs) x = -below_max(rng);
            break;
        }
        case Kernel::quantise: {
            d.inputs = bx::test::random_rows(kTokens, kHidden, rng);
            break;
        }
        case Kernel::attention: {
            d.inputs = bx::test::random_matrix(kTokens, rng);
            d.k = bx::test::random_matrix(kTokens, rng);
            d.v = bx::test::random_matrix(kTokens, rng);
            d.reference.resize(d.inputs.size());
            bx::test::reference_attention_layer(d.inputs.data(), d.k.data(), d.v.data(), d.reference.data());
            d.scratch.resize(d.reference.size());
            break;
        }
        case Kernel::layernorm: {
            // A residual stream: mostly small, a few large values per row.
            d.inputs = bx::test::random_matrix(kTokens, rng);
            std::normal_distribution<float> around_one(1.0f, 0.2f), around_zero(0.0f, 0.1f);
            d.gamma.resize(kHidden);
            d.beta.resize(kHidden);
            for (float& g : d.gamma) g = around_one(rng);
            for (float& b : d.beta) b = around_zero(rng);
            d.checked = d.inputs;
            std::vector<float> row(kHidden, 0.0f);
            d.checked.insert(d.checked.end(), row.begin(), row.end());  // a constant row: variance 0
            for (int i = 0; i < kHidden; ++i) row[static_cast<std::size_t>(i)] = i % 2 ? 3e18f : -3e18f;
            d.checked.insert(d.checked.end(), row.begin(), row.end());  // squares past f32's range
            for (int i = 0; i < kHidden; ++i) row[static_cast<std::size_t>(i)] = static_cast<float>(i) * 1e-30f;
            d.checked.insert(d.checked.end(), row.begin(), row.end());  // tiny values
            row[5] = std::numeric_limits<float>::quiet_NaN();
            d.checked.insert(d.checked.end(), row.begin(), row.end());
            d.reference = d.checked;
            for (std::size_t r = 0; r * kHidden < d.reference.size(); ++r)
                bx::layer_norm_scalar(d.reference.data() + r * kHidden, kHidden, d.gamma.data(), d.beta.data(),
                                      d.reference.data() + r * kHidden);
            d.scratch.resize(d.checked.size());
            break;
        }
    }
    if (kernel == Kernel::gelu || kernel == Kernel::exp) {
        d.checked = d.inputs;
        for (float x : edge_values()) d.checked.push_back(kernel == Kernel::exp && x > 0.0f && x < 1e30f ? -x : x);
        d.reference.resize(d.checked.size());
        for (std::size_t i = 0; i < d.checked.size(); ++i)
            d.reference[i] = kernel == Kernel::gelu ? bx::gelu_scalar(d.checked[i]) : bx::bx_expf(d.checked[i]);
        d.scratch.resize(d.checked.size());
    }
    if (kernel == Kernel::quantise) {
        // Rows with a zero, a NaN, exact .5 ties after scaling and a huge value join the check.
        d.checked = d.inputs;
        std::vector<float> row(kHidden, 0.0f);
        d.checked.insert(d.checked.end(), row.begin(), row.end());  // all zeros
        for (int i = 0; i < kHidden; ++i) row[static_cast<std::size_t>(i)] = static_cast<float>(i % 255 - 127) * 0.5f;
        d.checked.insert(d.checked.end(), row.begin(), row.end());  // 63.5 = 127 * 0.5: ties
        row[7] = std::numeric_limits<float>::quiet_NaN();
        d.checked.insert(d.checked.end(), row.begin(), row.end());
        row[7] = 3e38f;
        d.checked.insert(d.checked.end(), row.begin(), row.end());
        d.bytes.resize(d.checked.size());
    }
}

Workload::~Workload() = default;

std::string Workload::describe() const {
    switch (kernel_) {
        case Kernel::gemm: return "256 tokens x 384 -> 1536 outputs, int8 weights (the FFN's first layer of a window)";
        case Kernel::gelu: return "256 x 1536 FFN activations";
        case Kernel::exp: return "256 x 256 softmax arguments";
        case Kernel::quantise: return "256 activation rows of 384";
        case Kernel::attention: return "one layer's attention: Q, K, V of 256 x 384, 12 heads";
        case Kernel::layernorm: return "256 rows of 384, in place";
    }
    return "";
}

std::string Workload::check(const Rung& rung) const {
    const Data& d = *data_;
    if (kernel_ == Kernel::gemm) {
        const GemmRun run = rung.gemm(d.layer->view);
        std::vector<float> y(d.reference.size());
        run(d.inputs.data(), kTokens, y.data());
        for (std::size_t i = 0; i < y.size(); ++i)
            if (bits(y[i]) != bits(d.reference[i]))
                return "output " + std::to_string(i) + ": " + hex(y[i]) + ", reference " + hex(d.reference[i]);
        return "";
    }
    if (kernel_ == Kernel::quantise) {
        std::vector<std::int8_t> q(kHidden), q_ref(kHidden);
        for (std::size_t row = 0; row * kHidden < d.checked.size(); ++row) {
            const float* x = d.checked.data() + row * kHidden;
            const float s = rung.quantise(x, kHidden, q.data());
            const float s_ref = bx::quantize_row_scalar(x, kHidden, q_ref.data());
            if (bits(s) != bits(s_ref)) return "row " + std::to_string(row) + ": s_in " + hex(s) + ", reference " + hex(s_ref);
            for (int i = 0; i < kHidden; ++i)
                if (q[static_cast<std::size_t>(i)] != q_ref[static_cast<std::size_t>(i)])
                    return "row " + std::to_string(row) + " value " + std::to_string(i) + ": " +
                           std::to_string(q[static_cast<std::size_t>(i)]) + ", reference " +
                           std::to_string(q_ref[static_cast<std::size_t>(i)]);
        }
        return "";
    }
    if (kernel_ == Kernel::attention) {
        std::vector<float> ctx(d.reference.size());
        rung.attention(d.inputs.data(), d.k.data(), d.v.data(), ctx.data());
        for (std::size_t i = 0; i < ctx.size(); ++i)
            if (bits(ctx[i]) != bits(d.reference[i]))
                return "context " + std::to_string(i) + ": " + hex(ctx[i]) + ", reference " + hex(d.reference[i]);
        return "";
    }
    if (kernel_ == Kernel::layernorm) {
        std::vector<float> x = d.checked;
        rung.norm(x.data(), static_cast<int>(x.size() / kHidden), d.gamma.data(), d.beta.data());
        for (std::size_t i = 0; i < x.size(); ++i)
            if (bits(x[i]) != bits(d.reference[i]))
                return "row " + std::to_string(i / kHidden) + " value " + std::to_string(i % kHidden) + ": " + hex(x[i]) +
                       ", reference " + hex(d.reference[i]);
        return "";
    }
    std::vector<float> v = d.checked;
    rung.in_place(v.data(), v.size());
    for (std::size_t i = 0; i < v.size(); ++i)
        if (bits(v[i]) != bits(d.reference[i]))
            return "input " + hex(d.checked[i]) + ": " + hex(v[i]) + ", reference " + hex(d.reference[i]);
    return "";
}

std::function<void()> Workload::pass(const Rung& rung) const {
    const Data* d = data_.get();
    switch (kernel_) {
        case Kernel::gemm: {
            const GemmRun run = rung.gemm(d->layer->view);
            return [d, run] { run(d->inputs.data(), kTokens, d->scratch.data()); };
        }
        case Kernel::quantise: {
            const QuantiseRow quantise = rung.quantise;
            return [d, quantise] {
                for (int row = 0; row < kTokens; ++row)
                    quantise(d->inputs.data() + static_cast<std::size_t>(row) * kHidden, kHidden,
                             d->bytes.data() + static_cast<std::size_t>(row) * kHidden);
            };
        }
        case Kernel::attention: {
            const AttentionRun attention = rung.attention;
            return [d, attention] { attention(d->inputs.data(), d->k.data(), d->v.data(), d->scratch.data()); };
        }
        case Kernel::layernorm: {
            const NormRows norm = rung.norm;
            return [d, norm] {
                std::memcpy(d->scratch.data(), d->inputs.data(), d->inputs.size() * sizeof(float));
                norm(d->scratch.data(), kTokens, d->gamma.data(), d->beta.data());
            };
        }
        default: {
            const InPlace in_place = rung.in_place;
            return [d, in_place] {
                std::memcpy(d->scratch.data(), d->inputs.data(), d->inputs.size() * sizeof(float));
                in_place(d->scratch.data(), d->inputs.size());
            };
        }
    }
}

std::vector<std::pair<Kernel, std::vector<Rung>>> checked_rungs(bool* failed) {
    *failed = false;
    std::vector<std::pair<Kernel, std::vector<Rung>>> out;
    for (Kernel kernel : {Kernel::gemm, Kernel::gelu, Kernel::exp, Kernel::quantise, Kernel::attention, Kernel::layernorm}) {
        std::vector<Rung> list = rungs(kernel);
        if (list.empty()) continue;
        std::sort(list.begin(), list.end(), [](const Rung& a, const Rung& b) { return a.stage < b.stage; });
        const Workload workload(kernel);
        std::vector<Rung> passed;
        for (const Rung& rung : list) {
            const std::string problem = workload.check(rung);
            if (problem.empty()) {
                std::fprintf(stderr, "%s %s: bit-exact with stage 00's arithmetic\n", kernel_name(kernel), rung.stage.c_str());
                passed.push_back(rung);
            } else {
                std::fprintf(stderr, "%s %s: FAILED its check, not timed: %s\n", kernel_name(kernel), rung.stage.c_str(),
                             problem.c_str());
                *failed = true;
            }
        }
        out.emplace_back(kernel, std::move(passed));
    }
    return out;
}

}  // namespace bx::ladder
