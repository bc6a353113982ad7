// Viterbi segmentation over one pre-token, as tokenizers' Unigram::encode_optimized.
#include "unigram.hpp"

#include <algorithm>

#include "common/text/utf8.hpp"

namespace bx::stage {

namespace {

// The score of an unknown character: below every piece by this much.
constexpr double kUnknownPenalty = 10.0;

}  // namespace

std::unique_ptr<BlobUnigram> BlobUnigram::open(std::span<const char> bytes, std::string* error) {
    std::optional<VocabBlob> blob = VocabBlob::open(bytes, error);
    if (!blob) return nullptr;
    return std::unique_ptr<BlobUnigram>(new BlobUnigram(*blob));
}

std::unique_ptr<BlobUnigram> BlobUnigram::adopt(std::string bytes, std::string* error) {
    // On the heap, so the bytes the view points at never move.
    auto owned = std::make_unique<const std::string>(std::move(bytes));
    std::optional<VocabBlob> blob = VocabBlob::open(*owned, error);
    if (!blob) return nullptr;
    auto step = std::unique_ptr<BlobUnigram>(new BlobUnigram(*blob));
    step->owned_ = std::move(owned);
    return step;
}

std::string_view BlobUnigram::id_to_token(std::int32_t id) const {
    if (id < 0 || id >= blob_.piece_count()) return {};
    return blob_.piece(id);
}

void BlobUnigram::encode(std::string_view text, std::vector<bx::Piece>& out) const {
    // best[e]: the best segmentation of text[0, e) found so far, as its score,
    // the start of its last piece and that piece's id.
    struct BestPath {
        std::int32_t id = 0;
        double score = 0.0;
        std::int64_t starts_at = -1;  // -1: no path reaches here yet
    };
    const std::size_t size = text.size();
    const double unknown_score = min_score_ - kUnknownPenalty;
    std::vector<BestPath> best(size + 1);

    std::size_t start = 0;
    while (start < size) {
        const double score_here = best[start].score;
        const std::size_t char_length = utf8::sequence_length(static_cast<unsigned char>(text[start]));
        bool has_single_char_piece = false;
        // Every piece that is a prefix of text[start..], shortest first.
        std::int32_t node = VocabBlob::kRoot;
        for (std::size_t end = start; end < size;) {
            node = blob_.child(node, static_cast<unsigned char>(text[end]));
            if (node < 0) break;
            ++end;
            std::int32_t id = blob_.id_at(node);
            if (id < 0) continue;
            double candidate = blob_.score(id) + score_here;
            BestPath& target = best[end];
            // mutation-point: tiebreak
            if (target.starts_at < 0 || candidate > target.score) {
                target.score = candidate;
                target.starts_at = static_cast<std::int64_t>(start);
                target.id = id;
            }
            if (end - start == char_length) has_single_char_piece = true;
        }
        if (!has_single_char_piece) {
            // No piece covers this character alone: it may be taken as unknown.
            BestPath& target = best[start + char_length];
            double candidate = unknown_score + score_here;
            if (target.starts_at < 0 || candidate > target.score) {
                target.score = candidate;
                target.starts_at = static_cast<std::int64_t>(start);
                target.id = unk_id_;
            }
        }
        start += char_length;
    }

    // Walk back from the end; runs of unknown pieces become one piece.
    const std::size_t first = out.size();
    std::size_t end = size;
    std::size_t unknown_run_end = 0;
    bool in_unknown_run = false;
    while (end > 0) {
        const BestPath& node = best[end];
        auto piece_start = static_cast<std::size_t>(node.starts_at);
        if (node.id == unk_id_) {
            if (!in_unknown_run) unknown_run_end = end;
            in_unknown_run = true;
        } else {
            if (in_unknown_run) {
                out.push_back({unk_id_, static_cast<std::uint32_t>(end), static_cast<std::uint32_t>(unknown_run_end)});
                in_unknown_run = false;
            }
            out.push_back({node.id, static_cast<std::uint32_t>(piece_start), static_cast<std::uint32_t>(end)});
        }
        end = piece_start;
    }
    if (in_unknown_run) out.push_back({unk_id_, 0, static_cast<std::uint32_t>(unknown_run_end)});
    std::reverse(out.begin() + static_cast<std::ptrdiff_t>(first), out.end());

    // HF looks each token's text up again: a fused run of unknowns that happens
    // to spell a piece gets that piece's id.
    for (std::size_t k = first; k < out.size(); ++k) {
        if (out[k].id != unk_id_) continue;
        std::int32_t id = token_to_id(text.substr(out[k].begin, out[k].end - out[k].begin));
        if (id >= 0) out[k].id = id;
    }
}

}  // namespace bx::stage
