// `blockcheck validate`: what an instructor checks before students see an exercise. Every
// problem names the file and the field to mend.
#pragma once

#include "checker/common/i18n.hpp"
#include "checker/exercise/grading.hpp"

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace blockcheck {

struct Problem {
    std::string file;   // relative to the repository
    std::string field;  // the JSON field ("hints[1].zh", "variants.row") or what in the file
    Text message;
};

struct ValidateSettings {
    int reference_seeds = 500;       // variants the reference must answer
    int solved_seeds = 50;           // variants the solved program must pass
    double max_repeat_share = 0.05;  // of the reference seeds, at most this share may repeat the book's inputs
    int mistake_seeds = 20;          // variants a mistake the book's inputs hide may show itself on
};

// Checks of a definition file's text that loading it does not make: prompts and hints present
// in both languages, every answer named in both prompts, declared totals that add up.
std::vector<Problem> check_definition_text(const std::filesystem::path& root, const std::filesystem::path& file);

// The reference on the book's inputs and on variants (general claims never change), the variant
// ranges, the declared mistakes (each changes an answer on the book's inputs, or on a variant
// where those hide it; at least three of the exercise's mechanisms where answers are numeric),
// the template, the solved program (tests/solved/<chapter>/<file>: full marks, no diagnosis, no
// inexact note) and every student-style mistake program of tests/mistakes/ for the exercise
// (exactly its diagnosis).
std::vector<Problem> check_exercise(const std::filesystem::path& root, const Exercise& exercise,
                                    const RunSettings& run, const ValidateSettings& settings);

// Where each declared mistake shows: on the book's inputs, and on which of the first `seeds`
// variants some answer differs from the right one (a mistake read off the expected value is
// left out: it shows wherever the part is not zero).
struct MistakeCoverage {
    struct Row {
        std::string id;
        bool book = false;
        std::vector<int> variants;  // the seeds it shows on
    };
    std::vector<Row> rows;
    // Pairs of declared mistakes whose answers are the same on every case checked.
    std::vector<std::pair<std::string, std::string>> identical;
};
MistakeCoverage mistake_coverage(const Exercise& exercise, int seeds);

// The proof that the tutor names what it should and nothing else (issue 34): for every mistake of
// mistake_coverage that shows on some case, a program printing its answers (on the first case it
// shows on, and on any other inputs: judge_made_program); for a sample of pairs of them, a program
// making both at once where neither alone gives its answers. What the judge named on each.
struct MistakeProof {
    struct Program {
        std::vector<std::string> made;   // one mistake, or a pair's two
        std::string where;               // "the book's inputs" or "variant N"
        std::vector<std::string> named;  // the ids named on its parts, each once, in the parts' order
        bool twin = false;               // a single no case tells from another: naming none is right
    };
    std::vector<Program> singles, pairs;
};
// At most this many pairs an exercise, spread over its mistakes in the catalogue's order.
inline constexpr int proof_pairs = 6;
MistakeProof mistake_proof(const Exercise& exercise, int seeds);

// How the judge did on one program: named right (all it made, nothing else), partly (one of a
// pair's two, nothing else), wrong (a mistake it did not make: a false word), or none.
enum class ProofOutcome { right, partly, wrong, none };
ProofOutcome proof_outcome(const MistakeProof::Program& program);

// Coverage (named right / made), precision (named right / named) and abstentions (none named),
// for single mistakes and for pairs, over the exercises: validate's last lines.
Text proof_summary(const std::vector<const Exercise*>& exercises, int seeds);

// validate's problems of the proof: a program told a mistake it did not make, a single not named
// that another case tells from every other mistake.
void check_mistake_proof(const Exercise& exercise, const std::string& file, int seeds, std::vector<Problem>& out);

// The error model's proof (issue 41): every single change of each kind at each site of the
// exercise's recorded computation on the book's inputs, its numbers made from the tape (no compile),
// judged as a program printing them is (judge_made_program, its names confirmed on variants where it
// prints the same change's numbers): named (its own id alone), tied (each thing said is a tie
// including it, or a name giving its numbers on the parts it is said on, on the book's inputs and
// the first `seeds` variants), invisible (no answer moves at its declared precision), left over
// (nothing said), or wrong (something said none of whose changes gives the change's numbers).
struct ModelProof {
    struct Tally {
        int named = 0, tied = 0, invisible = 0, left_over = 0, wrong = 0;
        int total() const { return named + tied + invisible + left_over + wrong; }
        Tally& operator+=(const Tally& more);
    };
    bool taped = false;                    // the exercise's reference runs on the tape
    std::map<std::string, Tally> by_kind;  // tape_change_kinds
    std::vector<std::string> wrong;        // "<change id> told <ids>", for validate's problems
};
ModelProof model_proof(const Exercise& exercise, int seeds);
// validate's problems of it: each change told a name that is not its own.
void check_model_proof(const Exercise& exercise, const std::string& file, int seeds, std::vector<Problem>& out);
// Its section of docs/mistake-coverage.md: per exercise and kind, named / tied / invisible / left over.
std::string model_proof_doc(const std::vector<const Exercise*>& exercises, int seeds);

// docs/mistake-coverage.md: the matrix exercise x mistake x book/variants, from mistake_coverage,
// with what the proof named and its totals.
std::string coverage_doc(const std::vector<const Exercise*>& exercises, int seeds);

// "data/exercises/ch25/x.json: hints[1].zh: missing" in the reader's language.
std::string problem_line(const Problem& problem, Lang lang);

}  // namespace blockcheck
