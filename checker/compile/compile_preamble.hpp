// What a program's text lets the fast compile (CompileWay::fast) precompile for it. Text scans
// only, each erring towards the slower compile that is faithful by construction: a program they
// cannot vouch for is compiled as it would be alone.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace blockcheck {

// A program's leading run of #include lines, precompiled as one header and given to g++ with
// `-include`: the program's own include lines then find their headers already read (every
// standard header and the students' header has an include guard), so it compiles exactly as
// alone. Each line in a canonical spelling (`#include <x>` or `#include "x"`), so that the
// programs of a class share one precompiled preamble whatever their spacing and comments.
struct Preamble {
    std::vector<std::string> lines;
    std::vector<int> source_lines;  // the program's line (1-based) of each of `lines`

    bool empty() const { return lines.empty(); }
    std::string text() const;  // the lines, each ended by '\n'
};

// The program's #include lines up to its first line that is anything else: blank lines and
// lines holding only a `//` comment may come between. A line that is not an #include of a
// standard header (`<name>`, no folder) or of one of `headers` by name (`"blockcheck.hpp"`) ends
// the run too, as does one naming any of `unguarded` (a header of the include folder that would
// be read twice), and a line splice; a byte-order mark at the start is skipped, as g++ does.
Preamble leading_includes(std::string_view source, const std::vector<std::string>& headers,
                          const std::vector<std::string>& unguarded = {});

// Whether a header's text is wholly inside an include guard (`#ifndef X` / `#define X` first,
// `#endif` last, comments around them), so that reading it a second time adds nothing.
bool include_guarded(std::string_view header);

// Whether reading the students' header as declarations (and linking its object) is sure to give
// this program what the inline header gives it. Text that could change how the header itself
// compiles, or that (re)defines what it defines, sends the program to the inline header instead:
// any preprocessor directive other than #include (even one after a comment), a digraph `%:`, an
// #include of another quoted header (it may define macros), a line splice (backslash-newline,
// which can join a directive or a name across lines), a raw string literal, `bc` named anywhere
// but in `using namespace bc;` (comments do not hide it: `bc/**/::`, `namespace mine = bc;`), and
// `asm` or an `alias` attribute (a definition by assembler name).
bool prebuilt_header_safe(std::string_view source);

// Whether the program cannot tell C++17's special math functions (<bits/specfun.h>, included
// by <cmath>) from absent: it names none of them (beta, riemann_zeta, ... with their f and l
// forms), no reserved identifier (`__x`, `_X`: libstdc++'s own names, __STDCPP_MATH_SPEC_FUNCS__),
// includes no header from a folder (<tr1/cmath> uses them), writes no universal character name
// and passes prebuilt_header_safe (no macro can paste a name together). The words are taken from
// the whole text, comments and literals included, which only errs towards the whole header.
bool special_functions_unused(std::string_view source);

// Whether `text` has a word that is a special math function's name (or its f or l form), or, with
// `or_reserved`, a reserved identifier. Comments and literals count too.
bool names_special_function(std::string_view text, bool or_reserved);

// The names C++17 gives the special math functions in namespace std, without the f and l forms.
const std::vector<std::string_view>& special_function_names();

}  // namespace blockcheck
