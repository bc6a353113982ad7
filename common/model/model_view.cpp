// Opening a .bxm file: check everything once, then only hand out pointers.
// Every failure message names the field or tensor and the value found, so a
// broken export is diagnosed from the message alone.
#include "common/model/model_view.hpp"

#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "common/maths/layer_norm.hpp"
#include "common/model/model_format.hpp"

namespace bx {
namespace {

// Little-endian field reads; memcpy because the bytes need not be aligned for
// the type, and is what compilers turn into a plain load.
std::uint32_t read_u32(const unsigned char* p) {
    std::uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
}
std::uint64_t read_u64(const unsigned char* p) {
    std::uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
}
std::uint16_t read_u16(const unsigned char* p) {
    std::uint16_t v;
    std::memcpy(&v, p, 2);
    return v;
}

// Writes a printf-style message to *error (if any). Returns nullopt so that
// `return fail(...)` reads as what it is.
[[gnu::format(printf, 2, 3)]] std::nullopt_t fail(std::string* error, const char* format, ...) {
    if (error) {
        char message[256];
        std::va_list args;
        va_start(args, format);
        std::vsnprintf(message, sizeof message, format, args);
        va_end(args);
        *error = message;
    }
    return std::nullopt;
}

// Walks the tensor table in FORMAT.md's order and fills in pointers.
class TableReader {
public:
    TableReader(const unsigned char* base, std::size_t size, std::size_t table, std::string* error)
        : base_(base), size_(size), table_(table), data_start_(table + bxm::kTensorCount * bxm::kTableEntrySize),
          error_(error) {}

    bool ok() const { return ok_; }

    // The next table entry must be `name`, of `dtype`, rows x cols.
    const void* next(const char* name, bxm::DType dtype, std::uint32_t rows, std::uint32_t cols) {
        if (!ok_) return nullptr;
        const unsigned char* entry = base_ + table_ + index_ * bxm::kTableEntrySize;
        const int index = index_++;

        char found[bxm::kNameSize + 1] = {};
        std::memcpy(found, entry, bxm::kNameSize);
        if (std::strcmp(found, name) != 0) return fail("tensor %d: name \"%s\", expected \"%s\"", index, found, name);
        for (std::size_t i = std::strlen(found); i < bxm::kNameSize; ++i)
            if (entry[i] != 0) return fail("tensor %s: name field not NUL-padded", name);

        const std::uint32_t found_dtype = read_u32(entry + bxm::kEntryDType);
        if (found_dtype != static_cast<std::uint32_t>(dtype))
            return fail("tensor %s: dtype %u, expected %u (%s)", name, found_dtype,
                        static_cast<unsigned>(dtype), dtype == bxm::DType::F32 ? "f32" : "i8");
        const std::uint32_t found_rows = read_u32(entry + bxm::kEntryRows);
        const std::uint32_t found_cols = read_u32(entry + bxm::kEntryCols);
        if (found_rows != rows || found_cols != cols)
            return fail("tensor %s: shape %u x %u, expected %u x %u", name, found_rows, found_cols, rows, cols);

        const std::uint64_t offset = read_u64(entry + bxm::kEntryOffset);
        if (offset % bxm::kAlignment != 0)
            return fail("tensor %s: offset %llu is not a multiple of %zu", name,
                        static_cast<unsigned long long>(offset), bxm::kAlignment);
        if (offset < data_start_)
            return fail("tensor %s: offset %llu overlaps the header or tensor table", name,
                        static_cast<unsigned long long>(offset));
        const std::uint64_t bytes = std::uint64_t{rows} * cols * (dtype == bxm::DType::F32 ? 4 : 1);
        // The .bxm fuzz target's mutant lets a tensor run 64 bytes past the end.
        // mutation-point: tensor-end
        if (offset > size_ || bytes > size_ - offset)
            return fail("tensor %s: bytes [%llu, %llu) run past the end of the file (%zu bytes)", name,
                        static_cast<unsigned long long>(offset), static_cast<unsigned long long>(offset + bytes),
                        size_);
        return base_ + offset;
    }

private:
    // Only the first failure is reported; later lookups return nullptr quietly.
    template <typename... Args>
    std::nullptr_t fail(const char* format, Args... args) {
        if (ok_) bx::fail(error_, format, args...);
        ok_ = false;
        return nullptr;
    }

    const unsigned char* base_;
    std::size_t size_;
    std::size_t table_;
    std::size_t data_start_;
    std::string* error_;
    int index_ = 0;
    bool ok_ = true;
};

const float* as_f32(const void* p) { return static_cast<const float*>(p); }
const std::int8_t* as_i8(const void* p) { return static_cast<const std::int8_t*>(p); }

LinearView read_linear(TableReader& t, const char* prefix, int rows, int cols) {
    char name[64];
    LinearView view;
    view.rows = rows;
    view.cols = cols;
    std::snprintf(name, sizeof name, "%s.w", prefix);
    view.w = as_i8(t.next(name, bxm::DType::I8, rows, cols));
    std::snprintf(name, sizeof name, "%s.scale", prefix);
    view.scale = as_f32(t.next(name, bxm::DType::F32, 1, rows));
    std::snprintf(name, sizeof name, "%s.bias", prefix);
    view.bias = as_f32(t.next(name, bxm::DType::F32, 1, rows));
    return view;
}

NormView read_norm(TableReader& t, const char* prefix) {
    char name[64];
    NormView view;
    std::snprintf(name, sizeof name, "%s.gamma", prefix);
    view.gamma = as_f32(t.next(name, bxm::DType::F32, 1, kHidden));
    std::snprintf(name, sizeof name, "%s.beta", prefix);
    view.beta = as_f32(t.next(name, bxm::DType::F32, 1, kHidden));
    return view;
}

// The expected name of label i: "O", then B-/I-/E-/S- per entity type.
void expected_label(int i, char* out, std::size_t cap) {
    if (i == 0) {
        std::snprintf(out, cap, "O");
        return;
    }
    const std::string_view type = bxm::kEntityTypes[(i - 1) / 4];
    std::snprintf(out, cap, "%c-%.*s", bxm::kLabelPrefixes[(i - 1) % 4], static_cast<int>(type.size()), type.data());
}

}  // namespace

std::optional<ModelView> ModelView::open(const void* data, std::size_t size, std::string* error) {
    const auto* base = static_cast<const unsigned char*>(data);
    if (data == nullptr) return fail(error, "no model data");
    if (reinterpret_cast<std::uintptr_t>(data) % 4 != 0)
        return fail(error, "model data at %p is not 4-byte aligned", data);
    if (size < bxm::kHeaderSize)
        return fail(error, "file is %zu bytes, shorter than the %zu-byte header", size, bxm::kHeaderSize);
    if (std::memcmp(base + bxm::kOffMagic, bxm::kMagic, 4) != 0)
        return fail(error, "bad magic %02x %02x %02x %02x, expected \"BXM1\"", base[0], base[1], base[2], base[3]);
    const std::uint32_t version = read_u32(base + bxm::kOffVersion);
    if (version != bxm::kVersion)
        return fail(error, "version %u, this reader knows version %u", version, bxm::kVersion);

    // The shape fields must be exactly the model this code is written for.
    struct Fixed {
        const char* name;
        std::size_t offset;
        std::uint32_t expected;
    };
    const Fixed fixed[] = {
        {"max_positions", bxm::kOffMaxPositions, kMaxPositions}, {"hidden", bxm::kOffHidden, kHidden},
        {"layers", bxm::kOffLayers, kLayers}, {"heads", bxm::kOffHeads, kHeads}, {"ffn", bxm::kOffFfn, kFfn},
        {"labels", bxm::kOffLabels, kLabels}, {"n_tensors", bxm::kOffTensorCount, bxm::kTensorCount},
    };
    for (const Fixed& field : fixed) {
        const std::uint32_t value = read_u32(base + field.offset);
        if (value != field.expected)
            return fail(error, "header %s = %u, expected %u", field.name, value, field.expected);
    }
    const std::uint32_t vocab = read_u32(base + bxm::kOffVocab);
    if (vocab < 4 || vocab > (1u << 24))  // the 4 special tokens at least; ids fit an int32 easily
        return fail(error, "header vocab = %u, expected 4 .. 2^24", vocab);
    const std::uint32_t type_vocab = read_u32(base + bxm::kOffTypeVocab);
    if (type_vocab != 1 && type_vocab != 2)
        return fail(error, "header type_vocab = %u, expected 1 or 2", type_vocab);
    float eps;
    std::memcpy(&eps, base + bxm::kOffLayerNormEps, 4);
    if (std::memcmp(&eps, &kLayerNormEps, 4) != 0)  // the contract's LayerNorm adds exactly 1e-12f
        return fail(error, "header layer_norm_eps = %g, expected 1e-12", static_cast<double>(eps));
    const std::uint32_t file_size = read_u32(base + bxm::kOffFileSize);
    if (file_size != size)
        return fail(error, "header says the file is %u bytes, but it is %zu", file_size, size);

    ModelView view;
    view.vocab = static_cast<int>(vocab);
    view.type_vocab = static_cast<int>(type_vocab);

    // Label names: u16 length + bytes each, and exactly the expected names.
    std::size_t at = read_u32(base + bxm::kOffLabelBlock);
    if (at < bxm::kHeaderSize || at > size)
        return fail(error, "label block offset %zu outside the file", at);
    for (int i = 0; i < kLabels; ++i) {
        if (size - at < 2) return fail(error, "label %d runs past the end of the file", i);
        const std::size_t length = read_u16(base + at);
        at += 2;
        if (size - at < length) return fail(error, "label %d runs past the end of the file", i);
        const std::string_view name(reinterpret_cast<const char*>(base + at), length);
        at += length;
        char expected[40];
        expected_label(i, expected, sizeof expected);
        if (name != expected)
            return fail(error, "label %d is \"%.*s\", expected \"%s\"", i, static_cast<int>(name.size()), name.data(),
                        expected);
        view.label_names[i] = name;
    }

    const std::size_t table = read_u32(base + bxm::kOffTensorTable);
    if (table % 4 != 0 || table < bxm::kHeaderSize || table > size ||
        size - table < bxm::kTensorCount * bxm::kTableEntrySize)
        return fail(error, "tensor table at %zu (%d entries of 64 bytes) does not fit in the file", table,
                    bxm::kTensorCount);

    TableReader t(base, size, table, error);
    view.word_w = as_i8(t.next("emb.word.w", bxm::DType::I8, vocab, kHidden));
    view.word_scale = as_f32(t.next("emb.word.scale", bxm::DType::F32, 1, vocab));
    view.pos = as_f32(t.next("emb.pos", bxm::DType::F32, kMaxPositions, kHidden));
    view.type = as_f32(t.next("emb.type", bxm::DType::F32, type_vocab, kHidden));
    view.emb_ln = read_norm(t, "emb.ln");
    for (int l = 0; l < kLayers; ++l) {
        char prefix[32];
        LayerView& layer = view.layers[l];
        std::snprintf(prefix, sizeof prefix, "L%d.q", l);
        layer.q = read_linear(t, prefix, kHidden, kHidden);
        std::snprintf(prefix, sizeof prefix, "L%d.k", l);
        layer.k = read_linear(t, prefix, kHidden, kHidden);
        std::snprintf(prefix, sizeof prefix, "L%d.v", l);
        layer.v = read_linear(t, prefix, kHidden, kHidden);
        std::snprintf(prefix, sizeof prefix, "L%d.o", l);
        layer.o = read_linear(t, prefix, kHidden, kHidden);
        std::snprintf(prefix, sizeof prefix, "L%d.attn_ln", l);
        layer.attn_ln = read_norm(t, prefix);
        std::snprintf(prefix, sizeof prefix, "L%d.ffn_in", l);
        layer.ffn_in = read_linear(t, prefix, kFfn, kHidden);
        std::snprintf(prefix, sizeof prefix, "L%d.ffn_out", l);
        layer.ffn_out = read_linear(t, prefix, kHidden, kFfn);
        std::snprintf(prefix, sizeof prefix, "L%d.ffn_ln", l);
        layer.ffn_ln = read_norm(t, prefix);
    }
    view.cls = read_linear(t, "cls", kLabels, kHidden);
    if (!t.ok()) return std::nullopt;
    return view;
}

}  // namespace bx
