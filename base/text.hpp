// Prose shown to users, in English and Chinese: the one type for a sentence in both languages,
// used by the worked examples (solutions/) and by every command (checker/common/i18n.hpp). It lives
// in base/, below both.
#pragma once

#include <string>

namespace blockcheck {

enum class Lang { en, zh };

// A sentence in both languages.
struct Text {
    std::string en, zh;
    const std::string& in(Lang lang) const { return lang == Lang::zh && !zh.empty() ? zh : en; }
};

}  // namespace blockcheck
