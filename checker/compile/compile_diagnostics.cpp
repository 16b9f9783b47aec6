// Trimming gcc's messages to the few a student reads (compile.hpp's trim_diagnostics).
#include "checker/compile/compile.hpp"

#include <algorithm>
#include <vector>

namespace blockcheck {

namespace {

constexpr std::size_t max_line_length = 300;
constexpr std::size_t max_block_lines = 25;

struct Block {
    std::vector<std::string_view> lines;
    bool error = false;
};

bool is_error_line(std::string_view line) {
    return line.find(": error:") != std::string_view::npos || line.find(": fatal error:") != std::string_view::npos;
}

bool is_warning_line(std::string_view line) { return line.find(": warning:") != std::string_view::npos; }

// Source excerpts, carets and notes belong to the message above them.
bool is_context_line(std::string_view line) {
    return line.empty() || line.front() == ' ' || line.find(": note:") != std::string_view::npos;
}

std::vector<std::string_view> split_lines(std::string_view text) {
    std::vector<std::string_view> lines;
    while (!text.empty()) {
        const auto end = text.find('\n');
        lines.push_back(text.substr(0, end));
        text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
    }
    return lines;
}

// Lines such as "x.cpp: In function 'int main()':" or "required from here" lead in to the next
// error or warning; context lines follow it.
std::vector<Block> split_blocks(std::string_view text) {
    std::vector<Block> blocks;
    std::vector<std::string_view> lead_in;
    for (std::string_view line : split_lines(text)) {
        if (is_error_line(line) || is_warning_line(line)) {
            Block block{std::move(lead_in), is_error_line(line)};
            block.lines.push_back(line);
            blocks.push_back(std::move(block));
            lead_in.clear();
        } else if (is_context_line(line) && lead_in.empty() && !blocks.empty()) {
            blocks.back().lines.push_back(line);
        } else {
            lead_in.push_back(line);
        }
    }
    return blocks;
}

void append_block(std::string& out, const Block& block) {
    std::size_t count = 0;
    for (std::string_view line : block.lines) {
        if (++count > max_block_lines) {
            out += "  ...\n";
            break;
        }
        if (line.size() > max_line_length) {
            out.append(line.substr(0, max_line_length)).append("...\n");
        } else {
            out.append(line).append("\n");
        }
    }
}

std::string strip_trailing_space(std::string text) {
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ' || text.back() == '\r')) text.pop_back();
    return text;
}

}  // namespace

std::string trim_diagnostics(std::string_view gcc_stderr, std::size_t max_errors) {
    const std::vector<Block> blocks = split_blocks(gcc_stderr);
    if (blocks.empty()) return strip_trailing_space(std::string(gcc_stderr));  // not gcc's usual shape: keep it
    const bool any_error = std::any_of(blocks.begin(), blocks.end(), [](const Block& b) { return b.error; });
    std::string out;
    std::size_t shown = 0, dropped = 0;
    for (const Block& block : blocks) {
        if (block.error != any_error) continue;  // with errors, warnings are noise
        if (shown < max_errors) {
            append_block(out, block);
            ++shown;
        } else {
            ++dropped;
        }
    }
    if (dropped > 0) {
        const char* noun = any_error ? (dropped == 1 ? "error" : "errors") : (dropped == 1 ? "warning" : "warnings");
        out += "... and " + std::to_string(dropped) + " more " + noun + "\n";
    }
    return strip_trailing_space(std::move(out));
}

}  // namespace blockcheck
