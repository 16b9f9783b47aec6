// The student edition's tutor against the full edition's (issue 34, item 9): on the same synthetic
// outputs (a mistake made in one step alone, the earlier steps right, every later step computed
// from it), the student edition reading the data/expected/ that `release` wrote names what the
// full edition names, by its precomputed one-step candidates; and confirmation, on the variants
// the edition carries, keeps the same diagnoses.
#include "checker/common/files.hpp"
#include "checker/course/mistake_programs.hpp"
#include "checker/course/product_list.hpp"
#include "checker/course/release.hpp"
#include "checker/exercise/diagnosis.hpp"
#include "checker/exercise/grading.hpp"
#include "exercise_testing.hpp"
#include "temp_dir.hpp"

#include <doctest/doctest.h>

using namespace blockcheck;
namespace fs = std::filesystem;

namespace {

// The slip of mistake `id` made only at `step` (its feeds right) on `inputs`, every later step
// computed from it by the reference: what such a student's program prints.
std::optional<std::string> one_step_slip(const Exercise& e, const InputList& inputs, const std::string& step,
                                         const std::vector<std::string>& feeds, const std::string& id) {
    const Values right = expected_answers(e, inputs);
    Values given;
    for (const std::string& f : feeds) given.emplace(f, right.at(f));
    const auto at_step = e.expected->answers_from_given(e, inputs, given);
    if (!at_step || !at_step->mistakes.count(id) || !at_step->mistakes.at(id).count(step)) return std::nullopt;
    Values printed = right;
    printed[step] = at_step->mistakes.at(id).at(step);
    const auto later = e.expected->answers_from_given(e, inputs, Values{{step, printed.at(step)}});
    if (!later) return std::nullopt;
    bool after = false;
    for (const AnswerSpec& a : e.answers) {
        if (after) printed[a.name] = later->answers.at(a.name);
        after = after || a.name == step;
    }
    return synthetic_output(e, printed);
}

// Every part's diagnoses and notes, as one text to compare.
std::string told(const ExerciseResult& r) {
    std::string out;
    for (const PartResult& p : r.parts) {
        out += p.name + ":";
        for (const Diagnosis& d : named_diagnoses(p)) out += " [" + d.id + "] " + d.message.en;
        for (const Text& n : p.notes) out += " {" + n.en + "}";
        out += "\n";
    }
    return out;
}

}  // namespace

TEST_CASE("release: the student edition names a one-step slip as the full edition does, and confirms it on its variants") {
    testing::TempDir dir("release-tutor");
    const fs::path tree = dir.path / "tree", out = dir.path / "edition";
    for (const fs::path& file : full_edition_files(testing::repository())) {
        fs::create_directories((tree / file).parent_path());
        fs::copy_file(testing::repository() / file, tree / file);
    }
    const std::vector<std::string> ids = {"swiglu_ffn_2d", "rope_quarter_turn_table", "kv_cache_sizes", "llama_block_tiny"};
    // a course of the four exercises whose steps have feeds
    for (const auto& file : fs::recursive_directory_iterator(tree / "data/exercises"))
        if (file.path().extension() == ".json" && file.path().filename() != "chapter.json" &&
            std::find(ids.begin(), ids.end(), file.path().stem().string()) == ids.end())
            fs::remove(file.path());
    const ExerciseSet full = ExerciseSet::load(tree);
    REQUIRE(full.all().size() == ids.size());
    write_release(tree, full, out, 2);
    const ExerciseSet student = ExerciseSet::load(out, answers_from_data(out));

    std::size_t compared = 0, named = 0, step_only = 0;
    for (const std::string& id : ids) {
        const Exercise& f = full.at(id);
        const Exercise& s = student.at(id);
        const ExpectedCase book = expected_answers_and_mistakes(f, f.inputs);
        for (const auto& [step, feeds] : f.steps) {
            if (feeds.empty()) continue;
            for (const std::string& mistake : f.mistakes) {
                const auto output = one_step_slip(f, f.inputs, step, feeds, mistake);
                if (!output) continue;
                CAPTURE(id);
                CAPTURE(step);
                CAPTURE(mistake);
                ExerciseResult by_full = grade_output(f, f.inputs, *output, {});
                ExerciseResult by_student = grade_output(s, s.inputs, *output, {});
                CHECK(told(by_student) == told(by_full));
                // confirmed on other inputs where the same student makes the same slip
                auto rerun = [&](const Exercise& edition) {
                    return [&](const InputList& inputs) {
                        const auto other = one_step_slip(f, inputs, step, feeds, mistake);
                        return grade_output(edition, inputs, other ? *other : synthetic_output(f, expected_answers(f, inputs)), {});
                    };
                };
                confirm_diagnoses(f, by_full, "student-" + mistake, rerun(f));
                confirm_diagnoses(s, by_student, "student-" + mistake, rerun(s));
                CHECK(told(by_student) == told(by_full));
                ++compared;
                const bool is_named = told(by_student).find("[" + mistake + "]") != std::string::npos;
                named += is_named;
                // a slip the whole-program mistake does not explain: only the step's candidates name it
                if (is_named && book.mistakes.count(mistake)) {
                    const Values& whole = book.mistakes.at(mistake);
                    bool earlier_changed = false;
                    for (const std::string& feed : feeds)
                        earlier_changed = earlier_changed || !same_answer(whole.at(feed), book.answers.at(feed));
                    step_only += earlier_changed;
                }
            }
        }
    }
    CHECK(compared >= 8);
    CHECK(named >= 4);
    CHECK(step_only >= 2);  // e.g. swiglu_ffn_2d's W_down transposed alone, its gate and up right
    MESSAGE(compared << " one-step slips compared, " << named << " named, " << step_only << " by their step alone");
}
