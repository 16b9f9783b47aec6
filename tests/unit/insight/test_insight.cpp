// The instructor's view on a synthetic class of 60 whose mistakes, wrong answers and shared
// programs are planted at known rates, in the results files' on-disk format: every count and
// share, the item statistics against their definition, the shared groups found (and no honest
// one), and merged shards giving the same insight files byte for byte.
#include "checker/exercise/variants.hpp"
#include "checker/batch/batch.hpp"
#include "bench/grading_bench.hpp"
#include "checker/insight/insight_stats.hpp"
#include "checker/insight/insight_write.hpp"
#include "checker/batch/merge.hpp"
#include "checker/batch/detail/resume.hpp"
#include "checker/outputs/student_id.hpp"
#include "exercise_testing.hpp"
#include "temp_dir.hpp"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <cmath>
#include <map>
#include <set>

using namespace blockcheck;
using blockcheck::testing::file_text;
using blockcheck::testing::repository;
using blockcheck::testing::shipped_exercises;
namespace fs = std::filesystem;

namespace {

constexpr std::size_t class_size = 60;
const char* const swiglu = "swiglu_ffn_2d";
const char* const shift = "rms_norm_shift";

std::string id_of(std::size_t i) { return fmt::format("s{:02}", i); }

// One verdict (and diagnosis, printed answer) a part; every other part right.
struct Planted {
    std::string verdict = "correct", diagnosis, given;
};

ExerciseRecord record_of(const Exercise& e, const std::map<std::string, Planted>& planted, std::string code) {
    ExerciseRecord r{.id = e.id, .status = "done", .max_score = e.max_score(), .source = e.file_name()};
    for (const AnswerSpec& a : e.answers) {
        const Planted p = planted.contains(a.name) ? planted.at(a.name) : Planted{};
        const bool right = p.verdict == "correct";
        PartRecord part{a.name, p.verdict, right ? a.points : 0, a.points, right ? "" : "wrong: planted"};
        part.diagnosis_id = p.diagnosis;
        part.given = p.given;
        r.score += part.score;
        if (!right) r.status = "failing";
        r.parts.push_back(part);
    }
    r.code_shape = code_shape(code);
    return r;
}

// A program of its own for student i: the solved program with i + 1 statements of its own.
std::string own_program(std::size_t i) {
    std::string text = file_text(repository() / "tests/solved/ch25/swiglu_ffn_2d.cpp");
    std::string extra;
    for (std::size_t k = 0; k <= i; ++k) extra += fmt::format("    double extra_{} = {} * x[0];\n", k, k + 1);
    const std::size_t at = text.find("int main() {\n");
    REQUIRE(at != std::string::npos);
    return text.insert(at + 13, extra);
}

// The planted copies: student -> the student whose program they hand in, as the benchmark's
// generator writes it for them (other names, comments and indentation; the same helper).
const std::map<std::size_t, std::size_t> copied_from = {{12, 7}, {26, 16}, {8, 3}};

// The class: swiglu_ffn_2d with 30% sigmoid_for_silu (silu and both later parts), 10% wrong
// answers no mistake explains, 10% not handed in, 10% float-sized but accepted silu, 40% right;
// rms_norm_shift by a quarter with mean_subtracted on rms_norm, the rest right.
std::vector<StudentRecord> planted_class() {
    const ExerciseSet& set = shipped_exercises();
    std::vector<StudentRecord> students;
    for (std::size_t i = 0; i < class_size; ++i) {
        StudentRecord s{.student = id_of(i), .submission = id_of(i)};
        s.key = "key-" + s.student;
        std::map<std::string, Planted> swiglu_parts;
        const std::size_t kind = i % 10;
        if (kind <= 2) {
            const Planted p{"wrong", "sigmoid_for_silu", "[0.5, 0.25]"};  // the same answer: explained, never "shared"
            swiglu_parts = {{"silu", p}, {"swiglu_hidden", p}, {"swiglu_ffn", p}};
        } else if (kind == 3) {
            // s03 and s13 print the same 17-digit wrong value; s23 and s33 the same short one; the rest their own
            const std::string hidden = i == 3 || i == 13 ? "[1.6083288729860108e+00, -8.8750669052098397e-01]"
                                                         : fmt::format("[{}.0312571234, -1]", i);
            const std::string ffn = i == 23 || i == 33 ? "[2, 1]" : fmt::format("[{}.7208221824, 0.5]", i);
            swiglu_parts = {{"swiglu_hidden", {"wrong", "", hidden}}, {"swiglu_ffn", {"wrong", "", ffn}}};
        } else if (kind == 5) {
            swiglu_parts = {{"silu", {"correct", "float_precision", ""}}};
        }
        const std::size_t author = copied_from.contains(i) ? copied_from.at(i) : i;
        if (kind != 4)
            s.exercises.push_back(record_of(set.at(swiglu), swiglu_parts, personalised_program(own_program(author), i == author ? i : author + 5)));
        std::map<std::string, Planted> shift_parts;
        if (i % 4 == 0) shift_parts = {{"rms_norm", {"wrong", "mean_subtracted", "[1, -1]"}}};
        s.exercises.push_back(record_of(set.at(shift), shift_parts, fmt::format("int main() {{ return {}; }}", i)));
        for (const ExerciseRecord& e : s.exercises) s.score += e.score;
        s.max_score = 0;
        for (const Exercise& e : set.all()) s.max_score += e.max_score();
        students.push_back(std::move(s));
    }
    return students;
}

// The class as results files: written and read back, as a merge reads them.
std::vector<StudentRecord> from_disk(const std::vector<StudentRecord>& students, const fs::path& dir) {
    fs::create_directories(dir / "results");
    std::vector<StudentRecord> read;
    for (const StudentRecord& s : students) {
        const fs::path file = dir / "results" / (student_file_stem(s.student) + ".json");
        write_file_atomically(file, dump_json(student_json(s)));
        read.push_back(student_from_json(nlohmann::json::parse(read_file(file))));
    }
    return read;
}

const nlohmann::json& part_of(const nlohmann::json& insight, const std::string& exercise, const std::string& part) {
    for (const auto& p : insight.at("parts"))
        if (p.at("exercise") == exercise && p.at("part") == part) return p;
    FAIL("no part " << exercise << "." << part);
    static const nlohmann::json none;
    return none;
}

// outcome -> (count, share, students)
std::map<std::string, std::tuple<std::size_t, double, std::vector<std::string>>> outcomes_of(const nlohmann::json& part) {
    std::map<std::string, std::tuple<std::size_t, double, std::vector<std::string>>> out;
    for (const auto& o : part.at("outcomes"))
        out[o.at("outcome")] = {o.at("count"), o.at("share"), o.at("students").get<std::vector<std::string>>()};
    return out;
}

std::vector<std::string> ids_where(auto predicate) {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < class_size; ++i)
        if (predicate(i)) out.push_back(id_of(i));
    return out;
}

// The point-biserial correlation from its textbook definition: (M1 - M0) / s * sqrt(p q), with
// s the population standard deviation of the rest of the total.
double point_biserial_by_definition(const std::vector<int>& item, const std::vector<double>& rest) {
    double m1 = 0, m0 = 0, n1 = 0, n0 = 0, mean = 0, var = 0;
    for (std::size_t i = 0; i < item.size(); ++i) (item[i] ? m1 : m0) += rest[i], (item[i] ? n1 : n0) += 1, mean += rest[i];
    m1 /= n1, m0 /= n0, mean /= double(item.size());
    for (double r : rest) var += (r - mean) * (r - mean);
    const double p = n1 / double(item.size());
    return (m1 - m0) / std::sqrt(var / double(item.size())) * std::sqrt(p * (1 - p));
}

}  // namespace

TEST_CASE("insight counts every planted outcome and mistake of a class of 60 at its planted share") {
    const blockcheck::testing::TempDir dir("insight");
    const std::vector<StudentRecord> students = from_disk(planted_class(), dir.path);
    const nlohmann::json in = insight_json(compute_insight(shipped_exercises(), students));
    CHECK(in.at("format") == "blockcheck-insight/1");
    CHECK(in.at("students") == 60);

    const auto silu = outcomes_of(part_of(in, swiglu, "silu"));
    using Row = std::tuple<std::size_t, double, std::vector<std::string>>;
    CHECK(silu.at("mistake:sigmoid_for_silu") == Row{18, 0.3, ids_where([](std::size_t i) { return i % 10 <= 2; })});
    CHECK(silu.at("float") == Row{6, 0.1, ids_where([](std::size_t i) { return i % 10 == 5; })});
    CHECK(silu.at("not_done") == Row{6, 0.1, ids_where([](std::size_t i) { return i % 10 == 4; })});
    CHECK(std::get<0>(silu.at("right")) == 30);  // kinds 3, 6, 7, 8, 9
    CHECK(silu.size() == 4);

    const nlohmann::json& hidden = part_of(in, swiglu, "swiglu_hidden");
    const auto h = outcomes_of(hidden);
    CHECK(h.at("mistake:sigmoid_for_silu") == Row{18, 0.3, ids_where([](std::size_t i) { return i % 10 <= 2; })});
    CHECK(h.at("other_wrong") == Row{6, 0.1, ids_where([](std::size_t i) { return i % 10 == 3; })});
    CHECK(std::get<0>(h.at("right")) == 30);
    CHECK(hidden.at("wrong_answers") == 24);
    CHECK(hidden.at("unexplained") == false);  // 6 of 24 wrong answers are unexplained
    CHECK(hidden.at("difficulty") == doctest::Approx(0.5));  // right or float: 30 of 60

    const auto rms = outcomes_of(part_of(in, shift, "rms_norm"));
    CHECK(rms.at("mistake:mean_subtracted") == Row{15, 0.25, ids_where([](std::size_t i) { return i % 4 == 0; })});
    CHECK(std::get<0>(rms.at("right")) == 45);

    // The listed order: right, float, mistakes by count, other wrong, not done.
    std::vector<std::string> order;
    for (const auto& o : part_of(in, swiglu, "swiglu_hidden").at("outcomes")) order.push_back(o.at("outcome"));
    CHECK(order == std::vector<std::string>{"right", "mistake:sigmoid_for_silu", "other_wrong", "not_done"});

    // The terminal's first line of mistakes is the largest share, as the example writes it.
    const std::string findings = insight_findings(in, Lang::en);
    CHECK(findings.find("swiglu_ffn_2d.silu: 30% sigmoid_for_silu") != std::string::npos);
    CHECK(findings.find("rms_norm_shift.rms_norm: 25% mean_subtracted") != std::string::npos);
}

TEST_CASE("insight's difficulty and discrimination equal their definitions, computed again from the records") {
    const blockcheck::testing::TempDir dir("insight");
    const std::vector<StudentRecord> students = from_disk(planted_class(), dir.path);
    const nlohmann::json in = insight_json(compute_insight(shipped_exercises(), students));
    for (const auto& [exercise, part] : {std::pair{swiglu, "silu"}, std::pair{shift, "rms_norm"}}) {
        CAPTURE(part);
        std::vector<int> item;
        std::vector<double> rest;
        for (const StudentRecord& s : students) {
            int right = 0;
            double score = 0;
            for (const ExerciseRecord& e : s.exercises)
                for (const PartRecord& p : e.parts)
                    if (e.id == exercise && p.name == part) right = p.verdict == "correct", score = p.score;
            item.push_back(right);
            rest.push_back(s.score - score);
        }
        const nlohmann::json& p = part_of(in, exercise, part);
        const double share = double(std::count(item.begin(), item.end(), 1)) / double(item.size());
        CHECK(p.at("difficulty").get<double>() == doctest::Approx(share).epsilon(1e-6));
        CHECK(p.at("point_biserial").get<double>() == doctest::Approx(point_biserial_by_definition(item, rest)).epsilon(1e-5));
    }
    // rms_norm: wrong for i % 4 == 0, and those students lose nothing else but what the rest of
    // their plan takes; silu's wrong students also lose two later parts, so it discriminates.
    CHECK(part_of(in, swiglu, "silu").at("point_biserial").get<double>() > 0.1);
}

TEST_CASE("the point-biserial and upper-lower indices on a small table, by hand") {
    // rest of the total, best first: 5 4 3 3 1 0; the part right for the first three of them.
    const std::vector<int> item{1, 1, 0, 1, 0, 0};
    const std::vector<double> rest{5, 4, 3, 3, 1, 0};
    std::vector<double> x(item.begin(), item.end());
    // M1 = 4, M0 = 4/3, s = sqrt(104/36), p = q = 1/2
    const double by_hand = (4.0 - 4.0 / 3) / std::sqrt(104.0 / 36) * 0.5;
    CHECK(point_biserial_by_definition(item, rest) == doctest::Approx(by_hand));
    CHECK(*point_biserial(x, rest) == doctest::Approx(by_hand));
    // 27% of 6 is 2 students: the top two (5, 4) both right, the bottom two (1, 0) both wrong.
    CHECK(*upper_lower_index(x, rest) == doctest::Approx(1.0));
    // A part the weaker students get and the stronger miss: negative, and flagged in a class.
    const std::vector<double> reversed{0, 0, 1, 0, 1, 1};
    CHECK(*point_biserial(reversed, rest) < 0);
    CHECK(*upper_lower_index(reversed, rest) == doctest::Approx(-1.0));
    CHECK_FALSE(point_biserial(std::vector<double>(6, 1.0), rest).has_value());  // everyone right: undefined
    CHECK_FALSE(upper_lower_index(x, {1, 2, 3}).has_value());                   // too few students
}

TEST_CASE("insight lists the planted shared answers and programs, and no honest one") {
    const blockcheck::testing::TempDir dir("insight");
    const Insight in = compute_insight(shipped_exercises(), from_disk(planted_class(), dir.path));
    REQUIRE(in.shared_answers.size() == 1);  // not the short "[2, 1]", not the explained sigmoid answers
    CHECK(in.shared_answers[0].exercise == swiglu);
    CHECK(in.shared_answers[0].part == "swiglu_hidden");
    CHECK(in.shared_answers[0].students == std::vector<std::string>{"s03", "s13"});

    std::set<std::vector<std::string>> groups;
    for (const SharedCode& g : in.shared_code) {
        CHECK(g.exercise == swiglu);
        groups.insert(g.students);
    }
    CHECK(groups == std::set<std::vector<std::string>>{{"s03", "s08"}, {"s07", "s12"}, {"s16", "s26"}});
    CHECK(in.common_code.empty());
    for (const SharedCode& g : in.shared_code) CHECK(g.all_right == (g.students[0] == "s16"));  // s03 and s12 have wrong answers

    const std::string csv = insight_csv(in);
    CHECK(csv.find("swiglu_ffn_2d,swiglu_hidden,shared_answer,2,,,,,,") != std::string::npos);
    CHECK(csv.find(",s07; s12,,,\r\n") != std::string::npos);
}

TEST_CASE("merged shards give byte-identical insight files to one run over the same students") {
    const blockcheck::testing::TempDir dir("insight");
    const ExerciseSet& set = shipped_exercises();
    const std::vector<StudentRecord> students = planted_class();
    std::vector<StudentRecord> first, second;
    for (const StudentRecord& s : students) (s.student < "s31" ? first : second).push_back(s);
    for (auto [name, part, k] : {std::tuple{"shard1", &first, 1u}, std::tuple{"shard2", &second, 2u}}) {
        from_disk(*part, dir.path / name);
        write_file_atomically(dir.path / name / manifest_name, dump_json(run_manifest(set, false, Shard{k, 2}, *part)));
    }
    fs::create_directories(dir.path / "one");
    write_class_files(dir.path / "one", set, students);
    merge_outputs({dir.path / "shard2", dir.path / "shard1"}, dir.path / "merged", set);
    for (const char* file : {"insight.json", "insight.csv", "report.html"}) {
        CAPTURE(file);
        CHECK(file_text(dir.path / "merged" / file) == file_text(dir.path / "one" / file));
    }
    CHECK(file_text(dir.path / "one" / "insight.json").find("sigmoid_for_silu") != std::string::npos);
}

TEST_CASE("insight's share right per value of a variant parameter") {
    const Exercise& e = shipped_exercises().at("kv_cache_sizes");
    std::vector<StudentRecord> students;
    std::map<std::string, std::pair<std::size_t, std::size_t>> expected;  // kv_heads -> students, right
    std::size_t handed_in = 0;
    for (std::size_t i = 0; i < 40; ++i) {
        StudentRecord s{.student = id_of(i), .variants = true};
        const bool right = i % 3 != 0;
        std::map<std::string, Planted> parts;
        if (!right) parts[e.answers.front().name] = {"wrong", "", ""};
        ExerciseRecord r = record_of(e, parts, "");
        r.variant = variant_seed(s.student, e.id);
        if (i % 8 == 7) r.status = "not_done";  // handed in nothing: not counted for any value
        else {
            ++handed_in;
            for (const auto& [name, value] : variant_inputs(e, *r.variant))
                if (name == "kv_heads") ++expected[value].first, expected[value].second += right;
        }
        s.exercises.push_back(r);
        students.push_back(s);
    }
    const Insight in = compute_insight(shipped_exercises(), students);
    std::map<std::string, std::pair<std::size_t, std::size_t>> found;
    std::size_t layers_students = 0;
    for (const VariantInsight& v : in.variant_parameters) {
        CHECK(v.exercise == "kv_cache_sizes");
        if (v.parameter == "kv_heads")
            for (const VariantValue& x : v.values) found[x.value] = {x.students, x.right};
        if (v.parameter == "layers") {
            CHECK(v.values.size() == 4);  // many integers: four equal ranges
            for (const VariantValue& x : v.values) layers_students += x.students;
        }
    }
    CHECK(expected.size() >= 2);
    CHECK(found == expected);
    CHECK(layers_students == handed_in);
}
