// A corpus is a JSONL file: one JSON object per line with a "text" string
// (other members are ignored; blank lines are skipped).
#pragma once

#include <string>
#include <vector>

namespace bx::harness {

struct Corpus {
    std::string path;
    std::vector<std::string> texts;
    std::uint64_t fingerprint = 0;  // FNV-1a of the file's bytes: ties a reference to its corpus
};

// On failure: false, and *error names the file and line.
bool load_corpus(const std::string& path, Corpus& corpus, std::string* error);

}  // namespace bx::harness
