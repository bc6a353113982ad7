// The vocabulary blob: the Unigram vocabulary laid out flat at build time, so
// that "loading" it is reading a header. FORMAT.md in this directory has the
// layout; the generator (build-time/make_tokenizer_data.cpp, with
// vocab_blob_writer.hpp) writes it, and this view reads it where it lies.
//
// Nothing is copied or allocated: scores, pieces and trie nodes are read from
// the bytes on each use. Every multi-byte field is little-endian and read byte
// by byte (a single load on wasm and x86), so the blob needs no alignment and no
// cast of char storage to another type.
//
// open() validates the whole blob once: every section inside the bytes, piece
// offsets in order, every child range inside the node table and after its
// parent, children sorted, ids in range. After that no lookup can read outside
// the blob, so the lookups themselves check nothing.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace bx::stage {

inline constexpr char kVocabBlobMagic[4] = {'B', 'X', 'V', 'B'};
inline constexpr std::uint32_t kVocabBlobVersion = 1;
inline constexpr std::size_t kVocabBlobHeaderSize = 64;
inline constexpr std::size_t kVocabBlobNodeSize = 12;  // child_start, child_count, id

// Header field offsets (FORMAT.md).
namespace vocab_blob_field {
inline constexpr std::size_t kMagic = 0, kVersion = 4, kPieceCount = 8, kNodeCount = 12, kUnkId = 16,
                             kMinScore = 24, kScores = 32, kPieceOffsets = 36, kPieceBytes = 40, kNodes = 44,
                             kLabels = 48, kTotalSize = 52;
}  // namespace vocab_blob_field

inline std::uint32_t blob_u32(const char* p) {
    const auto* b = reinterpret_cast<const unsigned char*>(p);
    return static_cast<std::uint32_t>(b[0]) | static_cast<std::uint32_t>(b[1]) << 8 |
           static_cast<std::uint32_t>(b[2]) << 16 | static_cast<std::uint32_t>(b[3]) << 24;
}

inline double blob_f64(const char* p) {
    std::uint64_t bits = static_cast<std::uint64_t>(blob_u32(p)) | static_cast<std::uint64_t>(blob_u32(p + 4)) << 32;
    double value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
}

class VocabBlob {
public:
    static constexpr std::int32_t kRoot = 0;

    // The blob in `bytes`, validated; nullopt with *error naming the first
    // problem found. The bytes must outlive the view.
    static std::optional<VocabBlob> open(std::span<const char> bytes, std::string* error);

    std::int32_t piece_count() const { return static_cast<std::int32_t>(pieces_); }
    std::int32_t node_count() const { return static_cast<std::int32_t>(nodes_); }
    std::int32_t unk_id() const { return unk_id_; }
    double min_score() const { return min_score_; }

    // id in [0, piece_count()).
    double score(std::int32_t id) const { return blob_f64(scores_ + 8 * static_cast<std::size_t>(id)); }
    std::string_view piece(std::int32_t id) const {
        const char* at = piece_offsets_ + 4 * static_cast<std::size_t>(id);
        std::uint32_t begin = blob_u32(at), end = blob_u32(at + 4);
        return {piece_bytes_ + begin, end - begin};
    }

    // The piece that ends at `node`, or -1.
    std::int32_t id_at(std::int32_t node) const {
        return static_cast<std::int32_t>(blob_u32(node_record(node) + 8));
    }

    // The child of `node` along `byte`, or -1: a binary search over the
    // node's children's labels, which are contiguous and sorted.
    std::int32_t child(std::int32_t node, unsigned char byte) const {
        const char* record = node_record(node);
        const std::uint32_t start = blob_u32(record), count = blob_u32(record + 4);
        const auto* first = reinterpret_cast<const unsigned char*>(labels_) + start;
        const auto* last = first + count;
        const auto* found = std::lower_bound(first, last, byte);
        if (found == last || *found != byte) return -1;
        return static_cast<std::int32_t>(start + static_cast<std::uint32_t>(found - first));
    }

    // The id of `piece` (its trie walk), or -1.
    std::int32_t find(std::string_view piece) const {
        std::int32_t node = kRoot;
        for (char ch : piece) {
            node = child(node, static_cast<unsigned char>(ch));
            if (node < 0) return -1;
        }
        return id_at(node);
    }

private:
    const char* node_record(std::int32_t node) const { return nodes_table_ + kVocabBlobNodeSize * static_cast<std::size_t>(node); }

    std::uint32_t pieces_ = 0, nodes_ = 0;
    std::int32_t unk_id_ = 0;
    double min_score_ = 0;
    const char* scores_ = nullptr;
    const char* piece_offsets_ = nullptr;
    const char* piece_bytes_ = nullptr;
    const char* nodes_table_ = nullptr;
    const char* labels_ = nullptr;
};

inline std::optional<VocabBlob> VocabBlob::open(std::span<const char> bytes, std::string* error) {
    auto refuse = [&](const std::string& why) -> std::optional<VocabBlob> {
        if (error) *error = "vocabulary blob: " + why;
        return std::nullopt;
    };
    namespace f = vocab_blob_field;
    const char* base = bytes.data();
    const std::uint64_t size = bytes.size();
    if (size < kVocabBlobHeaderSize) {
        return refuse("truncated: " + std::to_string(size) + " bytes, shorter than its " +
                      std::to_string(kVocabBlobHeaderSize) + "-byte header");
    }
    if (std::memcmp(base + f::kMagic, kVocabBlobMagic, sizeof kVocabBlobMagic) != 0) {
        return refuse("wrong magic (not a BXVB file)");
    }
    if (std::uint32_t version = blob_u32(base + f::kVersion); version != kVocabBlobVersion) {
        return refuse("version " + std::to_string(version) + ", this reader knows " + std::to_string(kVocabBlobVersion));
    }
    if (std::uint64_t total = blob_u32(base + f::kTotalSize); total != size) {
        return refuse("truncated or padded: the header says " + std::to_string(total) + " bytes, there are " +
                      std::to_string(size));
    }

    VocabBlob blob;
    blob.pieces_ = blob_u32(base + f::kPieceCount);
    blob.nodes_ = blob_u32(base + f::kNodeCount);
    blob.unk_id_ = static_cast<std::int32_t>(blob_u32(base + f::kUnkId));
    blob.min_score_ = blob_f64(base + f::kMinScore);
    if (blob.pieces_ == 0 || blob.pieces_ > INT32_MAX) return refuse("piece count out of range");
    if (blob.nodes_ == 0 || blob.nodes_ > INT32_MAX) return refuse("node count out of range");
    if (blob.unk_id_ < 0 || static_cast<std::uint32_t>(blob.unk_id_) >= blob.pieces_) return refuse("unk_id out of range");

    // The sections, in file order: each starts at the first multiple of 8
    // after the previous one (the layout is fixed by the counts) and lies
    // inside the blob; the last one ends the blob.
    struct Section {
        const char* name;
        std::size_t field;
        std::uint64_t length;
        const char** start;
    };
    const std::uint64_t n = blob.pieces_, m = blob.nodes_;
    Section sections[] = {
        {"scores", f::kScores, 8 * n, &blob.scores_},
        {"piece offsets", f::kPieceOffsets, 4 * (n + 1), &blob.piece_offsets_},
        {"piece bytes", f::kPieceBytes, 0, &blob.piece_bytes_},
        {"nodes", f::kNodes, kVocabBlobNodeSize * m, &blob.nodes_table_},
        {"labels", f::kLabels, m, &blob.labels_},
    };
    std::uint64_t previous_end = kVocabBlobHeaderSize;
    for (Section& section : sections) {
        const std::uint64_t offset = blob_u32(base + section.field);
        if (section.start == &blob.piece_bytes_) {
            // Its length is the last piece offset (the offsets are in place by now).
            section.length = blob_u32(blob.piece_offsets_ + 4 * n);
        }
        if (offset != (previous_end + 7) / 8 * 8 || offset > size || section.length > size - offset) {
            return refuse(std::string(section.name) + " section out of range (offset " + std::to_string(offset) +
                          ", " + std::to_string(section.length) + " bytes, blob " + std::to_string(size) + ")");
        }
        *section.start = base + offset;
        previous_end = offset + section.length;
    }
    if (previous_end != size) return refuse("bytes after the labels section");

    // Pieces: offsets start at 0 and never go back. Scores: the minimum is the
    // header's, bit for bit (the unknown-token score is derived from it).
    if (blob_u32(blob.piece_offsets_) != 0) return refuse("piece offsets do not start at 0");
    double min_score = INFINITY;
    // The vocabulary-blob fuzz target's mutant leaves the last piece unchecked.
    // mutation-point: piece-order
    for (std::uint32_t id = 0; id < blob.pieces_; ++id) {
        if (blob_u32(blob.piece_offsets_ + 4 * (id + 1)) < blob_u32(blob.piece_offsets_ + 4 * id)) {
            return refuse("piece offsets out of order at id " + std::to_string(id));
        }
        const double score = blob.score(static_cast<std::int32_t>(id));
        if (score < min_score) min_score = score;
    }
    if (std::memcmp(&min_score, &blob.min_score_, sizeof min_score) != 0) {
        return refuse("min score in the header is not the scores' minimum");
    }

    // Trie: children after their parent (breadth-first, so every walk moves
    // forward), inside the table, sorted by byte; ids in range or -1.
    const auto* labels = reinterpret_cast<const unsigned char*>(blob.labels_);
    for (std::uint32_t j = 0; j < blob.nodes_; ++j) {
        const char* record = blob.node_record(static_cast<std::int32_t>(j));
        const std::uint64_t start = blob_u32(record), count = blob_u32(record + 4);
        const auto id = static_cast<std::int32_t>(blob_u32(record + 8));
        if (count != 0 && (start <= j || start + count > m)) {
            return refuse("node " + std::to_string(j) + ": children out of range");
        }
        for (std::uint64_t k = 1; k < count; ++k) {
            if (labels[start + k - 1] >= labels[start + k]) {
                return refuse("node " + std::to_string(j) + ": children not sorted by byte");
            }
        }
        if (id < -1 || (id >= 0 && static_cast<std::uint32_t>(id) >= blob.pieces_)) {
            return refuse("node " + std::to_string(j) + ": piece id out of range");
        }
    }
    return blob;
}

}  // namespace bx::stage
