// The redaction pipeline and its HTTP face. See redact.hpp.
#include "common/service/redact.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <span>

#include "common/embed/embedded.hpp"
#include "common/json/json.hpp"
#include "common/model/model_view.hpp"
#include "common/service/bioes.hpp"
#include "common/service/identifiers.hpp"
#include "common/service/labels.hpp"
#include "common/service/redact_request.hpp"
#include "common/service/response_headers.hpp"
#include "common/service/router.hpp"
#include "common/service/visible_text.hpp"
#include "common/service/windows.hpp"
#include "common/stage/stage.hpp"
#include "common/text/utf8.hpp"
#include "common/timing/clock.hpp"

namespace bx::service {
namespace {

double ms_between(std::uint64_t from_ns, std::uint64_t to_ns) {
    return static_cast<double>(to_ns - from_ns) * 1e-6;
}

// The encoding's ids without the template's <s> ... </s>, and the matching
// byte ranges. Strips them only if they are there, so a template change
// cannot silently eat a real token.
struct Content {
    std::span<const std::int32_t> ids;
    std::vector<ByteRange> bytes;
};

Content content_of(const bx::Encoding& encoding) {
    std::size_t first = 0, end = encoding.ids.size();
    if (end >= 2 && encoding.ids.front() == kBosId && encoding.ids.back() == kEosId) {
        first = 1;
        end -= 1;
    }
    Content content;
    content.ids = std::span<const std::int32_t>(encoding.ids).subspan(first, end - first);
    content.bytes.reserve(end - first);
    for (std::size_t t = first; t < end; ++t) {
        const bx::Span& s = encoding.offsets[t];
        content.bytes.push_back({static_cast<std::size_t>(s.begin), static_cast<std::size_t>(s.end)});
    }
    return content;
}

// Runs every window and gives each content token the logits row of the window
// that owns it (windows.hpp): out is tokens x kLabels.
void forward_windows(const bx::ModelView& model, std::span<const std::int32_t> ids,
                     const std::vector<Window>& windows, bx::Profile& profile,
                     std::vector<float>& out) {
    const std::vector<int> owner = assign_windows(windows, static_cast<int>(ids.size()));
    std::vector<std::int32_t> window_ids(static_cast<std::size_t>(kWindowPositions));
    std::vector<float> logits(static_cast<std::size_t>(kWindowPositions) * bx::kLabels);
    out.assign(ids.size() * bx::kLabels, 0.0f);
    for (std::size_t w = 0; w < windows.size(); ++w) {
        const Window& win = windows[w];
        const int live = fill_window_ids(ids, win, window_ids.data());
        bx::stage::forward(model, window_ids.data(), live, logits.data(), profile);
        for (int t = win.first; t < win.end(); ++t) {
            if (owner[static_cast<std::size_t>(t)] != static_cast<int>(w)) continue;
            const float* row = logits.data() + static_cast<std::size_t>(1 + t - win.first) * bx::kLabels;
            std::copy(row, row + bx::kLabels, out.data() + static_cast<std::size_t>(t) * bx::kLabels);
        }
    }
}

void append_entity(std::string& out, const Entity& e) {
    out += "{\"label\":";
    json::append_string(out, e.label);
    out += ",\"start\":" + std::to_string(e.start);
    out += ",\"end\":" + std::to_string(e.end);
    out += ",\"text\":";
    json::append_string(out, e.text);
    out += ",\"score\":";
    json::append_float(out, e.score);
    out += '}';
}

}  // namespace

void prepare() {
    // The answer is not needed here: a stage that keeps its tokenizer keeps
    // it (or its error) for the requests, and one that does not builds a new
    // one for each request anyway.
    std::string error;
    (void)bx::stage::load_tokenizer(&error);
}

RedactResult redact_text(std::string_view text, float min_score, bx::Profile& profile,
                         Timings& timings, bool list_labelled) {
    RedactResult result;
    result.min_score = min_score;
    const std::uint64_t t_start = bx::now_ns();

    std::string error;
    const std::shared_ptr<const bx::Tokenizer> tokenizer = bx::stage::load_tokenizer(&error);
    const std::uint64_t t_tokenizer = bx::now_ns();
    timings.tok_load_ms = ms_between(t_start, t_tokenizer);
    if (!tokenizer) {
        result.error = {500, "could not load the tokenizer: " + error};
        return result;
    }

    const std::span<const char> blob = bx::embedded_model();
    const std::optional<bx::ModelView> model = bx::ModelView::open(blob.data(), blob.size(), &error);
    const std::uint64_t t_model = bx::now_ns();
    timings.model_load_ms = ms_between(t_tokenizer, t_model);
    if (!model) {
        result.error = {500, "could not open the embedded model: " + error};
        return result;
    }
    LabelScheme scheme;
    if (!parse_label_scheme(model->label_names, scheme, &error)) {
        result.error = {500, "the embedded model's labels are not BIOES: " + error};
        return result;
    }

    // The model reads what a reader sees: the text without the characters that
    // render as nothing (visible_text.hpp). Everything up to the entities works
    // on `seen`; the entities are then put back on the text as sent.
    const VisibleText visible(text);
    const std::string_view seen = visible.text();
    const bx::Encoding encoding = tokenizer->encode(seen);
    const Content content = content_of(encoding);
    const std::uint64_t t_encode = bx::now_ns();
    timings.encode_ms = ms_between(t_model, t_encode);

    const std::vector<Window> windows = plan_windows(static_cast<int>(content.ids.size()));
    if (windows.size() > static_cast<std::size_t>(kMaxWindows)) {
        result.error = {413, "the text is " + std::to_string(content.ids.size()) + " tokens (" +
                                 std::to_string(windows.size()) + " windows); a request may hold at most " +
                                 std::to_string(kMaxWindowTokens) + " tokens (" + std::to_string(kMaxWindows) +
                                 " windows), so that every stage answers within the platform's 30 s; "
                                 "split the text"};
        return result;
    }
    std::vector<float> logits;
    forward_windows(*model, content.ids, windows, profile, logits);
    const std::uint64_t t_forward = bx::now_ns();
    timings.forward_ms = ms_between(t_encode, t_forward);
    timings.windows = static_cast<int>(windows.size());

    std::vector<TokenChoice> choices(content.ids.size());
    std::vector<std::uint32_t> code_points;  // made once, if any token is labelled
    const std::size_t first_content = static_cast<std::size_t>(content.ids.data() - encoding.ids.data());
    for (std::size_t t = 0; t < choices.size(); ++t) {
        choices[t] = choose_label(logits.data() + t * bx::kLabels, scheme);
        if (!list_labelled || scheme.labels[static_cast<std::size_t>(choices[t].label)].tag == Tag::O) continue;
        if (code_points.empty()) code_points = bx::utf8::code_point_offset_table(text);
        const ByteRange read = visible.exact(content.bytes[t]);
        result.labelled.push_back({code_points[read.begin], code_points[read.end],
                                   encoding.tokens[first_content + t],
                                   std::string(model->label_names[choices[t].label])});
    }
    result.entities = locate_entities(seen, decode_bioes(choices, scheme), content.bytes, scheme);
    // Identifiers whose form proves them are redacted whatever the model read
    // (identifiers.hpp). The answer tests and their mutant check this.
    // mutation-point: identifiers
    add_identifiers(seen, find_identifiers(seen), scheme.types, result.entities);
    drop_below_min_score(result.entities, min_score);
    visible.map_to_original(result.entities);
    result.redacted = redact_entities(text, result.entities);
    result.tokens = static_cast<int>(content.ids.size());
    timings.total_ms = ms_between(t_start, bx::now_ns());
    return result;
}

std::string to_json(const RedactResult& result, bool tokens) {
    std::string out = "{\"redacted\":";
    json::append_string(out, result.redacted);
    out += ",\"entities\":[";
    for (std::size_t i = 0; i < result.entities.size(); ++i) {
        if (i > 0) out += ',';
        append_entity(out, result.entities[i]);
    }
    out += "],\"min_score\":";
    json::append_float(out, result.min_score);
    if (tokens) {
        out += ",\"tokens\":[";
        for (std::size_t i = 0; i < result.labelled.size(); ++i) {
            const LabelledToken& t = result.labelled[i];
            out += (i > 0 ? ",[" : "[") + std::to_string(t.start) + "," + std::to_string(t.end) + ",";
            json::append_string(out, t.token);
            out += ',';
            json::append_string(out, t.label);
            out += ']';
        }
        out += ']';
    }
    out += '}';
    return out;
}

std::string server_timing(const Timings& t, const bx::Profile& p) {
    char line[512];
    std::snprintf(line, sizeof line,
                  "tok_load;dur=%.1f, model_load;dur=%.1f, encode;dur=%.1f, "
                  "forward;dur=%.1f;desc=\"%d window(s)\", matmul;dur=%.1f, "
                  "attention;dur=%.1f, other;dur=%.1f, total;dur=%.1f",
                  t.tok_load_ms, t.model_load_ms, t.encode_ms, t.forward_ms, t.windows,
                  p.ms[static_cast<int>(bx::Phase::Matmul)],
                  p.ms[static_cast<int>(bx::Phase::Attention)],
                  p.ms[static_cast<int>(bx::Phase::Other)], t.total_ms);
    return line;
}

namespace {

// Runs the pipeline on checked text; `t_start` is when the request arrived, so
// total includes validation and writing the JSON.
ServiceReply run_pipeline(std::string_view text, float min_score, std::uint64_t t_start, bool tokens = false) {
    bx::Profile profile;
    Timings timings;
    const RedactResult result = redact_text(text, min_score, profile, timings, tokens);
    ServiceReply reply;
    if (result.error.failed()) {
        reply.status = result.error.status;
        reply.body = error_json(result.error);
    } else {
        reply.body = to_json(result, tokens);
    }
    timings.total_ms = ms_between(t_start, bx::now_ns());
    reply.server_timing = server_timing(timings, profile);
    bx::log_line("[timing] " + reply.server_timing);
    return reply;
}

ServiceReply refusal(const ServiceError& error) {
    return {error.status, error_json(error), {}};
}

}  // namespace

ServiceReply redact_body(std::string_view content_type, std::string_view body, bool tokens) {
    const std::uint64_t t_start = bx::now_ns();
    const RedactRequest request = parse_redact_request(content_type, body);
    if (request.error.failed()) return refusal(request.error);
    return run_pipeline(request.text, request.min_score, t_start, tokens);
}

ServiceReply redact_plain_text(std::string_view text) {
    const std::uint64_t t_start = bx::now_ns();
    const ServiceError error = check_text(text);
    if (error.failed()) return refusal(error);
    return run_pipeline(text, kDefaultMinScore, t_start);
}

http::Response redact(const http::Request& request) {
    const ServiceReply reply =
        redact_body(http::find_header(request.headers, "content-type"), request.body);
    http::Response response;
    response.status = reply.status;
    response.headers.emplace_back("content-type", std::string(kJsonType));
    if (!reply.server_timing.empty()) response.headers.emplace_back("server-timing", reply.server_timing);
    response.body = reply.body;
    return response;
}

}  // namespace bx::service
