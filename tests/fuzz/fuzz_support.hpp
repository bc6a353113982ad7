// What every fuzz target shares: how a broken property is reported, and how a
// target writes its own seed corpus.
//
// A target checks properties beyond "no sanitizer report" (a round trip, a
// differential, the service's answer). A broken one is reported like a crash:
// a message, then abort(), so libFuzzer saves the input as crash-<hash> and
// stops, exactly as it does for an AddressSanitizer report.
//
// Seeds: with BX_FUZZ_WRITE_SEEDS=<dir> in the environment, a target writes its
// seeds there and exits instead of fuzzing (`make fuzz-seeds` does this for
// every target into tests/fuzz/seeds/<target>/, which is committed). Each
// target builds its seeds from the repository's own files, so they can be
// made again by one command.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

namespace bx::fuzz {

[[noreturn]] inline void fail(std::string_view what) {
    std::fprintf(stderr, "\n==bx-fuzz== property broken: %.*s\n", static_cast<int>(what.size()), what.data());
    std::fflush(stderr);
    std::abort();
}

inline void require(bool ok, std::string_view what) {
    if (!ok) fail(what);
}

inline std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) fail("cannot read " + path);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The "text" member of each line of a JSONL corpus (read with our JSON reader).
std::vector<std::string> corpus_texts(const std::string& path);

// Each hand-written text (assets/corpora/handwritten.jsonl) as a request
// body, {"text": "..."}.
std::vector<std::string> handwritten_request_bodies();

// If BX_FUZZ_WRITE_SEEDS is set: calls make(seeds) and writes seed i as
// <dir>/seed-NNN, then exits. Otherwise does nothing.
void write_seeds_if_asked(const std::function<void(std::vector<std::string>&)>& make);

}  // namespace bx::fuzz
