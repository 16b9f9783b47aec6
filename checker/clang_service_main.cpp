// blockcheck-clang-service: grade's resident clang (docs/compile-speed.md, "The resident compile
// service"). Started once per grading thread by the grader (checker/compile/compile_service.cpp)
// inside the compile jail, as the compile's throw-away uid, never by hand. It loads clang's and
// LLVM's libraries and targets once; then, for each request (a build folder and a clang++ command
// line, with the compile's limits) it forks a child that takes the limits, runs clang's driver
// in-process (cc1 in the same process, the link by mold as the driver runs it) and exits; the
// parent watches the child as run_process watches a compiler (wall clock, output cap) and replies
// with how it ended and what it said. Requests and replies are jail_protocol's (the request's
// `binary` is the build folder, its `input` the command line, its arguments separated by NUL).
#include "checker/run/detail/jail_protocol.hpp"
#include "checker/run/detail/process_parts.hpp"

#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/DiagnosticIDs.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/Driver/Compilation.h>
#include <clang/Driver/Driver.h>
#include <clang/Driver/Job.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/TextDiagnosticBuffer.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/FrontendTool/Utils.h>
#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/TargetParser/Host.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace {

using namespace blockcheck;
using process_parts::Clock;

// clang's cc1 in this process, as clang's own cc1_main runs it (args: the executable, "-cc1", ...).
int run_cc1(llvm::SmallVectorImpl<const char*>& args) {
    auto compiler = std::make_unique<clang::CompilerInstance>();
    llvm::IntrusiveRefCntPtr<clang::DiagnosticIDs> ids(new clang::DiagnosticIDs());
    llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> options = new clang::DiagnosticOptions();
    auto* buffer = new clang::TextDiagnosticBuffer;  // owned by `diagnostics`
    clang::DiagnosticsEngine diagnostics(ids, &*options, buffer);
    const bool parsed = clang::CompilerInvocation::CreateFromArgs(compiler->getInvocation(),
                                                                  llvm::ArrayRef(args).slice(2), diagnostics, args[0]);
    compiler->createDiagnostics();
    if (!compiler->hasDiagnostics()) return 1;
    buffer->FlushDiagnostics(compiler->getDiagnostics());
    if (!parsed) return 1;
    const bool ok = clang::ExecuteCompilerInvocation(compiler.get());
    llvm::errs().flush();
    return ok ? 0 : 1;
}

// One job of the driver's: clang's cc1 in this process, any other (the link) a process of its own.
int run_job(const clang::driver::Command& job) {
    const llvm::opt::ArgStringList& arguments = job.getArguments();
    if (!arguments.empty() && std::string_view(arguments[0]) == "-cc1") {
        llvm::SmallVector<const char*, 256> argv{job.getExecutable()};
        argv.append(arguments.begin(), arguments.end());
        return run_cc1(argv);
    }
    std::string message;
    bool failed = false;
    const int code = job.Execute({}, &message, &failed);
    if (failed || code != 0) {
        llvm::errs() << "clang++: error: " << job.getExecutable() << " failed with exit code " << code
                     << (message.empty() ? "" : ": ") << message << "\n";
        return code != 0 ? code : 1;
    }
    return 0;
}

// clang's driver on `argv` (argv[0] the clang++ executable): 0 when every job (compile, link)
// succeeded. Its jobs run one by one here (the driver itself would run cc1 as a process of its own
// whenever a compile has more than one job, as a compile and link does). Its messages go to
// standard error.
int run_driver(const std::vector<std::string>& argv) {
    char resolved[PATH_MAX];
    const std::string executable = ::realpath(argv[0].c_str(), resolved) ? resolved : argv[0];
    std::vector<const char*> args{argv[0].c_str(), "--driver-mode=g++"};
    for (std::size_t i = 1; i < argv.size(); ++i) args.push_back(argv[i].c_str());
    llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> options = new clang::DiagnosticOptions();
    auto* printer = new clang::TextDiagnosticPrinter(llvm::errs(), &*options);  // owned by `diagnostics`
    clang::DiagnosticsEngine diagnostics(new clang::DiagnosticIDs(), &*options, printer);
    clang::driver::Driver driver(executable, llvm::sys::getDefaultTargetTriple(), diagnostics);
    std::unique_ptr<clang::driver::Compilation> compilation(driver.BuildCompilation(args));
    if (!compilation || compilation->containsError() || diagnostics.hasErrorOccurred()) return 1;
    int result = 0;
    for (const auto& job : compilation->getJobs().getJobs())
        if ((result = run_job(*job)) != 0) break;
    if (result != 0) compilation->CleanupFileMap(compilation->getResultFiles(), nullptr, true);  // no half-written output
    llvm::errs().flush();
    return result;
}

std::vector<std::string> split_arguments(const std::string& joined) {
    std::vector<std::string> argv;
    std::size_t at = 0;
    while (at <= joined.size()) {
        const std::size_t end = std::min(joined.find('\0', at), joined.size());
        argv.push_back(joined.substr(at, end - at));
        at = end + 1;
    }
    return argv;
}

// The forked child: its own process group, the compile's limits, standard error to the parent,
// the build folder as working folder; then the driver. Never returns.
[[noreturn]] void compile_child(const jail_protocol::Request& request, int in_fd, int err_fd) {
    ::setsid();
    if (::dup2(in_fd, 0) < 0 || ::dup2(err_fd, 1) < 0 || ::dup2(err_fd, 2) < 0) ::_exit(125);
    if (::chdir(request.binary.c_str()) != 0) ::_exit(126);
    for (const process_parts::Rlimit& limit : process_parts::rlimits_for(request.limits)) {
        rlimit current{};  // never above the service's own hard limit (a uid cannot raise it)
        if (::getrlimit(limit.resource, &current) != 0) ::_exit(127);
        const rlimit value{std::min(limit.soft, current.rlim_max), std::min(limit.hard, current.rlim_max)};
        if (::setrlimit(limit.resource, &value) != 0) ::_exit(127);
    }
    const int code = run_driver(split_arguments(request.input));
    ::_exit(code);
}

// One request: the child forked, watched under the request's wall clock and output cap, reaped.
RunResult serve(const jail_protocol::Request& request) {
    RunResult result;
    int in[2], err[2];
    if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0) {
        result.error = "the clang service cannot make a pipe";
        return result;
    }
    const auto start = Clock::now();
    const pid_t pid = ::fork();
    if (pid == 0) compile_child(request, in[0], err[1]);
    ::close(in[0]);
    ::close(err[1]);
    if (pid < 0) {
        ::close(in[1]);
        ::close(err[0]);
        result.error = "the clang service cannot fork";
        return result;
    }
    const auto stop = process_parts::supervise(pid, Fd(in[1]), Fd(::open("/dev/null", O_RDONLY | O_CLOEXEC)), Fd(err[0]), {},
                                               request.limits, start, result);
    process_parts::kill_group(pid);
    const process_parts::Reaped reaped = process_parts::reap(pid);
    result.wall_seconds = std::chrono::duration<double>(Clock::now() - start).count();
    result.cpu_seconds = reaped.cpu_seconds;
    if (WIFEXITED(reaped.status)) {
        result.status = RunStatus::exited;
        result.exit_code = WEXITSTATUS(reaped.status);
    } else {
        result.status = RunStatus::signaled;
        result.signal = WTERMSIG(reaped.status);
        const bool cpu_limit = result.signal == SIGXCPU ||
                               (result.signal == SIGKILL && result.cpu_seconds >= std::ceil(request.limits.cpu_seconds));
        if (cpu_limit) result.status = RunStatus::timed_out;
    }
    if (stop == process_parts::StopReason::timed_out) result.status = RunStatus::timed_out;
    if (stop == process_parts::StopReason::output_limit) result.status = RunStatus::output_limit;
    return result;
}

}  // namespace

int main() {
    ::signal(SIGPIPE, SIG_IGN);
    llvm::InitializeAllTargets();
    llvm::InitializeAllTargetMCs();
    llvm::InitializeAllAsmPrinters();
    llvm::InitializeAllAsmParsers();
    while (auto request = jail_protocol::read_request(0))
        if (!jail_protocol::send_all(1, jail_protocol::encode(serve(*request)))) return 1;
    return 0;
}
