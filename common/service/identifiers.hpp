// Identifiers whose own characters say what they are, found without the
// model, so that none of them leaks when the model misreads its context.
//
// The model recognises an entity from its tokens and from the words around
// it. Where the surroundings are unlike anything it trained on, it can miss
// one that is plain to see: "Server [83.44.197.12] is down." came back
// untouched, and the last group of an IBAN at the end of a long paragraph was
// left outside the entity. For four kinds of identifier the form alone is
// proof enough, because it is rigid or carries a check digit that ordinary
// numbers pass only by chance:
//
//   IP_ADDRESS    one word of four decimal numbers 0..255 joined by dots, at
//                 least two of them written with two or more digits (so that
//                 "section 3.1.2.4" is not an address), optionally followed
//                 by ":port" or "/prefix";
//   EMAIL         one word local@domain, the domain two or more labels of
//                 letters, digits and hyphens, the last one two or more
//                 letters;
//   BANK_ACCOUNT  an IBAN: two letters, two digits, then letters and digits,
//                 15 to 34 characters in all, written as one word or in groups
//                 of four separated by a single space (the last group shorter),
//                 whose ISO 7064 mod 97-10 check holds;
//   CREDIT_CARD   13 to 19 digits, written as one word (hyphens allowed inside)
//                 or in groups of 3 to 6 digits separated by a single space,
//                 starting like a card network's numbers (Visa 4, Mastercard
//                 51-55 and 2221-2720, Amex 34 and 37, Diners and JCB 30 and
//                 35-39, Discover, UnionPay and Maestro 6) and passing the
//                 Luhn check.
//
// Words are those of common/text/words.hpp, so the brackets and the sentence's
// punctuation around an identifier are never part of it.
#pragma once

#include <string_view>
#include <vector>

#include "common/service/entities.hpp"
#include "common/service/text_offsets.hpp"

namespace bx::service {

struct Identifier {
    std::string_view label;  // one of the four above
    ByteRange bytes;         // whole words of the text
};

// Every identifier of the text, in order, never overlapping. Valid UTF-8 assumed.
std::vector<Identifier> find_identifiers(std::string_view text);

// Adds the identifiers to the model's entities (sorted, disjoint; from
// locate_entities). An identifier that overlaps entities absorbs them: the
// entity that replaces them covers the identifier and all of their characters
// (nothing the model found is uncovered), takes the identifier's label and
// scores 1, since its form, not the model, decided it. An identifier whose
// label is not one of `types` (a model without that entity type) is skipped.
// Code-point offsets and texts are recomputed; the result stays sorted and
// disjoint.
void add_identifiers(std::string_view text, const std::vector<Identifier>& identifiers,
                     const std::vector<std::string>& types, std::vector<Entity>& entities);

}  // namespace bx::service
