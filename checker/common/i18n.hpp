// Prose shown to users comes in English and Chinese: the language from the environment, and
// sentences picked or formatted in it (the Text type itself is in base/text.hpp).
#pragma once

#include "base/text.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <string>
#include <string_view>

namespace blockcheck {

// zh when LC_ALL, LC_MESSAGES or LANG (the first one set) starts with "zh"; en otherwise.
inline Lang lang_from_environment() {
    for (const char* name : {"LC_ALL", "LC_MESSAGES", "LANG"}) {
        const char* value = std::getenv(name);
        if (value && *value) return std::string_view(value).starts_with("zh") ? Lang::zh : Lang::en;
    }
    return Lang::en;
}

// Picks the sentence for a language: tr(lang, "wrong", "错误").
inline std::string_view tr(Lang lang, std::string_view en, std::string_view zh) { return lang == Lang::zh ? zh : en; }

// A whole sentence per language with named fields, so each language keeps its own word order:
// tr_format(lang, "{n} students", "{n} 名学生", fmt::arg("n", 3)).
template <class... Args>
std::string tr_format(Lang lang, std::string_view en, std::string_view zh, const Args&... args) {
    return fmt::format(fmt::runtime(tr(lang, en, zh)), args...);
}

}  // namespace blockcheck
