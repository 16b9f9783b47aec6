// Programs that are the same after removing comments and whitespace and renaming identifiers:
// a token-level normal form of a C++ source and its fingerprint, recorded per exercise in the
// results files (ExerciseRecord::code_shape) so that a merge of shards compares them too.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace blockcheck {

// The tokens of `source` without comments or whitespace; each identifier that is not a keyword,
// not a name of the standard library (a fixed list, and every name after `::`) and not on a
// preprocessor line becomes "$1", "$2", ... in order of first appearance. Literals are kept.
std::vector<std::string> normalised_tokens(std::string_view source);

// "<tokens>:<32 hex digits of the SHA-256 of the normal form>"; equal for two programs exactly
// when their normal forms are equal (up to the hash).
std::string code_shape(std::string_view source);

// The token count of a shape ("212:ab..." -> 212); 0 for "".
std::size_t shape_tokens(std::string_view shape);

}  // namespace blockcheck
