#include "common/harness/reference.hpp"

#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "common/harness/fnv.hpp"

namespace bx::harness {

std::uint64_t ids_hash(const std::vector<std::int32_t>& ids) {
    Fnv64 h;
    for (std::int32_t id : ids) h.add_u32(static_cast<std::uint32_t>(id));
    return h.value();
}

// snippet: logits-hash
TextRecord make_record(const TextLogits& text) {
    TextRecord record;
    record.ids_hash = ids_hash(text.ids);
    Fnv64 h;
    for (float value : text.logits) h.add_float_bits(value);
    record.logits_hash = h.value();
    for (int r = 0; r < text.rows; ++r)
        record.labels.push_back(static_cast<std::uint8_t>(argmax_row(text.logits.data() + r * kLabels)));
    return record;
}
// end-snippet

std::string format_reference(const Reference& reference) {
    std::string out;
    char line[96];
    std::snprintf(line, sizeof line, "bxref 1\nmodel %016" PRIx64 "\ncorpus %016" PRIx64 "\ntexts %zu\n",
                  reference.model, reference.corpus, reference.texts.size());
    out += line;
    static const char kHex[] = "0123456789abcdef";
    for (const TextRecord& record : reference.texts) {
        std::snprintf(line, sizeof line, "%016" PRIx64 " %016" PRIx64 " %zu ", record.ids_hash, record.logits_hash,
                      record.labels.size());
        out += line;
        for (std::uint8_t label : record.labels) {
            out += kHex[label >> 4];
            out += kHex[label & 15];
        }
        out += '\n';
    }
    return out;
}

namespace {

// Reads one line (without its '\n') starting at `at`; false at the end.
bool next_line(const std::string& text, std::size_t& at, std::string& line) {
    if (at >= text.size()) return false;
    std::size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    line.assign(text, at, end - at);
    at = end + 1;
    return true;
}

int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

}  // namespace

bool parse_reference(const std::string& text, Reference& out, std::string* error) {
    auto fail = [&](const std::string& why) {
        if (error) *error = why;
        return false;
    };
    std::size_t at = 0;
    std::string line;
    std::size_t count = 0;
    if (!next_line(text, at, line) || line != "bxref 1") return fail("not a version-1 reference (no 'bxref 1' line)");
    if (!next_line(text, at, line) || std::sscanf(line.c_str(), "model %" SCNx64, &out.model) != 1)
        return fail("reference: bad 'model' line");
    if (!next_line(text, at, line) || std::sscanf(line.c_str(), "corpus %" SCNx64, &out.corpus) != 1)
        return fail("reference: bad 'corpus' line");
    if (!next_line(text, at, line) || std::sscanf(line.c_str(), "texts %zu", &count) != 1)
        return fail("reference: bad 'texts' line");
    out.texts.clear();
    for (std::size_t i = 0; i < count; ++i) {
        TextRecord record;
        std::size_t rows = 0;
        int consumed = 0;
        if (!next_line(text, at, line) ||
            std::sscanf(line.c_str(), "%" SCNx64 " %" SCNx64 " %zu %n", &record.ids_hash, &record.logits_hash, &rows,
                        &consumed) != 3 ||
            line.size() != static_cast<std::size_t>(consumed) + 2 * rows)
            return fail("reference: text " + std::to_string(i) + " has a malformed line");
        for (std::size_t r = 0; r < rows; ++r) {
            const int hi = hex_digit(line[consumed + 2 * r]), lo = hex_digit(line[consumed + 2 * r + 1]);
            if (hi < 0 || lo < 0) return fail("reference: text " + std::to_string(i) + " has a bad label digit");
            record.labels.push_back(static_cast<std::uint8_t>(hi * 16 + lo));
        }
        out.texts.push_back(std::move(record));
    }
    return true;
}

namespace {

constexpr char kLogitsMagic[8] = {'B', 'X', 'L', 'O', 'G', 'S', '1', '\n'};

template <typename T>
void put(std::string& out, T value) {
    char bytes[sizeof(T)];
    std::memcpy(bytes, &value, sizeof(T));  // little-endian on every target we build for
    out.append(bytes, sizeof(T));
}

template <typename T>
bool take(const std::string& in, std::size_t& at, T& value) {
    if (in.size() - at < sizeof(T)) return false;
    std::memcpy(&value, in.data() + at, sizeof(T));
    at += sizeof(T);
    return true;
}

}  // namespace

LogitsEntry make_entry(std::uint32_t text_index, const TextLogits& text) {
    LogitsEntry entry;
    entry.text = text_index;
    entry.ids_hash = ids_hash(text.ids);
    entry.rows = text.rows;
    entry.logits = text.logits;
    return entry;
}

std::string format_logits_file(const LogitsFile& file) {
    std::string out(kLogitsMagic, sizeof kLogitsMagic);
    put(out, file.model);
    put(out, file.corpus);
    put(out, file.corpus_texts);
    put(out, static_cast<std::uint32_t>(kLabels));
    put(out, file.corpus_rows);
    put(out, file.corpus_rows_agree);
    put(out, static_cast<std::uint32_t>(file.entries.size()));
    for (const LogitsEntry& entry : file.entries) {
        put(out, entry.text);
        put(out, static_cast<std::uint32_t>(entry.rows));
        put(out, entry.ids_hash);
        out.append(reinterpret_cast<const char*>(entry.logits.data()), entry.logits.size() * sizeof(float));
    }
    return out;
}

bool parse_logits_file(const std::string& bytes, LogitsFile& out, std::string* error) {
    auto fail = [&](const std::string& why) {
        if (error) *error = "logits file: " + why;
        return false;
    };
    if (bytes.size() < sizeof kLogitsMagic || std::memcmp(bytes.data(), kLogitsMagic, 8) != 0)
        return fail("bad magic (expected BXLOGS1)");
    std::size_t at = 8;
    std::uint32_t labels = 0, count = 0;
    if (!take(bytes, at, out.model) || !take(bytes, at, out.corpus) || !take(bytes, at, out.corpus_texts) ||
        !take(bytes, at, labels) || !take(bytes, at, out.corpus_rows) || !take(bytes, at, out.corpus_rows_agree) ||
        !take(bytes, at, count))
        return fail("truncated header");
    if (labels != static_cast<std::uint32_t>(kLabels)) return fail("labels " + std::to_string(labels) + ", expected 81");
    out.entries.clear();
    for (std::uint32_t i = 0; i < count; ++i) {
        LogitsEntry entry;
        std::uint32_t rows = 0;
        if (!take(bytes, at, entry.text) || !take(bytes, at, rows) || !take(bytes, at, entry.ids_hash))
            return fail("truncated at entry " + std::to_string(i));
        const std::size_t n = std::size_t{rows} * kLabels;
        if ((bytes.size() - at) / sizeof(float) < n) return fail("truncated logits at entry " + std::to_string(i));
        entry.rows = static_cast<int>(rows);
        entry.logits.resize(n);
        std::memcpy(entry.logits.data(), bytes.data() + at, n * sizeof(float));
        at += n * sizeof(float);
        out.entries.push_back(std::move(entry));
    }
    if (at != bytes.size()) return fail("trailing bytes");
    return true;
}

}  // namespace bx::harness
