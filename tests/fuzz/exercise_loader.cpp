// Fuzz target: one exercise definition loaded through ExerciseSet::load, and its variants drawn.
// A bad definition must be an InputFileError naming the file and field, never a crash.
#include "checker/common/json_exact.hpp"
#include "checker/exercise/exercise_set.hpp"
#include "checker/exercise/variants.hpp"

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

namespace fs = std::filesystem;

// A scratch tree data/exercises/fz/ with a chapter.json, made once per process.
const fs::path& scratch_root() {
    static const fs::path root = [] {
        const fs::path dir = fs::temp_directory_path() / ("blockcheck-fuzz-loader-" + std::to_string(::getpid()));
        fs::create_directories(dir / "data/exercises/fz");
        std::ofstream(dir / "data/exercises/fz/chapter.json")
            << R"({"chapter": "fz", "order": 1, "title": {"en": "Fuzz", "zh": "模糊测试"}})";
        std::atexit([] { std::error_code ignored; fs::remove_all(scratch_root(), ignored); });
        return dir;
    }();
    return root;
}

// The file is named after the definition's own "id" when it has a plain one, so that inputs
// reach the checks past the name check.
std::string file_name(const std::string& text) {
    try {
        const auto json = blockcheck::parse_json_exact(text, "fuzz.json");
        if (json.is_object() && json.contains("id") && json["id"].is_string()) {
            const std::string id = json["id"].get<std::string>();
            if (!id.empty() && id.size() < 100 && id.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") == std::string::npos)
                return id + ".json";
        }
    } catch (const blockcheck::InputFileError&) {
    }
    return "fuzz.json";
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace blockcheck;
    const std::string text(reinterpret_cast<const char*>(data), size);
    const fs::path dir = scratch_root() / "data/exercises/fz";
    for (const auto& entry : fs::directory_iterator(dir))
        if (entry.path().filename() != "chapter.json") fs::remove(entry.path());
    std::ofstream(dir / file_name(text), std::ios::binary) << text;
    try {
        const ExerciseSet set = ExerciseSet::load(scratch_root());
        for (const Exercise& e : set.all())
            for (std::uint64_t seed : {0ull, 1ull, 0xFFFFFFFFFFFFFFFFull}) variant_inputs(e, seed);
    } catch (const InputFileError&) {
    }
    return 0;
}
