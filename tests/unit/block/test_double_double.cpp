// The double-double path: its arithmetic and functions to 31 digits, its dot product's fixed
// order (the same bits for any thread count) and its bound, and the block on every shipped case
// agreeing with the 50-digit block to 30 digits at every stage.
#include "checker/block/block_case_files.hpp"
#include "solutions/block/double_double.hpp"
#include "solutions/block/stored_weights.hpp"

#include <doctest/doctest.h>

#include <bit>
#include <cstdint>
#include <filesystem>
#include <random>

using namespace blockcheck;

namespace {

Mpfr50 wide(const DoubleDouble& x) { return static_cast<Mpfr50>(x); }

// |a - b| / max(|b|, floor), at 50 digits.
Mpfr50 relative_error(const DoubleDouble& a, const Mpfr50& b, const Mpfr50& floor = Mpfr50(0)) {
    using std::abs;
    return abs(wide(a) - b) / std::max(abs(b), floor);
}

// ||a - b||_F / ||b||_F over a stage's matrix.
Mpfr50 normwise_error(const Matrix<DoubleDouble>& a, const Matrix<Mpfr50>& b) {
    using std::sqrt;
    Mpfr50 difference(0), reference(0);
    for (std::size_t i = 0; i < b.values.size(); ++i) {
        const Mpfr50 d = wide(a.values[i]) - b.values[i];
        difference += d * d;
        reference += b.values[i] * b.values[i];
    }
    return reference == 0 ? sqrt(difference) : sqrt(difference / reference);
}

const Mpfr50 thirty_digits = parse_real<Mpfr50>("1e-30");

}  // namespace

TEST_CASE("double-double arithmetic and functions carry 31 digits") {
    const Mpfr50 bound = parse_real<Mpfr50>("2e-31");
    for (const char* text : {"0.1", "-3.25", "1e-7", "12345.678901234567890123456789", "0.7071067811865475244"}) {
        const DoubleDouble a{std::string(text)};
        const Mpfr50 x(text), y = parse_real<Mpfr50>("2.718281828459045235360287471352662497757");
        const DoubleDouble b{y};
        CAPTURE(text);
        CHECK(relative_error(DoubleDouble(std::string(text)), x) < bound);
        CHECK(relative_error(a * b, wide(a) * wide(b)) < bound);
        CHECK(relative_error(a / b, wide(a) / wide(b)) < bound);
        CHECK(relative_error(a + b, wide(a) + wide(b)) < bound);
        CHECK(relative_error(exp(a > DoubleDouble(100) ? DoubleDouble(1) : a), exp(wide(a > DoubleDouble(100) ? DoubleDouble(1) : a))) < bound);
        CHECK(relative_error(sqrt(abs(a)), sqrt(abs(wide(a)))) < bound);
        CHECK(relative_error(log(abs(a)), log(abs(wide(a))), Mpfr50(1)) < bound);
        // sin and cos: absolute to 2^-105 |a| (the reduction by pi/2 carries 32 digits)
        CHECK(relative_error(sin(a), sin(wide(a)), Mpfr50(1)) < bound * std::max(Mpfr50(1), abs(wide(a))));
        CHECK(relative_error(cos(a), cos(wide(a)), Mpfr50(1)) < bound * std::max(Mpfr50(1), abs(wide(a))));
    }
    CHECK(DoubleDouble(std::string("1")) / DoubleDouble(3) * DoubleDouble(3) != DoubleDouble(0.999));
    CHECK(DoubleDouble(9007199254740993L).lo == 1.0);  // 2^53 + 1: the 1 goes to lo
    CHECK(floor(DoubleDouble(std::string("2.9999999999999999999999"))) == DoubleDouble(2));
    CHECK(to_decimal(DoubleDouble(1) / DoubleDouble(3), 30) == "0.333333333333333333333333333333");
    CHECK(to_decimal(DoubleDouble(std::string("0.1")), 31) == "0.1");
}

TEST_CASE("the double-double dot product is within its bound at length 28672 and the same for any thread count") {
    const std::size_t n = 28672, outputs = 8;
    std::mt19937_64 random(7);
    std::normal_distribution<double> normal;
    std::vector<double> xh(2 * n), xl(2 * n);
    std::vector<float> stored(n * outputs);
    for (std::size_t i = 0; i < 2 * n; ++i) xh[i] = normal(random), xl[i] = xh[i] * 0x1p-54 * normal(random);
    for (float& w : stored) w = static_cast<float>(normal(random));
    const StoredMatrix w{reinterpret_cast<const unsigned char*>(stored.data()), StoredType::float32, n, outputs, true};
    Matrix<DoubleDouble> x(2, n);
    for (std::size_t i = 0; i < 2 * n; ++i) x.values[i] = DoubleDouble::from_sum({xh[i], xl[i]});

    // sum |x_i w_i|-relative error of every output, against 50 digits
    const Matrix<DoubleDouble> y = matmul(x, w);
    for (std::size_t t = 0; t < 2; ++t)
        for (std::size_t j = 0; j < outputs; ++j) {
            Mpfr50 exact(0), magnitude(0);
            for (std::size_t i = 0; i < n; ++i) {
                const Mpfr50 term = wide(x(t, i)) * Mpfr50(w(i, j));
                exact += term;
                magnitude += abs(term);
            }
            CHECK(abs(wide(y(t, j)) - exact) / magnitude < parse_real<Mpfr50>("1e-31"));
        }
    // bit-identical for one thread and for three
    block_threads() = 1;
    const Matrix<DoubleDouble> one = matmul(x, w);
    block_threads() = 3;
    const Matrix<DoubleDouble> three = matmul(x, w);
    block_threads() = 0;
    for (std::size_t i = 0; i < one.values.size(); ++i) {
        CHECK(one.values[i].hi == y.values[i].hi);
        CHECK(one.values[i].lo == y.values[i].lo);
        CHECK(three.values[i].hi == y.values[i].hi);
        CHECK(three.values[i].lo == y.values[i].lo);
    }
}

namespace {

// The element-by-element product the generic matmul on stored weights must equal bit for bit:
// each y_tj one running sum in increasing i, x_ti times W_ij widened to double.
template <class T>
Matrix<T> element_by_element(const Matrix<T>& x, const StoredMatrix& w) {
    Matrix<T> y(x.rows, w.cols);
    for (std::size_t t = 0; t < x.rows; ++t)
        for (std::size_t j = 0; j < w.cols; ++j) {
            T sum(0);
            for (std::size_t i = 0; i < w.rows; ++i) sum += x(t, i) * w(i, j);
            y(t, j) = sum;
        }
    return y;
}

template <class T>
void check_same_bits_as_element_by_element(const StoredMatrix& w, std::size_t rows) {
    std::mt19937_64 random(11);
    std::normal_distribution<double> normal;
    Matrix<T> x(rows, w.rows);
    for (T& v : x.values) v = T(normal(random));
    const Matrix<T> expected = element_by_element(x, w);
    for (unsigned threads : {1u, 3u, 0u}) {
        block_threads() = threads;
        const Matrix<T> y = matmul(x, w);
        CAPTURE(threads);
        REQUIRE(y.values.size() == expected.values.size());
        std::size_t differing = 0;
        for (std::size_t i = 0; i < y.values.size(); ++i) differing += !(y.values[i] == expected.values[i]);
        CHECK(differing == 0);
    }
    block_threads() = 0;
}

}  // namespace

TEST_CASE("the product on stored weights at float, double and 50 digits is the element-by-element running sum, bit for bit") {
    // a BF16 weight as nn.Linear stores it, [out, in], and a float32 one read the other way
    const std::size_t n = 1000, outputs = 131;
    std::mt19937_64 random(5);
    std::normal_distribution<double> normal;
    std::vector<std::uint16_t> bf16(n * outputs);
    std::vector<float> f32(n * outputs);
    for (std::uint16_t& b : bf16) b = static_cast<std::uint16_t>(std::bit_cast<std::uint32_t>(static_cast<float>(normal(random))) >> 16);
    for (float& f : f32) f = static_cast<float>(normal(random));
    const StoredMatrix stored_bf16{reinterpret_cast<const unsigned char*>(bf16.data()), StoredType::bfloat16, n, outputs, true};
    const StoredMatrix stored_f32{reinterpret_cast<const unsigned char*>(f32.data()), StoredType::float32, n, outputs, false};
    for (std::size_t rows : {1u, 7u, 32u}) {
        CAPTURE(rows);
        check_same_bits_as_element_by_element<float>(stored_bf16, rows);
        check_same_bits_as_element_by_element<float>(stored_f32, rows);
        check_same_bits_as_element_by_element<double>(stored_bf16, rows);
        check_same_bits_as_element_by_element<double>(stored_f32, rows);
    }
    check_same_bits_as_element_by_element<Mpfr50>(stored_bf16, 3);
}

TEST_CASE("on every shipped block case the dd block agrees with the 50-digit block to 30 digits at every stage") {
    const std::filesystem::path cases = std::filesystem::path(BLOCKCHECK_SOURCE_DIR) / "data/cases";
    int checked = 0;
    for (const auto& entry : std::filesystem::directory_iterator(cases)) {
        if (entry.path().extension() != ".json") continue;
        CAPTURE(entry.path().filename().string());
        const BlockCase<DoubleDouble> dd = read_case_file<DoubleDouble>(entry.path());
        const BlockCase<Mpfr50> r50 = read_case_file<Mpfr50>(entry.path());
        Trace<DoubleDouble> dd_trace;
        Trace<Mpfr50> r50_trace;
        block_case_forward(dd, &dd_trace);
        block_case_forward(r50, &r50_trace);
        REQUIRE(dd_trace.size() == r50_trace.size());
        for (const auto& [name, value] : r50_trace) {
            CAPTURE(name);
            CHECK(normwise_error(dd_trace.at(name), value) < thirty_digits);
        }
        ++checked;
    }
    CHECK(checked >= 7);
}
