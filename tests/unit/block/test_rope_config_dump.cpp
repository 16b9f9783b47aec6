// `blockcheck rope --compare`: dumps made by a float32 port of transformers' RoPE (the arithmetic
// of modeling_rope_utils.py, float32 tensors and double scalars) pass honest and name each
// RoPE-scaling mistake planted in it, and only that one.
#include "checker/block/hf_config.hpp"
#include "checker/block/rope_check.hpp"
#include "solutions/block/rope_mistakes.hpp"
#include "source_tree.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

using namespace blockcheck;
using namespace blockcheck::testing;

namespace {

// transformers' tensors, in float32: inv_freq, the attention factor, cos and sin [positions, pairs].
struct Float32Rope {
    std::vector<float> inv_freq;
    float attention_factor = 1;
    std::vector<std::vector<float>> cos, sin;
};

double f32_real(const Mpfr50& x) { return x.convert_to<double>(); }

// base ** (arange(0, dim, 2).float() / dim), in float32.
std::vector<float> f32_powers(double base, std::size_t dim) {
    std::vector<float> p(dim / 2);
    for (std::size_t i = 0; i < p.size(); ++i) p[i] = powf(float(base), float(2 * i) / float(dim));
    return p;
}

std::vector<float> f32_default(double base, std::size_t dim) {
    std::vector<float> inv = f32_powers(base, dim);
    for (float& x : inv) x = 1.0f / x;
    return inv;
}

std::vector<float> f32_yarn(const RopeConfig<Mpfr50>& c) {
    const RopeScaling<Mpfr50>& s = c.scaling;
    const double base = f32_real(c.theta), factor = f32_real(s.factor), dim = double(c.rotary_dim);
    auto correction = [&](double rotations) {
        return dim * std::log(double(s.original_context) / (rotations * 2 * M_PI)) / (2 * std::log(base));
    };
    const double low = std::max(std::floor(correction(f32_real(s.beta_fast))), 0.0);
    double high = std::min(std::ceil(correction(f32_real(s.beta_slow))), dim - 1);
    if (low == high) high += 0.001;
    const std::vector<float> pos = f32_powers(base, c.rotary_dim);
    std::vector<float> inv(pos.size());
    for (std::size_t i = 0; i < inv.size(); ++i) {
        const float ramp = std::clamp((float(i) - float(low)) / float(high - low), 0.0f, 1.0f);
        const float extrapolation = 1.0f - ramp;
        inv[i] = 1.0f / (float(factor) * pos[i]) * (1.0f - extrapolation) + 1.0f / pos[i] * extrapolation;
    }
    return inv;
}

std::vector<float> f32_llama3(const RopeConfig<Mpfr50>& c, bool band_skipped) {
    const RopeScaling<Mpfr50>& s = c.scaling;
    const float factor = float(f32_real(s.factor)), low = float(f32_real(s.low_freq_factor)), high = float(f32_real(s.high_freq_factor));
    const double old = double(s.original_context);
    std::vector<float> inv = f32_default(f32_real(c.theta), c.rotary_dim);
    for (float& f : inv) {
        const float wavelength = float(2 * M_PI) / f;
        if (wavelength > float(old / f32_real(s.low_freq_factor))) {
            f = f / factor;
        } else if (!(wavelength < float(old / f32_real(s.high_freq_factor))) && !band_skipped) {
            const float smooth = (float(old) / wavelength - low) / (high - low);
            f = (1 - smooth) * f / factor + smooth * f;
        }
    }
    return inv;
}

// The port on `positions`, with one mistake planted.
Float32Rope f32_rope(const RopeConfig<Mpfr50>& c, const std::vector<long>& positions, RopeScalingMistake mistake) {
    const RopeScaling<Mpfr50>& s = c.scaling;
    const double base = f32_real(c.theta), factor = f32_real(s.factor), dim = double(c.rotary_dim);
    const double length = double(positions.back() + 1), original = double(s.original_context);
    Float32Rope r;
    double attention = 1;
    RopeScalingType type = mistake == RopeScalingMistake::not_applied ? RopeScalingType::none : s.type;
    if (type == RopeScalingType::none) r.inv_freq = f32_default(base, c.rotary_dim);
    if (type == RopeScalingType::linear) {
        r.inv_freq = f32_default(base, c.rotary_dim);
        for (float& x : r.inv_freq) x /= float(factor);
    }
    if (type == RopeScalingType::dynamic) {
        double seq = mistake == RopeScalingMistake::dynamic_at_longest_context ? factor * original
                     : mistake == RopeScalingMistake::dynamic_unclamped        ? length
                                                                               : std::max(length, original);
        r.inv_freq = f32_default(base * std::pow(factor * seq / original - (factor - 1), dim / (dim - 2)), c.rotary_dim);
    }
    if (type == RopeScalingType::yarn) {
        r.inv_freq = f32_yarn(c);
        attention = s.attention_factor ? f32_real(*s.attention_factor) : 0.1 * std::log(factor) + 1;
    }
    if (type == RopeScalingType::longrope) {
        const Vector<Mpfr50>& list = length > original ? s.long_factor : s.short_factor;
        const std::vector<float> pos = f32_powers(base, c.rotary_dim);
        for (std::size_t i = 0; i < pos.size(); ++i) r.inv_freq.push_back(1.0f / (float(f32_real(list[i])) * pos[i]));
        attention = std::sqrt(1 + std::log(factor) / std::log(original));
    }
    if (type == RopeScalingType::llama3) r.inv_freq = f32_llama3(c, mistake == RopeScalingMistake::llama3_band_skipped);
    if (mistake == RopeScalingMistake::attention_factor_missing) attention = 1;
    if (mistake == RopeScalingMistake::attention_factor_twice) attention *= attention;
    r.attention_factor = float(attention);
    for (long p : positions) {
        std::vector<float> cos_row, sin_row;
        for (float f : r.inv_freq) {
            const float angle = f * float(p);
            cos_row.push_back(cosf(angle) * r.attention_factor);
            sin_row.push_back(sinf(angle) * r.attention_factor);
        }
        r.cos.push_back(cos_row), r.sin.push_back(sin_row);
    }
    return r;
}

Tensor f32_tensor(std::vector<std::size_t> shape, const std::vector<float>& values) {
    return Tensor{DType::float32, std::move(shape), std::vector<double>(values.begin(), values.end())};
}

// Every tensor of the port, as `rope --compare` reads them (cos and sin one column per pair).
std::vector<RopeGiven> f32_dump(const RopeConfig<Mpfr50>& c, const std::vector<long>& positions, RopeScalingMistake mistake) {
    const Float32Rope r = f32_rope(c, positions, mistake);
    const std::size_t pairs = r.inv_freq.size();
    std::vector<float> cos, sin;
    for (std::size_t p = 0; p < positions.size(); ++p) {
        cos.insert(cos.end(), r.cos[p].begin(), r.cos[p].end());
        sin.insert(sin.end(), r.sin[p].begin(), r.sin[p].end());
    }
    return {rope_given("inv_freq", f32_tensor({pairs}, r.inv_freq), "dump", positions.size(), pairs),
            rope_given("attention_factor", f32_tensor({}, {r.attention_factor}), "dump", positions.size(), pairs),
            rope_given("cos", f32_tensor({1, positions.size(), pairs}, cos), "dump", positions.size(), pairs),
            rope_given("sin", f32_tensor({1, positions.size(), pairs}, sin), "dump", positions.size(), pairs)};
}

RopeConfig<Mpfr50> fixture_config(const std::string& name) {
    return read_hf_rope_file<Mpfr50>(repository() / "tests/fixtures/rope" / name);
}

// The honest port passes and names nothing; each visible mistake planted is named alone; the
// invisible ones are the `invisible` list.
void check_dumps(const RopeConfig<Mpfr50>& c, const std::vector<long>& positions, const std::vector<std::string>& invisible) {
    const RopeVerdict honest = judge_rope_dump(f32_dump(c, positions, RopeScalingMistake::none), c, positions, DType::float32);
    for (const RopeGrade& g : honest.grades) CHECK_MESSAGE(g.within(), g.name << " " << g.worst_at << " uses " << g.worst_use);
    CHECK(honest.named.empty());
    CHECK(honest.not_visible == invisible);
    for (const auto& [id, mistake] : rope_mistake_ids) {
        if (std::find(invisible.begin(), invisible.end(), id) != invisible.end()) continue;
        CAPTURE(id);
        const RopeVerdict v = judge_rope_dump(f32_dump(c, positions, mistake), c, positions, DType::float32);
        CHECK_FALSE(v.within);
        CHECK(v.named == std::vector<std::string>{std::string(id)});
    }
}

}  // namespace

TEST_CASE("rope dump: Llama 3.1's honest float32 RoPE passes, a skipped band or an unapplied scaling is named") {
    check_dumps(fixture_config("llama-3.1-8b-config.json"), {0, 8191, 8192, 131071},
                {"yarn_attention_factor_missing", "yarn_attention_factor_twice", "yarn_attention_factor_on_scores",
                 "dynamic_ntk_at_longest_context", "dynamic_ntk_unclamped"});
}

TEST_CASE("rope dump: YaRN's attention factor missing or twice is named; on the scores it cannot show") {
    check_dumps(fixture_config("yarn-config.json"), {0, 32767, 32768, 131071},
                {"yarn_attention_factor_on_scores", "llama3_band_skipped", "dynamic_ntk_at_longest_context",
                 "dynamic_ntk_unclamped"});
}

TEST_CASE("rope dump: dynamic NTK at the wrong length is named, and only at lengths that show it") {
    const RopeConfig<Mpfr50> c = fixture_config("dynamic-config.json");
    const std::vector<std::string> not_dynamic = {"yarn_attention_factor_missing", "yarn_attention_factor_twice",
                                                  "yarn_attention_factor_on_scores", "llama3_band_skipped"};
    std::vector<std::string> invisible = not_dynamic;
    invisible.insert(invisible.begin(), "rope_scaling_not_applied");  // below L0 dynamic NTK scales nothing
    check_dumps(c, {0, 1000, 3000}, invisible);
    invisible = not_dynamic;
    invisible.push_back("dynamic_ntk_unclamped");  // beyond L0 the clamp changes nothing
    check_dumps(c, {0, 4095, 5000}, invisible);
}

TEST_CASE("rope dump: linear, LongRoPE and unscaled configurations") {
    const std::vector<std::string> yarn_and_dynamic = {"yarn_attention_factor_missing", "yarn_attention_factor_twice",
                                                       "yarn_attention_factor_on_scores", "llama3_band_skipped",
                                                       "dynamic_ntk_at_longest_context", "dynamic_ntk_unclamped"};
    const std::string head = R"({"hidden_size": 3072, "num_attention_heads": 32, "max_position_embeddings": 16384, )";
    check_dumps(read_hf_rope<Mpfr50>(parse_json_exact(head + R"("rope_scaling": {"type": "linear", "factor": 4.0}})", "t"), "t"),
                {0, 4095, 16383}, yarn_and_dynamic);
    std::vector<std::string> all;
    for (const auto& [id, mistake] : rope_mistake_ids) all.emplace_back(id);
    check_dumps(read_hf_rope<Mpfr50>(parse_json_exact(head + R"("rope_theta": 1000000.0})", "t"), "t"), {0, 16383}, all);

    Json phi = {{"hidden_size", 3072}, {"num_attention_heads", 32}, {"max_position_embeddings", 131072}, {"rope_theta", 10000}};
    phi["rope_scaling"] = {{"rope_type", "longrope"}, {"original_max_position_embeddings", 4096}};
    for (std::size_t i = 0; i < 48; ++i) {
        phi["rope_scaling"]["long_factor"].push_back(std::to_string(1 + i) + ".25");
        phi["rope_scaling"]["short_factor"].push_back("1." + std::to_string(i));
    }
    std::vector<std::string> invisible = yarn_and_dynamic;
    invisible.erase(invisible.begin(), invisible.begin() + 2);  // LongRoPE has an attention factor too
    check_dumps(read_hf_rope<Mpfr50>(phi, "phi.json"), {0, 4095, 131071}, invisible);
}

TEST_CASE("rope dump: cos at a full head's width in either layout, and shapes that fit nothing") {
    const RopeConfig<Mpfr50> c = fixture_config("llama-3.1-8b-config.json");
    const std::vector<long> positions = {0, 9000};
    const Float32Rope r = f32_rope(c, positions, RopeScalingMistake::none);
    std::vector<float> half, interleaved;
    for (const auto& row : r.cos) {
        for (int copy = 0; copy < 2; ++copy) half.insert(half.end(), row.begin(), row.end());
        for (float x : row) interleaved.insert(interleaved.end(), {x, x});
    }
    const RopeGiven h = rope_given("cos", f32_tensor({1, 1, 2, 128}, half), "cos.npy", 2, 64);
    const RopeGiven i = rope_given("cos", f32_tensor({2, 128}, interleaved), "cos.npy", 2, 64);
    CHECK(h.layout == "half");
    CHECK(i.layout == "interleaved");
    const RopeVerdict v = judge_rope_dump({h, i}, c, positions, DType::float32);
    CHECK(v.within);
    half[5] = 0.5f;  // one copy differs: neither layout
    CHECK_THROWS_WITH(rope_given("cos", f32_tensor({2, 128}, half), "cos.npy", 2, 64),
                      doctest::Contains("cos.npy: cos (2, 128): a full head's width, but the two copies"));
    CHECK_THROWS_WITH(rope_given("cos", f32_tensor({3, 64}, std::vector<float>(192)), "cos.npy", 2, 64),
                      "cos.npy: cos (3, 64): expected (2, 64) or (2, 128): one row per position, one column per pair (or "
                      "per coordinate, each pair's value twice)");
    CHECK_THROWS_WITH(rope_given("inv_freq", f32_tensor({128}, std::vector<float>(128)), "f.npy", 2, 64),
                      "f.npy: inv_freq (128,): expected (64,): one frequency per pair");
}
