// The holes of issue 40 in what compare and forward read (a downloaded checkpoint folder, --input,
// --positions, a case's tensor files): JSON nested 300,000 deep, a link to /dev/zero, a FIFO, a
// shard that shrinks while it is mapped, and 3,000 tensors over the same bytes. Each is run in a
// child process with 1 GiB of address space and 20 seconds, so that a crash, a hang or a runaway
// allocation fails the test instead of the suite.
#include "checker/block/model_folder.hpp"
#include "checker/common/files.hpp"
#include "checker/common/json_exact.hpp"

#include <doctest/doctest.h>
#include <fmt/format.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "temp_dir.hpp"

using namespace blockcheck;
namespace fs = std::filesystem;
using testing::TempDir;

namespace {

struct ChildEnd {
    bool exited = false;
    int code = -1;    // the exit status, when it exited
    int signal = 0;   // the signal that ended it, when one did
    std::string err;  // what it wrote to stderr
};

// Runs `body` (returning an exit status) in a child with 1 GiB of address space and 20 s.
template <class Body>
ChildEnd in_child(Body body) {
    int pipe_fds[2];
    REQUIRE(::pipe(pipe_fds) == 0);
    const pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        ::dup2(pipe_fds[1], 2);
        ::close(pipe_fds[0]);
        const rlimit memory{std::uintmax_t{1} << 30, std::uintmax_t{1} << 30};
        ::setrlimit(RLIMIT_AS, &memory);
        ::alarm(20);
        ::_exit(body());
    }
    ::close(pipe_fds[1]);
    ChildEnd end;
    char buffer[4096];
    for (ssize_t n; (n = ::read(pipe_fds[0], buffer, sizeof buffer)) > 0;) end.err.append(buffer, static_cast<std::size_t>(n));
    ::close(pipe_fds[0]);
    int status = 0;
    ::waitpid(pid, &status, 0);
    end.exited = WIFEXITED(status);
    end.code = end.exited ? WEXITSTATUS(status) : -1;
    end.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    return end;
}

// The message of the InputFileError `call` throws, in a child: exit 0 and the message, or 1 when
// nothing was thrown, 3 for another exception (std::bad_alloc), a signal for a crash or a hang.
template <class Call>
ChildEnd refusal_of(Call call) {
    return in_child([&] {
        try {
            call();
            ::fputs("no error", stderr);
            return 1;
        } catch (const InputFileError& e) {
            ::fputs(e.what(), stderr);
            return 0;
        } catch (const std::exception& e) {
            ::fputs(e.what(), stderr);
            return 3;
        }
    });
}

void put(const fs::path& file, const std::string& bytes) {
    fs::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary) << bytes;
}

// A safetensors file whose header is `header` (padded) followed by `data`.
std::string safetensors_bytes(std::string header, const std::string& data) {
    header.append((8 - header.size() % 8) % 8, ' ');
    std::string bytes(8, '\0');
    const std::uint64_t size = header.size();
    std::memcpy(bytes.data(), &size, 8);
    return bytes + header + data;
}

std::string nested(std::size_t depth) { return std::string(depth, '[') + std::string(depth, ']'); }

const std::string small_config = R"({"hidden_size": 4, "intermediate_size": 8, "num_attention_heads": 2})";

}  // namespace

TEST_CASE("deep JSON: config.json or a safetensors header nested 300,000 deep is refused by name, not a crash") {
    TempDir dir("deep-json");
    put(dir.path / "config.json", "{\"a\": " + nested(300'000) + "}");
    ChildEnd end = refusal_of([&] { ModelFolder folder(dir.path); });
    CHECK(end.code == 0);
    CHECK(end.err.find("config.json: nested deeper than 64") != std::string::npos);

    put(dir.path / "config.json", small_config);
    put(dir.path / "model.safetensors",
        safetensors_bytes(R"({"__metadata__": {"x": )" + nested(300'000) + "}}", ""));
    end = refusal_of([&] { ModelFolder folder(dir.path); });
    CHECK(end.code == 0);
    CHECK(end.err.find("model.safetensors: the safetensors header: nested deeper than 64") != std::string::npos);

    CHECK_THROWS_WITH_AS(parse_json(nested(65), "x.json"), doctest::Contains("x.json: nested deeper than 64"), InputFileError);
    CHECK(parse_json(nested(64), "x.json").is_array());
}

TEST_CASE("special files: a link to /dev/zero or a FIFO as config.json, --input or --positions is refused by name") {
    TempDir dir("special-files");
    fs::create_directories(dir.path / "model");
    fs::create_symlink("/dev/zero", dir.path / "model/config.json");
    ChildEnd end = refusal_of([&] { ModelFolder folder(dir.path / "model"); });
    CHECK(end.code == 0);
    CHECK(end.err.find("config.json leads outside the folder") != std::string::npos);

    fs::create_symlink("/dev/zero", dir.path / "hidden.npy");  // a file the user named: followed, then refused
    end = refusal_of([&] { read_hidden_states(dir.path / "hidden.npy", 4); });
    CHECK(end.code == 0);
    CHECK(end.err.find("hidden.npy is a device, not a regular file") != std::string::npos);

    fs::remove(dir.path / "model/config.json");
    REQUIRE(::mkfifo((dir.path / "model/config.json").c_str(), 0600) == 0);
    end = refusal_of([&] { ModelFolder folder(dir.path / "model"); });
    CHECK(end.code == 0);
    CHECK(end.err.find("config.json is a pipe, not a regular file") != std::string::npos);

    REQUIRE(::mkfifo((dir.path / "positions.npy").c_str(), 0600) == 0);
    end = refusal_of([&] { read_npy(dir.path / "positions.npy"); });
    CHECK(end.code == 0);
    CHECK(end.err.find("positions.npy is a pipe, not a regular file") != std::string::npos);
}

TEST_CASE("special files: links inside the folder and a Hugging Face cache snapshot's links are followed; others not") {
    TempDir dir("folder-links"), outside("folder-links-outside");
    put(dir.path / "real/config.json", small_config);
    fs::create_symlink("real/config.json", dir.path / "config.json");
    CHECK(read_folder_file(dir.path, "config.json", 1 << 20) == small_config);
    put(outside.path / "config.json", small_config);
    fs::remove(dir.path / "config.json");
    fs::create_symlink(outside.path / "config.json", dir.path / "config.json");
    CHECK_THROWS_WITH_AS(read_folder_file(dir.path, "config.json", 1 << 20),
                         doctest::Contains("config.json leads outside the folder"), InputFileError);
    CHECK_THROWS_WITH_AS(read_folder_file(dir.path, "../folder-links-outside/config.json", 1 << 20),
                         doctest::Contains("leads outside the folder"), InputFileError);
    CHECK_THROWS_WITH_AS(read_folder_file(dir.path, "real/config.json", 10), doctest::Contains("beyond the limit of 10"),
                         InputFileError);

    // huggingface_hub's cache: snapshots/REV/config.json -> ../../blobs/HASH
    const fs::path model = dir.path / "hub/models--org--name";
    put(model / "blobs/0123abcd", small_config);
    fs::create_directories(model / "snapshots/rev1");
    fs::create_symlink("../../blobs/0123abcd", model / "snapshots/rev1/config.json");
    CHECK(read_folder_file(model / "snapshots/rev1", "config.json", 1 << 20) == small_config);
}

TEST_CASE("a shard that shrinks while it is mapped ends compare with an error naming it, not SIGBUS") {
    TempDir dir("shrinking-shard");
    put(dir.path / "config.json", small_config);
    Tensor weights{DType::float64, {4096}, std::vector<double>(4096, 0.5)};
    write_safetensors(dir.path / "model.safetensors", {{"w", weights}});
    ModelFolder folder(dir.path);
    const unsigned char* data = folder.tensor("w").second;
    CHECK(data[4095 * 8 + 7] == 0x3f);  // 0.5's top byte, read through the mapping
    const ChildEnd end = in_child([&] {
        ::truncate((dir.path / "model.safetensors").c_str(), 0);
        volatile unsigned char last = data[4095 * 8 + 7];  // now past the file's end
        return static_cast<int>(last) == 0x3f ? 1 : 4;
    });
    CHECK(end.exited);
    CHECK(end.code == 2);
    CHECK(end.err.find("model.safetensors: the file changed while it was read") != std::string::npos);
}

TEST_CASE("amplification: 3,000 tensors over the same bytes are refused; only the tensor used is converted") {
    TempDir dir("amplification");
    const std::size_t rows = 4096, cols = 32;  // 1 MiB of float64
    const std::string data(rows * cols * 8, '\0');
    std::string header = "{";
    for (int i = 0; i < 3000; ++i)
        header += fmt::format("\"t{}\": {{\"dtype\": \"F64\", \"shape\": [{}, {}], \"data_offsets\": [0, {}]}}, ", i, rows,
                              cols, data.size());
    header += fmt::format("\"input\": {{\"dtype\": \"F64\", \"shape\": [{}, {}], \"data_offsets\": [0, {}]}}}}", rows, cols,
                          data.size());
    put(dir.path / "x.safetensors", safetensors_bytes(header, data));
    const ChildEnd end = refusal_of([&] { read_hidden_states(dir.path / "x.safetensors", cols); });
    CHECK(end.code == 0);
    CHECK(end.err.find("overlap in the data") != std::string::npos);

    // Tensors of their own: the input alone is converted, whatever else the file holds.
    write_safetensors(dir.path / "y.safetensors", {{"other", Tensor{DType::float64, {3}, {1, 2, 3}}},
                                                    {"input", Tensor{DType::float64, {1, 2, 2}, {1, 2, 3, 4}}}});
    const Matrix<double> x = read_hidden_states(dir.path / "y.safetensors", 2);
    CHECK(x.rows == 2);
    CHECK(x(1, 1) == 4);
}
