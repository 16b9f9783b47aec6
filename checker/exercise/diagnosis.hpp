// Mistake diagnosis: a program's answers compared with the values classic mistakes produce,
// each computed by the reference through the block with exactly one thing changed
// (solutions/exercise.hpp), or derived from the expected value for the generic ones. Every
// mistake is an entry of the catalogue (mistake_catalogue.hpp, data/mistakes.json).
//
// Never a false word: a mistake the reference makes is named only when it explains the whole
// program: every part it changes has the mistake's value (within the declared precision), every
// part it leaves alone is right. Two that fit equally are both left unnamed. A generic mistake
// (a sign, a factor, a 32-bit wrap) is read off one part, and only when no declared mistake
// partly fits the program.
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

// Sets each part's diagnosis: the one mistake that explains the whole program on the parts it
// changes, else a generic one per part (float_precision also on a correct but inexact part).
void diagnose_program(std::vector<GivenPart>& parts, const std::map<std::string, Values>& mistakes);

// Which parts feed which (Exercise::steps), in the answers' order.
using Steps = std::vector<std::pair<std::string, std::vector<std::string>>>;
// The answers (and each mistake's) with the parts in `given` taken as the student printed them
// (ExpectedAnswers::answers_from_given); nullopt when they cannot be had.
using AnswersFromGiven = std::function<std::optional<ExpectedCase>(const Values& given)>;

// Step by step, from the student's own numbers: each wrong part no mistake explains yet, with its
// feeds printed, is recomputed from the student's values of its feeds. When it follows, the part
// gets a note saying so (the slip is earlier) and its follow_through score; otherwise the one
// mistake (or generic slip) that makes that step's value from those inputs is named on it.
void diagnose_steps(std::vector<GivenPart>& parts, const Steps& steps, const AnswersFromGiven& answers);

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

// True when two answers agree far below any printed digit (every number within 1e-30 (1 + |x|);
// other kinds equal): a mistake whose answers differ from the right ones only by the reference's
// own rounding (a RoPE offset the dot product cancels) changes nothing.
bool same_answer(const Value& a, const Value& b);

// True when a mistake's value would not pass as the right one at the part's declared precision
// (an angle modulo a full turn): a student making it is graded wrong there.
bool mistake_changes(const AnswerSpec& spec, const Value& mistaken, const Value& expected);

// The diagnoses a part carries: `diagnosis`, or the two of `diagnoses`.
std::vector<Diagnosis> named_diagnoses(const PartResult& part);

}  // namespace blockcheck
