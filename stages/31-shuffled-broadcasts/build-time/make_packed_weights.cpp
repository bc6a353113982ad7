// The stage's weight-packing generator, run by the build on the build machine
// (bx_stage_data):
//
//   make_packed_weights model.bxm packed_weights.bin
//
// reads the model file with common's reader (so a malformed model fails the
// build) and writes every linear layer's weights packed for the GEMM's tile
// (../packed_weights.hpp), which the stage embeds. The model itself stays as
// it is: its layout is the model's format, the one the oracle (stage 00)
// reads. Same input, same bytes.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "common/model/model_view.hpp"
#include "packed_weights.hpp"

namespace {

bool read_all(const char* path, std::vector<float>& storage, std::size_t& size) {
    std::FILE* file = std::fopen(path, "rb");
    if (!file) return false;
    std::string bytes;
    char buffer[1 << 16];
    for (std::size_t got; (got = std::fread(buffer, 1, sizeof buffer, file)) > 0;) bytes.append(buffer, got);
    const bool ok = !std::ferror(file);
    std::fclose(file);
    // Float storage: the reader needs the f32 tensors 4-byte aligned.
    storage.assign((bytes.size() + 3) / 4, 0.0f);
    std::memcpy(storage.data(), bytes.data(), bytes.size());
    size = bytes.size();
    return ok;
}

template <class T>
void put(std::string& out, std::size_t at, T value) {
    std::memcpy(out.data() + at, &value, sizeof value);
}

int fail(const std::string& message) {
    std::fprintf(stderr, "make_packed_weights: %s\n", message.c_str());
    return 1;
}

}  // namespace

int main(int argc, char** argv) {
    using namespace bx::stage::packed;
    if (argc != 3) return fail("usage: make_packed_weights model.bxm packed_weights.bin");
    std::vector<float> storage;
    std::size_t size = 0;
    if (!read_all(argv[1], storage, size)) return fail(std::string("cannot read ") + argv[1]);
    std::string why;
    const auto model = bx::ModelView::open(storage.data(), size, &why);
    if (!model) return fail(std::string(argv[1]) + ": " + why);

    const std::vector<const bx::LinearView*> layers = linear_layers(*model);
    const int width = kShippedBlockOutputs;
    std::size_t at = kHeaderBytes + layers.size() * kEntryBytes;
    std::vector<std::size_t> offsets;
    for (const bx::LinearView* layer : layers) {
        at = (at + 63) / 64 * 64;
        offsets.push_back(at);
        at += packed_size(layer->rows, layer->cols, width);
    }
    std::string out(at, '\0');
    std::memcpy(out.data(), kMagic, 4);
    put<std::uint32_t>(out, 4, kVersion);
    put<std::uint32_t>(out, 8, static_cast<std::uint32_t>(width));
    put<std::uint32_t>(out, 12, static_cast<std::uint32_t>(layers.size()));
    put<std::uint64_t>(out, 16, static_cast<std::uint64_t>(size));
    const auto* base = reinterpret_cast<const char*>(storage.data());
    for (std::size_t e = 0; e < layers.size(); ++e) {
        const bx::LinearView& layer = *layers[e];
        const std::size_t entry = kHeaderBytes + e * kEntryBytes;
        put<std::uint64_t>(out, entry, static_cast<std::uint64_t>(reinterpret_cast<const char*>(layer.w) - base));
        put<std::uint64_t>(out, entry + 8, static_cast<std::uint64_t>(offsets[e]));
        put<std::uint32_t>(out, entry + 16, static_cast<std::uint32_t>(layer.rows));
        put<std::uint32_t>(out, entry + 20, static_cast<std::uint32_t>(layer.cols));
        pack(layer.w, layer.rows, layer.cols, width, reinterpret_cast<std::int8_t*>(out.data() + offsets[e]));
    }

    std::FILE* file = std::fopen(argv[2], "wb");
    if (!file) return fail(std::string("cannot write ") + argv[2]);
    const bool ok = std::fwrite(out.data(), 1, out.size(), file) == out.size();
    if (std::fclose(file) != 0 || !ok) return fail(std::string("cannot write ") + argv[2]);
    return 0;
}
