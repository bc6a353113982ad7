// The packed weights the build made (bx_stage_data in CMakeLists.txt),
// compiled into the binary with #embed like the model, and the lookup that
// finds a layer's packing in them.
#include "packed_weights.hpp"

#include <cstring>
#include <map>
#include <utility>

#include "common/embed/embedded.hpp"

#pragma clang diagnostic ignored "-Wc23-extensions"  // #embed is C23; the build is clang-only

#if !defined(BX_DATA_PACKED_WEIGHTS_BIN)
#error "CMake passes the generated file's path (bx_stage_data)"
#endif

namespace bx::stage::packed {

namespace {
alignas(64) const char kBlob[] = {
#embed BX_DATA_PACKED_WEIGHTS_BIN
};

template <class T>
T read(const char* at) {
    T value;
    std::memcpy(&value, at, sizeof value);
    return value;
}

// The blob's packing of the model tensor at `offset`, or nullptr.
const std::int8_t* from_blob(std::size_t offset, const LinearView& layer, int block_outputs) {
    const std::span<const char> blob = embedded_blob();
    const std::span<const char> model = bx::embedded_model();
    if (blob.size() < kHeaderBytes || std::memcmp(blob.data(), kMagic, 4) != 0) return nullptr;
    if (read<std::uint32_t>(blob.data() + 4) != kVersion) return nullptr;
    if (read<std::uint32_t>(blob.data() + 8) != static_cast<std::uint32_t>(block_outputs)) return nullptr;
    // Made from another model file than the one embedded: never in one build,
    // where both come from assets/model/model.bxm; checked all the same.
    if (read<std::uint64_t>(blob.data() + 16) != model.size()) return nullptr;
    const std::size_t entries = read<std::uint32_t>(blob.data() + 12);
    if (blob.size() < kHeaderBytes + entries * kEntryBytes) return nullptr;
    for (std::size_t e = 0; e < entries; ++e) {
        const char* entry = blob.data() + kHeaderBytes + e * kEntryBytes;
        if (read<std::uint64_t>(entry) != offset) continue;
        const std::uint64_t at = read<std::uint64_t>(entry + 8);
        if (read<std::uint32_t>(entry + 16) != static_cast<std::uint32_t>(layer.rows) ||
            read<std::uint32_t>(entry + 20) != static_cast<std::uint32_t>(layer.cols) ||
            at + packed_size(layer.rows, layer.cols, block_outputs) > blob.size())
            return nullptr;
        return reinterpret_cast<const std::int8_t*>(blob.data() + at);
    }
    return nullptr;
}
}  // namespace

std::span<const char> embedded_blob() { return {kBlob, sizeof kBlob}; }

const std::int8_t* weights_for(const LinearView& layer, int block_outputs) {
    const std::span<const char> model = bx::embedded_model();
    const auto* w = reinterpret_cast<const char*>(layer.w);
    if (!model.empty() && w >= model.data() && w < model.data() + model.size()) {
        if (const std::int8_t* packed = from_blob(static_cast<std::size_t>(w - model.data()), layer, block_outputs))
            return packed;
    }
    // Not the embedded model's layer, or not in the blob: packed here, once.
    static std::map<std::pair<const std::int8_t*, int>, std::vector<std::int8_t>> made;
    auto [it, inserted] = made.try_emplace({layer.w, block_outputs});
    if (inserted) {
        it->second.resize(packed_size(layer.rows, layer.cols, block_outputs));
        pack(layer.w, layer.rows, layer.cols, block_outputs, it->second.data());
    }
    return it->second.data();
}

}  // namespace bx::stage::packed
