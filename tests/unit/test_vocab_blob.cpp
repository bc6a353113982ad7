// Stage 04's vocabulary blob (stages/04-precompiled-tokenizer/FORMAT.md): the
// writer and the reader agree on every piece, score bit and trie edge; the
// writer is deterministic; and a damaged blob -- truncated, bit-flipped, wrong
// magic or version, a section out of range, children out of order -- is
// refused at open with a message that names the problem. The headers are
// header-only, so this file tests them beside stage 00 without linking stage 04.
#include <catch2/catch.hpp>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "common/embed/embedded.hpp"
#include "common/tokenizer/tokenizer_config.hpp"
#include "stages/04-precompiled-tokenizer/vocab_blob_writer.hpp"

using bx::stage::VocabBlob;
namespace field = bx::stage::vocab_blob_field;

namespace {

std::vector<bx::VocabEntry> small_vocab() {
    return {{"<s>", 0.0}, {"<pad>", 0.0}, {"</s>", 0.0}, {"<unk>", 0.0}, {"b", -1.0}, {"a", -1.25},
            {"ab", -2.0}, {"\xE2\x96\x81", -3.0}, {"\xE2\x96\x81" "a", -1.5}, {"a", -0.5},  // "a" twice
            {"zz", -7.75}};
}

std::uint64_t bits_of(double d) {
    std::uint64_t b;
    std::memcpy(&b, &d, sizeof b);
    return b;
}

std::string refusal(const std::string& bytes) {
    std::string error;
    auto blob = VocabBlob::open(bytes, &error);
    if (blob) return "accepted";
    return error;
}

void put(std::string& blob, std::size_t at, std::uint32_t value) { bx::stage::vocab_blob_writer::put_u32(blob, at, value); }

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("vocab blob: what is written is what is read", "[tokenizer][vocab_blob]") {
    const auto vocab = small_vocab();
    const std::string bytes = bx::stage::write_vocab_blob(vocab, 3);
    std::string error;
    auto blob = VocabBlob::open(bytes, &error);
    REQUIRE(blob);
    CHECK(blob->piece_count() == 11);
    CHECK(blob->unk_id() == 3);
    CHECK(bits_of(blob->min_score()) == bits_of(-7.75));
    for (std::int32_t id = 0; id < blob->piece_count(); ++id) {
        CHECK(blob->piece(id) == vocab[static_cast<std::size_t>(id)].piece);
        CHECK(bits_of(blob->score(id)) == bits_of(vocab[static_cast<std::size_t>(id)].score));
    }
    CHECK(blob->find("a") == 9);  // listed twice: the last id, as HF's HashMap keeps
    CHECK(blob->find("ab") == 6);
    CHECK(blob->find("\xE2\x96\x81" "a") == 8);
    CHECK(blob->find("z") == -1);  // a prefix, not a piece
    CHECK(blob->find("abc") == -1);
    // Root's children are sorted by byte: '<', 'a', 'b', 'z', 0xE2.
    CHECK(blob->child(VocabBlob::kRoot, 'a') < blob->child(VocabBlob::kRoot, 'b'));
    CHECK(blob->child(VocabBlob::kRoot, 'c') == -1);
}

TEST_CASE("vocab blob: the whole tokenizer.json, twice, gives the same bytes", "[tokenizer][vocab_blob]") {
    std::span<const char> json = bx::embedded_tokenizer_json();
    if (json.empty()) {
        WARN("no embedded tokenizer.json");
        return;
    }
    bx::TokenizerConfig config;
    std::string error;
    REQUIRE(bx::read_tokenizer_config(std::string_view(json.data(), json.size()), config, &error));
    const std::string first = bx::stage::write_vocab_blob(config.vocab, config.unk_id);
    const std::string second = bx::stage::write_vocab_blob(config.vocab, config.unk_id);
    CHECK(first == second);
    auto blob = VocabBlob::open(first, &error);
    REQUIRE(blob);
    REQUIRE(static_cast<std::size_t>(blob->piece_count()) == config.vocab.size());
    std::size_t scores_differ = 0, pieces_differ = 0, ids_differ = 0;
    for (std::int32_t id = 0; id < blob->piece_count(); ++id) {
        const bx::VocabEntry& entry = config.vocab[static_cast<std::size_t>(id)];
        scores_differ += bits_of(blob->score(id)) != bits_of(entry.score);
        pieces_differ += blob->piece(id) != entry.piece;
        ids_differ += blob->find(entry.piece) != id;  // no duplicates in our vocabulary
    }
    CHECK(scores_differ == 0);
    CHECK(pieces_differ == 0);
    CHECK(ids_differ == 0);
}

TEST_CASE("vocab blob: every truncation is refused", "[tokenizer][vocab_blob]") {
    const std::string bytes = bx::stage::write_vocab_blob(small_vocab(), 3);
    for (std::size_t length = 0; length < bytes.size(); ++length) {
        INFO("length " << length);
        CHECK(contains(refusal(bytes.substr(0, length)), "truncated"));
    }
    CHECK(refusal(bytes + std::string(8, '\0')).find("padded") != std::string::npos);
}

TEST_CASE("vocab blob: damaged headers and tables are named", "[tokenizer][vocab_blob]") {
    const std::string good = bx::stage::write_vocab_blob(small_vocab(), 3);
    REQUIRE(refusal(good) == "accepted");
    auto damaged = [&](auto change) {
        std::string bytes = good;
        change(bytes);
        return refusal(bytes);
    };
    const auto u32 = [&](std::size_t at) { return bx::stage::blob_u32(good.data() + at); };
    const std::uint32_t nodes = u32(field::kNodes), labels = u32(field::kLabels);

    CHECK(damaged([](std::string& b) { b[0] = 'U'; }) == "vocabulary blob: wrong magic (not a BXVB file)");
    CHECK(damaged([](std::string& b) { put(b, field::kVersion, 2); }) ==
          "vocabulary blob: version 2, this reader knows 1");
    CHECK(contains(damaged([](std::string& b) { put(b, field::kUnkId, 11); }), "unk_id out of range"));
    CHECK(contains(damaged([&](std::string& b) { put(b, field::kNodes, static_cast<std::uint32_t>(b.size())); }),
                   "nodes section out of range"));
    CHECK(contains(damaged([](std::string& b) { put(b, field::kScores, 8); }), "scores section out of range"));
    CHECK(contains(damaged([](std::string& b) { put(b, field::kNodeCount, 1u << 30); }), "out of range"));
    CHECK(contains(damaged([](std::string& b) { put(b, field::kPieceCount, 0); }), "piece count out of range"));
    // The root's first two children swapped: no longer sorted.
    CHECK(contains(damaged([&](std::string& b) { std::swap(b[labels + 1], b[labels + 2]); }),
                   "node 0: children not sorted by byte"));
    // The root pointing at itself: a walk could loop or go back.
    CHECK(contains(damaged([&](std::string& b) { put(b, nodes, 0); }), "node 0: children out of range"));
    CHECK(contains(damaged([&](std::string& b) { put(b, nodes + 8, 11); }), "node 0: piece id out of range"));
    CHECK(contains(damaged([&](std::string& b) { put(b, u32(field::kPieceOffsets) + 8, 100); }),
                   "piece offsets out of order"));
    CHECK(contains(damaged([](std::string& b) { b[field::kMinScore + 7] ^= 0x01; }), "min score"));
}

TEST_CASE("vocab blob: any flipped header bit is refused; flipped table bits never crash", "[tokenizer][vocab_blob]") {
    const std::string good = bx::stage::write_vocab_blob(small_vocab(), 3);
    // Every bit of every header field (bytes 20-23 and 56-63 are padding).
    // Not unk_id (16-19): another id in range is a valid blob; the stage
    // refuses it by comparing with the slim tokenizer.json's unk_id.
    for (std::size_t byte = 0; byte < bx::stage::kVocabBlobHeaderSize; ++byte) {
        if ((byte >= 16 && byte < 24) || byte >= 56) continue;
        for (int bit = 0; bit < 8; ++bit) {
            std::string bytes = good;
            bytes[byte] = static_cast<char>(bytes[byte] ^ (1 << bit));
            INFO("byte " << byte << " bit " << bit);
            CHECK(refusal(bytes) != "accepted");
        }
    }
    // Flips in the tables: refused, or accepted with every lookup still inside
    // the blob (open's guarantee); walking every node and byte exercises that.
    std::mt19937 rng(4);
    int refused = 0;
    for (int trial = 0; trial < 2000; ++trial) {
        std::string bytes = good;
        std::uniform_int_distribution<std::size_t> at(bx::stage::kVocabBlobHeaderSize, bytes.size() - 1);
        bytes[at(rng)] ^= static_cast<char>(1 << (trial % 8));
        std::string error;
        auto blob = VocabBlob::open(bytes, &error);
        if (!blob) {
            ++refused;
            continue;
        }
        for (std::int32_t node = 0; node < blob->node_count(); ++node) {
            for (int byte = 0; byte < 256; ++byte) {
                std::int32_t next = blob->child(node, static_cast<unsigned char>(byte));
                CHECK((next == -1 || (next > node && next < blob->node_count())));
            }
            std::int32_t id = blob->id_at(node);
            CHECK((id >= -1 && id < blob->piece_count()));
        }
    }
    CHECK(refused > 0);
}
