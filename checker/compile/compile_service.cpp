// The grader's side of the resident clang (blockcheck-clang-service, checker/clang_service_main.cpp;
// docs/compile-speed.md, "The resident compile service"). A service is one process started inside
// the compile jail (bubblewrap with the folders a clang compile reads, as a throw-away uid when the
// grader is root), with a writable folder of its own in the cache (build-service-<n>/, the
// grader's, 0711): each compile's build folder is made inside it and handed to the service's uid,
// as run_compiler hands a build folder to a compile's. A pool of idle services, each lent only to
// the thread that started it: bubblewrap's --die-with-parent ends a service when that thread ends
// (the kernel's parent-death signal follows the forking thread), so a service of a grading thread
// that has finished is dead, not failed, and is never lent again. A service that fails (dies,
// answers nothing, cannot fork) is a grader fault: that compile and every later one of the process
// go to clang++ processes, and no service starts again.
#include "checker/compile/compile_parts.hpp"

#include "checker/run/detail/jail_protocol.hpp"
#include "checker/run/jail_session.hpp"
#include "checker/run/sandbox.hpp"

#include <unistd.h>

#include <cstdlib>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <string_view>

namespace blockcheck::compile_parts {

namespace fs = std::filesystem;

class ClangService {
public:
    ClangService(fs::path folder, std::string key) : folder_(std::move(folder)), key_(std::move(key)) {}
    ~ClangService() {
        session_.reset();  // the service (and bwrap) killed and reaped first
        if (jail_.uid != 0) kill_throwaway_uid(jail_.uid);  // anything of its uid left, without bwrap too
        std::error_code ignored;
        fs::remove_all(folder_, ignored);
    }
    ClangService(const ClangService&) = delete;
    ClangService& operator=(const ClangService&) = delete;

    fs::path folder_;
    std::string key_;  // the cache and the read-only folders it was started with
    Sandbox sandbox_;
    CompilerJail jail_;
    std::unique_ptr<JailSession> session_;
};

namespace {

constexpr const char* service_name = "blockcheck-clang-service";

// The service's executable next to the running one; empty when it was not built.
fs::path service_executable() {
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    if (ec) return {};
    const fs::path service = self.parent_path() / service_name;
    return ::access(service.c_str(), X_OK) == 0 ? service : fs::path{};
}

struct Pool {
    std::mutex mutex;
    std::vector<std::unique_ptr<ClangService>> idle;
    bool failed = false;
    ClangServiceUse use;
};

Pool& pool() {
    static Pool shared;
    return shared;
}

// A pool keeps at most this many idle services (a test suite's caches and headers come and go).
constexpr std::size_t max_idle = 4;

// The key also names the calling thread: a service serves the thread that started it (above).
std::string service_key(const fs::path& cache_dir, const std::vector<fs::path>& readonly_dirs) {
    static std::atomic<std::uint64_t> threads{0};
    thread_local const std::uint64_t this_thread = threads++;  // never reused, unlike a std::thread::id
    std::string key = std::to_string(this_thread) + '\n' + cache_dir.string();
    for (const fs::path& dir : readonly_dirs) key += '\n' + dir.string();
    return key;
}

// A service started in a fresh folder of cache_dir, its executable copied in (the jail sees that
// folder, /usr and `readonly_dirs` only); null when it cannot start here.
std::unique_ptr<ClangService> start_service(const fs::path& cache_dir, const std::vector<fs::path>& readonly_dirs) {
    const fs::path executable = service_executable();
    if (executable.empty()) return nullptr;
    auto service = std::make_unique<ClangService>(cache_dir / ("build-service-" + unique_suffix()),
                                                  service_key(cache_dir, readonly_dirs));
    fresh_folder(service->folder_);
    const fs::path copy = service->folder_ / service_name;
    std::error_code ec;
    fs::copy_file(executable, copy, ec);
    fs::permissions(copy, fs::perms(0755), ec);
    if (ec) return nullptr;
    service->sandbox_ = Sandbox{service->folder_, readonly_dirs};
    service->jail_ = resident_jail(service->sandbox_, cache_dir);
    if (!service->jail_.refused.empty()) return nullptr;
    if (service->jail_.sandbox)
        service->session_ = JailSession::start(sandboxed_argv({copy.string()}, service->sandbox_), service->jail_.uid);
    else
        service->session_ = JailSession::start({copy.string()}, service->jail_.uid, copy.string());
    if (!service->session_) return nullptr;
    return service;
}

// Whether an idle service still runs. A dead service of another thread ended with its thread and
// is dropped; one of the calling thread (alive, so not its doing) crashed, and is lent as it is:
// its compile fails, a grader fault.
bool still_running(const ClangService& service) { return service.session_ && service.session_->running(); }

// Services switched off (BLOCKCHECK_CLANG_SERVICE=0: bench --grading's clang++ processes).
bool services_off() {
    const char* off = std::getenv("BLOCKCHECK_CLANG_SERVICE");
    return off && std::string_view(off) == "0";
}

}  // namespace

ServiceLease lease_clang_service(const fs::path& cache_dir, const std::vector<fs::path>& readonly_dirs) {
    if (services_off()) return {};
    const std::string key = service_key(cache_dir, readonly_dirs);
    std::vector<std::unique_ptr<ClangService>> ended;  // services whose thread has gone; ended outside the lock
    {
        std::lock_guard lock(pool().mutex);
        if (pool().failed) return {};
        auto& idle = pool().idle;
        for (auto at = idle.begin(); at != idle.end();) {
            if ((*at)->key_ != key && !still_running(**at)) {
                ended.push_back(std::move(*at));
                at = idle.erase(at);
            } else if ((*at)->key_ == key) {
                ServiceLease lease(std::move(*at));
                idle.erase(at);
                return lease;
            } else {
                ++at;
            }
        }
    }
    auto service = start_service(cache_dir, readonly_dirs);
    if (!service) {  // cannot start here: clang++ processes for the rest of the process
        std::lock_guard lock(pool().mutex);
        pool().failed = true;
        return {};
    }
    return ServiceLease(std::move(service));
}

ServiceLease::ServiceLease(std::unique_ptr<ClangService> service) : service_(std::move(service)) {}
ServiceLease::ServiceLease(ServiceLease&&) noexcept = default;

ServiceLease::~ServiceLease() {
    if (!service_) return;
    std::unique_ptr<ClangService> dropped;  // ended outside the lock
    std::lock_guard lock(pool().mutex);
    auto& idle = pool().idle;
    if (pool().failed) {
        dropped = std::move(service_);
        return;
    }
    idle.push_back(std::move(service_));
    if (idle.size() > max_idle) {
        dropped = std::move(idle.front());
        idle.erase(idle.begin());
    }
}

const fs::path& ServiceLease::folder() const { return service_->folder_; }

CompilerJail ServiceLease::jail_for(const fs::path& dir) const {
    CompilerJail jail{nullptr, service_->jail_.uid, {}};
    if (jail.uid != 0) jail.refused = hand_build_folder(dir, jail.uid);
    return jail;
}

std::optional<RunResult> ServiceLease::compile(const std::vector<std::string>& argv, const fs::path& dir,
                                               const Limits& limits) {
    jail_protocol::Request request;
    request.limits = limits;
    request.binary = dir.string();
    for (std::size_t i = 0; i < argv.size(); ++i) request.input += (i ? std::string(1, '\0') : std::string()) + argv[i];
    std::optional<RunResult> reply = service_->session_->exchange(jail_protocol::encode(request), limits.wall_seconds);
    const bool served = reply && reply->status != RunStatus::failed_to_start;
    std::unique_ptr<ClangService> failed;  // ended outside the lock, with the idle ones
    std::vector<std::unique_ptr<ClangService>> idle;
    if (!served) failed = std::move(service_);
    std::lock_guard lock(pool().mutex);
    if (served) {
        ++pool().use.compiles;
        return reply;
    }
    ++pool().use.failures;  // a grader fault: every service ends, and none starts again in this process
    pool().failed = true;
    idle.swap(pool().idle);
    return std::nullopt;
}

}  // namespace blockcheck::compile_parts

namespace blockcheck {

ClangServiceUse clang_service_use() {
    auto& shared = compile_parts::pool();
    std::lock_guard lock(shared.mutex);
    ClangServiceUse use = shared.use;
    for (const auto& service : shared.idle)
        if (service->session_ && service->session_->pid() > 0) use.idle_pids.push_back(service->session_->pid());
    return use;
}

}  // namespace blockcheck
