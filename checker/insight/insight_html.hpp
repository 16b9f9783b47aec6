// report.html's sections of the instructor's view (insight.hpp): a stacked bar per exercise, a
// difficulty-against-discrimination scatter, per-variant bars, and the shared answers and
// programs with what they can and cannot show. Inline SVG and tables, no script; printable.
#pragma once

#include "checker/insight/insight.hpp"

#include <string>

namespace blockcheck {

// Text in HTML: no control byte (printable_text), and & < > " ' as entities. Everything a
// student wrote passes through it on its way into report.html.
std::string html_text(std::string_view text);

// The CSS the sections use (added to the report's style element).
std::string insight_css();

// The sections, each an <h2> and its charts and tables, in `lang`.
std::string insight_html(const Insight& insight, Lang lang);

}  // namespace blockcheck
