// Chapter 25's reference solutions, run on the inputs of their exercise files, give the
// chapter's printed numbers (to the six decimals printed) and its exact counts.
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

const fs::path source_dir = BLOCKCHECK_SOURCE_DIR;
const fs::path exercise_dir = source_dir / "data" / "exercises" / "ch25";

nlohmann::json load_exercise(const std::string& id) {
    std::ifstream file(exercise_dir / (id + ".json"));
    REQUIRE_MESSAGE(file, "cannot open the exercise file of " << id);
    return nlohmann::json::parse(file);
}

// Reads one input value of the protocol: a number, [a, b], [[a, b], [c, d]], true or false.
class ValueText {
public:
    explicit ValueText(std::string_view text) : s_(text) {}

    Value read() {
        skip();
        if (s_ == "true" || s_ == "false") return Value(std::in_place_type<bool>, s_ == "true");
        if (!at('[')) return number();
        std::size_t mark = i_++;
        skip();
        bool nested = at('[');
        i_ = mark;
        Value v = nested ? Value(matrix()) : Value(vector());
        skip();
        if (i_ != s_.size()) throw std::invalid_argument("trailing text in '" + std::string(s_) + "'");
        return v;
    }

private:
    void skip() {
        while (i_ < s_.size() && s_[i_] == ' ') ++i_;
    }
    bool at(char c) { return skip(), i_ < s_.size() && s_[i_] == c; }
    void expect(char c) {
        if (!at(c)) throw std::invalid_argument(std::string("expected '") + c + "' in '" + std::string(s_) + "'");
        ++i_;
    }
    Real number() {
        skip();
        std::size_t start = i_;
        while (i_ < s_.size() && std::string_view("+-.0123456789eE").find(s_[i_]) != std::string_view::npos) ++i_;
        return parse_real<Real>(s_.substr(start, i_ - start));
    }
    Vector<Real> vector() {
        Vector<Real> v;
        expect('[');
        if (at(']')) return ++i_, v;
        for (v.push_back(number()); at(','); v.push_back(number())) ++i_;
        expect(']');
        return v;
    }
    Matrix<Real> matrix() {
        std::vector<Vector<Real>> rows;
        expect('[');
        for (rows.push_back(vector()); at(','); rows.push_back(vector())) ++i_;
        expect(']');
        return matrix_from_rows(rows);
    }

    std::string_view s_;
    std::size_t i_ = 0;
};

Values book_inputs(const nlohmann::json& exercise) {
    Values values;
    for (const auto& [name, text] : exercise.at("inputs").items()) values[name] = ValueText(text.get<std::string>()).read();
    return values;
}

// The reference of an exercise on the book's inputs (those of its exercise file).
Values book_answers(const std::string& id) {
    const auto& all = reference_solutions();
    auto it = all.find(id);
    REQUIRE_MESSAGE(it != all.end(), "no reference solution for " << id);
    Values inputs = book_inputs(load_exercise(id));
    return it->second(Inputs(inputs));
}


}  // namespace

TEST_CASE("reference solutions cover every ch25 exercise file, with its answer names and kinds") {
    std::set<std::string> ids;
    for (const auto& entry : fs::directory_iterator(exercise_dir)) {
        if (entry.path().extension() != ".json" || entry.path().filename() == "chapter.json") continue;
        const std::string id = entry.path().stem().string();
        ids.insert(id);
        CAPTURE(id);
        const nlohmann::json exercise = load_exercise(id);
        CHECK(exercise.at("id") == id);
        CHECK(fs::exists(source_dir / exercise.at("source").get<std::string>()));
        CHECK(fs::exists(source_dir / "tests" / "solved" / "ch25" / (id + ".cpp")));
        for (const auto& [name, variant] : exercise.at("variants").items()) {
            CAPTURE(name);
            CHECK(exercise.at("inputs").contains(name));
        }

        const Values answers = book_answers(id);
        std::set<std::string> names;
        for (const auto& a : exercise.at("answers")) {
            const std::string name = a.at("name"), kind = a.at("kind");
            CAPTURE(name);
            names.insert(name);
            auto it = answers.find(name);
            REQUIRE(it != answers.end());
            const Value& v = it->second;
            const bool undefined = std::holds_alternative<Undefined>(v);
            if (kind == "number") CHECK((std::holds_alternative<Real>(v) || undefined));
            if (kind == "vector") CHECK((std::holds_alternative<Vector<Real>>(v) || undefined));
            if (kind == "matrix") CHECK((std::holds_alternative<Matrix<Real>>(v) || undefined));
            if (kind == "boolean") CHECK(std::holds_alternative<bool>(v));
            if (kind == "integer") {
                REQUIRE(std::holds_alternative<Real>(v));
                using std::floor;
                CHECK(floor(std::get<Real>(v)) == std::get<Real>(v));
            }
            if (kind == "choice") {
                REQUIRE(std::holds_alternative<Choice>(v));
                const auto options = a.at("options").get<std::vector<std::string>>();
                CHECK(std::find(options.begin(), options.end(), std::get<Choice>(v).word) != options.end());
            }
        }
        CHECK(names.size() == answers.size());  // no answer the exercise does not ask for
    }
    CHECK(ids.size() == 10);
    for (const auto& [id, solution] : reference_solutions())
        if (fs::exists(exercise_dir / (id + ".json"))) CHECK(ids.count(id) == 1);
}

TEST_CASE("reference rope_quarter_turn_table reproduces table 25.1") {
    const Values a = book_answers("rope_quarter_turn_table");
    CHECK(prints_as(part<Matrix<Real>>(a, "rope_query"), {{"1", "0"}, {"1", "0"}, {"0", "1"}, {"1", "0"}}));
    CHECK(prints_as(part<Matrix<Real>>(a, "rope_key"), {{"1", "0"}, {"0", "1"}, {"-1", "0"}, {"-1", "0"}}));
    CHECK(prints_as(part<Vector<Real>>(a, "dot"), {"1", "0", "0", "-1"}));
}

TEST_CASE("reference rope_quarter_turn_table: equal position gaps give equal dot products at any angle") {
    Values in{{"query", Vector<Real>{Real("0.5"), Real("-1.5")}},
              {"key", Vector<Real>{Real(2), Real("0.25")}},
              {"angle_degrees", Real(30)},
              {"query_positions", Vector<Real>{Real(0), Real(3), Real(5)}},
              {"key_positions", Vector<Real>{Real(2), Real(5), Real(7)}}};
    const Values a = reference_solutions().at("rope_quarter_turn_table")(Inputs(in));
    const Vector<Real>& dots = part<Vector<Real>>(a, "dot");
    using std::abs;
    CHECK(abs(dots[0] - dots[1]) < Real("1e-45"));
    CHECK(abs(dots[0] - dots[2]) < Real("1e-45"));
}

TEST_CASE("reference rms_norm_vs_layer_norm reproduces example 25.2") {
    const Values a = book_answers("rms_norm_vs_layer_norm");
    CHECK(part<Real>(a, "mean_square") == Real("12.5"));
    CHECK(prints_as(part<Real>(a, "root_mean_square"), "3.535534"));
    CHECK(prints_as(part<Vector<Real>>(a, "rms_norm"), {"0.848528", "1.131371"}));
    CHECK(prints_as(part<Vector<Real>>(a, "shifted_rms_norm"), {"0.883452", "1.104315"}));
    CHECK(prints_as(part<Vector<Real>>(a, "layer_norm"), {"-1", "1"}));
    CHECK(prints_as(part<Vector<Real>>(a, "shifted_layer_norm"), {"-1", "1"}));
}

TEST_CASE("reference rms_norm_vs_layer_norm answers undefined for a zero or a constant row") {
    Values in{{"row", Vector<Real>{Real(2), Real(2)}}, {"shift", Real(-2)}};
    const Values a = reference_solutions().at("rms_norm_vs_layer_norm")(Inputs(in));
    CHECK(std::holds_alternative<Vector<Real>>(a.at("rms_norm")));
    CHECK(std::holds_alternative<Undefined>(a.at("shifted_rms_norm")));  // [0, 0]
    CHECK(std::holds_alternative<Undefined>(a.at("layer_norm")));        // [2, 2]
    CHECK(std::holds_alternative<Undefined>(a.at("shifted_layer_norm")));
}

TEST_CASE("reference swiglu_ffn_2d reproduces example 25.3") {
    const Values a = book_answers("swiglu_ffn_2d");
    CHECK(prints_as(part<Vector<Real>>(a, "gate"), {"1", "-1"}));
    CHECK(prints_as(part<Vector<Real>>(a, "up"), {"2", "3"}));
    CHECK(prints_as(part<Vector<Real>>(a, "silu"), {"0.731059", "-0.268941"}));
    CHECK(prints_as(part<Vector<Real>>(a, "swiglu_hidden"), {"1.462117", "-0.806824"}));
    CHECK(prints_as(part<Vector<Real>>(a, "swiglu_ffn"), {"0.655293", "-0.806824"}));
}

TEST_CASE("reference ffn_parameter_counts reproduces table 25.2 exactly") {
    const Values a = book_answers("ffn_parameter_counts");
    CHECK(part<Real>(a, "relu_ffn_parameters") == 1152);
    CHECK(part<Real>(a, "swiglu_ffn_parameters") == 1728);
    CHECK(part<Real>(a, "narrow_swiglu_ffn_parameters") == 1152);
}

TEST_CASE("reference rope_later_positions: answer 25.7-1") {
    const Values a = book_answers("rope_later_positions");
    CHECK(prints_as(part<Vector<Real>>(a, "rope_query"), {"-1", "0"}));
    CHECK(prints_as(part<Vector<Real>>(a, "rope_key"), {"0", "-1"}));
    CHECK(prints_as(part<Real>(a, "dot"), "0"));
    CHECK(part<Real>(a, "relative_angle_degrees") == 90);  // still a quarter turn
    CHECK(part<bool>(a, "causal_can_use_key") == false);
}

TEST_CASE("reference rms_norm_zero_row: answer 25.7-2") {
    const Values a = book_answers("rms_norm_zero_row");
    CHECK(part<Real>(a, "mean_square") == 2);
    CHECK(prints_as(part<Real>(a, "root_mean_square"), "1.414214"));
    CHECK(prints_as(part<Vector<Real>>(a, "rms_norm"), {"0", "1.414214"}));
    CHECK(std::holds_alternative<Undefined>(a.at("zero_row_rms_norm")));
    CHECK(word(a, "why_root_of_mean") == "B");
}

TEST_CASE("reference rms_norm_shift: answer 25.7-3") {
    const Values a = book_answers("rms_norm_shift");
    CHECK(prints_as(part<Vector<Real>>(a, "rms_norm"), {"0.848528", "1.131371"}));
    CHECK(prints_as(part<Vector<Real>>(a, "shifted_rms_norm"), {"0.962303", "1.036326"}));  // [13, 14]
    CHECK(prints_as(part<Vector<Real>>(a, "layer_norm"), {"-1", "1"}));
    CHECK(prints_as(part<Vector<Real>>(a, "shifted_layer_norm"), {"-1", "1"}));
    CHECK(part<bool>(a, "rms_norm_keeps_output") == false);
    CHECK(part<bool>(a, "layer_norm_keeps_output") == true);
}

TEST_CASE("reference swiglu_identity_down: answer 25.7-4") {
    const Values a = book_answers("swiglu_identity_down");
    CHECK(prints_as(part<Vector<Real>>(a, "swiglu_ffn"), {"1.462117", "-0.806824"}));
    CHECK(part<bool>(a, "mixes_positions") == false);
}

TEST_CASE("reference swiglu_matched_budget: answer 25.7-5, counts exact") {
    const Values a = book_answers("swiglu_matched_budget");
    CHECK(part<Real>(a, "relu_ffn_parameters") == 4608);
    CHECK(part<Real>(a, "matched_ffn_hidden_size") == 64);
    CHECK(part<Real>(a, "matched_swiglu_ffn_parameters") == 4608);
    CHECK(part<Real>(a, "swiglu_ffn_parameters") == 6912);  // half as much again as 4608
}

TEST_CASE("reference swiglu_matched_budget rejects a width with no whole two thirds") {
    Values in{{"hidden_size", Real(24)}, {"ffn_hidden_size", Real(100)}};
    CHECK_THROWS_WITH_AS(reference_solutions().at("swiglu_matched_budget")(Inputs(in)),
                         doctest::Contains("multiple of 3"), InputError);
}

TEST_CASE("reference max_sequence_slots: answer 25.7-6") {
    const Values a = book_answers("max_sequence_slots");
    CHECK(part<bool>(a, "proves_long_range_use") == false);
    CHECK(word(a, "what_it_may_allow") == "C");
    CHECK(word(a, "what_it_does_not_prove") == "A");
    CHECK(word(a, "needed_test") == "B");
}
