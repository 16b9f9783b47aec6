// The error every command reports as bad input (exit 2): the message names the file and, where
// it can, the line or field.
#pragma once

#include <stdexcept>

namespace blockcheck {

struct InputFileError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// A file that could not be written; the message names the file and the system's reason.
struct FileWriteError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

}  // namespace blockcheck
