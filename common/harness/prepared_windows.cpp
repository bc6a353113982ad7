#include "common/harness/prepared_windows.hpp"

#include <span>

#include "common/service/windows.hpp"

namespace bx::harness {

bool prepare_windows(const bx::Tokenizer& tokenizer, const Corpus& corpus, std::vector<PreparedWindow>& out,
                     std::string* error) {
    out.clear();
    for (const std::string& text : corpus.texts) {
        const bx::Encoding encoding = tokenizer.encode(text);
        if (encoding.ids.size() < 2) {
            *error = "an encoding without <s> and </s>";
            return false;
        }
        const std::span<const std::int32_t> content(encoding.ids.data() + 1, encoding.ids.size() - 2);
        std::vector<bx::service::Window> plan = bx::service::plan_windows(static_cast<int>(content.size()));
        if (plan.empty()) plan.push_back({0, 0});
        for (const bx::service::Window& w : plan) {
            PreparedWindow prepared;
            prepared.live = bx::service::fill_window_ids(content, w, prepared.ids.data());
            out.push_back(prepared);
        }
    }
    return true;
}

}  // namespace bx::harness
