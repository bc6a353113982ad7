#include "fuzz_support.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "common/json/json.hpp"

namespace bx::fuzz {

std::vector<std::string> corpus_texts(const std::string& path) {
    std::vector<std::string> texts;
    std::istringstream lines(read_file(path));
    for (std::string line; std::getline(lines, line);) {
        bx::json::Value value;
        bx::json::Error error;
        if (!bx::json::parse(line, value, error)) fail(path + ": a line is not JSON: " + error.message);
        const bx::json::Value* text = value.find("text");
        if (!text || !text->is(bx::json::Kind::String)) fail(path + ": a line has no \"text\"");
        texts.push_back(text->text);
    }
    return texts;
}

std::vector<std::string> handwritten_request_bodies() {
    std::vector<std::string> bodies;
    for (const std::string& text : corpus_texts(BX_ROOT "/assets/corpora/handwritten.jsonl")) {
        std::string body = "{\"text\": ";
        bx::json::append_string(body, text);
        body += "}";
        bodies.push_back(body);
    }
    return bodies;
}

void write_seeds_if_asked(const std::function<void(std::vector<std::string>&)>& make) {
    const char* dir = std::getenv("BX_FUZZ_WRITE_SEEDS");
    if (!dir || !*dir) return;
    std::vector<std::string> seeds;
    make(seeds);
    // Each seed once, in the order made.
    std::vector<std::string> unique;
    for (std::string& seed : seeds) {
        if (std::find(unique.begin(), unique.end(), seed) == unique.end()) unique.push_back(std::move(seed));
    }
    seeds = std::move(unique);
    std::filesystem::create_directories(dir);
    for (std::size_t i = 0; i < seeds.size(); ++i) {
        char name[32];
        std::snprintf(name, sizeof name, "/seed-%03zu", i);
        std::ofstream out(std::string(dir) + name, std::ios::binary);
        out.write(seeds[i].data(), static_cast<std::streamsize>(seeds[i].size()));
        if (!out) fail(std::string("cannot write a seed in ") + dir);
    }
    std::fprintf(stderr, "wrote %zu seeds to %s\n", seeds.size(), dir);
    std::exit(0);
}

}  // namespace bx::fuzz
