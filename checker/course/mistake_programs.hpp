// The student-style mistake programs of tests/mistakes/<id>/: each is written as a student would,
// in double, with exactly one classic mistake, and records what it must get:
//     // expect: <exercise> <part> <mistake id>     (part "*": every part right, some with the id)
//     // inputs: book | variant <seed> | <name> = <value>
// Most are a slip (<exercise>.slip): the honest program of tests/solved/ with the lines that make
// the mistake changed, so the one thing changed is what the file shows:
//     // from: tests/solved/<chapter>/<exercise>.cpp
//     // replace: <a run of lines, compared without their indentation, found exactly once>
//     // with: <the lines that take its place, verbatim>           (or "// with nothing")
// A mistake that is a different program altogether (hard_coded) is a whole <exercise>.cpp.
// `validate` runs every program of an exercise; the test suite runs a sample.
#pragma once

#include "checker/exercise/grading.hpp"

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace blockcheck {

struct MistakeProgram {
    std::filesystem::path file;  // tests/mistakes/<id>/<exercise>.slip or .cpp
    std::string exercise, part, mistake, inputs;
};

// Every program under `root`/tests/mistakes/, sorted by file; none when the folder is missing.
std::vector<MistakeProgram> mistake_programs(const std::filesystem::path& root);

// The program a slip stands for (its solved program with each replace block swapped for its
// with lines); an InputFileError naming the file when a block does not match exactly once.
std::string slip_program_text(const std::filesystem::path& root, const std::filesystem::path& slip);

// Why the program does not get exactly its diagnosis (its part wrong and named by its id, no
// other diagnosis, full marks for part "*"); empty when it does. `scratch` holds written slips.
std::vector<std::string> mistake_program_faults(const std::filesystem::path& root, const Exercise& exercise,
                                                const MistakeProgram& program, const RunSettings& run,
                                                const std::filesystem::path& scratch);

// What a student's double program that computed `values` prints: each answer of the exercise on
// its line, numbers to 17 significant digits (%.16e), integers whole. The program the property
// checks feed the judge (a mistake's answers made by the reference), with no compile.
std::string synthetic_output(const Exercise& exercise, const Values& values);

// The answers a program making `made` (one mistake, or a pair made at once) prints on these
// inputs: the mistake's answers, the right ones where the reference cannot make it there.
Values made_program_answers(const Exercise& exercise, const InputList& inputs, const std::vector<std::string>& made);

// A program the reference makes (`make`: its answers on any inputs), judged as grade judges a
// compiled one but with no compile: its synthetic_output on `inputs` graded, then what it is told
// confirmed on variants seeded from `student` (confirm_diagnoses), where it prints what `make` gives.
ExerciseResult judge_made_program(const Exercise& exercise, const InputList& inputs,
                                  const std::function<Values(const InputList&)>& make, const std::string& student);

}  // namespace blockcheck
