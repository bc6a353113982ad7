#include "common/service/labels.hpp"

namespace bx::service {

bool parse_label_scheme(std::span<const std::string_view> names, LabelScheme& out,
                        std::string* error) {
    out = LabelScheme{};
    out.labels.reserve(names.size());
    for (std::size_t i = 0; i < names.size(); ++i) {
        const std::string_view name = names[i];
        if (name == "O") {
            out.labels.push_back({Tag::O, -1});
            continue;
        }
        Tag tag;
        switch (name.empty() ? '\0' : name[0]) {
            case 'B': tag = Tag::B; break;
            case 'I': tag = Tag::I; break;
            case 'E': tag = Tag::E; break;
            case 'S': tag = Tag::S; break;
            default: tag = Tag::O; break;
        }
        if (tag == Tag::O || name.size() < 3 || name[1] != '-') {
            if (error) {
                *error = "model label " + std::to_string(i) + " '" + std::string(name) +
                         "' is neither O nor B-/I-/E-/S- followed by a type";
            }
            return false;
        }
        const std::string_view type = name.substr(2);
        int index = -1;
        for (std::size_t t = 0; t < out.types.size(); ++t) {
            if (out.types[t] == type) index = static_cast<int>(t);
        }
        if (index < 0) {
            index = static_cast<int>(out.types.size());
            out.types.emplace_back(type);
        }
        out.labels.push_back({tag, index});
    }
    return true;
}

std::vector<std::string> format_label_names() {
    static constexpr std::string_view kTypes[] = {
        "GIVEN_NAME", "SURNAME",        "EMAIL",           "PHONE",           "URL",
        "IP_ADDRESS", "CREDIT_CARD",    "BANK_ACCOUNT",    "ROUTING_NUMBER",  "SSN",
        "TAX_ID",     "GOVERNMENT_ID",  "PASSPORT",        "DRIVERS_LICENSE", "BUILDING_NUMBER",
        "STREET_NAME", "SECONDARY_ADDRESS", "CITY",        "STATE",           "ZIP_CODE",
    };
    std::vector<std::string> names{"O"};
    for (std::string_view type : kTypes) {
        for (const char* prefix : {"B-", "I-", "E-", "S-"}) names.push_back(prefix + std::string(type));
    }
    return names;
}

}  // namespace bx::service
