// Fuzz target: a block case file through its public reader, at both precisions. A bad file must
// be an InputFileError naming the field, never a crash, a hang or an unbounded allocation.
#include "checker/block/block_case.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace blockcheck;
    const std::string text(reinterpret_cast<const char*>(data), size);
    nlohmann::ordered_json json;
    try {
        json = parse_json_exact(text, "fuzz.json");
    } catch (const InputFileError&) {
        return 0;
    }
    try {
        read_block_case<double>(json, "fuzz.json");
    } catch (const InputFileError&) {
    }
    try {
        read_block_case<Mpfr50>(json, "fuzz.json");
    } catch (const InputFileError&) {
    }
    return 0;
}
