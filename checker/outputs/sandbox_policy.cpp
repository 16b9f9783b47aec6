// Grading's sandbox policy: see sandbox_policy.hpp.
#include "checker/outputs/sandbox_policy.hpp"

#include "checker/outputs/student_id.hpp"
#include "checker/run/process.hpp"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>

namespace blockcheck {

SandboxProbe probe_sandbox() {
    SandboxProbe probe;
    try {
        probe.isolation = ProgramJail(false).isolation();
    } catch (const std::exception& e) {  // as root with no throw-away uid: nothing may run at all
        probe.jail_error = e.what();
    }
    probe.compiles_sandboxed = Sandbox::available();
    return probe;
}

namespace {

// The first line bwrap printed when it could not start `true`; "" when it started.
std::string bwrap_complaint() {
    Sandbox sandbox{std::filesystem::temp_directory_path(), {}};
    Limits limits;
    limits.wall_seconds = 10;
    const RunResult r = run_process({"true"}, {}, limits, {}, &sandbox);
    if (r.status == RunStatus::exited && r.exit_code == 0) return "";
    const std::string text = !r.err.empty() ? r.err : !r.error.empty() ? r.error : std::string(to_string(r.status));
    return printable_id(text.substr(0, text.find('\n')));
}

}  // namespace

std::string sandbox_failure(const SandboxProbe& probe) {
    if (!probe.jail_error.empty()) return printable_id(probe.jail_error);
    const char* forced = std::getenv("BLOCKCHECK_GRADE_ISOLATION");
    if (forced && *forced && !is_sandbox(probe.isolation))
        return "BLOCKCHECK_GRADE_ISOLATION=" + printable_id(forced) + " chose no sandbox";
    if (::access("/usr/bin/bwrap", X_OK) != 0) return "/usr/bin/bwrap is not installed (Debian's package bubblewrap)";
    const std::string complaint = bwrap_complaint();
    return complaint.empty() ? "bwrap starts, but not with the grading jail's options (its seccomp filter, tmpfs and uid)"
                             : complaint;
}

std::string sandbox_refusal(const SandboxProbe& probe, std::string_view command, Lang lang) {
    const char* en =
        "blockcheck {command}: refusing to run the students' programs: no sandbox works here.\n"
        "  probed: bubblewrap (/usr/bin/bwrap starting /usr/bin/true in new user, mount, PID and network namespaces),\n"
        "          for the programs and for their compiles; what works is \"{isolation}\": {description}\n"
        "  failed: {failure}\n"
        "  needed: user namespaces and a fresh /proc for bubblewrap:\n"
        "    Docker (measured on 20.10): docker run --security-opt seccomp=unconfined --security-opt systempaths=unconfined ...\n"
        "    Kubernetes: the container's securityContext with seccompProfile {{type: Unconfined}} and procMount: Unmasked\n"
        "      (with hostUsers: false), as deploy/kubernetes/grade-job.yaml sets them\n"
        "    a host or VM: the bubblewrap package, and unprivileged user namespaces allowed\n"
        "      (sysctl user.max_user_namespaces > 0; kernel.unprivileged_userns_clone=1 where it exists)\n"
        "  docs/sandbox.md explains. To grade anyway, where every submission could read the others' and the\n"
        "  grader's files and change results: add --no-sandbox (every output then says so).";
    const char* zh =
        "blockcheck {command}：拒绝运行学生的程序：此处没有可用的沙箱。\n"
        "  已探测：bubblewrap（/usr/bin/bwrap 在新的 user、mount、PID 与网络命名空间中启动 /usr/bin/true），\n"
        "          用于运行程序及编译；实际可用的隔离为“{isolation}”：{description}\n"
        "  失败原因：{failure}\n"
        "  需要：bubblewrap 可使用用户命名空间并挂载新的 /proc：\n"
        "    Docker（已在 20.10 上实测）：docker run --security-opt seccomp=unconfined --security-opt systempaths=unconfined ...\n"
        "    Kubernetes：容器的 securityContext 设置 seccompProfile {{type: Unconfined}} 与 procMount: Unmasked\n"
        "      （并设置 hostUsers: false），deploy/kubernetes/grade-job.yaml 已如此设置\n"
        "    主机或虚拟机：安装 bubblewrap 软件包，并允许非特权用户命名空间\n"
        "      （sysctl user.max_user_namespaces > 0；若存在 kernel.unprivileged_userns_clone 则设为 1）\n"
        "  详见 docs/sandbox.md。若仍要评分（任何提交都可能读取其他学生与评分者的文件并篡改结果）：\n"
        "  加上 --no-sandbox（此后每个输出都会注明）。";
    return tr_format(lang, en, zh, fmt::arg("command", command), fmt::arg("isolation", isolation_name(probe.isolation)),
                     fmt::arg("description", describe_isolation(probe.isolation)), fmt::arg("failure", sandbox_failure(probe)));
}

Text no_sandbox_meaning() {
    return {"graded WITHOUT a sandbox (--no-sandbox): the students' programs and compiles ran without bubblewrap, under "
            "resource limits and a system-call filter, as throw-away users where the grader is root and otherwise as the "
            "grader's own user, able to read every file that user can read (as the grader's user: other submissions and "
            "results among them) and to use the network; a hostile submission could have read others' work or changed "
            "results, so trust these grades only as far as you trust every submission",
            "未使用沙箱评分（--no-sandbox）：学生的程序及其编译没有在 bubblewrap 中运行，只受资源限制与系统调用过滤；"
            "评分者为 root 时以一次性用户身份运行，否则以评分用户本人的身份运行，可读取该用户能读取的一切文件"
            "（以评分用户身份时包括其他提交与结果），并可使用网络；恶意提交可能读取他人作业或篡改结果，"
            "这些成绩的可信程度取决于每一份提交是否可信"};
}

Text no_sandbox_student_note() {
    return {"Graded without a sandbox (the grader was run with --no-sandbox): the programs on the grading machine were not "
            "isolated from each other.",
            "未使用沙箱评分（评分时使用了 --no-sandbox）：评分机器上的各个程序之间没有隔离。"};
}

bool sandbox_allowed(bool no_sandbox, std::string_view command, Lang lang) {
    const SandboxProbe probe = probe_sandbox();
    if (probe.sandboxed()) return true;
    if (!no_sandbox) {
        fmt::print(stderr, "{}\n", sandbox_refusal(probe, command, lang));
        return false;
    }
    fmt::print(stderr, "blockcheck: {}\n", no_sandbox_meaning().in(lang));
    return true;
}

}  // namespace blockcheck
