// What the tests of the reference solutions share: one answer out of a reference's answers, and
// whether a value agrees with the decimals a chapter prints.
#pragma once

#include "solutions/exercise.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <initializer_list>
#include <string>
#include <string_view>

namespace blockcheck::testing {

// The answer `name`, which must be there and of kind V.
template <class V>
const V& part(const Values& answers, const std::string& name) {
    auto it = answers.find(name);
    REQUIRE_MESSAGE(it != answers.end(), "answer '" << name << "' is missing");
    const V* v = std::get_if<V>(&it->second);
    REQUIRE_MESSAGE(v, "answer '" << name << "' has another kind");
    return *v;
}

inline std::string word(const Values& answers, const std::string& name) { return part<Choice>(answers, name).word; }

// x agrees with the printed decimal to the digits printed: within half a unit of its last place.
inline bool prints_as(const Real& x, std::string_view printed) {
    using std::abs;
    std::size_t point = printed.find('.');
    long decimals = point == std::string_view::npos ? 0 : static_cast<long>(printed.size() - point - 1);
    return abs(x - parse_real<Real>(printed)) <= Real(5) * pow(Real(10), Real(-(decimals + 1)));
}

inline bool prints_as(const Vector<Real>& x, std::initializer_list<const char*> printed) {
    if (x.size() != printed.size()) return false;
    std::size_t i = 0;
    for (const char* p : printed)
        if (!prints_as(x[i++], p)) return false;
    return true;
}

inline bool prints_as(const Matrix<Real>& x, std::initializer_list<std::initializer_list<const char*>> printed) {
    if (x.rows != printed.size()) return false;
    std::size_t r = 0;
    for (const auto& row : printed) {
        if (!prints_as(Vector<Real>(x.row(r).begin(), x.row(r).end()), row)) return false;
        ++r;
    }
    return true;
}

}  // namespace blockcheck::testing
