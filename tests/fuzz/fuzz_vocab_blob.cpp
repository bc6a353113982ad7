// Fuzz target: the vocabulary blob reader of the last stage (vocab_blob.hpp,
// FORMAT.md in the stage) on mutated blobs, and its Unigram step on whatever
// vocabulary a blob that passes describes.
//
// The reader promises that once open() accepts the bytes, no lookup can read
// outside them, so lookups check nothing. The properties:
//   - open() returns with no sanitizer report; a refusal names the problem;
//   - after it accepts: every piece, score and node, every trie walk of every
//     piece, and the step's encode of a few words read only inside the blob
//     (the input buffer is exactly the blob: one byte more is a report);
//   - the step's pieces tile the word, in order, with ids inside the blob.
//
// This file is compiled with `stage` defined as the last stage's renamed
// namespace (BX_LAST_NS), like the stage's own tokenizer library it links.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_support.hpp"
#include "unigram.hpp"
#include "vocab_blob.hpp"
#include "vocab_blob_writer.hpp"

namespace {

std::uint32_t sink = 0;

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    bx::fuzz::write_seeds_if_asked([](std::vector<std::string>& seeds) {
        // Small vocabularies, so that a mutation lands on a field often: ids
        // in order, "<unk>" at 0, the lowest score not on the last piece.
        const std::vector<bx::VocabEntry> small = {{"<unk>", 0.0},   {"\xE2\x96\x81", -2.0}, {"a", -3.0},
                                                   {"b", -3.5},      {"ab", -2.5},           {"\xE2\x96\x81" "a", -4.0},
                                                   {"abc", -9.0},    {"c", -5.0}};
        seeds.push_back(bx::stage::write_vocab_blob(small, 0));
        const std::vector<bx::VocabEntry> tiny = {{"<unk>", 0.0}, {"x", -1.0}, {"y", -1.0}};
        seeds.push_back(bx::stage::write_vocab_blob(tiny, 0));
        const std::vector<bx::VocabEntry> wide = {{"<unk>", 0.0}, {"\xE6\x97\xA5", -1.5}, {"\xE6\x97\xA5\xE6\x9C\xAC", -1.0},
                                                  {"\xF0\x9F\x98\x80", -7.0}, {"z", -2.0}};
        seeds.push_back(bx::stage::write_vocab_blob(wide, 0));
    });
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using bx::fuzz::require;
    const std::span<const char> bytes(reinterpret_cast<const char*>(data), size);
    std::string error;
    const std::optional<bx::stage::VocabBlob> blob = bx::stage::VocabBlob::open(bytes, &error);
    if (!blob) {
        require(!error.empty(), "a refusal without a message");
        return 0;
    }
    for (std::int32_t id = 0; id < blob->piece_count(); ++id) {
        const std::string_view piece = blob->piece(id);
        sink += static_cast<std::uint32_t>(blob->score(id) > 0) + static_cast<std::uint32_t>(blob->find(piece));
        for (char c : piece) sink += static_cast<unsigned char>(c);
    }
    for (std::int32_t node = 0; node < blob->node_count(); ++node) {
        sink += static_cast<std::uint32_t>(blob->id_at(node));
        for (int byte : {0x00, 0x61, 0x80, 0xE2, 0xFF}) {
            sink += static_cast<std::uint32_t>(blob->child(node, static_cast<unsigned char>(byte)));
        }
    }

    const auto step = bx::stage::BlobUnigram::open(bytes, &error);
    require(step != nullptr, "the step refused a blob the reader accepted: " + error);
    for (std::string_view word : {"\xE2\x96\x81" "abcab", "abc", "\xE6\x97\xA5\xE6\x9C\xAC\xF0\x9F\x98\x80", "q"}) {
        std::vector<bx::Piece> pieces;
        step->encode(word, pieces);
        std::uint32_t at = 0;
        for (const bx::Piece& p : pieces) {
            require(p.begin == at && p.end > p.begin && p.end <= word.size(), "pieces that do not tile the word");
            require(p.id >= 0 && p.id < blob->piece_count(), "a piece id outside the blob");
            at = p.end;
        }
        require(at == word.size(), "pieces that stop before the end of the word");
    }
    return 0;
}
