// The Unigram step: the vocabulary indexed the straightforward way, on
// every load -- a hash map from piece to id and a byte trie of all pieces,
// both built from the parsed tokenizer.json. That building is the post's
// "~13 ms ... HashMap and a trie of 31,000 pieces" that Part 4 removes.
//
// The search itself is Hugging Face's Unigram::encode_optimized, step for step.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/tokenizer/tokenizer.hpp"

namespace bx::stage {

class NaiveUnigram final : public bx::UnigramStep {
public:
    NaiveUnigram(const std::vector<bx::VocabEntry>& vocab, std::int32_t unk_id);

    void encode(std::string_view normalized, std::vector<bx::Piece>& out) const override;
    std::int32_t token_to_id(std::string_view piece) const override;
    std::string_view id_to_token(std::int32_t id) const override;
    std::int32_t unk_id() const override { return unk_id_; }

    std::size_t vocab_size() const override { return scores_.size(); }
    double score(std::int32_t id) const override { return scores_[static_cast<std::size_t>(id)]; }

private:
    // One trie node per distinct prefix; children in insertion order.
    struct Node {
        std::vector<std::pair<unsigned char, std::int32_t>> children;
        std::int32_t id = -1;  // the piece ending here, if any
    };

    std::vector<std::string> pieces_;
    std::vector<double> scores_;
    std::unordered_map<std::string, std::int32_t> ids_;
    std::vector<Node> trie_;
    std::int32_t unk_id_;
    double min_score_;

    std::int32_t child(std::int32_t node, unsigned char byte) const;
};

}  // namespace bx::stage
