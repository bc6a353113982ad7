// Writing the vocabulary blob (FORMAT.md) from tokenizer.json's vocabulary.
//
// Runs at build time in the generator (build-time/make_tokenizer_data.cpp), and
// at run time only when a stage is handed a whole tokenizer.json
// (load_tokenizer_from_json: check-tok --tokenizer, unit tests). The output
// depends on nothing but the vocabulary: the same input gives the same bytes.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "common/tokenizer/tokenizer_config.hpp"
#include "vocab_blob.hpp"

namespace bx::stage {

namespace vocab_blob_writer {

inline void put_u32(std::string& out, std::size_t at, std::uint32_t value) {
    for (int k = 0; k < 4; ++k) out[at + k] = static_cast<char>(value >> (8 * k) & 0xFF);
}

inline void put_f64(std::string& out, std::size_t at, double value) {
    std::uint64_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    put_u32(out, at, static_cast<std::uint32_t>(bits));
    put_u32(out, at + 4, static_cast<std::uint32_t>(bits >> 32));
}

// Grows `out` to the next multiple of 8 and returns the new size: where the
// next section starts.
inline std::size_t align8(std::string& out) {
    out.resize((out.size() + 7) / 8 * 8, '\0');
    return out.size();
}

}  // namespace vocab_blob_writer

// The blob for `vocab` (ids are positions) with unknown-piece id `unk_id`.
inline std::string write_vocab_blob(const std::vector<bx::VocabEntry>& vocab, std::int32_t unk_id) {
    using namespace vocab_blob_writer;

    // 1. The trie as stage 00 builds it: one node per distinct prefix; a
    //    piece listed twice ends at the same node, which keeps the last id
    //    (what HF's HashMap insert keeps).
    struct Node {
        std::vector<std::pair<unsigned char, std::uint32_t>> children;
        std::int32_t id = -1;
    };
    std::vector<Node> trie(1);
    for (std::size_t id = 0; id < vocab.size(); ++id) {
        std::uint32_t node = 0;
        for (char ch : vocab[id].piece) {
            const auto byte = static_cast<unsigned char>(ch);
            auto& children = trie[node].children;
            auto it = std::find_if(children.begin(), children.end(), [&](const auto& c) { return c.first == byte; });
            if (it != children.end()) {
                node = it->second;
                continue;
            }
            const auto next = static_cast<std::uint32_t>(trie.size());
            children.push_back({byte, next});
            trie.emplace_back();  // invalidates `children`; not used again
            node = next;
        }
        trie[node].id = static_cast<std::int32_t>(id);
    }

    // 2. Breadth-first order, children sorted by byte: each node's children
    //    get consecutive numbers, so they sit side by side in the table.
    std::vector<std::uint32_t> order;          // new number -> old node
    std::vector<std::uint32_t> first_child;    // new number -> new number of its first child
    order.reserve(trie.size());
    order.push_back(0);
    for (std::size_t k = 0; k < order.size(); ++k) {
        auto& children = trie[order[k]].children;
        std::sort(children.begin(), children.end());
        first_child.push_back(static_cast<std::uint32_t>(order.size()));
        for (const auto& [byte, old] : children) order.push_back(old);
    }

    // 3. The bytes.
    const auto n = static_cast<std::uint32_t>(vocab.size());
    const auto m = static_cast<std::uint32_t>(order.size());
    std::string out(kVocabBlobHeaderSize, '\0');
    namespace f = vocab_blob_field;
    std::memcpy(out.data() + f::kMagic, kVocabBlobMagic, sizeof kVocabBlobMagic);
    put_u32(out, f::kVersion, kVocabBlobVersion);
    put_u32(out, f::kPieceCount, n);
    put_u32(out, f::kNodeCount, m);
    put_u32(out, f::kUnkId, static_cast<std::uint32_t>(unk_id));
    double min_score = INFINITY;  // as stage 00 finds it: `<`, first to last
    for (const bx::VocabEntry& entry : vocab) {
        if (entry.score < min_score) min_score = entry.score;
    }
    put_f64(out, f::kMinScore, min_score);

    put_u32(out, f::kScores, static_cast<std::uint32_t>(align8(out)));
    out.resize(out.size() + 8 * std::size_t{n});
    for (std::uint32_t id = 0; id < n; ++id) put_f64(out, out.size() - 8 * (n - id), vocab[id].score);

    put_u32(out, f::kPieceOffsets, static_cast<std::uint32_t>(align8(out)));
    const std::size_t offsets_at = out.size();
    out.resize(out.size() + 4 * (std::size_t{n} + 1));
    put_u32(out, f::kPieceBytes, static_cast<std::uint32_t>(align8(out)));
    const std::size_t bytes_at = out.size();
    for (std::uint32_t id = 0; id < n; ++id) {
        put_u32(out, offsets_at + 4 * std::size_t{id}, static_cast<std::uint32_t>(out.size() - bytes_at));
        out += vocab[id].piece;
    }
    put_u32(out, offsets_at + 4 * std::size_t{n}, static_cast<std::uint32_t>(out.size() - bytes_at));

    put_u32(out, f::kNodes, static_cast<std::uint32_t>(align8(out)));
    const std::size_t nodes_at = out.size();
    out.resize(out.size() + kVocabBlobNodeSize * m);
    std::string labels(m, '\0');
    for (std::uint32_t j = 0; j < m; ++j) {
        const Node& node = trie[order[j]];
        const auto count = static_cast<std::uint32_t>(node.children.size());
        const std::size_t at = nodes_at + kVocabBlobNodeSize * j;
        put_u32(out, at, count ? first_child[j] : 0);
        put_u32(out, at + 4, count);
        put_u32(out, at + 8, static_cast<std::uint32_t>(node.id));
        for (std::uint32_t c = 0; c < count; ++c) labels[first_child[j] + c] = static_cast<char>(node.children[c].first);
    }
    put_u32(out, f::kLabels, static_cast<std::uint32_t>(align8(out)));
    out += labels;
    put_u32(out, f::kTotalSize, static_cast<std::uint32_t>(out.size()));
    return out;
}

}  // namespace bx::stage
