// Reading `name = value` lines. The output of a student program is untrusted: any bytes,
// any length. Nothing here throws out of parse_program_output.
#include "checker/exercise/protocol.hpp"

#include "checker/common/utf8.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <functional>
#include <optional>

namespace blockcheck {

namespace {

constexpr std::size_t line_text_limit = 200;   // bytes of a raw line kept for messages
constexpr std::size_t token_quote_limit = 60;  // bytes of an offending token quoted in a message
constexpr std::size_t nameless_issue_limit = 20;
constexpr std::size_t named_issue_limit = 200;

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

std::string_view trim(std::string_view s) {
    while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
    while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
    return s;
}

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

bool is_ascii_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_ascii_digit(char c) { return c >= '0' && c <= '9'; }

// A control byte other than tab.
bool is_control(unsigned char b) { return (b < 0x20 && b != '\t') || b == 0x7F; }

// True when the line holds control bytes (NUL included) or is not valid UTF-8.
bool is_binary(std::string_view line) {
    for (std::size_t i = 0; i < line.size();) {
        std::size_t n = utf8_length(line, i);
        if (n == 0 || (n == 1 && is_control(static_cast<unsigned char>(line[i])))) return true;
        i += n;
    }
    return false;
}

// Names: letters, digits and '_', starting with a letter or '_'.
bool is_name(std::string_view s) {
    if (s.empty() || !(is_ascii_letter(s.front()) || s.front() == '_')) return false;
    return std::all_of(s.begin(), s.end(), [](char c) { return is_ascii_letter(c) || is_ascii_digit(c) || c == '_'; });
}

// A choice: a bare word, a letter then letters, digits, '_' or '-'.
bool is_word(std::string_view s) {
    if (s.empty() || !is_ascii_letter(s.front())) return false;
    return std::all_of(s.begin(), s.end(),
                       [](char c) { return is_ascii_letter(c) || is_ascii_digit(c) || c == '_' || c == '-'; });
}

std::string quote(std::string_view token) { return printable(token, token_quote_limit); }

[[noreturn]] void fail(std::string en, std::string zh) { throw ProtocolError(Text{std::move(en), std::move(zh)}); }

// ---- values ------------------------------------------------------------------------------

// A position in the value text.
struct Cursor {
    std::string_view s;
    std::size_t pos = 0;

    void skip_space() {
        while (pos < s.size() && is_space(s[pos])) ++pos;
    }
    bool at_end() const { return pos >= s.size(); }
    char peek() const { return s[pos]; }
    std::string rest() const { return quote(s.substr(pos, 20)); }
};

// Where an element sits, for messages: "element 2" or "row 1, column 2" (0-based).
Text element_name(std::optional<std::size_t> row, std::size_t index) {
    if (!row) return {fmt::format("element {}", index), fmt::format("元素 [{}]", index)};
    return {fmt::format("row {}, column {}", *row, index), fmt::format("元素 [{}][{}]", *row, index)};
}

// One number inside brackets: the characters up to ',', '[', ']' or a space.
NumberText read_element(Cursor& cur, const Text& where) {
    if (cur.at_end())
        fail(fmt::format("the value ends where {} should be (a ']' is missing)", where.en),
             fmt::format("数值在 {} 应出现的位置就结束了（缺少 ']'）", where.zh));
    if (cur.peek() == '[')
        fail(fmt::format("{} starts with '['; only a matrix nests lists, as [[a, b], [c, d]]", where.en),
             fmt::format("{} 以 '[' 开头；只有矩阵才嵌套列表，写作 [[a, b], [c, d]]", where.zh));
    std::size_t start = cur.pos;
    while (!cur.at_end() && cur.peek() != ',' && cur.peek() != '[' && cur.peek() != ']' && !is_space(cur.peek()))
        ++cur.pos;
    std::string_view token = cur.s.substr(start, cur.pos - start);
    if (token.empty())
        fail(fmt::format("{} is empty", where.en), fmt::format("{} 是空的", where.zh));
    std::optional<NumberText> number = read_number_text(token);
    if (!number)
        fail(fmt::format("{}: '{}' is not a number", where.en, quote(token)),
             fmt::format("{}：'{}' 不是数", where.zh, quote(token)));
    return std::move(*number);
}

// After an element or row: true when another follows (','), false at the closing ']'.
bool read_separator(Cursor& cur, const Text& after) {
    cur.skip_space();
    if (cur.at_end())
        fail(fmt::format("expected ']' after {}", after.en), fmt::format("{} 之后缺少 ']'", after.zh));
    char c = cur.peek();
    if (c == ',' || c == ']') {
        ++cur.pos;
        return c == ',';
    }
    fail(fmt::format("expected ',' or ']' after {}, found '{}'", after.en, cur.rest()),
         fmt::format("{} 之后应为 ',' 或 ']'，却是 '{}'", after.zh, cur.rest()));
}

// A bracketed list of numbers; the cursor is on its '['. `row` names it inside a matrix.
std::vector<NumberText> read_list(Cursor& cur, std::optional<std::size_t> row) {
    ++cur.pos;
    cur.skip_space();
    std::vector<NumberText> items;
    if (!cur.at_end() && cur.peek() == ']') {
        ++cur.pos;
        return items;
    }
    for (bool more = true; more;) {
        cur.skip_space();
        Text where = element_name(row, items.size());
        items.push_back(read_element(cur, where));
        more = read_separator(cur, where);
    }
    return items;
}

// Rows must all have the first row's length.
void check_row_length(const std::vector<std::vector<NumberText>>& rows, std::size_t r) {
    if (rows[r].size() == rows[0].size()) return;
    fail(fmt::format("matrix rows have different lengths (row {} has {}, row 0 has {})", r, rows[r].size(),
                     rows[0].size()),
         fmt::format("矩阵各行长度不同（行 [{}] 有 {} 个元素，行 [0] 有 {} 个）", r, rows[r].size(), rows[0].size()));
}

// A bracketed list of rows; the cursor is on the outer '['.
std::vector<std::vector<NumberText>> read_matrix(Cursor& cur) {
    ++cur.pos;
    std::vector<std::vector<NumberText>> rows;
    for (bool more = true; more;) {
        cur.skip_space();
        std::size_t r = rows.size();
        if (cur.at_end() || cur.peek() != '[')
            fail(fmt::format("expected '[' to start row {}", r), fmt::format("行 [{}] 应以 '[' 开头", r));
        rows.push_back(read_list(cur, r));
        check_row_length(rows, r);
        more = read_separator(cur, Text{fmt::format("row {}", r), fmt::format("行 [{}]", r)});
    }
    return rows;
}

// A vector or matrix: '[' then '[' for a matrix.
Reading read_bracketed(std::string_view text) {
    Cursor cur{text};
    Cursor look = cur;
    ++look.pos;
    look.skip_space();
    Reading reading;
    if (!look.at_end() && look.peek() == '[') reading = read_matrix(cur);
    else reading = read_list(cur, std::nullopt);
    cur.skip_space();
    if (!cur.at_end())
        fail(fmt::format("unexpected text after the closing ']': '{}'", cur.rest()),
             fmt::format("右括号 ']' 之后有多余的文字：'{}'", cur.rest()));
    return reading;
}

// A value that is not a number, list or keyword.
[[noreturn]] void fail_unknown(std::string_view text) {
    char c = text.front();
    if (is_ascii_digit(c) || c == '+' || c == '-' || c == '.')
        fail(fmt::format("'{}' is not a number", quote(text)), fmt::format("'{}' 不是数", quote(text)));
    fail(fmt::format("'{}' is not a value: expected a number, [a, b, ...], [[a, b], [c, d]], true, false, "
                     "undefined or a word",
                     quote(text)),
         fmt::format("'{}' 不是合法的值：应为数、[a, b, ...]、[[a, b], [c, d]]、true、false、undefined 或一个单词",
                     quote(text)));
}

// ---- lines -------------------------------------------------------------------------------

// What one line of output turned out to be.
struct LineOutcome {
    enum Kind { skip, answer, problem } kind = skip;
    std::string name;  // the name when one could be read
    Reading value;     // for answers
    Text detail;       // for problems: what is wrong, without the line prefix
};

LineOutcome problem(std::string name, Text detail) {
    return {LineOutcome::problem, std::move(name), Reading{}, std::move(detail)};
}

// Reads one trimmed line: ignored, an answer, or a problem.
LineOutcome read_line(std::string_view line) {
    if (line.empty() || line.front() == '#') return {};
    std::size_t eq = line.find('=');
    std::string_view name = eq == std::string_view::npos ? std::string_view{} : trim(line.substr(0, eq));
    std::string readable = is_name(name) ? std::string(name) : std::string();
    if (is_binary(line))
        return problem(readable, {"the line holds binary or non-UTF-8 bytes", "这一行含有二进制或非 UTF-8 字节"});
    if (eq == std::string_view::npos)
        return problem("", {"no '=': an answer line reads `name = value`", "没有 '='：答案行的格式是 `name = value`"});
    if (name.empty())
        return problem("", {"no name before '='", "'=' 前面没有名字"});
    if (readable.empty())
        return problem("", {fmt::format("'{}' is not a name: names use letters, digits and '_', and start with "
                                        "a letter or '_'",
                                        quote(name)),
                            fmt::format("'{}' 不是合法的名字：名字由字母、数字和 '_' 组成，并以字母或 '_' 开头",
                                        quote(name))});
    try {
        return {LineOutcome::answer, readable, parse_reading(line.substr(eq + 1)), {}};
    } catch (const ProtocolError& e) {
        return problem(readable, e.message());
    }
}

// Calls `visit(line_number, trimmed_line)` for each line; '\n' ends a line, a leading BOM is dropped.
void for_each_line(std::string_view text, const std::function<void(int, std::string_view)>& visit) {
    if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
    int number = 0;
    while (!text.empty()) {
        std::size_t end = text.find('\n');
        std::string_view line = text.substr(0, end);
        visit(++number, trim(line));
        if (end == std::string_view::npos) break;
        text.remove_prefix(end + 1);
    }
}

Text duplicate_detail(const std::string& name, int first, int again) {
    return {fmt::format("`{}` given twice: lines {} and {}", name, first, again),
            fmt::format("`{}` 出现了两次：第 {} 行和第 {} 行", name, first, again)};
}

// Adds an issue, keeping at most a few nameless and a few hundred named ones.
class IssueList {
public:
    explicit IssueList(std::vector<ProtocolIssue>& issues) : issues_(issues) {}

    void add(int line, std::string name, std::string_view raw, const Text& detail) {
        std::size_t& count = name.empty() ? nameless_ : named_;
        if (++count > (name.empty() ? nameless_issue_limit : named_issue_limit)) {
            if (!first_dropped_) first_dropped_ = line;
            ++dropped_;
            return;
        }
        std::string text = printable(raw, line_text_limit);
        Text message{fmt::format("line {}: `{}`: {}", line, text, detail.en),
                     fmt::format("第 {} 行 `{}`：{}", line, text, detail.zh)};
        issues_.push_back({line, std::move(name), std::move(text), std::move(message)});
    }

    // One closing issue counting the lines left out.
    void finish() {
        if (dropped_ == 0) return;
        issues_.push_back({*first_dropped_, "", "",
                           {fmt::format("line {}: {} more lines with problems are not listed", *first_dropped_, dropped_),
                            fmt::format("第 {} 行起还有 {} 行有问题，未逐一列出", *first_dropped_, dropped_)}});
    }

private:
    std::vector<ProtocolIssue>& issues_;
    std::size_t nameless_ = 0, named_ = 0, dropped_ = 0;
    std::optional<int> first_dropped_;
};

}  // namespace

// ---- public ------------------------------------------------------------------------------

std::string printable(std::string_view bytes, std::size_t max_bytes) {
    std::string out;
    std::size_t fits = 0;  // the last piece boundary that leaves room for "..."
    for (std::size_t i = 0; i < bytes.size();) {
        std::size_t n = utf8_length(bytes, i);
        auto b = static_cast<unsigned char>(bytes[i]);
        // C1 controls (U+0080..U+009F) too: a terminal may read U+009B as an escape sequence.
        bool escape = n == 0 || (n == 1 && is_control(b)) || (n == 2 && b == 0xC2 && static_cast<unsigned char>(bytes[i + 1]) < 0xA0);
        std::string piece = escape ? fmt::format("\\x{:02X}", b) : std::string(bytes.substr(i, n));
        if (out.size() + piece.size() > max_bytes) return out.substr(0, fits) + "...";
        out += piece;
        if (out.size() + 3 <= max_bytes) fits = out.size();
        i += escape ? 1 : n;
    }
    return out;
}

bool is_non_finite_text(std::string_view text) {
    if (!text.empty() && (text.front() == '+' || text.front() == '-')) text.remove_prefix(1);
    std::string word = lower(text);
    return word == "nan" || word == "inf" || word == "infinity";
}

Reading parse_reading(std::string_view value_text) {
    std::string_view text = trim(value_text);
    if (text.empty()) fail("the value is empty", "值是空的");
    if (text.front() == '[') return read_bracketed(text);
    if (std::optional<NumberText> number = read_number_text(text)) return std::move(*number);
    std::string word = lower(text);
    if (word == "true" || word == "false") return word == "true";
    if (word == "undefined") return Undefined{};
    if (is_word(text)) return Choice{std::string(text)};
    fail_unknown(text);
}

std::optional<NumberText> read_number_text(std::string_view token) {
    if (std::optional<DecimalAnatomy> decimal = scan_decimal(token)) return NumberText{std::string(token), decimal};
    if (is_non_finite_text(token)) return NumberText{std::string(token), std::nullopt};
    return std::nullopt;
}

Real number_value(const NumberText& number) {
    if (!number.finite())
        fail(fmt::format("'{}' is not a finite number", quote(number.text)),
             fmt::format("'{}' 不是有限的数", quote(number.text)));
    Real x = decimal_value<Real>(number.text);
    using boost::multiprecision::isfinite;
    if (!isfinite(x))
        fail(fmt::format("'{}' is beyond the range of numbers", quote(number.text)),
             fmt::format("'{}' 超出了数的表示范围", quote(number.text)));
    return x;
}

namespace {

Vector<Real> vector_value(const std::vector<NumberText>& items) {
    Vector<Real> v;
    v.reserve(items.size());
    for (const NumberText& item : items) v.push_back(number_value(item));
    return v;
}

Matrix<Real> matrix_value(const std::vector<std::vector<NumberText>>& rows) {
    std::vector<Vector<Real>> values;
    for (std::size_t r = 0; r < rows.size(); ++r) {
        check_row_length(rows, r);
        values.push_back(vector_value(rows[r]));
    }
    return matrix_from_rows(values);
}

std::string join_numbers(const auto& begin, const auto& end, int significant_digits) {
    std::string out = "[";
    for (auto it = begin; it != end; ++it) out += (it == begin ? "" : ", ") + to_decimal(*it, significant_digits);
    return out + "]";
}

}  // namespace

Value to_value(const Reading& reading) {
    return std::visit(
        [](const auto& r) -> Value {
            using R = std::decay_t<decltype(r)>;
            if constexpr (std::is_same_v<R, NumberText>) return number_value(r);
            else if constexpr (std::is_same_v<R, std::vector<NumberText>>) return vector_value(r);
            else if constexpr (std::is_same_v<R, std::vector<std::vector<NumberText>>>) return matrix_value(r);
            else return r;
        },
        reading);
}

std::string format_value(const Value& value, int significant_digits) {
    return std::visit(
        [&](const auto& v) -> std::string {
            using V = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<V, Real>) return to_decimal(v, significant_digits);
            else if constexpr (std::is_same_v<V, Vector<Real>>) return join_numbers(v.begin(), v.end(), significant_digits);
            else if constexpr (std::is_same_v<V, Matrix<Real>>) {
                std::string out = "[";
                for (std::size_t r = 0; r < v.rows; ++r) {
                    auto row = v.row(r);
                    out += (r ? ", " : "") + join_numbers(row.begin(), row.end(), significant_digits);
                }
                return out + "]";
            } else if constexpr (std::is_same_v<V, bool>) return v ? "true" : "false";
            else if constexpr (std::is_same_v<V, Undefined>) return "undefined";
            else return v.word;
        },
        value);
}

ProgramOutput parse_program_output(std::string_view text) {
    ProgramOutput out;
    IssueList issues(out.issues);
    std::map<std::string, int> first_line;  // every name seen, parsed or not
    for_each_line(text, [&](int number, std::string_view line) {
        LineOutcome outcome = read_line(line);
        if (outcome.kind == LineOutcome::skip) return;
        if (outcome.kind == LineOutcome::problem) {
            if (!outcome.name.empty()) first_line.try_emplace(outcome.name, number);
            return issues.add(number, outcome.name, line, outcome.detail);
        }
        auto [seen, is_new] = first_line.try_emplace(outcome.name, number);
        if (!is_new) issues.add(number, outcome.name, line, duplicate_detail(outcome.name, seen->second, number));
        if (!out.answers.contains(outcome.name))
            out.answers.emplace(outcome.name, ProgramLine{outcome.name, std::move(outcome.value), number,
                                                          printable(line, line_text_limit)});
    });
    issues.finish();
    return out;
}

Values parse_inputs(std::string_view text, const std::string& source) {
    Values values;
    std::map<std::string, int> first_line;
    for_each_line(text, [&](int number, std::string_view line) {
        auto where = [&](const Text& detail) {
            std::string quoted = printable(line, line_text_limit);
            return ProtocolError(Text{fmt::format("{}:{}: `{}`: {}", source, number, quoted, detail.en),
                                      fmt::format("{}:{}: `{}`：{}", source, number, quoted, detail.zh)});
        };
        LineOutcome outcome = read_line(line);
        if (outcome.kind == LineOutcome::skip) return;
        if (outcome.kind == LineOutcome::problem) throw where(outcome.detail);
        auto [seen, is_new] = first_line.try_emplace(outcome.name, number);
        if (!is_new) throw where(duplicate_detail(outcome.name, seen->second, number));
        try {
            values.emplace(outcome.name, to_value(outcome.value));
        } catch (const ProtocolError& e) {
            throw where(e.message());
        }
    });
    return values;
}

}  // namespace blockcheck
