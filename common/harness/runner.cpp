#include "common/harness/runner.hpp"

#include <cstring>

#include "common/embed/embedded.hpp"
#include "common/harness/files.hpp"
#include "common/harness/fnv.hpp"
#include "common/service/windows.hpp"
#include "common/timing/clock.hpp"

namespace bx::harness {

bool Runner::open(const std::string& model_path, std::string* error) {
    std::string_view bytes;
    if (!model_path.empty()) {
        std::string file;
        if (!read_file(model_path, file, error)) return false;
        // Copy into float storage: the reader needs the f32 tensors 4-byte aligned.
        owned_model_.assign((file.size() + 3) / 4, 0.0f);
        std::memcpy(owned_model_.data(), file.data(), file.size());
        bytes = std::string_view(reinterpret_cast<const char*>(owned_model_.data()), file.size());
    } else {
        const std::span<const char> embedded = bx::embedded_model();
        if (embedded.empty()) {
            if (error) *error = "this build embeds no model (assets/model/model.bxm missing at configure time); pass --model FILE";
            return false;
        }
        bytes = std::string_view(embedded.data(), embedded.size());
    }
    std::string why;
    model_ = ModelView::open(bytes.data(), bytes.size(), &why);
    if (!model_) {
        if (error) *error = "model: " + why;
        return false;
    }
    model_fingerprint_ = fnv64(bytes);

    tokenizer_ = bx::stage::load_tokenizer(&why);
    if (!tokenizer_) {
        if (error) *error = "tokenizer: " + why;
        return false;
    }
    window_logits_.assign(std::size_t{kWindow} * kLabels, 0.0f);
    return true;
}

bool Runner::run(std::string_view text, TextLogits& out, std::string* error) {
    bx::Encoding encoding = tokenizer_->encode(text);
    out = TextLogits{};
    out.ids = std::move(encoding.ids);
    out.tokens = std::move(encoding.tokens);
    // The encoding is <s> content </s>; the windows take the content only.
    if (out.ids.size() < 2 || out.ids.front() != service::kBosId || out.ids.back() != service::kEosId) {
        if (error) *error = "encoding does not start with <s> and end with </s>";
        return false;
    }
    const std::span<const std::int32_t> content(out.ids.data() + 1, out.ids.size() - 2);
    std::vector<service::Window> windows = service::plan_windows(static_cast<int>(content.size()));
    // An empty text still has <s></s>: one window with no content, so it is compared too.
    if (windows.empty()) windows.push_back({0, 0});

    std::int32_t ids[kWindow];
    for (const service::Window& window : windows) {
        const int live = service::fill_window_ids(content, window, ids);
        bx::stage::forward(*model_, ids, live, window_logits_.data(), profile_);
        ++forwards_;
        out.logits.insert(out.logits.end(), window_logits_.begin(), window_logits_.begin() + live * kLabels);
        for (int p = 0; p < live; ++p) {
            // Row p of the window: <s> (token 0), content token first+p-1, or </s> (the last token).
            const int token = p == 0 ? 0 : p == live - 1 ? static_cast<int>(out.ids.size()) - 1 : window.first + p;
            out.row_token.push_back(token);
        }
        out.rows += live;
    }
    out.windows = static_cast<int>(windows.size());
    return true;
}

double Runner::time_one_forward(std::string_view text, std::string* error) {
    bx::Encoding encoding = tokenizer_->encode(text);
    if (encoding.ids.size() < 2) {
        if (error) *error = "empty encoding";
        return -1.0;
    }
    const std::span<const std::int32_t> content(encoding.ids.data() + 1, encoding.ids.size() - 2);
    service::Window first{0, static_cast<int>(content.size()) < service::kWindowContent
                                 ? static_cast<int>(content.size())
                                 : service::kWindowContent};
    std::int32_t ids[kWindow];
    const int live = service::fill_window_ids(content, first, ids);
    const std::uint64_t start = now_ns();
    bx::stage::forward(*model_, ids, live, window_logits_.data(), profile_);
    const std::uint64_t end = now_ns();
    ++forwards_;
    return static_cast<double>(end - start) * 1e-6;
}

int argmax_row(const float* row) {
    int best = 0;
    for (int l = 1; l < kLabels; ++l)
        if (row[l] > row[best]) best = l;
    return best;
}

}  // namespace bx::harness
