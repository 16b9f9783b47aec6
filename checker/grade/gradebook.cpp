#include "checker/grade/gradebook.hpp"

#include "checker/grade/sandbox_policy.hpp"
#include "checker/grade/student_id.hpp"
#include "checker/run/compile.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

namespace blockcheck {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

namespace {

bool is_grader_fault(const PartRecord& p) { return p.verdict == "grader_fault"; }

// JUnit's three outcomes besides passing.
enum class Outcome { passed, failure, error, skipped };

Outcome outcome_of(const std::string& verdict) {
    if (verdict == "correct") return Outcome::passed;
    if (verdict == "grader_fault") return Outcome::skipped;
    if (verdict == "wrong" || verdict == "too_few_digits" || verdict == "missing" || verdict == "unparseable")
        return Outcome::failure;
    return Outcome::error;  // compile_error, crashed, timed_out, output_limit, bad_submission
}

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

// The verdict a part of an unreadable submission is reported under.
std::string part_verdict(const StudentRecord& s, const PartRecord& p) {
    return s.error.empty() ? p.verdict : "bad_submission";
}

// Decodes one UTF-8 character at `i`; returns the code point (0xFFFD for an invalid sequence)
// and advances `i` past it (one byte for an invalid sequence).
char32_t next_code_point(std::string_view text, std::size_t& i) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char lead = byte(i);
    if (lead < 0x80) return ++i, lead;
    int length = lead >= 0xF0 && lead <= 0xF4 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC2 && lead < 0xE0 ? 2 : 0;
    if (length == 0 || i + static_cast<std::size_t>(length) > text.size()) return ++i, 0xFFFD;
    char32_t cp = lead & (0x7F >> length);
    for (int k = 1; k < length; ++k) {
        const unsigned char c = byte(i + static_cast<std::size_t>(k));
        if ((c & 0xC0) != 0x80) return ++i, 0xFFFD;
        cp = (cp << 6) | (c & 0x3F);
    }
    const bool overlong = (length == 3 && cp < 0x800) || (length == 4 && cp < 0x10000);
    if (overlong || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return ++i, 0xFFFD;
    i += static_cast<std::size_t>(length);
    return cp;
}

void append_utf8(std::string& out, char32_t cp) {
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

Json part_json(const PartRecord& p) {
    Json j = {{"name", p.name}, {"verdict", p.verdict}, {"score", p.score}, {"max_score", p.max_score}, {"message", p.message}};
    if (!p.diagnosis_id.empty()) j["diagnosis"] = {{"id", p.diagnosis_id}, {"message", p.diagnosis_message}};
    return j;
}

Json exercise_json(const ExerciseRecord& e) {
    Json parts = Json::array();
    for (const PartRecord& p : e.parts) parts.push_back(part_json(p));
    Json j = {{"id", e.id},
              {"status", e.status},
              {"score", e.score},
              {"max_score", e.max_score},
              {"variant", e.variant ? Json(*e.variant) : Json(nullptr)},
              {"source", e.source.empty() ? Json(nullptr) : Json(e.source)},
              {"compile_seconds", e.compile_seconds},
              {"run_seconds", e.run_seconds},
              {"compile_cached", e.compile_cached},
              {"parts", parts}};
    if (!e.note.empty()) j["note"] = e.note;
    if (!e.issues.empty()) j["issues"] = e.issues;
    if (e.fault_repeated) j["fault_repeated"] = true;
    return j;
}

template <class T>
T field(const nlohmann::json& j, const char* name, T fallback) {
    auto it = j.find(name);
    return it == j.end() || it->is_null() ? fallback : it->get<T>();
}

ExerciseRecord exercise_from_json(const nlohmann::json& j) {
    ExerciseRecord e;
    e.id = j.at("id").get<std::string>();
    e.status = j.at("status").get<std::string>();
    e.score = j.at("score").get<double>();
    e.max_score = j.at("max_score").get<double>();
    if (auto it = j.find("variant"); it != j.end() && !it->is_null()) e.variant = it->get<std::uint64_t>();
    e.source = field<std::string>(j, "source", "");
    e.note = field<std::string>(j, "note", "");
    e.issues = field<std::vector<std::string>>(j, "issues", {});
    e.compile_seconds = field<double>(j, "compile_seconds", 0);
    e.run_seconds = field<double>(j, "run_seconds", 0);
    e.compile_cached = field<bool>(j, "compile_cached", false);
    e.fault_repeated = field<bool>(j, "fault_repeated", false);
    for (const auto& p : j.at("parts")) {
        e.parts.push_back({p.at("name").get<std::string>(), p.at("verdict").get<std::string>(), p.at("score").get<double>(),
                           p.at("max_score").get<double>(), field<std::string>(p, "message", "")});
        if (auto d = p.find("diagnosis"); d != p.end() && d->is_object())
            e.parts.back().diagnosis_id = field<std::string>(*d, "id", ""),
            e.parts.back().diagnosis_message = field<std::string>(*d, "message", "");
    }
    return e;
}

// Histogram bins of a score fraction: [0, 20%), [20%, 40%), ..., [80%, 100%].
constexpr int bins = 5;
int bin_of(double score, double max) {
    if (max <= 0) return 0;
    return std::clamp(static_cast<int>(std::floor(score / max * bins + 1e-9)), 0, bins - 1);
}

}  // namespace

bool ExerciseRecord::has_grader_fault() const { return std::any_of(parts.begin(), parts.end(), is_grader_fault); }

bool StudentRecord::has_repeated_grader_fault() const {
    return std::any_of(exercises.begin(), exercises.end(), [](const ExerciseRecord& e) { return e.fault_repeated; });
}

bool StudentRecord::has_grader_fault() const {
    return std::any_of(exercises.begin(), exercises.end(), [](const ExerciseRecord& e) { return e.has_grader_fault(); });
}

Json student_json(const StudentRecord& s) {
    Json exercises = Json::array();
    for (const ExerciseRecord& e : s.exercises) exercises.push_back(exercise_json(e));
    Json j;
    put_student_id(j, s.student);
    j["submission"] = s.submission;
    j["status"] = s.error.empty() ? "graded" : "bad_submission";
    if (!s.error.empty()) j["error"] = s.error;
    j["score"] = s.score;
    j["max_score"] = s.max_score;
    j["variants"] = s.variants;
    j["seconds"] = s.seconds;
    j["key"] = s.key;
    if (!s.notes.empty()) j["notes"] = s.notes;
    if (s.unsandboxed) j["no_sandbox"] = no_sandbox_meaning().en;
    j["exercises"] = exercises;
    return j;
}

StudentRecord student_from_json(const nlohmann::json& j) {
    try {
        StudentRecord s;
        s.student = student_id_from(j);
        s.submission = field<std::string>(j, "submission", "");
        s.error = field<std::string>(j, "error", "");
        s.score = j.at("score").get<double>();
        s.max_score = j.at("max_score").get<double>();
        s.variants = field<bool>(j, "variants", false);
        s.seconds = field<double>(j, "seconds", 0);
        s.key = field<std::string>(j, "key", "");
        s.notes = field<std::vector<std::string>>(j, "notes", {});
        s.unsandboxed = j.contains("no_sandbox");
        for (const auto& e : j.at("exercises")) s.exercises.push_back(exercise_from_json(e));
        return s;
    } catch (const nlohmann::json::exception& e) {
        throw std::runtime_error(std::string("not a student result: ") + e.what());
    }
}

std::string score_text(double score) {
    const double rounded = std::round(score * 1e9) / 1e9 + 0.0;  // + 0.0: no "-0"
    return fmt::format("{}", rounded);
}

// ---------------------------------------------------------------------------------------------
// gradebook.csv

std::string gradebook_csv(const std::vector<const Exercise*>& exercises, const std::vector<StudentRecord>& students) {
    std::string out = "student";
    for (const Exercise* e : exercises) out += "," + csv_cell(e->id);
    out += ",total\r\n";
    for (const StudentRecord& s : students) {
        out += csv_cell(s.student);
        for (const Exercise* e : exercises) {
            auto it = std::find_if(s.exercises.begin(), s.exercises.end(), [&](auto& r) { return r.id == e->id; });
            out += ",";
            out += it == s.exercises.end() ? "0" : score_text(it->score);
        }
        out += "," + score_text(s.score) + "\r\n";
    }
    return out;
}

// ---------------------------------------------------------------------------------------------
// junit.xml

std::string xml_escape(std::string_view text, bool attribute) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        const char32_t cp = next_code_point(text, i);
        switch (cp) {
            case '&': out += "&amp;"; continue;
            case '<': out += "&lt;"; continue;
            case '>': out += "&gt;"; continue;
            case '"': out += "&quot;"; continue;
            case '\'': out += "&apos;"; continue;
            case '\n': out += attribute ? "&#10;" : "\n"; continue;
            case '\r': out += attribute ? "&#13;" : "&#13;"; continue;  // a raw CR would be normalised away
            case '\t': out += attribute ? "&#9;" : "\t"; continue;
            default: break;
        }
        if (cp < 0x20 || (cp >= 0x7F && cp < 0xA0) || cp == 0xFFFE || cp == 0xFFFF) continue;  // not allowed, or invisible
        append_utf8(out, cp);
    }
    return out;
}

std::string junit_xml(const std::vector<StudentRecord>& students) {
    int tests = 0, failures = 0, errors = 0, skipped = 0;
    double seconds = 0;
    std::string suites;
    for (const StudentRecord& s : students) {
        int t = 0, f = 0, e = 0, k = 0;
        std::string cases;
        for (const ExerciseRecord& ex : s.exercises) {
            bool first = true;
            for (const PartRecord& p : ex.parts) {
                ++t;
                const std::string verdict = part_verdict(s, p);
                cases += fmt::format("    <testcase classname=\"{}\" name=\"{}\"", xml_escape(s.student + "." + ex.id, true),
                                     xml_escape(p.name, true));
                const Outcome outcome = s.error.empty() ? outcome_of(verdict) : Outcome::error;
                const std::string message = s.error.empty() ? p.message : s.error;
                // The compiler's or crash's note once per exercise, on its first part.
                const std::string body = (first && !ex.note.empty() && s.error.empty()) ? message + "\n\n" + ex.note : message;
                switch (outcome) {
                    case Outcome::passed: cases += "/>\n"; break;
                    case Outcome::failure:
                    case Outcome::error: {
                        const char* tag = outcome == Outcome::failure ? "failure" : "error";
                        (outcome == Outcome::failure ? f : e) += 1;
                        cases += fmt::format(">\n      <{} type=\"{}\" message=\"{}\">{}</{}>\n    </testcase>\n", tag,
                                             xml_escape(verdict, true), xml_escape(first_line(message), true),
                                             xml_escape(body), tag);
                        break;
                    }
                    case Outcome::skipped:
                        ++k;
                        cases += fmt::format(">\n      <skipped message=\"{}\"/>\n    </testcase>\n",
                                             xml_escape("grader_fault: " + first_line(message), true));
                        break;
                }
                first = false;
            }
        }
        double time = 0;
        for (const ExerciseRecord& ex : s.exercises) time += ex.compile_seconds + ex.run_seconds;
        suites += fmt::format("  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" time=\"{:.3f}\">\n{}  </testsuite>\n",
                              xml_escape(s.student, true), t, f, e, k, time, cases);
        tests += t, failures += f, errors += e, skipped += k, seconds += time;
    }
    return fmt::format("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"blockcheck grade\" tests=\"{}\" "
                       "failures=\"{}\" errors=\"{}\" skipped=\"{}\" time=\"{:.3f}\">\n{}</testsuites>\n",
                       tests, failures, errors, skipped, seconds, suites);
}

// ---------------------------------------------------------------------------------------------
// Gradescope

Json gradescope_json(const StudentRecord& s, Lang lang) {
    const std::string unreadable =
        tr_format(lang, "the submission could not be read: {}", "提交的内容无法读取：{}", s.error);
    Json tests = Json::array();
    for (const ExerciseRecord& ex : s.exercises) {
        bool first = true;
        for (const PartRecord& p : ex.parts) {
            std::string output = s.error.empty() ? p.message : unreadable;
            if (!p.diagnosis_id.empty())
                output += tr_format(lang, "\nLikely mistake ({}): {}", "\n可能的错误（{}）：{}", p.diagnosis_id, p.diagnosis_message);
            if (first && !ex.note.empty() && s.error.empty() && p.verdict != "correct") output += "\n\n" + ex.note;
            if (ex.variant && first) output += tr_format(lang, "\n(inputs of variant {})", "\n（变体 {} 的输入）", *ex.variant);
            tests.push_back({{"name", ex.id + ": " + p.name},
                             {"score", p.score},
                             {"max_score", p.max_score},
                             {"status", p.verdict == "correct" || (p.verdict == "grader_fault" && !ex.fault_repeated) ? "passed" : "failed"},
                             {"output", output}});
            first = false;
        }
    }
    std::string output = tr_format(lang, "{}/{} points", "{}/{} 分", score_text(s.score), score_text(s.max_score));
    if (!s.error.empty()) output += "\n" + unreadable;
    if (s.has_repeated_grader_fault())
        output += tr(lang, "\nThe grader failed on some parts in two runs in a row; they are not credited: ask your instructor.",
                     "\n评分程序连续两次在部分小题上出错，这些小题不计分：请联系老师。");
    else if (s.has_grader_fault())
        output += tr(lang, "\nThe grader failed on some parts; they are credited to you until graded again.",
                     "\n评分程序在部分小题上出错；重新评分之前，这些小题按得分计。");
    for (const std::string& note : s.notes) output += "\n" + note;
    if (s.unsandboxed) output += "\n" + no_sandbox_student_note().in(lang);
    return {{"score", s.score}, {"output", output}, {"tests", tests}};
}

// ---------------------------------------------------------------------------------------------
// summary.txt

std::string summary_text(const std::vector<const Exercise*>& exercises, const std::vector<StudentRecord>& students,
                         const std::vector<IgnoredEntry>& ignored) {
    double max_total = 0;
    for (const Exercise* e : exercises) max_total += e->max_score();
    const bool variants = !students.empty() && students.front().variants;
    std::string out = fmt::format("blockcheck grade: {} students, {} exercises, {} points{}\n\n", students.size(),
                                  exercises.size(), score_text(max_total), variants ? ", variant inputs per student" : "");
    if (const auto n = std::count_if(students.begin(), students.end(), [](auto& s) { return s.unsandboxed; }))
        out += fmt::format("WARNING: {} of {} students {}\n\n", n, students.size(), no_sandbox_meaning().en);
    std::size_t width = 5;
    for (const Exercise* e : exercises) width = std::max(width, e->id.size());
    out += fmt::format("{:<{}}  {:>7}  {:>5}  {:>4}  {:>5} {:>5} {:>5} {:>5} {:>5}\n", "exercise", width, "mean", "max", "full",
                       "<20%", "<40%", "<60%", "<80%", "<=100");
    const double n = static_cast<double>(std::max<std::size_t>(students.size(), 1));
    auto row = [&](const std::string& name, auto score_of, double max) {
        std::array<int, bins> histogram{};
        double sum = 0;
        int full = 0;
        for (const StudentRecord& s : students) {
            const double score = score_of(s);
            sum += score;
            full += max > 0 && score >= max - 1e-9;
            ++histogram[static_cast<std::size_t>(bin_of(score, max))];
        }
        out += fmt::format("{:<{}}  {:>7.2f}  {:>5}  {:>4}", name, width, sum / n, score_text(max), full);
        for (int count : histogram) out += fmt::format(" {:>5}", count);
        out += "\n";
    };
    for (const Exercise* e : exercises)
        row(
            e->id,
            [&](const StudentRecord& s) {
                auto it = std::find_if(s.exercises.begin(), s.exercises.end(), [&](auto& r) { return r.id == e->id; });
                return it == s.exercises.end() ? 0.0 : it->score;
            },
            e->max_score());
    row("total", [](const StudentRecord& s) { return s.score; }, max_total);

    std::map<std::string, int> verdicts;
    for (const StudentRecord& s : students)
        for (const ExerciseRecord& e : s.exercises)
            for (const PartRecord& p : e.parts) ++verdicts[part_verdict(s, p)];
    out += "\nverdicts of the answer parts:\n";
    for (const char* v : {"correct", "wrong", "too_few_digits", "missing", "unparseable", "compile_error", "crashed",
                          "timed_out", "output_limit", "bad_submission", "grader_fault"})
        if (verdicts.contains(v)) out += fmt::format("  {:<15} {:>6}\n", v, verdicts[v]);

    std::string bad, faults, repeated;
    for (const StudentRecord& s : students) {
        if (!s.error.empty()) bad += fmt::format("  {}: {}\n", printable_id(s.student), first_line(s.error));
        for (const ExerciseRecord& e : s.exercises)
            if (e.has_grader_fault())
                (e.fault_repeated ? repeated : faults) += fmt::format("  {} / {}: {}\n", printable_id(s.student), e.id, first_line(e.note));
    }
    if (!bad.empty()) out += "\nsubmissions that could not be read (scored 0):\n" + bad;
    if (!faults.empty()) out += "\ngrader faults (the parts are credited; run again to grade them):\n" + faults;
    if (!repeated.empty())
        out += "\ngrader faults that repeated on the run after (no longer credited; the grader or machine needs fixing):\n" + repeated;
    if (!ignored.empty()) {
        out += "\nentries that are not submissions (ignored):\n";
        for (const IgnoredEntry& entry : ignored) out += fmt::format("  {}: {}\n", printable_id(entry.path), entry.reason.en);
    }
    return out;
}

// ---------------------------------------------------------------------------------------------
// Files

std::string dump_json(const Json& json, int indent) {
    return json.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace blockcheck
