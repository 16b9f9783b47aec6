// A checkpoint's shard mapped read-only, and what happens when it shrinks while it is mapped: a
// read past the file's new end raises SIGBUS in whichever thread reads it (the products read the
// weights on every core). The handler below knows every mapping and its file, and turns such a
// fault into an error naming the file (exit status 2, as for any bad input) instead of a crash;
// a fault anywhere else goes on to the action there was before.
#include "checker/block/model_folder.hpp"

#include "checker/common/files.hpp"

#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>

namespace blockcheck {
namespace {

// One mapping the handler knows: [begin, end) and the file's name, published by `end` (0: free).
struct MappingSlot {
    std::atomic<std::uintptr_t> begin{0}, end{0};
    std::array<char, 1024> name{};
};
std::array<MappingSlot, 256> slots;
std::mutex slots_mutex;  // registration only; the handler reads the atomics
struct sigaction previous_action {};

void write_text(const char* text, std::size_t length) {
    while (length > 0) {
        const ssize_t n = ::write(2, text, length);
        if (n <= 0) return;
        text += n;
        length -= static_cast<std::size_t>(n);
    }
}

// Async-signal-safe: a lookup in the slots, write(2) and _exit(2).
void on_bus_error(int signal, siginfo_t* info, void* context) {
    const auto address = reinterpret_cast<std::uintptr_t>(info->si_addr);
    for (const MappingSlot& slot : slots) {
        const std::uintptr_t end = slot.end.load(std::memory_order_acquire);
        if (end == 0 || address < slot.begin.load(std::memory_order_relaxed) || address >= end) continue;
        static const char before[] = "blockcheck: ";
        static const char after[] = ": the file changed while it was read (it is shorter than when it was opened and "
                                    "checked): nothing computed from it is reported; run again on a file that stays "
                                    "as it is\n";
        write_text(before, sizeof before - 1);
        write_text(slot.name.data(), ::strnlen(slot.name.data(), slot.name.size()));
        write_text(after, sizeof after - 1);
        ::_exit(2);
    }
    // Not one of ours: the action there was before (the default ends the process with SIGBUS).
    if (previous_action.sa_flags & SA_SIGINFO) {
        if (previous_action.sa_sigaction) return previous_action.sa_sigaction(signal, info, context);
    } else if (previous_action.sa_handler != SIG_DFL && previous_action.sa_handler != SIG_IGN) {
        return previous_action.sa_handler(signal);
    }
    ::signal(SIGBUS, SIG_DFL);  // the faulting read runs again and ends the process
}

void install_handler() {
    static std::once_flag once;
    std::call_once(once, [] {
        struct sigaction action {};
        action.sa_sigaction = on_bus_error;
        action.sa_flags = SA_SIGINFO | SA_NODEFER;
        sigemptyset(&action.sa_mask);
        ::sigaction(SIGBUS, &action, &previous_action);
    });
}

// The slot of a new mapping; nullptr when all are taken (the mapping is then refused).
MappingSlot* register_mapping(const void* base, std::size_t size, const std::string& name) {
    install_handler();
    const std::lock_guard lock(slots_mutex);
    for (MappingSlot& slot : slots) {
        if (slot.end.load(std::memory_order_relaxed) != 0) continue;
        std::memset(slot.name.data(), 0, slot.name.size());
        std::memcpy(slot.name.data(), name.data(), std::min(name.size(), slot.name.size() - 1));
        slot.begin.store(reinterpret_cast<std::uintptr_t>(base), std::memory_order_relaxed);
        slot.end.store(reinterpret_cast<std::uintptr_t>(base) + size, std::memory_order_release);
        return &slot;
    }
    return nullptr;
}

}  // namespace

MappedFile::MappedFile(const std::filesystem::path& folder, const std::string& name) {
    const std::string shown = (folder / name).string();
    const UserFile file = open_folder_file(folder, name, max_shard_bytes);
    size_ = static_cast<std::size_t>(file.size);  // the size checked on the open descriptor is what is mapped
    if (size_ == 0) return;
    base_ = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, file.fd.get(), 0);
    if (base_ == MAP_FAILED) {
        base_ = nullptr;
        throw InputFileError(shown + ": cannot map (" + std::strerror(errno) + ")");
    }
    slot_ = register_mapping(base_, size_, shown);
    if (!slot_) {
        ::munmap(base_, size_);
        base_ = nullptr;
        throw InputFileError(shown + ": more than 256 files mapped at once");
    }
}

MappedFile::~MappedFile() {
    if (auto* slot = static_cast<MappingSlot*>(slot_)) {
        const std::lock_guard lock(slots_mutex);
        slot->end.store(0, std::memory_order_release);
    }
    if (base_) ::munmap(base_, size_);
}

}  // namespace blockcheck
