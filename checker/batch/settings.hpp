// How a batch is graded: where the headers, outputs and cache are, how many programs at once,
// the limits of a program and of its compile, and which outputs are written.
#pragma once

#include "checker/outputs/gradebook.hpp"
#include "checker/batch/shard.hpp"
#include "checker/compile/compile.hpp"
#include "checker/run/sandbox.hpp"

#include <filesystem>
#include <optional>
#include <vector>

namespace blockcheck {

// A program's limits in a batch: CPU 2 s, wall 5 s, 512 MiB, 1 MiB of output, 16 MiB per file
// written, 64 open files, 64 processes.
Limits grading_run_limits();

struct GradeSettings {
    std::filesystem::path include_dir;  // chapters/: the students' header
    std::filesystem::path out;          // results/, gradescope/, the rendered files
    std::filesystem::path cache_dir;    // compiled programs by content; empty: <out>/.cache
    unsigned jobs = 2;                  // programs compiled and run at once
    bool variants = false;              // per-student inputs, seeded by variant_seed(student, exercise)
    bool reveal = false;                // expected values in the messages of wrong answers
    bool follow_through = false;        // credit steps that follow from a student's own earlier values
    bool tutor = true;                  // diagnoses and their confirmation (AnswerCompareOptions::tutor)
    bool regrade = false;               // ignore the results of earlier runs
    bool accept_near_names = false;     // grade a misnamed file as the exercise it is nearest (discovery.hpp)
    bool write_gradescope = true;       // gradescope/<student>.json next to results/
    CompileWay compile_way = CompileWay::fast;  // clang: its fast path, g++ deciding every lost point (--compiler)
    Lang lang = Lang::en;               // of the messages in every output
    Limits run_limits = grading_run_limits();
    Limits compile_limits = compiler_limits();
    std::optional<Shard> shard;         // recorded in the run's manifest
    std::vector<IgnoredEntry> ignored;  // entries of the submission folders that are not submissions: listed in summary.txt
};

}  // namespace blockcheck
