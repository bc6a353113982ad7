#include "common/service/bioes.hpp"

#include "common/maths/expf.hpp"

namespace bx::service {

TokenChoice choose_label(const float* logits, const LabelScheme& scheme) {
    TokenChoice choice;
    const int labels = scheme.size();
    if (labels <= 0) return choice;
    int best = 0;
    for (int j = 1; j < labels; ++j) {
        if (logits[j] > logits[best]) best = j;
    }
    const float m = logits[best];
    const int type = scheme.labels[static_cast<std::size_t>(best)].type;
    float z = 0.0f;
    float mass = 0.0f;  // the argmax type's share of z
    for (int j = 0; j < labels; ++j) {
        const float e = bx::bx_expf(logits[j] - m);
        z += e;
        // The bioes tests and their mutant (bx_tag_score_mutant_tests) check this.
        // mutation-point: type-score
        if (scheme.labels[static_cast<std::size_t>(j)].type == type) mass += e;
    }
    choice.label = best;
    choice.probability = mass / z;
    return choice;
}

namespace {

// Builds spans one token at a time; the repair rules live in `push`.
class SpanBuilder {
public:
    explicit SpanBuilder(std::vector<TokenSpan>& out) : out_(out) {}

    void push(int token, Label label, float probability) {
        switch (label.tag) {
            case Tag::O:
                close();
                break;
            case Tag::S:
                close();
                open(token, label.type, probability);
                close();
                break;
            case Tag::B:
                close();
                open(token, label.type, probability);
                break;
            case Tag::I:
                if (!extend(token, label.type, probability)) {
                    close();
                    open(token, label.type, probability);
                }
                break;
            case Tag::E:
                if (!extend(token, label.type, probability)) {
                    close();
                    open(token, label.type, probability);
                }
                close();
                break;
        }
    }

    void close() {
        if (!open_) return;
        current_.probability_sum = sum_;
        current_.score = sum_ / static_cast<float>(current_.tokens());
        out_.push_back(current_);
        open_ = false;
    }

private:
    void open(int token, int type, float probability) {
        current_ = TokenSpan{token, token, type, 0.0f};
        sum_ = probability;
        open_ = true;
    }

    // Continues the open span if it has the same type; false otherwise.
    bool extend(int token, int type, float probability) {
        if (!open_ || current_.type != type) return false;
        current_.last = token;
        sum_ += probability;
        return true;
    }

    std::vector<TokenSpan>& out_;
    TokenSpan current_;
    float sum_ = 0.0f;
    bool open_ = false;
};

}  // namespace

std::vector<TokenSpan> decode_bioes(const std::vector<TokenChoice>& tokens,
                                    const LabelScheme& scheme) {
    std::vector<TokenSpan> spans;
    SpanBuilder builder(spans);
    for (std::size_t t = 0; t < tokens.size(); ++t) {
        const int index = tokens[t].label;
        const Label label = index >= 0 && index < scheme.size()
                                ? scheme.labels[static_cast<std::size_t>(index)]
                                : Label{};
        builder.push(static_cast<int>(t), label, tokens[t].probability);
    }
    builder.close();
    return spans;
}

}  // namespace bx::service
