// Grading one exercise: the reference answers for its inputs, the program's output parsed and
// compared part by part, or the whole exercise lost to a compile error, crash or timeout.
#pragma once

#include "checker/compile/compile.hpp"
#include "checker/exercise/diagnosis.hpp"
#include "checker/exercise/exercise_set.hpp"
#include "checker/exercise/protocol.hpp"

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>

namespace blockcheck {

// What programs cost, summed over any number of them: compile requests and those answered from
// the cache, program runs (a probe's included), and the time the grader waited for each (a
// jail's start included).
struct ProgramCosts {
    std::size_t compiles = 0, compile_hits = 0, runs = 0;
    double compile_seconds = 0, run_seconds = 0;
    ProgramCosts& operator+=(const ProgramCosts& more);
};

struct ExerciseResult {
    std::string id;
    std::string status = "not_done";  // "done": every part correct; "not_done": no answer yet; "failing"
    double score = 0, max_score = 0;
    std::vector<PartResult> parts;
    std::vector<ProtocolIssue> issues;   // output lines that are not answers of this exercise
    Text note;                           // compiler messages, or how the program ended
    std::optional<std::uint64_t> variant;
    // The parts right here and wrong on the probe's variant (mark_hard_coded), in order: a part
    // wrong there is wrong, so the exercise is never done while one is, whatever it scores here.
    std::vector<std::string> wrong_on_variant;
    double compile_seconds = 0, run_seconds = 0;
    ProgramCosts cost;   // what judge_program spent on it
    std::string output;  // what the program printed on `parts`' inputs
    // Explanations that fit the program alike on these inputs, named on no part: confirm_diagnoses
    // names the one its runs on other inputs keep, if exactly one (never shown otherwise).
    std::vector<Explanation> candidates;
    // Changes of the error model that fit the program here as the catalogue mistake named does:
    // confirm_diagnoses tells them apart from it, or says both (never shown otherwise).
    std::vector<Rival> rivals;
    std::vector<std::filesystem::path> stored;  // the cache files its compile wrote (none when cached)
    // The compiler whose build decided the verdict: "g++", "clang" (RunSettings::way clang, full
    // marks), "" when nothing was compiled; `redecided`: clang's build was short of full marks, and
    // this is g++'s verdict.
    std::string compiler;
    bool redecided = false;

    const PartResult* first_failing_part() const;
    // The verdict that took every part at once (compile error, crash, timeout, output flood,
    // grader fault), if that is what happened.
    std::optional<Verdict> whole_program_verdict() const;
};

// A variant seed as every output writes it: a JSON string of its decimal digits, since a seed
// uses all 64 bits and a JSON number over 2^53 is rounded by jq 1.6 and by JavaScript.
nlohmann::ordered_json seed_json(std::uint64_t seed);
// A seed as written: that string, or a bare integer (records written before seeds were strings);
// std::invalid_argument for anything else.
std::uint64_t seed_from_json(const nlohmann::json& seed);

// "does not compile", "crashed", ... in the reader's language.
std::string whole_program_label(Verdict verdict, Lang lang);

// The expected answers for these inputs, from the exercise's provider (see expected.hpp).
Values expected_answers(const Exercise& exercise, const InputList& inputs);
// The same, with the answers of each classic mistake the exercise declares (plain values).
ExpectedCase expected_answers_and_mistakes(const Exercise& exercise, const InputList& inputs);

// The name among `names` a misspelled `name` most likely meant ("did you mean ...?").
std::optional<std::string> closest_name(std::string_view name, const std::vector<std::string>& names);

// Grades a program's standard output against the reference answers for `inputs`.
ExerciseResult grade_output(const Exercise& exercise, const InputList& inputs, std::string_view output,
                            const AnswerCompareOptions& options);

// Every part lost to the same cause (compile error, crash, timeout, output flood, grader fault).
ExerciseResult failed_exercise(const Exercise& exercise, Verdict verdict, Text note);

// How a run that did not exit cleanly ended (the last lines of its stderr included), and the
// verdict that costs: timed_out, output_limit, crashed, or grader_fault when it never started.
Text describe_end(const RunResult& run, const Limits& limits);
Verdict verdict_of_end(RunStatus status);

// Grades how a run ended: a clean exit is graded as its output; after a crash or timeout the
// answers printed before it still count and the parts never printed take the run's verdict;
// a program stopped by the header for an input this exercise lacks leaves those parts missing,
// with the header's message (which lists the exercise's inputs).
ExerciseResult grade_run(const Exercise& exercise, const InputList& inputs, const RunResult& run, const Limits& limits,
                         const AnswerCompareOptions& options);

// `check`'s quiet probe: given the same program's result on one variant (its `variant` seed set,
// `inputs` its inputs), each part right on the book's inputs and wrong there is listed in
// `book.wrong_on_variant` and makes the exercise failing; it gets the hard_coded diagnosis when
// it printed the same value on both, otherwise a note (once an exercise, on its first such part):
// right on the book's inputs, wrong on these (the inputs, the command that runs them, and what
// the variant's grading diagnosed).
void mark_hard_coded(ExerciseResult& book, const ExerciseResult& variant, const InputList& inputs);

// Whether `part` printed the same text (spaces aside) on two runs with other inputs: a constant.
bool printed_alike(const PartResult& a, const PartResult& b);

// `grade`'s side of the same observation: `variant` is the program's result on its variant,
// `book` on the book's inputs. Each part wrong on the variant, right on the book's inputs and
// printed alike on both gets the hard_coded diagnosis instead of what was read off its value (a
// mistake, a step, a property of the numbers: none of them is about constants). Returns the
// names of those parts.
std::vector<std::string> mark_printed_constants(ExerciseResult& variant, const ExerciseResult& book);

// Variants a named mistake must reproduce the student's numbers on.
inline constexpr int confirming_variants = 2;
// A rival change (Rival) is the catalogue mistake's own slip when it gives the mistake's numbers
// on the parts named, on the book's inputs and variants 1 to this (validate's proof tries as many:
// ValidateSettings::mistake_seeds); it is then said in the catalogue's words alone.
inline constexpr int same_slip_variants = 20;

// Confirms every explanation named in `result` (a mistake made rather than read off the expected
// value, or two made at once) and decides between its candidates, on `confirming_variants`
// variants seeded from `student` and the exercise (in the student edition, among the variants it
// carries), chosen among the first few seeded ones to tell the explanations apart (each changes
// an answer there, and no two give the same answers). `rerun` grades the same program on other
// inputs; an explanation holds there when it is named there again (or is a candidate there), or
// its answers there are the program's, or it changes nothing there and the program is right there.
// A named one that does not hold is dropped; of the candidates, the one that holds everywhere is
// named when it is the only one, otherwise none is. A catalogue mistake's rivals (Rival) are told
// apart from it alike: a rival that holds where the mistake does not is named instead (a tie of up
// to max_model_tie that hold); one that holds beside it and is not its slip (same_slip_variants)
// makes the name a tie of both; more than max_model_tie such, and none is named. Deterministic: the same student, exercise and
// program give the same inputs and the same words.
void confirm_diagnoses(const Exercise& exercise, ExerciseResult& result, const std::string& student,
                       const std::function<ExerciseResult(const InputList&)>& rerun);

class ProgramJail;  // checker/run/sandbox.hpp

// Where and how programs are built and run.
struct RunSettings {
    std::filesystem::path include_dir;  // chapters/: the students' header
    std::filesystem::path cache_dir;    // compiled binaries, by content
    Limits limits;                      // for the program's run
    Limits compile_limits = compiler_limits();
    // What runs the program: a batch's jail (grade) when given, else bubblewrap around `sandbox`
    // when given, else a plain process under the limits.
    const ProgramJail* jail = nullptr;
    const Sandbox* sandbox = nullptr;
    // Without a jail or sandbox: reuse what the same binary printed on the same input before
    // (run_cache.hpp), as the student's loop does; grading and validation run every program afresh.
    bool remember_runs = false;
    // How programs are built: fast (g++), or clang with g++ deciding every program clang's build
    // does not give full marks (grade --compiler; check and validate keep g++).
    CompileWay way = CompileWay::fast;
};

// One program to judge: its file, the inputs it runs on, the variant to probe it with.
struct SubmittedProgram;  // checker/common/submission_file.hpp

struct ProgramToJudge {
    std::filesystem::path source;
    std::string shown_as;                  // the source's path as its author sees it, for compiler messages
    InputList inputs;
    std::optional<std::uint64_t> variant;  // the seed that drew `inputs` (none: the book's), recorded in the result
    // The quiet probe for constants printed instead of computed: when every part is right, the same
    // binary runs once more on this variant and mark_hard_coded judges. `check` and `validate` set
    // it; `grade`'s own variant runs are its probe.
    std::optional<std::uint64_t> probe;
    // What the grader read of a submission (read_program: beneath its folder, no link followed,
    // read once): compiled as read. Without it (a student's own tree), `source` is read by the compile.
    const SubmittedProgram* submitted = nullptr;
};

// The one road from a program to its verdict, for check, validate and grade: a source that cannot
// be read or is over 1 MiB is refused, the rest compiled (or taken from the cache); a binary over
// 64 MiB is refused; the program runs under the limits, how the run ended is graded (grade_run)
// and the probe runs. A refusal is the program's compile_error; a compiler that could not work,
// a grader_fault. With settings.way clang, a program whose clang build gets full marks keeps that
// verdict; any other (a part lost, a compile error, a crash, a timeout, an output line that is no
// answer) is judged again built by g++, whose verdict stands: no point g++ would give is lost.
ExerciseResult judge_program(const Exercise& exercise, const ProgramToJudge& program, const RunSettings& settings,
                             const AnswerCompareOptions& options);

}  // namespace blockcheck
