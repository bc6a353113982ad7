// The two files stage 00's results are kept in.
//
// 1. A reference (`.ref`, text): per text of a corpus, the argmax label of
//    every compared row and a 64-bit hash of all its logit bits. Small enough
//    to commit for big corpora (assets/baselines/<corpus>.ref); enough to tell
//    whether a stage reproduces stage 00 exactly. Format:
//
//        bxref 1
//        model <16 hex digits>      FNV-1a 64 of the .bxm bytes
//        corpus <16 hex digits>     FNV-1a 64 of the corpus file bytes
//        texts <n>
//        <ids hash> <logits hash> <rows> <labels>     one line per text
//
//    ids hash: FNV-1a 64 over the encoding's ids (u32 little-endian each);
//    logits hash: FNV-1a 64 over the bit patterns of rows x 81 logits (u32
//    little-endian, row-major), so -0.0 vs 0.0 and NaN payloads count;
//    labels: two lowercase hex digits per row, its argmax label.
//
// 2. A logits file (binary, little-endian): stage logits for some or all
//    texts of a corpus. The eval baseline (assets/baselines/eval.bin) holds
//    stage 00's for every text of the eval corpus, so `eval` can report max
//    and mean |dlogit|; `check` writes the candidate's for the texts whose
//    hash differs, and stage 00's `explain` compares them with its own.
//
//        char[8]  "BXLOGS1\n"
//        u64      model fingerprint, u64 corpus fingerprint   (as above)
//        u32      texts in the corpus, u32 labels (81)
//        u64      rows in the whole corpus, u64 of them with agreeing labels
//                 (eval.bin: rows, rows; a check diff: the check's totals)
//        u32      entries
//        per entry: u32 text index, u32 rows, u64 ids hash,
//                   f32 logits[rows * labels] (row-major)
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/harness/runner.hpp"

namespace bx::harness {

struct TextRecord {
    std::uint64_t ids_hash = 0;
    std::uint64_t logits_hash = 0;
    std::vector<std::uint8_t> labels;  // one per row
};

TextRecord make_record(const TextLogits& text);

struct Reference {
    std::uint64_t model = 0;
    std::uint64_t corpus = 0;
    std::vector<TextRecord> texts;
};

std::string format_reference(const Reference& reference);
bool parse_reference(const std::string& text, Reference& out, std::string* error);

struct LogitsEntry {
    std::uint32_t text = 0;  // index in the corpus
    std::uint64_t ids_hash = 0;
    int rows = 0;
    std::vector<float> logits;  // rows x kLabels
};

struct LogitsFile {
    std::uint64_t model = 0;
    std::uint64_t corpus = 0;
    std::uint32_t corpus_texts = 0;
    std::uint64_t corpus_rows = 0;
    std::uint64_t corpus_rows_agree = 0;
    std::vector<LogitsEntry> entries;
};

LogitsEntry make_entry(std::uint32_t text_index, const TextLogits& text);
std::string format_logits_file(const LogitsFile& file);
bool parse_logits_file(const std::string& bytes, LogitsFile& out, std::string* error);

std::uint64_t ids_hash(const std::vector<std::int32_t>& ids);

}  // namespace bx::harness
