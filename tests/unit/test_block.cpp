#include "solutions/block/block.hpp"
#include "solutions/block/counts.hpp"
#include "solutions/block/real.hpp"
#include <doctest/doctest.h>
using namespace blockcheck;
TEST_CASE_TEMPLATE("smoke", T, double, Real50) {
    Vector<T> x{T(3), T(4)}, g{T(1), T(1)};
    auto y = rms_norm<T>(x, g, T(0));
    CHECK(abs(y[0] - parse_real<T>("0.848528137423857029281013234525828")) < parse_real<T>("1e-15"));
}
