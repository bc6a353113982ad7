// Where the words of a text are, so that a redacted entity never starts or
// ends in the middle of one ("ency" out of "emergency").
//
// A word, precisely:
//   1. Split the text at Unicode White_Space.
//   2. In each piece, every letter or digit of a script written without
//      spaces (Han, Hiragana, Katakana, Thai, ...: word_table.cpp lists them)
//      is a word by itself, with the marks that follow it; without a
//      dictionary we cannot tell where such words end, so every character
//      boundary counts as one.
//   3. What remains of each piece, between those characters, is one word
//      once the characters at its two ends that are neither letters, digits
//      nor marks (General_Category L, N, M) are stripped.
// So punctuation *inside* a run of non-space characters belongs to the word:
// "anna.weber@example.com", "https://example.com/a?b=c", "123-4567",
// "Jean-Pierre", "O'Brien" and "DE89" are one word each, while the sentence's
// own punctuation around them is not ("(030)," -> "030", "example.com." ->
// "example.com"). An IBAN or phone number written in groups with spaces is
// several words, as it is several pieces.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace bx::words {

// Punctuation (General_Category P) is apart from the other characters that are
// neither letters, digits nor marks (symbols, controls) for one reason: an
// entity made of punctuation alone hides nothing personal (entities.cpp drops
// it), while a symbol may read as a letter to the model once normalised (NFKC
// makes the circled "Ⓐ" an "A"). For the words themselves both are the same.
enum class WordClass : std::uint8_t { Other, Space, Letter, Mark, Spaceless, Punctuation };

struct WordClassRange {
    char32_t first;
    char32_t last;
    WordClass value;
};

// Sorted, disjoint, Other omitted; generated into word_table.cpp.
extern const WordClassRange kWordClassRanges[];
extern const std::size_t kWordClassRangeCount;

WordClass class_of(char32_t code_point);

// The class of the character that ends at byte offset `at` of a valid UTF-8
// text (Other at the start of the text).
WordClass class_before(std::string_view text, std::size_t at);

// A word as a byte range [begin, end) of the text.
struct Word {
    std::size_t begin = 0;
    std::size_t end = 0;
};

// The words of a valid UTF-8 text, found once (one pass), then asked about
// positions (binary search).
class WordMap {
public:
    explicit WordMap(std::string_view text);

    const std::vector<Word>& words() const { return words_; }

    // The word that byte offset `at` lies strictly inside (begin < at < end),
    // or nullptr when `at` is a boundary (or outside every word).
    const Word* inside(std::size_t at) const;

    // The first word that begins at or after byte offset `at`, or nullptr.
    const Word* first_from(std::size_t at) const;

    // Moves `begin` back and `end` forward to the nearest boundaries: a range
    // that cuts a word is widened to hold all of it.
    void widen_to_words(std::size_t& begin, std::size_t& end) const;

private:
    std::vector<Word> words_;  // sorted, disjoint
};

}  // namespace bx::words
