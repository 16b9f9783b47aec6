// The figures of a graded class: what bench --grading prints and writes as JSON for each run.
#include "bench/grading_figures.hpp"

#include "checker/compile/compile_steps.hpp"

#include <fmt/format.h>

#include <cstdlib>

namespace blockcheck {

Medians class_medians(const GradeReport& r) {
    std::vector<double> compiles, runs;
    for (const StudentRecord& s : r.students)
        for (const ExerciseRecord& e : s.exercises) {
            if (!e.source.empty() && !e.compile_cached && e.compile_seconds > 0) compiles.push_back(e.compile_seconds);
            if (e.run_seconds > 0) runs.push_back(e.run_seconds);
        }
    return {median_of(compiles), median_of(runs)};
}

nlohmann::ordered_json class_figures(const GradeReport& r) {
    const double total = r.compile_seconds + r.run_seconds + r.grader_seconds;
    const double students = static_cast<double>(r.students.size());
    const Medians m = class_medians(r);
    return {{"students", r.students.size()},
            {"graded", r.graded},
            {"reused", r.reused},
            {"wall_seconds", r.wall_seconds},
            {"students_per_second", r.wall_seconds > 0 ? students / r.wall_seconds : 0},
            {"compile_seconds", r.compile_seconds},
            {"run_seconds", r.run_seconds},
            {"grader_seconds", r.grader_seconds},
            {"grader_share", total > 0 ? r.grader_seconds / total : 0},
            {"compile_median_seconds", m.compile},
            {"run_median_seconds", m.run},
            {"compile_requests", r.compiles},
            {"compile_cache_hits", r.compile_hits},
            {"compile_hit_rate", r.compiles ? double(r.compile_hits) / double(r.compiles) : 1.0},
            {"programs_run", r.runs}};
}

void print_class_figures(const char* title, const GradeReport& r) {
    const double total = r.compile_seconds + r.run_seconds + r.grader_seconds;
    auto share = [&](double s) { return total > 0 ? 100 * s / total : 0.0; };
    const Medians m = class_medians(r);
    fmt::print("{}: {} students in {:.2f} s = {:.2f} students/s ({} graded, {} unchanged)\n", title, r.students.size(),
               r.wall_seconds, r.wall_seconds > 0 ? double(r.students.size()) / r.wall_seconds : 0.0, r.graded, r.reused);
    fmt::print("  worker time {:.1f} s: compile {:.1f} s ({:.0f}%), run {:.1f} s ({:.0f}%), grader's own work {:.2f} s ({:.1f}%)\n",
               total, r.compile_seconds, share(r.compile_seconds), r.run_seconds, share(r.run_seconds), r.grader_seconds,
               share(r.grader_seconds));
    if (r.graded > 0) fmt::print("  per program: compile median {:.3f} s, run median {:.1f} ms\n", m.compile, 1000 * m.run);
    fmt::print("  compile requests {}, from the cache {} ({:.0f}%); programs run {}\n", r.compiles, r.compile_hits,
               r.compiles ? 100.0 * double(r.compile_hits) / double(r.compiles) : 100.0, r.runs);
}

// With and without the tutor, side by side: the cold class's time, the grader's own work (the
// diagnoses) and the programs run (the confirmations).
void print_tutor_side_by_side(const GradeReport& bare, const GradeReport& tutored) {
    double load[3] = {0, 0, 0};
    ::getloadavg(load, 3);
    const double ratio = bare.wall_seconds > 0 ? tutored.wall_seconds / bare.wall_seconds : 0.0;
    fmt::print("the tutor, side by side (cold, each with an empty cache; load average {:.1f}): without {:.2f} s, with {:.2f} s: "
               "{:.3f}x ({:+.1f}%); grader's own work {:.2f} s against {:.2f} s; programs run {} against {} (the confirmations)\n",
               load[0], bare.wall_seconds, tutored.wall_seconds, ratio, 100 * (ratio - 1), bare.grader_seconds,
               tutored.grader_seconds, bare.runs, tutored.runs);
}

}  // namespace blockcheck
