// `check` on a copy of the student side: it judges on the road that grades (judge_program), with
// grade's caps and check's quiet probe.
#include "checker/student/board.hpp"
#include "checker/student/workspace.hpp"
#include "temp_dir.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>

using namespace blockcheck;
namespace fs = std::filesystem;

namespace {

// The exercises and the students' header, copied: the programs are written in the copy.
struct StudentCopy {
    testing::TempDir dir{"workspace"};
    fs::path root = dir.path;

    StudentCopy() {
        const fs::path source = BLOCKCHECK_SOURCE_DIR;
        for (const char* part : {"data/exercises", "chapters"}) {
            fs::create_directories(root / part);
            fs::copy(source / part, root / part, fs::copy_options::recursive);
        }
    }
    void program_from(const fs::path& file) const {
        fs::copy_file(fs::path(BLOCKCHECK_SOURCE_DIR) / file, root / "chapters/ch25/rms_norm_zero_row.cpp",
                      fs::copy_options::overwrite_existing);
    }
    ExerciseResult check() const {
        const Workspace workspace(root);
        return workspace.check(workspace.select({"rms_norm_zero_row"}), {}).at(0);
    }
};

}  // namespace

TEST_CASE("check: a source over 1 MiB is refused as grade refuses it, without a compile") {
    StudentCopy copy;
    copy.program_from("tests/solved/ch25/rms_norm_zero_row.cpp");
    std::ofstream(copy.root / "chapters/ch25/rms_norm_zero_row.cpp", std::ios::app)
        << std::string(std::size_t{1} << 20, '/') << "\n";  // one comment line: it would compile to full marks
    const ExerciseResult r = copy.check();
    CHECK(r.whole_program_verdict() == Verdict::compile_error);
    CHECK(r.note.en == "the source is larger than 1 MiB");
    CHECK(r.parts.at(0).message.zh == "源文件超过 1 MiB");
    CHECK(r.cost.compiles == 0);
    CHECK(r.cost.runs == 0);
}

TEST_CASE("check: a right program runs twice, the book's inputs then the probe's variant, from one compile") {
    StudentCopy copy;
    copy.program_from("tests/solved/ch25/rms_norm_zero_row.cpp");
    const ExerciseResult honest = copy.check();
    CHECK(honest.status == "done");
    CHECK(honest.cost.compiles == 1);
    CHECK(honest.cost.runs == 2);
    for (const PartResult& p : honest.parts) CHECK_FALSE(p.diagnosis);

    copy.program_from("tests/mistakes/hard_coded/rms_norm_zero_row.cpp");
    const ExerciseResult constants = copy.check();
    CHECK(constants.status == "failing");  // right on the book's inputs, but the probe tells: never called done
    CHECK(constants.cost.runs == 2);
    const auto told = std::find_if(constants.parts.begin(), constants.parts.end(),
                                   [](const PartResult& p) { return p.name == "rms_norm"; });
    REQUIRE(told != constants.parts.end());
    REQUIRE(told->diagnosis);
    CHECK(told->diagnosis->id == "hard_coded");
    CHECK(told->verdict == Verdict::correct);
}

namespace {

// swiglu_ffn_2d with the gate's and up's weights transposed (tests/e2e/lib): invisible on the
// book's diagonal matrices.
std::string transposed_swiglu() {
    std::ifstream in(std::filesystem::path(BLOCKCHECK_SOURCE_DIR) / "tests/e2e/lib/transposed_swiglu_ffn_2d.cpp");
    return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

TEST_CASE("check: a part the probe's variant finds wrong is wrong: the exercise is never done, on the board or for --exit-code") {
    StudentCopy copy;
    std::ofstream(copy.root / "chapters/ch25/swiglu_ffn_2d.cpp") << transposed_swiglu();
    const Workspace workspace(copy.root);
    const auto chosen = workspace.select({"swiglu_ffn_2d"});
    const ExerciseResult r = workspace.check(chosen, {}).at(0);
    CHECK(r.score == doctest::Approx(r.max_score));  // every part right on the book's inputs
    CHECK(r.status == "failing");
    CHECK(r.wrong_on_variant == std::vector<std::string>{"gate", "up", "silu", "swiglu_hidden", "swiglu_ffn"});
    CHECK_FALSE(fully_done(r));  // --exit-code
    CHECK(workspace.last_status("swiglu_ffn_2d") == "failing");
    const std::string board = render_board(workspace.exercises(), chosen, {r}, BoardStyle{});
    CHECK(board.find("✗ swiglu_ffn_2d") != std::string::npos);
    CHECK(board.find("gate: right on the book's inputs, wrong on other inputs") != std::string::npos);
    CHECK(board.find("Every exercise here is done") == std::string::npos);
    CHECK(board.find("Next: swiglu_ffn_2d: fix") != std::string::npos);
    const std::string parts = render_parts(*chosen.front(), r, BoardStyle{});
    CHECK(parts.find("✓") == std::string::npos);  // no part shown right
    // the variant's note once, on the first part, with the command as the student types it
    std::size_t notes = 0;
    for (std::size_t at = parts.find("right on the book's inputs, wrong on these"); at != std::string::npos;
         at = parts.find("right on the book's inputs, wrong on these", at + 1))
        ++notes;
    CHECK(notes == 1);
    CHECK(parts.find("`./blockcheck run swiglu_ffn_2d --variant ") != std::string::npos);
}

TEST_CASE("check: an edition released with an assignment counts its exercises at the assignment's points") {
    StudentCopy copy;
    fs::copy_file(fs::path(BLOCKCHECK_SOURCE_DIR) / "docs/examples/assignment-week1.json", copy.root / released_assignment);
    fs::copy_file(fs::path(BLOCKCHECK_SOURCE_DIR) / "tests/solved/gqa_long_context/kv_cache_sizes.cpp",
                  copy.root / "chapters/gqa_long_context/kv_cache_sizes.cpp", fs::copy_options::overwrite_existing);
    const Workspace workspace(copy.root);
    const ExerciseSet own = ExerciseSet::load(copy.root);
    REQUIRE(workspace.exercises().all().size() == 3);  // rope_quarter_turn_table 4, kv_cache_sizes 3, gqa_groups its own
    CHECK(workspace.exercises().at("rope_quarter_turn_table").max_score() == doctest::Approx(4));
    CHECK(workspace.exercises().at("kv_cache_sizes").max_score() == doctest::Approx(3));
    CHECK(workspace.exercises().at("gqa_groups").max_score() == own.at("gqa_groups").max_score());
    CHECK(own.at("kv_cache_sizes").max_score() != doctest::Approx(3));
    const ExerciseResult solved = workspace.check(workspace.select({"kv_cache_sizes"}), {}).at(0);
    CHECK(solved.status == "done");
    CHECK(solved.score == doctest::Approx(3));
    CHECK(solved.max_score == doctest::Approx(3));
}
