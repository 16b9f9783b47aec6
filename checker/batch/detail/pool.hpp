// The workers of a batch: students are prepared one at a time (unpacked, their sources found),
// each yielding tasks (one a program) that any worker may take, so a class of few students still
// keeps every worker busy; a student is finished by the worker that ends their last task.
#pragma once

#include <cstddef>
#include <functional>

namespace blockcheck {

struct PoolWork {
    // Prepares a student; returns how many tasks they need (0: nothing to grade, finish now).
    std::function<std::size_t(std::size_t student)> prepare;
    std::function<void(std::size_t student, std::size_t task)> task;
    // Once a student's tasks are all done (two students may finish at the same time).
    std::function<void(std::size_t student)> finish;
};

// Runs `work` for students 0..students-1 on `workers` threads (the caller's among them), tasks
// of prepared students first; returns the seconds the workers were busy, summed.
double run_pool(std::size_t students, unsigned workers, const PoolWork& work);

}  // namespace blockcheck
