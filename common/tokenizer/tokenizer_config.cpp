// Reading tokenizer.json into a TokenizerConfig (see tokenizer_config.hpp).
#include "common/tokenizer/tokenizer_config.hpp"

#include "common/json/serde_f64.hpp"

namespace bx {

namespace {

using json::Kind;
using json::Value;

// Collects the first error; every reader returns false after setting it.
struct Reader {
    std::string* error;

    bool fail(std::string message) {
        if (error) *error = std::move(message);
        return false;
    }

    const Value* member(const Value& object, std::string_view key, Kind kind, std::string_view where) {
        const Value* v = object.find(key);
        if (!v || !v->is(kind)) {
            fail(std::string(where) + ": missing or mistyped \"" + std::string(key) + "\"");
            return nullptr;
        }
        return v;
    }

    // An optional boolean option that we only support at `supported`.
    bool option_is(const Value& object, std::string_view key, bool supported, std::string_view where) {
        const Value* v = object.find(key);
        if (v && v->is(Kind::Bool) && v->boolean != supported) {
            return fail("unsupported " + std::string(where) + " option " + std::string(key) + "=" +
                        (v->boolean ? "true" : "false"));
        }
        return true;
    }

    std::string type_of(const Value& component) {
        const Value* t = component.find("type");
        return t && t->is(Kind::String) ? t->text : std::string("?");
    }

    bool read_added_tokens(const Value& root, TokenizerConfig& out) {
        const Value* list = root.find("added_tokens");
        if (!list || list->is(Kind::Null)) return true;
        if (!list->is(Kind::Array)) return fail("added_tokens is not an array");
        for (const Value& token : list->items) {
            const Value* content = member(token, "content", Kind::String, "added token");
            const Value* id = member(token, "id", Kind::Number, "added token");
            if (!content || !id) return false;
            std::int64_t id_value = 0;
            if (!id->as_int64(id_value) || id_value < 0 || id_value > INT32_MAX) {
                return fail("added token \"" + content->text + "\": bad id");
            }
            if (content->text.empty()) return fail("added token with empty content");
            std::string where = "added token \"" + content->text + "\"";
            if (!option_is(token, "single_word", false, where) || !option_is(token, "lstrip", false, where) ||
                !option_is(token, "rstrip", false, where) || !option_is(token, "normalized", false, where)) {
                return false;
            }
            out.added_tokens.push_back({static_cast<std::int32_t>(id_value), content->text});
        }
        return true;
    }

    bool read_normalizer_part(const Value& part, TokenizerConfig& out, bool first) {
        std::string type = type_of(part);
        if (type == "Precompiled" && first) {
            const Value* blob = member(part, "precompiled_charsmap", Kind::String, "Precompiled");
            return blob && out.charsmap.load_base64(blob->text, error);
        }
        if (type == "Replace") {
            const Value* pattern = part.find("pattern");
            const Value* regex = pattern ? pattern->find("Regex") : nullptr;
            const Value* content = part.find("content");
            if (regex && regex->is(Kind::String) && regex->text == " {2,}" && content &&
                content->is(Kind::String) && content->text == " ") {
                out.collapse_spaces = true;
                return true;
            }
            return fail("unsupported normalizer \"Replace\" (only Regex \" {2,}\" -> \" \")");
        }
        return fail("unsupported normalizer \"" + type + "\"");
    }

    bool read_normalizer(const Value& root, TokenizerConfig& out) {
        const Value* normalizer = root.find("normalizer");
        if (!normalizer || normalizer->is(Kind::Null)) return true;
        if (type_of(*normalizer) != "Sequence") return read_normalizer_part(*normalizer, out, true);
        const Value* parts = member(*normalizer, "normalizers", Kind::Array, "normalizer Sequence");
        if (!parts) return false;
        for (std::size_t k = 0; k < parts->items.size(); ++k) {
            if (out.collapse_spaces) return fail("unsupported normalizer Sequence order (Replace not last)");
            if (!read_normalizer_part(parts->items[k], out, k == 0)) return false;
        }
        return true;
    }

    bool read_pre_tokenizer(const Value& root, TokenizerConfig& out) {
        const Value* pre = root.find("pre_tokenizer");
        if (!pre || !pre->is(Kind::Object)) return fail("missing pre_tokenizer");
        std::string type = type_of(*pre);
        if (type != "Metaspace") return fail("unsupported pre_tokenizer \"" + type + "\"");
        const Value* replacement = member(*pre, "replacement", Kind::String, "Metaspace");
        if (!replacement) return false;
        if (replacement->text != "\xE2\x96\x81") return fail("unsupported Metaspace replacement");
        out.metaspace = replacement->text;
        const Value* scheme = pre->find("prepend_scheme");
        if (scheme) {
            if (!scheme->is(Kind::String) || scheme->text != "always") {
                return fail("unsupported Metaspace prepend_scheme \"" +
                            (scheme->is(Kind::String) ? scheme->text : std::string("?")) + "\"");
            }
        } else if (!option_is(*pre, "add_prefix_space", true, "Metaspace")) {
            return false;
        }
        return option_is(*pre, "split", true, "Metaspace");
    }

    bool read_template_side(const Value& special_tokens, const Value& piece, std::vector<std::int32_t>& ids,
                            std::vector<std::string>& tokens) {
        const Value* special = piece.find("SpecialToken");
        const Value* name = special ? special->find("id") : nullptr;
        if (!name || !name->is(Kind::String)) return fail("unsupported TemplateProcessing piece");
        const Value* entry = special_tokens.find(name->text);
        const Value* entry_ids = entry ? entry->find("ids") : nullptr;
        const Value* entry_tokens = entry ? entry->find("tokens") : nullptr;
        if (!entry_ids || !entry_tokens || !entry_ids->is(Kind::Array) || !entry_tokens->is(Kind::Array) ||
            entry_ids->items.size() != entry_tokens->items.size()) {
            return fail("TemplateProcessing: special token \"" + name->text + "\" not defined");
        }
        for (std::size_t k = 0; k < entry_ids->items.size(); ++k) {
            std::int64_t id = 0;
            if (!entry_ids->items[k].as_int64(id) || id < 0 || id > INT32_MAX) {
                return fail("TemplateProcessing: bad id for \"" + name->text + "\"");
            }
            ids.push_back(static_cast<std::int32_t>(id));
            tokens.push_back(entry_tokens->items[k].text);
        }
        return true;
    }

    bool read_post_processor(const Value& root, TokenizerConfig& out) {
        const Value* post = root.find("post_processor");
        if (!post || post->is(Kind::Null)) return true;
        std::string type = type_of(*post);
        if (type != "TemplateProcessing") return fail("unsupported post_processor \"" + type + "\"");
        const Value* single = member(*post, "single", Kind::Array, "TemplateProcessing");
        const Value* special_tokens = member(*post, "special_tokens", Kind::Object, "TemplateProcessing");
        if (!single || !special_tokens) return false;
        bool seen_sequence = false;
        for (const Value& piece : single->items) {
            if (const Value* sequence = piece.find("Sequence")) {
                const Value* id = sequence->find("id");
                if (seen_sequence || !id || !id->is(Kind::String) || id->text != "A") {
                    return fail("unsupported TemplateProcessing single template");
                }
                seen_sequence = true;
                continue;
            }
            bool ok = seen_sequence ? read_template_side(*special_tokens, piece, out.suffix_ids, out.suffix_tokens)
                                    : read_template_side(*special_tokens, piece, out.prefix_ids, out.prefix_tokens);
            if (!ok) return false;
        }
        if (!seen_sequence) return fail("TemplateProcessing single template has no $A");
        return true;
    }

    bool read_model(const Value& root, TokenizerConfig& out, VocabSource source) {
        const Value* model = member(root, "model", Kind::Object, "tokenizer.json");
        if (!model) return false;
        std::string type = type_of(*model);
        if (type != "Unigram") return fail("unsupported model \"" + type + "\"");
        if (!option_is(*model, "byte_fallback", false, "Unigram")) return false;
        const Value* unk = member(*model, "unk_id", Kind::Number, "Unigram");
        if (source == VocabSource::Elsewhere) {
            // A slim tokenizer.json: the vocabulary is the blob's, so one here
            // would be a second, possibly different, copy.
            if (model->find("vocab")) return fail("Unigram: a slim tokenizer.json must not hold a vocab");
            std::int64_t unk_id = 0;
            if (!unk) return false;
            if (!unk->as_int64(unk_id) || unk_id < 0 || unk_id > INT32_MAX) {
                return fail("Unigram: unk_id out of range");
            }
            out.unk_id = static_cast<std::int32_t>(unk_id);
            return true;
        }
        const Value* vocab = member(*model, "vocab", Kind::Array, "Unigram");
        if (!unk || !vocab) return false;
        std::int64_t unk_id = 0;
        if (!unk->as_int64(unk_id) || unk_id < 0 || static_cast<std::size_t>(unk_id) >= vocab->items.size()) {
            return fail("Unigram: unk_id out of range");
        }
        out.unk_id = static_cast<std::int32_t>(unk_id);
        out.vocab.reserve(vocab->items.size());
        for (const Value& entry : vocab->items) {
            if (!entry.is(Kind::Array) || entry.items.size() != 2 || !entry.items[0].is(Kind::String) ||
                !entry.items[1].is(Kind::Number)) {
                return fail("Unigram: vocab entries must be [piece, score]");
            }
            VocabEntry v;
            v.piece = entry.items[0].text;
            if (!json::serde_json_f64(entry.items[1].text, v.score)) {
                return fail("Unigram: score out of range for \"" + v.piece + "\"");
            }
            out.vocab.push_back(std::move(v));
        }
        return true;
    }
};

}  // namespace

bool read_tokenizer_config(const json::Value& root, TokenizerConfig& out, std::string* error,
                           VocabSource vocab) {
    out = TokenizerConfig{};
    Reader reader{error};
    if (!root.is(Kind::Object)) return reader.fail("tokenizer.json is not an object");
    for (const char* key : {"truncation", "padding"}) {
        const Value* v = root.find(key);
        if (v && !v->is(Kind::Null)) return reader.fail(std::string("unsupported ") + key + " (must be null)");
    }
    return reader.read_added_tokens(root, out) && reader.read_normalizer(root, out) &&
           reader.read_pre_tokenizer(root, out) && reader.read_post_processor(root, out) &&
           reader.read_model(root, out, vocab);
}

bool read_tokenizer_config(std::string_view json_text, TokenizerConfig& out, std::string* error,
                           VocabSource vocab) {
    json::Value root;
    json::Error parse_error;
    if (!json::parse(json_text, root, parse_error)) {
        if (error) {
            *error = "tokenizer.json: " + parse_error.message + " at byte " + std::to_string(parse_error.offset);
        }
        return false;
    }
    return read_tokenizer_config(root, out, error, vocab);
}

}  // namespace bx
