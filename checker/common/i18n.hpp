// Prose shown to users comes in English and Chinese.
#pragma once

#include <cstdlib>
#include <string>
#include <string_view>

namespace blockcheck {

enum class Lang { en, zh };

// A sentence in both languages.
struct Text {
    std::string en, zh;
    const std::string& in(Lang lang) const { return lang == Lang::zh && !zh.empty() ? zh : en; }
};

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

}  // namespace blockcheck
