// Fuzz target: a program's whole output through the answer parser, which must never throw.
#include "checker/exercise/protocol.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace blockcheck;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const ProgramOutput output = parse_program_output(text);  // documented: never throws
    for (const auto& [name, line] : output.answers) {
        try {
            format_value(to_value(line.value), 20);
        } catch (const ProtocolError&) {
            // nan or inf given where a value is converted: refused by name, expected
        }
    }
    try {
        parse_reading(text);
    } catch (const ProtocolError&) {
        // a value that does not follow the protocol: expected
    }
    return 0;
}
