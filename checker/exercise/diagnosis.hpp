// Mistake diagnosis: a program's answers compared with the values classic mistakes produce,
// each computed by the reference through the block with exactly one thing changed
// (solutions/exercise.hpp), or derived from the expected value for the generic ones. Every
// mistake is an entry of the catalogue (mistake_catalogue.hpp, data/mistakes.json).
//
// Never a false word: a mistake the reference makes is named only when it explains the whole
// program: every part it changes has the mistake's value (within the declared precision), every
// part it leaves alone is right. Only when no single mistake does, two made at once may (both are
// named). Two explanations that fit alike are named on no part until runs on other inputs tell
// them apart (grading.hpp: confirm_diagnoses). A generic mistake (a sign, a factor, a 32-bit
// wrap) is read off one part, and only when no declared mistake partly fits the program.
#pragma once

#include "checker/exercise/answer_compare.hpp"
#include "checker/exercise/expected.hpp"
#include "checker/exercise/mistake_catalogue.hpp"

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace blockcheck {

// The message of a catalogue id in both languages; it names the slip, never the expected value.
// A key with a parameter ("pi_truncated/3.14", "scaled/2") fills the message's {pi} or {factor}.
// Throws std::out_of_range for an id the catalogue lacks.
Text mistake_message(const std::string& key);
// The id of a mistake key: "pi_truncated/3.14" -> "pi_truncated".
std::string mistake_id(const std::string& key);
// The generic mistakes every exercise is checked for (the catalogue's made_by inputs and expected).
const std::vector<std::string>& generic_mistakes();
// True for the mistakes read off the expected value itself (made_by expected); the others are
// made by the reference (inputs: on changed inputs).
bool derived_from_expected(const std::string& id);
// True when `id` is in the catalogue (what an exercise's "mistakes" may list).
bool known_mistake(const std::string& id);

// One graded part with what the program printed for it (nullptr: nothing).
struct GivenPart {
    const AnswerSpec* spec;
    PartResult* result;
    const ProgramLine* given;
    const Value* expected;
};

// The mistake keys (of `mistakes`) that explain the whole program, by the rule above.
std::vector<std::string> explaining_mistakes(const std::vector<GivenPart>& parts,
                                             const std::map<std::string, Values>& mistakes);

// True when what was read fits `value` at the part's precision (booleans, choices: equal).
bool fits_value(const AnswerSpec& spec, const Reading& given, const Value& value);
// True when a mistake's value of a part would not pass as the right one.
bool changes_value(const AnswerSpec& spec, const Value& mistaken, const Value& expected);

// What explains a whole program: one mistake (its keys of alike parameters merged:
// "pi_truncated/3.14 / 3.1416"), or two made at once (a pair's two keys), and the parts it changes.
struct Explanation {
    std::vector<std::string> keys;
    std::vector<std::string> parts;
    bool operator==(const Explanation&) const = default;
};
// The ids it names: one, or a pair's two.
std::vector<std::string> explanation_ids(const Explanation& explanation);

// A change of the error model that gives the program's numbers on these inputs as the one
// catalogue mistake named on it (`of`) does: confirm_diagnoses tells the two apart on other inputs;
// where they stay alike but are not the same slip on every input the proof tries, both are said.
struct Rival {
    std::string of;           // the catalogue mistake's id
    Explanation explanation;  // the change's id, and the parts it changes
    Text words;               // the change's words (which operation, which way)
};
// Names it on its parts: `diagnosis` for one mistake, `diagnoses` for two (a part already named,
// or following from the student's own earlier values, keeps what it was told).
void name_explanation(std::vector<PartResult>& parts, const Explanation& explanation);
void name_explanation_on(PartResult& part, const Explanation& explanation);

// The answers of pairs of mistakes made at once (ExpectedAnswers::pair_mistakes), asked lazily.
using PairAnswers = std::function<std::map<std::string, Values>(const std::vector<std::pair<std::string, std::string>>&)>;

// The pairs of mistakes made by a switch whose answers made together (`pairs`) explain the whole
// program. Called only when no single mistake does, and only of the pairs that can (not every
// pair of the catalogue): one of the two explains some wrong part on its own, neither changes a
// part the program got right, and together they change every wrong one.
std::vector<Explanation> pair_explanations(const std::vector<GivenPart>& parts, const std::map<std::string, Values>& mistakes,
                                           const PairAnswers& pairs);

// After the steps (diagnose_steps), where a wrong part is still unexplained: two at once
// (pair_explanations), named on the parts nothing explains yet; candidates returned as by
// diagnose_program. An exercise with steps tries pairs only here: a slip named on its own step,
// from the student's own numbers, says more than a pair named on every part.
std::vector<Explanation> diagnose_pairs(std::vector<GivenPart>& parts, const std::map<std::string, Values>& mistakes,
                                        const PairAnswers& pairs);

// Sets each part's diagnosis: the one explanation of the whole program (a single mistake, else a
// pair) on the parts it changes; else a generic one per part (float_precision also on a correct but
// inexact part). When two or more explain it alike, none is named and they are returned: the
// candidates confirm_diagnoses tells apart on other inputs.
std::vector<Explanation> diagnose_program(std::vector<GivenPart>& parts, const std::map<std::string, Values>& mistakes,
                                          const PairAnswers& pairs = {});

// Which parts feed which (Exercise::steps), in the answers' order.
using Steps = std::vector<std::pair<std::string, std::vector<std::string>>>;
// The answers (and each mistake's) with the parts in `given` taken as the student printed them
// (ExpectedAnswers::answers_from_given); nullopt when they cannot be had.
using AnswersFromGiven = std::function<std::optional<ExpectedCase>(const Values& given)>;

// Step by step, from the student's own numbers: each wrong part, with its feeds printed, is
// recomputed from the student's values of its feeds. When it follows, the part gets a note saying
// so (the slip is earlier) and its follow_through score (follow_through_credit), and a mistake of
// the whole program named on it goes (it is named where it is made: a catalogued early slip earns
// follow-through as an uncatalogued one does); otherwise, where no mistake explains the part yet,
// the one mistake (or generic slip) that makes that step's value from those inputs is named on it.
// A step with no feeds is judged with the whole program, never alone: nothing is named on it here
// (diagnose_program named what explains the whole program). `mistakes`: the whole program's
// mistakes' answers, what an earlier step could have produced.
void diagnose_steps(std::vector<GivenPart>& parts, const Steps& steps, const std::map<std::string, Values>& mistakes,
                    const AnswersFromGiven& answers);

// True when `given`, a student's value of an earlier step, is one that step could produce on these
// inputs: not degenerate (all zeros, nothing), and like the right value or a catalogued mistake's
// (`mistaken`): the same number of elements, its largest within a factor of 10 of theirs, the same
// sign on every element they do not hold at about zero.
bool plausible_step_value(const Value& given, const Value& right, const std::vector<const Value*>& mistaken);

// The follow-through credit of `step`, which follows from the student's own values of its feeds
// (`given`, as printed; `own`: the step computed from them): its points only when `own` is not all
// zeros and every wrong feed is plausible (plausible_step_value, against the whole program's
// `mistakes`) and the step moves when that feed moves (recomputed by `answers` from it nudged); 0
// otherwise. Constant early values (the same printed on other inputs) are confirm_diagnoses' to refuse.
double follow_through_credit(const GivenPart& step, const std::vector<const GivenPart*>& feeds, const Values& given,
                             const Value& own, const std::map<std::string, Values>& mistakes, const AnswersFromGiven& answers);

// Properties every right answer has, declared per part (Exercise::properties):
//   pair_length_kept {of}: each coordinate pair (2i, 2i+1) keeps the length of input `of`'s (a
//     rotation); rms_one {gains}: every row divided by the gains has RMS 1, up to epsilon
//     (RMSNorm); kv_bytes_multiple {layers, kv_heads, head_dim}: a multiple of 2 x layers x
//     kv_heads x head_dim (a KV cache); group_divides {query_heads, kv_heads}: times kv_heads is
//     query_heads (GQA); rows_sum_to_one: every row sums to 1 (softmax).
bool known_property(const std::string& kind);
std::string property_kinds();
// Each wrong part no mistake explains and that breaks its declared property gets a note naming
// the step and the property, never the right value. `inputs`: the case's inputs.
void note_broken_properties(std::vector<GivenPart>& parts, const std::map<std::string, nlohmann::ordered_json>& properties,
                            const Values& inputs);
// True when `note` is one note_broken_properties writes (confirm_diagnoses keeps it only where
// the program's numbers break the property again on other inputs).
bool is_property_note(const Text& note);

// True when two answers agree far below any printed digit (every number within 1e-30 (1 + |x|);
// other kinds equal): a mistake whose answers differ from the right ones only by the reference's
// own rounding (a RoPE offset the dot product cancels) changes nothing.
bool same_answer(const Value& a, const Value& b);
// The same for every answer of `a` (each present in `b`).
bool same_answers(const Values& a, const Values& b);

// True when a mistake's value would not pass as the right one at the part's declared precision
// (an angle modulo a full turn): a student making it is graded wrong there.
bool mistake_changes(const AnswerSpec& spec, const Value& mistaken, const Value& expected);

// Relative errors of float size: above a few double roundings, below 2^-16 (float keeps 24 bits).
// From 2e-8 up: float's own rounding is 6e-8 relative, and a constant typed to eight digits (pi
// as 3.14159265, 1e-9 relative) is not float.
inline constexpr double float_rel_low = 2e-8, float_rel_high = 1.0 / 65536;
// True when a part's relative error is of float's size.
bool float_sized(const PartResult& part);

// A right computation in float: parts wrong by no more than float rounding leaves (32 x 2^-24 of
// the part's largest magnitude, a sine of a large angle in float loses that much; 2^-18 of the
// element) where no catalogue mistake fits them (nothing but float_precision, or only that the
// part follows from earlier parts wrong the same way) earn their points, with the float note.
// Only where float shows in two parts or more (wrong so, or right but off by float's size): one
// part off in its sixth decimal, the others exact, is a wrong digit, not float arithmetic.
void forgive_float_rounding(std::vector<GivenPart>& parts);

// The error model (detail/error_model.cpp): where no catalogue mistake explains the program and
// some printed part is wrong with nothing said of it, the single changes of the reference's
// recorded computation (ExpectedAnswers::model_changes: an operation done the other way round, a
// factor left out, a constant confused, ...) whose site feeds every such part are replayed, at most
// `model_changes_per_wrong_part` for each of them. A change that reproduces the whole program (as
// explaining_mistakes) is named on the parts it changes, by its id and its words; changes alike
// here, up to `max_model_tie`, as one tie; more, or an exercise with no variants to confirm on,
// none. Where the changes alike are one reading of one slip (made at one operation, or at it and
// an operand of it) and one catalogue entry gives their numbers on every part they change, its
// slip not in an earlier step the program got right, the entry is named there instead, in its
// words, and the changes are returned as its rivals: the confirmation keeps the entry alone
// where they give its numbers on every input tried.
// confirm_diagnoses then keeps the name only where the program's numbers on other inputs are the
// same change's again.
// Where one catalogue mistake is named instead, the changes that reproduce the whole program as it
// does are returned as its rivals, for the confirmation to tell apart (never named here).
inline constexpr std::size_t model_changes_per_wrong_part = 150, max_model_tie = 3;
// The search on or off for the whole process (on by default): `bench --grading` grades a class
// once without it to measure its cost side by side.
void set_error_model_search(bool on);
std::vector<Rival> explain_by_error_model(std::vector<GivenPart>& parts, const Exercise& exercise, const InputList& inputs,
                                          const std::map<std::string, Values>& mistakes);

// What is said of slips that give the printed numbers: one's words ("your numbers are what you
// get when, ..."), or a tie's, each by its id ("a|b") and words.
Diagnosis slips_diagnosis(const std::vector<std::pair<std::string, Text>>& slips);

// The diagnoses a part carries: `diagnosis`, or the two of `diagnoses`.
std::vector<Diagnosis> named_diagnoses(const PartResult& part);

}  // namespace blockcheck
