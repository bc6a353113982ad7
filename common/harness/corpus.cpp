#include "common/harness/corpus.hpp"

#include <cstdint>

#include "common/harness/files.hpp"
#include "common/harness/fnv.hpp"
#include "common/json/json.hpp"

namespace bx::harness {

bool load_corpus(const std::string& path, Corpus& corpus, std::string* error) {
    std::string bytes;
    if (!read_file(path, bytes, error)) return false;
    corpus.path = path;
    corpus.texts.clear();
    corpus.fingerprint = fnv64(bytes);

    std::size_t start = 0;
    for (int line_number = 1; start < bytes.size(); ++line_number) {
        std::size_t end = bytes.find('\n', start);
        if (end == std::string::npos) end = bytes.size();
        const std::string_view line(bytes.data() + start, end - start);
        start = end + 1;
        if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;

        json::Value value;
        json::Error parse_error;
        if (!json::parse(line, value, parse_error)) {
            if (error)
                *error = path + ":" + std::to_string(line_number) + ": " + parse_error.message + " (at byte " +
                         std::to_string(parse_error.offset) + ")";
            return false;
        }
        const json::Value* text = value.find("text");
        if (text == nullptr || !text->is(json::Kind::String)) {
            if (error) *error = path + ":" + std::to_string(line_number) + ": no \"text\" string";
            return false;
        }
        corpus.texts.push_back(text->text);
    }
    return true;
}

}  // namespace bx::harness
