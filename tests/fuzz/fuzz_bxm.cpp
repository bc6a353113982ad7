// Fuzz target: the .bxm model reader (common/model, ModelView::open) on
// mutated headers, label blocks and tensor tables over the real model's body.
//
// Input layout: a little-endian int32 added to the real model's size (the
// size the reader is told; clamped to [0, size + 64 KiB]), then bytes that
// replace the start of the model (up to 16 KiB: header, labels and the
// 141-entry table end at 10,176 bytes). The bytes past the told size are
// poisoned for AddressSanitizer, so a read beyond the file is a report even
// though the buffer goes on.
//
// Properties: open() returns with no sanitizer report; a refusal has a
// message; an accepted file's every tensor (first and last element) and
// label name lie inside the file: touching them all is not a report.
#include <sanitizer/asan_interface.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>

#include "common/embed/embedded.hpp"
#include "common/model/model_format.hpp"
#include "common/model/model_view.hpp"
#include "fuzz_support.hpp"

namespace {

constexpr std::size_t kMaxPrefix = 16 * 1024;
constexpr std::size_t kSlack = 64 * 1024;

struct Backing {
    std::size_t model_size = 0;
    std::size_t capacity = 0;
    char* bytes = nullptr;  // 64-byte aligned, model then kSlack zeros
};

const Backing& backing() {
    static const Backing b = [] {
        const std::span<const char> model = bx::embedded_model();
        if (model.size() < kMaxPrefix) bx::fuzz::fail("no model was embedded");
        Backing out;
        out.model_size = model.size();
        out.capacity = model.size() + kSlack;
        out.bytes = static_cast<char*>(::operator new(out.capacity, std::align_val_t{64}));
        std::memcpy(out.bytes, model.data(), model.size());
        std::memset(out.bytes + model.size(), 0, kSlack);
        return out;
    }();
    return b;
}

std::uint32_t sink = 0;

void touch(const void* p, std::size_t count, std::size_t element) {
    if (count == 0) return;
    const auto* bytes = static_cast<const unsigned char*>(p);
    sink += bytes[0] + bytes[(count - 1) * element + element - 1];
}

void touch_linear(const bx::LinearView& l) {
    touch(l.w, static_cast<std::size_t>(l.rows) * static_cast<std::size_t>(l.cols), 1);
    touch(l.scale, static_cast<std::size_t>(l.rows), 4);
    touch(l.bias, static_cast<std::size_t>(l.rows), 4);
}

void touch_norm(const bx::NormView& n) {
    touch(n.gamma, bx::kHidden, 4);
    touch(n.beta, bx::kHidden, 4);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    bx::fuzz::write_seeds_if_asked([](std::vector<std::string>& seeds) {
        const Backing& b = backing();
        std::uint32_t table_end = 0;
        std::memcpy(&table_end, b.bytes + bx::bxm::kOffTensorTable, 4);
        table_end += bx::bxm::kTensorCount * bx::bxm::kTableEntrySize;
        auto seed = [&](std::int32_t delta, std::size_t prefix, std::int64_t file_size) {
            std::string s(4, '\0');
            std::memcpy(s.data(), &delta, 4);
            s.append(b.bytes, prefix);
            const auto size32 = static_cast<std::uint32_t>(file_size);
            std::memcpy(s.data() + 4 + bx::bxm::kOffFileSize, &size32, 4);
            return s;
        };
        const auto size = static_cast<std::int64_t>(b.model_size);
        seeds.push_back(seed(0, table_end, size));        // the real file
        seeds.push_back(seed(-64, table_end, size - 64)); // one block short, header agreeing
        seeds.push_back(seed(64, table_end, size + 64));  // padded, header agreeing
        seeds.push_back(seed(0, 64, size));               // the header alone over the real rest
    });
    backing();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 4) return 0;
    const Backing& b = backing();
    std::int32_t delta = 0;
    std::memcpy(&delta, data, 4);
    const std::size_t prefix = std::min(size - 4, kMaxPrefix);
    const std::int64_t told = std::clamp<std::int64_t>(static_cast<std::int64_t>(b.model_size) + delta, 0,
                                                       static_cast<std::int64_t>(b.capacity));
    const auto told_size = static_cast<std::size_t>(told);

    std::memcpy(b.bytes, data + 4, prefix);
    ASAN_POISON_MEMORY_REGION(b.bytes + told_size, b.capacity - told_size);
    std::string error;
    const std::optional<bx::ModelView> model = bx::ModelView::open(b.bytes, told_size, &error);
    if (!model) {
        bx::fuzz::require(!error.empty(), "a refusal without a message");
    } else {
        touch(model->word_w, static_cast<std::size_t>(model->vocab) * bx::kHidden, 1);
        touch(model->word_scale, static_cast<std::size_t>(model->vocab), 4);
        touch(model->pos, static_cast<std::size_t>(bx::kMaxPositions) * bx::kHidden, 4);
        touch(model->type, static_cast<std::size_t>(model->type_vocab) * bx::kHidden, 4);
        touch_norm(model->emb_ln);
        for (const bx::LayerView& layer : model->layers) {
            for (const bx::LinearView* l : {&layer.q, &layer.k, &layer.v, &layer.o, &layer.ffn_in, &layer.ffn_out}) touch_linear(*l);
            touch_norm(layer.attn_ln);
            touch_norm(layer.ffn_ln);
        }
        touch_linear(model->cls);
        for (std::string_view name : model->label_names) touch(name.data(), name.size(), 1);
    }
    ASAN_UNPOISON_MEMORY_REGION(b.bytes + told_size, b.capacity - told_size);
    // Put the real bytes back for the next input.
    const std::span<const char> real = bx::embedded_model();
    std::memcpy(b.bytes, real.data(), prefix);
    return 0;
}
