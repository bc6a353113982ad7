// Builds .bxm files in memory for the model-reader and forward-pass tests: a
// valid file of the final format with small deterministic weights, which
// the tests then break one field at a time. Header-only, test code only.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "common/model/model_format.hpp"
#include "common/model/model_view.hpp"

namespace bx::test {

struct TensorSpec {
    std::string name;
    bxm::DType dtype;
    std::uint32_t rows, cols;
};

inline std::vector<TensorSpec> tensor_specs(std::uint32_t vocab, std::uint32_t type_vocab) {
    using bxm::DType;
    std::vector<TensorSpec> s = {{"emb.word.w", DType::I8, vocab, kHidden},
                                 {"emb.word.scale", DType::F32, 1, vocab},
                                 {"emb.pos", DType::F32, kMaxPositions, kHidden},
                                 {"emb.type", DType::F32, type_vocab, kHidden},
                                 {"emb.ln.gamma", DType::F32, 1, kHidden},
                                 {"emb.ln.beta", DType::F32, 1, kHidden}};
    auto linear = [&](const std::string& p, std::uint32_t rows, std::uint32_t cols) {
        s.push_back({p + ".w", DType::I8, rows, cols});
        s.push_back({p + ".scale", DType::F32, 1, rows});
        s.push_back({p + ".bias", DType::F32, 1, rows});
    };
    auto norm = [&](const std::string& p) {
        s.push_back({p + ".gamma", DType::F32, 1, kHidden});
        s.push_back({p + ".beta", DType::F32, 1, kHidden});
    };
    for (int l = 0; l < kLayers; ++l) {
        const std::string p = "L" + std::to_string(l) + ".";
        for (const char* m : {"q", "k", "v", "o"}) linear(p + m, kHidden, kHidden);
        norm(p + "attn_ln");
        linear(p + "ffn_in", kFfn, kHidden);
        linear(p + "ffn_out", kHidden, kFfn);
        norm(p + "ffn_ln");
    }
    linear("cls", kLabels, kHidden);
    return s;
}

inline std::vector<std::string> label_names() {
    std::vector<std::string> names = {"O"};
    for (std::string_view type : bxm::kEntityTypes)
        for (char prefix : bxm::kLabelPrefixes) names.push_back(std::string(1, prefix) + "-" + std::string(type));
    return names;
}

// A file's bytes plus where each tensor landed, so tests can patch either.
struct TestModel {
    std::vector<std::uint32_t> storage;  // 4-byte aligned bytes
    std::size_t size = 0;
    std::size_t table = 0;
    std::vector<TensorSpec> specs;
    std::vector<std::size_t> offsets;

    char* bytes() { return reinterpret_cast<char*>(storage.data()); }
    const char* bytes() const { return reinterpret_cast<const char*>(storage.data()); }
    void put_u32(std::size_t at, std::uint32_t v) { std::memcpy(bytes() + at, &v, 4); }
    std::size_t entry(int i) const { return table + static_cast<std::size_t>(i) * bxm::kTableEntrySize; }
    int index_of(const std::string& name) const {
        for (std::size_t i = 0; i < specs.size(); ++i)
            if (specs[i].name == name) return static_cast<int>(i);
        return -1;
    }
    float* f32(const std::string& name) { return reinterpret_cast<float*>(bytes() + offsets[index_of(name)]); }
    std::int8_t* i8(const std::string& name) {
        return reinterpret_cast<std::int8_t*>(bytes() + offsets[index_of(name)]);
    }
};

// Every f32 tensor gets small values from a fixed pattern (gammas 1, scales
// 1/127-ish), int8 weights a pattern in [-127, 127]; `zero_weights` makes
// every int8 weight and bias 0 instead.
inline TestModel make_test_model(std::uint32_t vocab = 8, bool zero_weights = false) {
    TestModel m;
    m.specs = tensor_specs(vocab, 1);
    std::vector<char> buf(bxm::kHeaderSize, 0);
    const std::size_t label_off = buf.size();
    for (const std::string& name : label_names()) {
        const std::uint16_t n = static_cast<std::uint16_t>(name.size());
        buf.push_back(static_cast<char>(n & 0xff));
        buf.push_back(static_cast<char>(n >> 8));
        buf.insert(buf.end(), name.begin(), name.end());
    }
    auto pad = [&] { buf.resize((buf.size() + 63) / 64 * 64, 0); };
    pad();
    m.table = buf.size();
    buf.resize(buf.size() + m.specs.size() * bxm::kTableEntrySize, 0);
    pad();
    std::uint32_t seed = 12345;
    auto next = [&] {
        seed = seed * 1664525u + 1013904223u;
        return seed >> 8;
    };
    for (std::size_t i = 0; i < m.specs.size(); ++i) {
        const TensorSpec& t = m.specs[i];
        const std::size_t off = buf.size();
        m.offsets.push_back(off);
        const std::size_t count = std::size_t{t.rows} * t.cols;
        const bool is_gamma = t.name.ends_with(".gamma");
        const bool is_scale = t.name.ends_with(".scale");
        const bool is_bias = t.name.ends_with(".bias");
        if (t.dtype == bxm::DType::I8) {
            for (std::size_t k = 0; k < count; ++k)
                buf.push_back(zero_weights ? 0 : static_cast<char>(static_cast<int>(next() % 255) - 127));
        } else {
            for (std::size_t k = 0; k < count; ++k) {
                float v = (static_cast<float>(next() % 2001) - 1000.0f) / 10000.0f;  // [-0.1, 0.1]
                if (is_gamma) v = 1.0f;
                if (is_scale) v = 0.01f + (static_cast<float>(next() % 100) / 10000.0f);
                if (is_bias && zero_weights) v = 0.0f;
                char b[4];
                std::memcpy(b, &v, 4);
                buf.insert(buf.end(), b, b + 4);
            }
        }
        pad();
        char* e = buf.data() + m.table + i * bxm::kTableEntrySize;
        std::memcpy(e, t.name.data(), t.name.size());
        const std::uint32_t fields[3] = {static_cast<std::uint32_t>(t.dtype), t.rows, t.cols};
        std::memcpy(e + bxm::kEntryDType, fields, 12);
        const std::uint64_t off64 = off;
        std::memcpy(e + bxm::kEntryOffset, &off64, 8);
    }
    m.size = buf.size();
    const float eps = 1e-12f;
    const std::uint32_t header[] = {1, vocab, kMaxPositions, 1, kHidden, kLayers, kHeads, kFfn, kLabels};
    std::memcpy(buf.data(), "BXM1", 4);
    std::memcpy(buf.data() + 4, header, sizeof header);
    std::memcpy(buf.data() + bxm::kOffLayerNormEps, &eps, 4);
    const std::uint32_t tail[] = {static_cast<std::uint32_t>(m.specs.size()), static_cast<std::uint32_t>(label_off),
                                  static_cast<std::uint32_t>(m.table), static_cast<std::uint32_t>(m.size), 0};
    std::memcpy(buf.data() + bxm::kOffTensorCount, tail, sizeof tail);
    m.storage.assign((buf.size() + 3) / 4, 0);
    std::memcpy(m.storage.data(), buf.data(), buf.size());
    return m;
}

}  // namespace bx::test
