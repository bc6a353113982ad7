// Viterbi segmentation over one pre-token, as tokenizers' Unigram::encode_optimized.
#include "unigram.hpp"

#include <algorithm>
#include <limits>

#include "common/text/utf8.hpp"

namespace bx::stage {

namespace {

// The score of an unknown character: below every piece by this much.
constexpr double kUnknownPenalty = 10.0;

}  // namespace

NaiveUnigram::NaiveUnigram(const std::vector<bx::VocabEntry>& vocab, std::int32_t unk_id)
    : unk_id_(unk_id), min_score_(std::numeric_limits<double>::infinity()) {
    pieces_.reserve(vocab.size());
    scores_.reserve(vocab.size());
    ids_.reserve(vocab.size());
    trie_.emplace_back();
    for (std::size_t id = 0; id < vocab.size(); ++id) {
        const std::string& piece = vocab[id].piece;
        pieces_.push_back(piece);
        scores_.push_back(vocab[id].score);
        // A piece listed twice keeps its last id, like HF's HashMap insert.
        ids_[piece] = static_cast<std::int32_t>(id);
        if (vocab[id].score < min_score_) min_score_ = vocab[id].score;
        std::int32_t node = 0;
        for (char ch : piece) {
            auto byte = static_cast<unsigned char>(ch);
            std::int32_t next = child(node, byte);
            if (next < 0) {
                next = static_cast<std::int32_t>(trie_.size());
                trie_[static_cast<std::size_t>(node)].children.push_back({byte, next});
                trie_.emplace_back();
            }
            node = next;
        }
        trie_[static_cast<std::size_t>(node)].id = static_cast<std::int32_t>(id);
    }
}

std::int32_t NaiveUnigram::child(std::int32_t node, unsigned char byte) const {
    for (const auto& [label, index] : trie_[static_cast<std::size_t>(node)].children) {
        if (label == byte) return index;
    }
    return -1;
}

std::int32_t NaiveUnigram::token_to_id(std::string_view piece) const {
    auto it = ids_.find(std::string(piece));
    return it == ids_.end() ? -1 : it->second;
}

std::string_view NaiveUnigram::id_to_token(std::int32_t id) const {
    if (id < 0 || static_cast<std::size_t>(id) >= pieces_.size()) return {};
    return pieces_[static_cast<std::size_t>(id)];
}

void NaiveUnigram::encode(std::string_view text, std::vector<bx::Piece>& out) const {
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
        std::int32_t node = 0;
        for (std::size_t end = start; end < size;) {
            node = child(node, static_cast<unsigned char>(text[end]));
            if (node < 0) break;
            ++end;
            std::int32_t id = trie_[static_cast<std::size_t>(node)].id;
            if (id < 0) continue;
            double candidate = scores_[static_cast<std::size_t>(id)] + score_here;
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
