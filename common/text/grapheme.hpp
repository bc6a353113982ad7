// Extended grapheme clusters (Unicode UAX #29), as Rust's unicode-segmentation
// finds them. Hugging Face's Precompiled normaliser works cluster by cluster,
// so its output depends on exactly where these boundaries fall.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace bx::grapheme {

// Grapheme_Cluster_Break values, plus Extended_Pictographic (whose characters
// are all Other) folded in as a class of its own.
enum class GraphemeClass : std::uint8_t {
    Other, CR, LF, Control, Extend, ZWJ, RegionalIndicator, Prepend, SpacingMark,
    L, V, T, LV, LVT, ExtendedPictographic
};

struct ClassRange {
    char32_t first;
    char32_t last;
    GraphemeClass value;
};

// Indic_Conjunct_Break, for rule GB9c: a consonant, then a linker (virama)
// possibly among extends, then a consonant, all stay in one cluster.
enum class ConjunctClass : std::uint8_t { None, Consonant, Extend, Linker };

struct ConjunctRange {
    char32_t first;
    char32_t last;
    ConjunctClass value;
};

// Sorted, disjoint; generated into grapheme_table.cpp.
extern const ClassRange kClassRanges[];
extern const std::size_t kClassRangeCount;
extern const ConjunctRange kConjunctRanges[];
extern const std::size_t kConjunctRangeCount;

GraphemeClass class_of(char32_t code_point);
ConjunctClass conjunct_class_of(char32_t code_point);

// Byte offset where the cluster starting at byte `start` of validated UTF-8
// `text` ends (start < text.size()).
std::size_t cluster_end(std::string_view text, std::size_t start);

}  // namespace bx::grapheme
