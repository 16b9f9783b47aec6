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
#include "checker/exercise/mistake_catalogue.hpp"

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

}  // namespace blockcheck
