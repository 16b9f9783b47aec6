// The companion chapter's reference solutions (data/exercises/gqa_long_context), run on the
// inputs of their exercise files: the companion's numbers, exact counts, and the properties
// the exercises teach (only position differences count, interpolation slows every pair,
// NTK keeps the first pair, the demo's write-back leaves attention unchanged).
#include "checker/exercise/protocol.hpp"
#include "solutions/block/attention.hpp"
#include "solutions/block/block.hpp"
#include "solutions/exercise.hpp"
#include "reference_testing.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <set>
#include <string_view>

using namespace blockcheck;
namespace fs = std::filesystem;

namespace {

using testing::part;
using testing::prints_as;
using testing::word;

const fs::path gqa_long_context_root = BLOCKCHECK_SOURCE_DIR;
const std::string gqa_long_context_chapter = "gqa_long_context";
const fs::path gqa_long_context_dir = gqa_long_context_root / "data" / "exercises" / gqa_long_context_chapter;

nlohmann::json gqa_long_context_exercise(const std::string& id) {
    std::ifstream file(gqa_long_context_dir / (id + ".json"));
    REQUIRE_MESSAGE(file, "cannot open the exercise file of " << id);
    return nlohmann::json::parse(file);
}

// The exercise file's inputs, read as the checker reads them.
Values gqa_long_context_inputs(const nlohmann::json& exercise) {
    std::string text;
    for (const auto& [name, value] : exercise.at("inputs").items()) text += name + " = " + value.get<std::string>() + "\n";
    return parse_inputs(text, exercise.at("id").get<std::string>());
}

Values run_reference(const std::string& id, const Values& inputs) {
    const auto& all = reference_solutions();
    auto it = all.find(id);
    REQUIRE_MESSAGE(it != all.end(), "no reference solution for " << id);
    return it->second(Inputs(inputs));
}

Values gqa_long_context_answers(const std::string& id) { return run_reference(id, gqa_long_context_inputs(gqa_long_context_exercise(id))); }

Real number(const Values& a, const std::string& name) { return part<Real>(a, name); }
bool truth(const Values& a, const std::string& name) { return part<bool>(a, name); }

bool close(const Real& a, const Real& b, const char* within = "1e-45") {
    using std::abs;
    return abs(a - b) <= Real(within) * (Real(1) + abs(b));
}

bool close(const std::vector<Real>& a, const std::vector<Real>& b, const char* within = "1e-45") {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (!close(a[i], b[i], within)) return false;
    return true;
}

}  // namespace

TEST_CASE("companion: every exercise file has its reference, template, solved program and both languages") {
    std::ifstream chapter_file(gqa_long_context_dir / "chapter.json");
    REQUIRE(chapter_file);
    const nlohmann::json chapter = nlohmann::json::parse(chapter_file);
    CHECK(chapter.at("chapter") == gqa_long_context_chapter);
    CHECK(chapter.at("order") == 2);
    CHECK(!chapter.at("title").at("en").get<std::string>().empty());
    CHECK(!chapter.at("title").at("zh").get<std::string>().empty());

    std::set<std::string> ids;
    int worked_examples = 0;
    for (const auto& entry : fs::directory_iterator(gqa_long_context_dir)) {
        if (entry.path().extension() != ".json" || entry.path().filename() == "chapter.json") continue;
        const std::string id = entry.path().stem().string();
        ids.insert(id);
        CAPTURE(id);
        const nlohmann::json exercise = gqa_long_context_exercise(id);
        CHECK(exercise.at("id") == id);
        CHECK(exercise.at("chapter") == gqa_long_context_chapter);
        CHECK(exercise.at("source") == "chapters/" + gqa_long_context_chapter + "/" + id + ".cpp");
        CHECK(fs::exists(gqa_long_context_root / exercise.at("source").get<std::string>()));
        CHECK(fs::exists(gqa_long_context_root / "tests" / "solved" / gqa_long_context_chapter / (id + ".cpp")));
        if (exercise.at("kind") == "worked-example") ++worked_examples;
        for (const char* field : {"title", "prompt"})
            for (const char* lang : {"en", "zh"}) CHECK(!exercise.at(field).at(lang).get<std::string>().empty());
        CHECK(exercise.at("hints").size() >= 2);
        for (const auto& h : exercise.at("hints")) CHECK((!h.at("en").get<std::string>().empty() && !h.at("zh").get<std::string>().empty()));
        for (const auto& [name, variant] : exercise.at("variants").items()) {
            CAPTURE(name);
            CHECK(exercise.at("inputs").contains(name));
        }

        const Values answers = gqa_long_context_answers(id);
        std::set<std::string> names;
        for (const auto& a : exercise.at("answers")) {
            const std::string name = a.at("name"), kind = a.at("kind");
            CAPTURE(name);
            names.insert(name);
            auto it = answers.find(name);
            REQUIRE(it != answers.end());
            const Value& v = it->second;
            if (kind == "number") CHECK(std::holds_alternative<Real>(v));
            if (kind == "vector") CHECK(std::holds_alternative<Vector<Real>>(v));
            if (kind == "matrix") CHECK(std::holds_alternative<Matrix<Real>>(v));
            if (kind == "boolean") {
                CHECK(std::holds_alternative<bool>(v));
                CHECK(a.contains("explain"));  // a wrong true/false is told why
            }
            if (kind == "integer") {
                REQUIRE(std::holds_alternative<Real>(v));
                using std::floor;
                CHECK(floor(std::get<Real>(v)) == std::get<Real>(v));
            }
            if (kind == "choice") {
                REQUIRE(std::holds_alternative<Choice>(v));
                CHECK(a.contains("explain"));
                const auto options = a.at("options").get<std::vector<std::string>>();
                CHECK(std::find(options.begin(), options.end(), std::get<Choice>(v).word) != options.end());
            }
        }
        CHECK(names.size() == answers.size());  // no answer the exercise does not ask for
    }
    CHECK(ids.size() == 17);
    CHECK(worked_examples == 8);
}

TEST_CASE("companion rotating_stamp: 30 degrees a position reaches 240 degrees at position 8") {
    const Values a = gqa_long_context_answers("rotating_stamp");
    CHECK(close(part<Vector<Real>>(a, "stamp_angle_degrees"),
                {Real(30), Real(60), Real(90), Real(120), Real(150), Real(180), Real(210), Real(240)}));
    CHECK(close(number(a, "relative_angle_degrees"), Real(30)));
    CHECK(prints_as(part<Vector<Real>>(a, "rope_query"), {"0.5", "0.866025"}));  // 60 degrees
    CHECK(prints_as(part<Vector<Real>>(a, "rope_key"), {"0", "1"}));             // 90 degrees
    using std::cos;
    CHECK(close(number(a, "dot"), cos(pi<Real>() / Real(6)), "1e-40"));  // cos 30: unit arrows
}

TEST_CASE("companion stamp_relative_position: shifting both positions keeps the dot product") {
    const Values a = gqa_long_context_answers("stamp_relative_position");
    CHECK(close(number(a, "shifted_dot"), number(a, "dot"), "1e-40"));
    CHECK(close(number(a, "relative_dot"), number(a, "dot"), "1e-40"));
    CHECK(word(a, "dot_depends_on") == "B");
}

TEST_CASE("companion position_interpolation: 100 positions into 8, factor 12.5") {
    const Values a = gqa_long_context_answers("position_interpolation");
    CHECK(close(number(a, "interpolation_factor"), Real("12.5")));
    CHECK(close(number(a, "neighbour_angle_degrees"), Real("2.4"), "1e-40"));
    CHECK(close(number(a, "landed_position"), Real(8)));
    CHECK(close(number(a, "landed_angle_degrees"), Real(240), "1e-40"));  // the last trained angle
    CHECK(close(number(a, "unscaled_angle_degrees"), Real(3000), "1e-40"));
}

TEST_CASE("companion interpolation_every_frequency: every pair slows by the same factor") {
    const Values a = gqa_long_context_answers("interpolation_every_frequency");
    CHECK(close(part<Vector<Real>>(a, "inverse_frequencies"), {Real(1), Real("0.1"), Real("0.01"), Real("0.001")}, "1e-40"));
    for (const Real& s : part<Vector<Real>>(a, "slowdown")) CHECK(close(s, Real("12.5"), "1e-40"));
    CHECK(prints_as(part<Vector<Real>>(a, "interpolated_angles"), {"8", "0.8", "0.08", "0.008"}));
    CHECK(word(a, "which_pairs_slow_down") == "B");
}

TEST_CASE("companion ntk_aware_scaling: the first pair is unchanged, the last divided by exactly s") {
    const Values a = gqa_long_context_answers("ntk_aware_scaling");
    CHECK(prints_as(number(a, "ntk_base"), "82684.622641"));  // 10000 * 8^(128/126)
    CHECK(number(a, "first_inverse_frequency") == 1);
    CHECK(number(a, "ntk_first_inverse_frequency") == 1);
    CHECK(close(number(a, "last_pair_slowdown"), Real(8), "1e-40"));
    CHECK(close(number(a, "ntk_last_inverse_frequency") * Real(8), number(a, "last_inverse_frequency"), "1e-40"));
    CHECK(close(number(a, "linear_first_inverse_frequency"), Real("0.125")));
}

TEST_CASE("companion ntk_vs_linear: NTK's slowdown runs from 1 to s, linear's is s everywhere") {
    const Values a = gqa_long_context_answers("ntk_vs_linear");
    const Vector<Real>& ntk = part<Vector<Real>>(a, "ntk_slowdown");
    REQUIRE(ntk.size() == 4);
    CHECK(close(ntk.front(), Real(1), "1e-40"));
    CHECK(close(ntk.back(), Real(4), "1e-40"));
    using std::pow;
    CHECK(close(ntk[1], pow(Real(4), Real(1) / Real(3)), "1e-40"));  // 4^(2i/(d-2)), i = 1, d = 8
    for (std::size_t i = 1; i < ntk.size(); ++i) CHECK(ntk[i] > ntk[i - 1]);
    for (const Real& s : part<Vector<Real>>(a, "linear_slowdown")) CHECK(close(s, Real(4), "1e-40"));
    CHECK(word(a, "keeps_fastest_pair") == "B");
}

TEST_CASE("companion gqa_groups: 48 query heads in 8 groups of 6") {
    const Values a = gqa_long_context_answers("gqa_groups");
    CHECK(number(a, "heads_per_group") == 6);
    CHECK(close(part<Vector<Real>>(a, "kv_head_of_query"), {Real(0), Real(0), Real(1), Real(3), Real(7)}));
    CHECK(close(part<Vector<Real>>(a, "query_heads_sharing"), {Real(18), Real(19), Real(20), Real(21), Real(22), Real(23)}));

    Values bad = gqa_long_context_inputs(gqa_long_context_exercise("gqa_groups"));
    bad["kv_heads"] = Real(5);
    CHECK_THROWS_WITH_AS(run_reference("gqa_groups", bad), doctest::Contains("divide"), InputError);
}

TEST_CASE("companion kv_cache_sizes and kv_cache_budget: exact bytes, ratios and batches") {
    const Values a = gqa_long_context_answers("kv_cache_sizes");
    CHECK(number(a, "mha_kv_cache_bytes") == Real("10737418240"));  // 10 GiB
    CHECK(number(a, "gqa_kv_cache_bytes") == Real("1342177280"));
    CHECK(number(a, "mqa_kv_cache_bytes") == Real("167772160"));
    CHECK(number(a, "mha_to_gqa_ratio") == 8);
    CHECK(number(a, "gqa_to_mqa_ratio") == 8);
    CHECK(number(a, "gqa_kv_cache_gib") == Real("1.25"));

    const Values b = gqa_long_context_answers("kv_cache_budget");
    CHECK(number(b, "mha_bytes_per_sequence") == Real("10737418240"));
    CHECK(number(b, "gqa_bytes_per_sequence") == Real("1342177280"));
    CHECK(number(b, "mha_max_batch") == 4);
    CHECK(number(b, "gqa_max_batch") == 32);
    CHECK(number(b, "mqa_max_batch") == 256);
}

TEST_CASE("companion llama_ffn_width: 11008 for 4096 and a multiple of 256; SwiGLU costs 1.5x at equal width") {
    const Values a = gqa_long_context_answers("llama_ffn_width");
    CHECK(number(a, "relu_ffn_hidden") == 16384);
    CHECK(number(a, "relu_ffn_parameters") == Real("134217728"));
    CHECK(number(a, "same_width_swiglu_ratio") == Real("1.5"));
    CHECK(number(a, "two_thirds_width") == 10922);
    CHECK(number(a, "llama_ffn_hidden") == 11008);
    CHECK(number(a, "llama_swiglu_ffn_parameters") == Real("135266304"));
    CHECK(number(a, "llama_to_relu_ratio") == Real("1.0078125"));

    Values thirteen_b{{"hidden_size", Real(5120)}, {"multiple_of", Real(256)}};
    CHECK(number(run_reference("llama_ffn_width", thirteen_b), "llama_ffn_hidden") == 13824);
}

TEST_CASE("companion llama_block_parameters: a LLaMA-7B-like block, about two thirds FFN") {
    const Values a = gqa_long_context_answers("llama_block_parameters");
    CHECK(number(a, "ffn_hidden_size") == 11008);
    CHECK(number(a, "attention_parameters") == Real("67108864"));
    CHECK(number(a, "ffn_parameters") == Real("135266304"));
    CHECK(number(a, "norm_parameters") == 8192);
    CHECK(number(a, "block_parameters") == Real("202383360"));
    CHECK(prints_as(number(a, "ffn_share"), "0.668367"));
}

TEST_CASE("companion llama_block_tiny: position 0 attends to itself; both residual paths add up") {
    const nlohmann::json exercise = gqa_long_context_exercise("llama_block_tiny");
    const Values in = gqa_long_context_inputs(exercise);
    const Values a = run_reference("llama_block_tiny", in);
    const Matrix<Real>& n = part<Matrix<Real>>(a, "attention_input");
    const Matrix<Real>& r = part<Matrix<Real>>(a, "residual");
    const Matrix<Real>& m = part<Matrix<Real>>(a, "ffn_input");
    const Matrix<Real>& y = part<Matrix<Real>>(a, "output");
    const Matrix<Real>& x = std::get<Matrix<Real>>(in.at("x"));
    const Vector<Real>& ffn_norm = std::get<Vector<Real>>(in.at("ffn_norm"));

    // Row 0 sees only its own key: each query head's output is V[0] (one shared K/V head).
    const Matrix<Real> v0 = matmul(matrix_from_rows<Real>({Vector<Real>(n.row(0).begin(), n.row(0).end())}),
                                   std::get<Matrix<Real>>(in.at("v")));  // [1, 2]
    Matrix<Real> heads0(1, 4);
    for (std::size_t h = 0; h < 2; ++h)
        for (std::size_t c = 0; c < 2; ++c) heads0(0, h * 2 + c) = v0(0, c);
    const Matrix<Real> attn0 = matmul(heads0, std::get<Matrix<Real>>(in.at("o")));
    for (std::size_t c = 0; c < 4; ++c) CHECK(close(r(0, c), x(0, c) + attn0(0, c), "1e-40"));

    // M = RMSNorm(R); output = R + FFN(M): the second residual path adds to R, not to M.
    CHECK(close(m.values, rms_norm_rows<Real>(r, ffn_norm, Real("0.000001")).values, "1e-40"));
    const Matrix<Real> ffn = swiglu_ffn(m, std::get<Matrix<Real>>(in.at("w_gate")), std::get<Matrix<Real>>(in.at("w_up")),
                                        std::get<Matrix<Real>>(in.at("w_down")));
    CHECK(close(y.values, add(r, ffn).values, "1e-40"));
}

TEST_CASE("companion block_position_shift: the same rows at later positions give the same output") {
    const Values tiny = gqa_long_context_answers("llama_block_tiny");
    const Values a = gqa_long_context_answers("block_position_shift");
    CHECK(close(part<Matrix<Real>>(a, "shifted_output").values, part<Matrix<Real>>(tiny, "output").values, "1e-40"));
    CHECK(truth(a, "output_changes") == false);
    CHECK(word(a, "sees_position") == "B");
    CHECK(word(a, "norm_placement") == "C");
}

TEST_CASE("companion rope_attention_demo: the demo's halves are the block's half layout on deinterleaved heads") {
    const Values in = gqa_long_context_inputs(gqa_long_context_exercise("rope_attention_demo"));
    const Values a = run_reference("rope_attention_demo", in);
    const Matrix<Real>& q = std::get<Matrix<Real>>(in.at("q"));
    const Matrix<Real>& v = std::get<Matrix<Real>>(in.at("v"));
    const Matrix<Real>& q_rotated = part<Matrix<Real>>(a, "q_rotated");
    const Matrix<Real>& out = part<Matrix<Real>>(a, "attention_output");
    REQUIRE(q_rotated.rows == 8);
    REQUIRE(q_rotated.cols == 32);

    // Deinterleave each head (x's first, y's second), then rotate pairs (i, i + d/2).
    const Rope<Real> half = make_rope(Real(10000), 16, RopeScaling<Real>{}, RopeLayout::half);
    for (std::size_t t = 0; t < 8; ++t) {
        Vector<Real> row(32);
        for (std::size_t head = 0; head < 32; head += 16)
            for (std::size_t i = 0; i < 8; ++i) {
                row[head + i] = q(t, head + 2 * i);
                row[head + 8 + i] = q(t, head + 2 * i + 1);
            }
        apply_rope<Real>(row, half, rope_turn(half, Real(static_cast<long>(t))));
        CHECK(close(row, Vector<Real>(q_rotated.row(t).begin(), q_rotated.row(t).end()), "1e-40"));
    }

    // No causal mask: row 0 mixes all 8 V rows. Recompute head 0 of row 0 directly.
    const Matrix<Real>& k_rotated = part<Matrix<Real>>(a, "k_rotated");
    Vector<Real> scores(8);
    for (std::size_t s = 0; s < 8; ++s)
        scores[s] = dot<Real>(q_rotated.row(0).subspan(0, 16), k_rotated.row(s).subspan(0, 16)) / Real(4);
    const Vector<Real> w = softmax<Real>(scores);
    for (std::size_t c = 0; c < 16; ++c) {
        Real expected(0);
        for (std::size_t s = 0; s < 8; ++s) expected += w[s] * v(s, c);
        CHECK(close(out(0, c), expected, "1e-40"));
    }
}

TEST_CASE("companion rope_write_back_layout: Q changes with the layout, the attention output does not") {
    const Values demo = gqa_long_context_answers("rope_attention_demo");
    const Values a = gqa_long_context_answers("rope_write_back_layout");
    CHECK(close(part<Matrix<Real>>(a, "attention_output_interleaved").values,
                part<Matrix<Real>>(demo, "attention_output").values, "1e-40"));
    CHECK(!close(part<Matrix<Real>>(a, "q_interleaved").values, part<Matrix<Real>>(demo, "q_rotated").values, "1e-6"));
    CHECK(truth(a, "q_changes") == true);
    CHECK(truth(a, "output_changes") == false);
    CHECK(word(a, "why") == "A");
}

TEST_CASE("companion misconceptions_by_numbers: SiLU leaves [0, 1], RMSNorm keeps a nonzero mean") {
    const Values a = gqa_long_context_answers("misconceptions_by_numbers");
    CHECK(prints_as(part<Vector<Real>>(a, "silu"), {"-0.238406", "-0.268941", "0.311230", "2.857722"}));
    CHECK(prints_as(part<Vector<Real>>(a, "sigmoid"), {"0.119203", "0.268941", "0.622459", "0.952574"}));
    CHECK(prints_as(part<Vector<Real>>(a, "rms_norm"), {"0.848528", "1.131371"}));
    CHECK(prints_as(number(a, "rms_norm_mean"), "0.989949"));
    CHECK(truth(a, "silu_is_pass_ratio") == false);
    CHECK(truth(a, "rms_norm_has_zero_mean") == false);
}

TEST_CASE("companion interview_questions: computed statements agree with the facts") {
    const Values a = gqa_long_context_answers("interview_questions");
    CHECK(truth(a, "rope_rotates_v") == false);
    CHECK(truth(a, "max_context_proves_ability") == false);
    CHECK(truth(a, "gqa_extremes_are_mqa_and_mha") == true);
    CHECK(truth(a, "interpolation_keeps_neighbour_angle") == false);
    CHECK(word(a, "kv_cache_grows_with") == "B");
    CHECK(word(a, "ntk_slows_most") == "C");

    Values no_stretch{{"query_heads", Real(48)}, {"angle_degrees", Real(30)}, {"factor", Real(1)}};
    CHECK_THROWS_WITH_AS(run_reference("interview_questions", no_stretch), doctest::Contains("factor"), InputError);
}
