// The figures of a graded class (bench --grading): students per second, where the time went,
// per-program medians, the cache's hit rate; and the tutor's cost, a class graded without and with it.
#pragma once

#include "checker/batch/batch.hpp"

#include <nlohmann/json.hpp>

namespace blockcheck {

// Per program, over the compiles that ran the compiler and the programs that ran.
struct Medians {
    double compile = 0, run = 0;
};
Medians class_medians(const GradeReport& report);

nlohmann::ordered_json class_figures(const GradeReport& report);
void print_class_figures(const char* title, const GradeReport& report);

// With and without the tutor, side by side: the cold class's time and their ratio, the grader's
// own work (the diagnoses) and the programs run (the confirmations).
void print_tutor_side_by_side(const GradeReport& bare, const GradeReport& tutored);

}  // namespace blockcheck
