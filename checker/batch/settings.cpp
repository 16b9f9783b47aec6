#include "checker/batch/settings.hpp"

namespace blockcheck {

Limits grading_run_limits() {
    Limits limits;
    limits.cpu_seconds = 2;
    limits.wall_seconds = 5;
    limits.memory_bytes = std::size_t{512} << 20;
    limits.output_bytes = std::size_t{1} << 20;
    limits.file_bytes = std::size_t{16} << 20;
    limits.open_files = 64;
    limits.processes = 64;
    return limits;
}

}  // namespace blockcheck
