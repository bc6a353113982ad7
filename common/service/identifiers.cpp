#include "common/service/identifiers.hpp"

#include <algorithm>
#include <cstddef>
#include <optional>

#include "common/text/words.hpp"

namespace bx::service {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_ascii_letter(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }
bool is_ascii_alnum(char c) { return is_digit(c) || is_ascii_letter(c); }

bool all_of(std::string_view s, bool (*pred)(char)) {
    return !s.empty() && std::all_of(s.begin(), s.end(), pred);
}

// A decimal number 0..255 written without a leading zero ("0" itself is fine).
std::optional<int> octet(std::string_view s) {
    if (s.empty() || s.size() > 3 || !all_of(s, is_digit) || (s.size() > 1 && s[0] == '0')) return std::nullopt;
    int value = 0;
    for (char c : s) value = value * 10 + (c - '0');
    if (value > 255) return std::nullopt;
    return value;
}

bool is_ipv4(std::string_view word) {
    // An optional ":port" or "/prefix" after the address.
    const std::size_t tail = word.find_first_of(":/");
    if (tail != std::string_view::npos) {
        const std::string_view rest = word.substr(tail + 1);
        if (rest.size() > 5 || !all_of(rest, is_digit)) return false;
        word = word.substr(0, tail);
    }
    int parts = 0, long_parts = 0;
    while (true) {
        const std::size_t dot = word.find('.');
        const std::string_view part = word.substr(0, dot);
        if (!octet(part)) return false;
        ++parts;
        long_parts += part.size() >= 2;
        if (dot == std::string_view::npos) break;
        word = word.substr(dot + 1);
    }
    return parts == 4 && long_parts >= 2;
}

// A domain label: ASCII letters, digits and hyphens, or any non-ASCII byte
// (an internationalised domain written in its own script).
bool is_label_byte(char c) { return is_ascii_alnum(c) || c == '-' || static_cast<unsigned char>(c) >= 0x80; }
bool is_tld_byte(char c) { return is_ascii_letter(c) || static_cast<unsigned char>(c) >= 0x80; }

bool is_email(std::string_view word) {
    const std::size_t at = word.find('@');
    if (at == 0 || at == std::string_view::npos || word.find('@', at + 1) != std::string_view::npos) return false;
    std::string_view domain = word.substr(at + 1);
    int labels = 0;
    std::string_view last;
    while (true) {
        const std::size_t dot = domain.find('.');
        last = domain.substr(0, dot);
        if (!all_of(last, is_label_byte)) return false;
        ++labels;
        if (dot == std::string_view::npos) break;
        domain = domain.substr(dot + 1);
    }
    return labels >= 2 && last.size() >= 2 && all_of(last, is_tld_byte);
}

// Two words stand in one identifier when a single space (or a no-break space)
// is all that lies between them.
bool single_space(std::string_view between) {
    return between == " " || between == "\u00A0" || between == "\u202F";
}

// The words of one identifier candidate: `first` to `last` of the text's words.
struct WordRun {
    std::size_t first = 0;
    std::size_t last = 0;
};

// ISO 7064 mod 97-10 over an IBAN's characters, the first four moved to the
// end, letters counting 10..35: the check holds when the remainder is 1.
bool iban_check_holds(std::string_view iban) {
    int remainder = 0;
    auto add = [&remainder](char c) {
        if (is_digit(c)) {
            remainder = (remainder * 10 + (c - '0')) % 97;
        } else {
            const int value = (c >= 'a' ? c - 'a' : c - 'A') + 10;
            remainder = (remainder * 100 + value) % 97;
        }
    };
    for (char c : iban.substr(4)) add(c);
    for (char c : iban.substr(0, 4)) add(c);
    // The identifier tests and their mutant (bx_iban_check_mutant_tests) check this.
    // mutation-point: iban-check
    return remainder == 1;
}

bool luhn_check_holds(std::string_view digits) {
    int sum = 0;
    bool twice = false;
    for (auto it = digits.rbegin(); it != digits.rend(); ++it, twice = !twice) {
        int d = *it - '0';
        if (twice && (d *= 2) > 9) d -= 9;
        sum += d;
    }
    return sum % 10 == 0;
}

// Whether a card network issues numbers that start like this one.
bool card_network_prefix(std::string_view digits) {
    const int first = digits[0] - '0', two = first * 10 + (digits[1] - '0');
    const int four = two * 100 + (digits[2] - '0') * 10 + (digits[3] - '0');
    switch (first) {
        case 4: case 6: return true;
        case 5: return two >= 51 && two <= 55;
        case 3: return two == 30 || two == 34 || (two >= 35 && two <= 39);
        case 2: return four >= 2221 && four <= 2720;
        default: return false;
    }
}

bool is_card_number(std::string_view digits) {
    return digits.size() >= 13 && digits.size() <= 19 && card_network_prefix(digits) && luhn_check_holds(digits);
}

class Finder {
public:
    explicit Finder(std::string_view text) : text_(text), words_(bx::words::WordMap(text).words()) {}

    std::vector<Identifier> run() {
        std::vector<Identifier> found;
        for (std::size_t i = 0; i < words_.size();) {
            std::optional<Identifier> id;
            std::size_t last = i;
            const std::string_view w = word(i);
            if (is_ipv4(w)) id = Identifier{"IP_ADDRESS", range(i, i)};
            else if (is_email(w)) id = Identifier{"EMAIL", range(i, i)};
            else if (const auto run = iban_at(i)) id = Identifier{"BANK_ACCOUNT", range(run->first, last = run->last)};
            else if (const auto run = card_at(i)) id = Identifier{"CREDIT_CARD", range(run->first, last = run->last)};
            if (id) found.push_back(*id);
            i = last + 1;
        }
        return found;
    }

private:
    std::string_view word(std::size_t i) const {
        return text_.substr(words_[i].begin, words_[i].end - words_[i].begin);
    }
    ByteRange range(std::size_t first, std::size_t last) const { return {words_[first].begin, words_[last].end}; }
    bool joined(std::size_t i) const {  // word i + 1 follows word i after a single space
        return i + 1 < words_.size() &&
               single_space(text_.substr(words_[i].end, words_[i + 1].begin - words_[i].end));
    }

    // An IBAN starting at word i: the whole word, or groups of four (the last
    // one shorter); the longest run whose check holds.
    std::optional<WordRun> iban_at(std::size_t i) const {
        const std::string_view head = word(i);
        if (head.size() < 4 || !is_ascii_letter(head[0]) || !is_ascii_letter(head[1]) || !is_digit(head[2]) ||
            !is_digit(head[3]) || !all_of(head, is_ascii_alnum)) {
            return std::nullopt;
        }
        std::string characters(head);
        std::optional<WordRun> best;
        auto consider = [&](std::size_t last) {
            if (characters.size() >= 15 && characters.size() <= 34 && iban_check_holds(characters)) best = WordRun{i, last};
        };
        consider(i);
        if (head.size() != 4) return best;
        for (std::size_t j = i; joined(j) && word(j).size() == 4; ++j) {
            const std::string_view group = word(j + 1);
            if (group.size() > 4 || !all_of(group, is_ascii_alnum) || characters.size() + group.size() > 34) break;
            characters += group;
            consider(j + 1);
        }
        return best;
    }

    // A card number starting at word i: one word of digits (hyphens allowed
    // inside), or groups of 3 to 6 digits; the longest run that passes.
    std::optional<WordRun> card_at(std::size_t i) const {
        const std::string_view head = word(i);
        std::string digits;
        for (char c : head) {
            if (is_digit(c)) digits += c;
            else if (c != '-') return std::nullopt;
        }
        if (digits.size() >= 13 || head.find('-') != std::string_view::npos) {
            return is_card_number(digits) ? std::optional<WordRun>(WordRun{i, i}) : std::nullopt;
        }
        if (digits.size() < 3 || digits.size() > 6) return std::nullopt;
        std::optional<WordRun> best;
        for (std::size_t j = i; joined(j); ++j) {
            const std::string_view group = word(j + 1);
            if (group.size() < 3 || group.size() > 6 || !all_of(group, is_digit) || digits.size() + group.size() > 19) {
                break;
            }
            digits += group;
            if (is_card_number(digits)) best = WordRun{i, j + 1};
        }
        return best;
    }

    std::string_view text_;
    std::vector<bx::words::Word> words_;
};

}  // namespace

std::vector<Identifier> find_identifiers(std::string_view text) {
    return Finder(text).run();
}

void add_identifiers(std::string_view text, const std::vector<Identifier>& identifiers,
                     const std::vector<std::string>& types, std::vector<Entity>& entities) {
    if (identifiers.empty()) return;
    // One pass over both lists, each sorted and disjoint.
    std::vector<Entity> out;
    out.reserve(entities.size() + identifiers.size());
    std::size_t next = 0;  // the first entity not yet placed
    for (const Identifier& id : identifiers) {
        if (std::find(types.begin(), types.end(), id.label) == types.end()) continue;
        while (next < entities.size() && entities[next].bytes.end <= id.bytes.begin) out.push_back(std::move(entities[next++]));
        Entity merged;
        merged.label = std::string(id.label);
        merged.bytes = id.bytes;
        merged.score = 1.0f;
        // Every entity that overlaps it, and any that overlaps what it has grown to.
        for (; next < entities.size() && entities[next].bytes.begin < merged.bytes.end; ++next) {
            merged.bytes.begin = std::min(merged.bytes.begin, entities[next].bytes.begin);
            merged.bytes.end = std::max(merged.bytes.end, entities[next].bytes.end);
        }
        // An earlier identifier that grew over this one (through an entity of
        // the model that spans both) takes it in.
        if (!out.empty() && out.back().bytes.end > merged.bytes.begin) {
            out.back().bytes.end = std::max(out.back().bytes.end, merged.bytes.end);
            continue;
        }
        out.push_back(std::move(merged));
    }
    while (next < entities.size()) out.push_back(std::move(entities[next++]));
    CodePointCounter counter(text);
    for (Entity& e : out) {
        e.start = counter.at(e.bytes.begin);
        e.end = counter.at(e.bytes.end);
        e.text = std::string(text.substr(e.bytes.begin, e.bytes.end - e.bytes.begin));
    }
    entities = std::move(out);
}

}  // namespace bx::service
