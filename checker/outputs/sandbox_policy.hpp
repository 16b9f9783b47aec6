// Grading runs many students' code, so it refuses to run any without a real sandbox unless told
// to (`--no-sandbox`): the probe that decides, the refusal that explains it, and the warning every
// output of an unsandboxed run carries.
#pragma once

#include "checker/common/i18n.hpp"
#include "checker/run/sandbox.hpp"

#include <string>

namespace blockcheck {

// What a grading run would get here, probed as the batch probes it (ProgramJail's choice, and the
// compiler's bubblewrap).
struct SandboxProbe {
    Isolation isolation = Isolation::limits_only;
    bool compiles_sandboxed = false;
    std::string jail_error;  // why no jail could be made at all (as root without a throw-away uid)
    bool sandboxed() const { return is_sandbox(isolation) && compiles_sandboxed; }
};
SandboxProbe probe_sandbox();

// Why the probe found no sandbox, in a few words: the forcing variable, a missing bwrap, or the
// first line bwrap itself printed when it failed to start.
std::string sandbox_failure(const SandboxProbe& probe);

// The refusal, several lines: what was probed, why it failed, what the machine or container needs
// (Docker, Kubernetes, a host), and `--no-sandbox`. `command` names the refusing command.
std::string sandbox_refusal(const SandboxProbe& probe, std::string_view command, Lang lang);

// The exit status of a command that refused to run students' code for want of a sandbox.
constexpr int no_sandbox_status = 4;

// Whether students' code may run here: in a real sandbox, or without one when `no_sandbox` says
// so (then with the warning on stderr). A refusal prints sandbox_refusal on stderr.
bool sandbox_allowed(bool no_sandbox, std::string_view command, Lang lang);

// What grading without a sandbox means, one sentence for the grader's outputs (terminal,
// summary.txt, results/<student>.json).
Text no_sandbox_meaning();

// The same for a student, in Gradescope's output.
Text no_sandbox_student_note();

}  // namespace blockcheck
