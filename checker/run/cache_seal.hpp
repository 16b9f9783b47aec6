// Sealed cache entries. A cache folder may sit where others can write to it (the student's
// .blockcheck/cache is inside the repository, and `git add -f` commits anything into it), so what
// it holds is believed only when this user's secret vouches for it: each entry has a seal that
// records, in full, every input that decided the entry (the source's bytes, the headers', the
// flags, the compiler) and an HMAC-SHA-256 of those inputs and of the entry's files under a
// secret kept outside any work tree. A planted, altered or colliding entry is then a miss.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace blockcheck {

// Where this user's cache secret is kept: $XDG_CACHE_HOME/blockcheck/cache-key, else
// ~/.cache/blockcheck/cache-key (empty when neither variable is set).
std::filesystem::path cache_secret_path();

// This user's secret (32 random bytes): read once a process from cache_secret_path(), or created
// there (file 0600 in a folder 0700). A file that is not a regular file of ours with mode 0600
// and 32 bytes is replaced. When no file can be kept, a secret for this process only: nothing on
// disk is then believed across processes (each rebuilds what it needs), never a wrong entry.
const std::string& cache_secret();

// What a seal binds of each file: its bytes, or (for files of tens of MB, such as a precompiled
// header) its identity: device, inode, size, and mtime and ctime to the nanosecond. Any write
// changes the ctime, which only root can set, and a replacement changes the inode.
enum class SealOf { bytes, identity };

// Seals an entry: writes `seal` (atomically) with `inputs` and the HMAC of the inputs and of each
// file's name and current bytes (or identity). An unreadable file leaves the entry unsealed.
void write_seal(const std::filesystem::path& seal, std::string_view inputs, const std::vector<std::filesystem::path>& files,
                SealOf of = SealOf::bytes);

// Whether `seal` exists, records exactly `inputs`, and vouches for each file as it is now.
bool seal_holds(const std::filesystem::path& seal, std::string_view inputs, const std::vector<std::filesystem::path>& files,
                SealOf of = SealOf::bytes);

}  // namespace blockcheck
