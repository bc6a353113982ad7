// The model's 81 output labels, read as BIOES tags over entity types.
//
// Label names come from the model file (`O`, then `B-T`, `I-T`, `E-T`, `S-T`
// for each type T, see assets/model/FORMAT.md). The service parses the names
// instead of assuming the order, so a model with other types still decodes.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace bx::service {

// O = outside; B/I/E = begin/inside/end of a multi-token entity; S = single.
enum class Tag : std::uint8_t { O, B, I, E, S };

struct Label {
    Tag tag = Tag::O;
    int type = -1;  // index into LabelScheme::types; -1 for O
};

struct LabelScheme {
    std::vector<Label> labels;       // one per model output, in output order
    std::vector<std::string> types;  // entity type names in order of first appearance

    int size() const { return static_cast<int>(labels.size()); }
};

// Parses label names. Each must be "O" or one of B-/I-/E-/S- followed by a
// non-empty type name. On a bad name: false, and *error says which and why.
bool parse_label_scheme(std::span<const std::string_view> names, LabelScheme& out,
                        std::string* error);

// The 81 names in assets/model/FORMAT.md order: what every model we ship has.
// For tests and for code that runs before a model is at hand.
std::vector<std::string> format_label_names();

}  // namespace bx::service
