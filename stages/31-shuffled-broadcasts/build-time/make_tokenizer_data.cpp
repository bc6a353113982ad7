// The stage's tokenizer generator, run by the build on the build machine
// (bx_stage_data):
//
//   make_tokenizer_data tokenizer.json vocab.blob tokenizer_slim.json
//
// reads tokenizer.json once, at build time rather than on each request, and
// writes what the stage embeds:
//   vocab.blob            the Unigram vocabulary, flat (../FORMAT.md)
//   tokenizer_slim.json   tokenizer.json without model.vocab
// The whole file is read with common's reader first, so an unsupported
// tokenizer.json fails the build, not the first request. Same input, same bytes.
#include <cstdio>
#include <string>

#include "common/json/json.hpp"
#include "common/tokenizer/tokenizer_config.hpp"
#include "vocab_blob_writer.hpp"

namespace {

bool read_all(const char* path, std::string& out) {
    std::FILE* file = std::fopen(path, "rb");
    if (!file) return false;
    char buffer[1 << 16];
    for (std::size_t got; (got = std::fread(buffer, 1, sizeof buffer, file)) > 0;) out.append(buffer, got);
    const bool ok = !std::ferror(file);
    std::fclose(file);
    return ok;
}

bool write_all(const char* path, const std::string& bytes) {
    std::FILE* file = std::fopen(path, "wb");
    if (!file) return false;
    const bool ok = std::fwrite(bytes.data(), 1, bytes.size(), file) == bytes.size();
    return std::fclose(file) == 0 && ok;
}

int fail(const std::string& message) {
    std::fprintf(stderr, "make_tokenizer_data: %s\n", message.c_str());
    return 1;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 4) return fail("usage: make_tokenizer_data tokenizer.json vocab.blob tokenizer_slim.json");
    std::string text;
    if (!read_all(argv[1], text)) return fail(std::string("cannot read ") + argv[1]);

    bx::json::Value root;
    bx::json::Error parse_error;
    if (!bx::json::parse(text, root, parse_error)) {
        return fail(std::string(argv[1]) + ": " + parse_error.message + " at byte " + std::to_string(parse_error.offset));
    }
    bx::TokenizerConfig config;
    std::string error;
    if (!bx::read_tokenizer_config(root, config, &error)) return fail(std::string(argv[1]) + ": " + error);

    // The slim file: the same JSON, model.vocab left out.
    for (auto& [key, value] : root.members) {
        if (key != "model") continue;
        std::erase_if(value.members, [](const auto& member) { return member.first == "vocab"; });
    }
    std::string slim;
    bx::json::write(slim, root);

    const std::string blob = bx::stage::write_vocab_blob(config.vocab, config.unk_id);
    if (!write_all(argv[2], blob)) return fail(std::string("cannot write ") + argv[2]);
    if (!write_all(argv[3], slim)) return fail(std::string("cannot write ") + argv[3]);
    std::printf("make_tokenizer_data: %zu pieces -> %s (%zu bytes); slim tokenizer.json %zu bytes (from %zu)\n",
                config.vocab.size(), argv[2], blob.size(), slim.size(), text.size());
    return 0;
}
