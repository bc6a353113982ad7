// The Unigram step: the vocabulary is the blob the build wrote
// (vocab_blob.hpp, FORMAT.md), used where it lies. Nothing is built per load:
// no hash map, no trie of nodes, no copy of a piece or a score. That building
// was the per-request work Part 4 of the post removes.
//
// The search is stage 00's (Hugging Face's Unigram::encode_optimized) step for
// step; only the lookups read the blob: a child is a binary search over a
// node's sorted labels, a piece's id is a trie walk.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/tokenizer/tokenizer.hpp"
#include "vocab_blob.hpp"

namespace bx::stage {

class BlobUnigram final : public bx::UnigramStep {
public:
    // The blob in `bytes` (embedded: not copied, must outlive the step).
    static std::unique_ptr<BlobUnigram> open(std::span<const char> bytes, std::string* error);
    // A blob made at run time, owned by the step.
    static std::unique_ptr<BlobUnigram> adopt(std::string bytes, std::string* error);

    void encode(std::string_view normalized, std::vector<bx::Piece>& out) const override;
    std::int32_t token_to_id(std::string_view piece) const override { return blob_.find(piece); }
    std::string_view id_to_token(std::int32_t id) const override;
    std::int32_t unk_id() const override { return unk_id_; }

    std::size_t vocab_size() const override { return static_cast<std::size_t>(blob_.piece_count()); }
    double score(std::int32_t id) const override { return blob_.score(id); }

private:
    explicit BlobUnigram(VocabBlob blob) : blob_(blob), unk_id_(blob.unk_id()), min_score_(blob.min_score()) {}

    std::unique_ptr<const std::string> owned_;  // null for an embedded blob
    VocabBlob blob_;
    std::int32_t unk_id_;
    double min_score_;
};

}  // namespace bx::stage
