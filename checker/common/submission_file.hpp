// What a student handed in, opened one way only (issue 31): beneath the submission's folder by a
// directory descriptor, never through a link, never blocking, a regular file only, never on /proc
// or /sys, read up to its size and a cap, once. Every reader of a submission (the compile, the
// resume key, the code shape) takes what this returns, so the bytes hashed are the bytes compiled.
// tests/unit/batch/test_submission_reads.cpp fails on a direct file read in grade/ or run/.
#pragma once

#include "base/text.hpp"
#include "checker/common/hashing.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace blockcheck {

// One file of a submission, read once.
struct SubmissionFile {
    std::string name;   // its path inside the submission, '/'-separated
    std::string bytes;  // at most the cap it was read with
    Digest hash{};      // SHA-256 of bytes
    std::uintmax_t size() const { return bytes.size(); }
};

// How a link in a submission is met. The grader (root, a class's files) refuses it and reports it;
// `check` on the student's own tree runs as the student, who may read it anyway: read, and reported.
enum class Links { refuse, follow_and_report };

// The limits of one program's files.
constexpr std::uintmax_t max_submitted_source_bytes = 1u << 20;         // a longer "source" is not a student's program
constexpr std::uintmax_t max_submitted_header_bytes = 1u << 20;         // each header beside the source
constexpr std::size_t max_submitted_headers = 32;                        // headers beside one source
constexpr std::uintmax_t max_submitted_headers_bytes = std::uintmax_t{4} << 20;  // all of them together

// A file opened beneath `folder` (its path inside: `relative`, no `..`, no link on the way), read
// when it is a regular file of at most `max_bytes`; else `problem` says why (names the file, both
// languages) and nothing is read. With Links::follow_and_report a link is followed (still never
// into /proc or /sys) and `note` says so.
struct SubmissionRead {
    std::optional<SubmissionFile> file;
    Text problem;  // why it was not read; empty when it was
    Text note;     // a link followed (Links::follow_and_report only)
};
SubmissionRead open_submission_file(const std::filesystem::path& folder, const std::string& relative,
                                    std::uintmax_t max_bytes, Links links = Links::refuse);

// A program as handed in: its source and the header files directly beside it (*.h, *.hpp, *.hh,
// *.hxx; at most 32, each at most 1 MiB, 4 MiB in all), sorted by name.
struct SubmittedProgram {
    SubmissionFile source;
    std::vector<SubmissionFile> headers;
    Text problem;             // why the source could not be read; empty when it was
    std::vector<Text> notes;  // files beside it that were not read (links, pipes, too large), links followed
    bool readable() const { return problem.en.empty(); }
};
SubmittedProgram read_program(const std::filesystem::path& folder, const std::string& relative_source,
                              Links links = Links::refuse);

// Tests only: false makes the opener walk the path with O_NOFOLLOW a step, as on a kernel without openat2.
void use_openat2_for_submissions(bool allowed);

// The notes of a program, one line each, in `lang` ("" when none).
std::string notes_text(const std::vector<Text>& notes, Lang lang);

}  // namespace blockcheck
