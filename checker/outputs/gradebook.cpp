#include "checker/outputs/gradebook.hpp"

#include "checker/outputs/sandbox_policy.hpp"
#include "checker/outputs/student_id.hpp"
#include "checker/compile/compile.hpp"
#include "checker/exercise/grading.hpp"

#include <fmt/format.h>
#include <pugixml.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <sstream>
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

Json part_json(const PartRecord& p) {
    Json j = {{"name", p.name}, {"verdict", p.verdict}, {"score", p.score}, {"max_score", p.max_score}, {"message", p.message}};
    if (!p.diagnosis_id.empty()) j["diagnosis"] = {{"id", p.diagnosis_id}, {"message", p.diagnosis_message}};
    if (!p.given.empty()) j["given"] = p.given;
    if (p.follows) j["follows_earlier_slip"] = true;
    return j;
}

// A part of the book's inputs' feedback: no points.
Json book_part_json(const PartRecord& p) {
    Json j = part_json(p);
    j.erase("score");
    j.erase("max_score");
    return j;
}

Json exercise_json(const ExerciseRecord& e) {
    Json parts = Json::array();
    for (const PartRecord& p : e.parts) parts.push_back(part_json(p));
    Json j = {{"id", e.id},
              {"status", e.status},
              {"score", e.score},
              {"max_score", e.max_score},
              {"variant", e.variant ? Json(seed_json(*e.variant)) : Json(nullptr)},
              {"source", e.source.empty() ? Json(nullptr) : Json(e.source)},
              {"compile_seconds", e.compile_seconds},
              {"run_seconds", e.run_seconds},
              {"compile_cached", e.compile_cached},
              {"compiler", e.compiler.empty() ? Json(nullptr) : Json(e.compiler)},
              {"parts", parts}};
    if (e.redecided) j["redecided"] = true;
    if (!e.note.empty()) j["note"] = e.note;
    if (!e.issues.empty()) j["issues"] = e.issues;
    if (e.fault_repeated) j["fault_repeated"] = true;
    if (!e.code_shape.empty()) j["code_shape"] = e.code_shape;
    if (!e.book_parts.empty()) {
        j["book_inputs"] = Json::array();
        for (const PartRecord& p : e.book_parts) j["book_inputs"].push_back(book_part_json(p));
    }
    return j;
}

template <class T>
T field(const nlohmann::json& j, const char* name, T fallback) {
    auto it = j.find(name);
    return it == j.end() || it->is_null() ? fallback : it->get<T>();
}

// A part as part_json wrote it; `scored`: with its score and max_score (not the book's feedback).
PartRecord part_from_json(const nlohmann::json& p, bool scored) {
    PartRecord part{p.at("name").get<std::string>(), p.at("verdict").get<std::string>(),
                    scored ? p.at("score").get<double>() : 0, scored ? p.at("max_score").get<double>() : 0,
                    field<std::string>(p, "message", "")};
    if (auto d = p.find("diagnosis"); d != p.end() && d->is_object())
        part.diagnosis_id = field<std::string>(*d, "id", ""), part.diagnosis_message = field<std::string>(*d, "message", "");
    part.given = field<std::string>(p, "given", "");
    part.follows = field<bool>(p, "follows_earlier_slip", false);
    return part;
}

ExerciseRecord exercise_from_json(const nlohmann::json& j) {
    ExerciseRecord e;
    e.id = j.at("id").get<std::string>();
    e.status = j.at("status").get<std::string>();
    e.score = j.at("score").get<double>();
    e.max_score = j.at("max_score").get<double>();
    if (auto it = j.find("variant"); it != j.end() && !it->is_null()) e.variant = seed_from_json(*it);
    e.source = field<std::string>(j, "source", "");
    e.note = field<std::string>(j, "note", "");
    e.issues = field<std::vector<std::string>>(j, "issues", {});
    e.compile_seconds = field<double>(j, "compile_seconds", 0);
    e.run_seconds = field<double>(j, "run_seconds", 0);
    e.compile_cached = field<bool>(j, "compile_cached", false);
    e.compiler = field<std::string>(j, "compiler", "");
    e.redecided = field<bool>(j, "redecided", false);
    e.fault_repeated = field<bool>(j, "fault_repeated", false);
    e.code_shape = field<std::string>(j, "code_shape", "");
    for (const auto& p : j.at("parts")) e.parts.push_back(part_from_json(p, true));
    if (auto book = j.find("book_inputs"); book != j.end() && book->is_array())
        for (const auto& p : *book) e.book_parts.push_back(part_from_json(p, false));
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

std::string book_feedback_text(const ExerciseRecord& e, const std::string& name, Lang lang) {
    const auto p = std::find_if(e.book_parts.begin(), e.book_parts.end(), [&](const PartRecord& b) { return b.name == name; });
    if (p == e.book_parts.end()) return {};
    std::string text = tr_format(lang, "On the book's inputs: {}", "在书中的输入上：{}", p->message);
    if (!p->diagnosis_id.empty())
        text += tr_format(lang, " (likely mistake {}: {})", "（可能的错误 {}：{}）", p->diagnosis_id, p->diagnosis_message);
    return text;
}

std::vector<std::string> printed_constant_parts(const ExerciseRecord& e) {
    std::vector<std::string> parts;
    for (const PartRecord& p : e.parts)
        if (p.diagnosis_id == "hard_coded") parts.push_back(p.name);
    return parts;
}

std::string printed_constants_text(const ExerciseRecord& e, Lang lang) {
    const std::vector<std::string> parts = printed_constant_parts(e);
    if (parts.empty()) return {};
    std::string names;
    for (const std::string& name : parts) names += (names.empty() ? "" : ", ") + name;
    const std::string seed = e.variant ? std::to_string(*e.variant) : "?";
    return tr_format(lang,
                     "{parts}: the same text printed on the book's inputs and on variant {seed} (right on the first, wrong on "
                     "the second): the book's numbers printed instead of computed? For a person to look at",
                     "{parts}：在书中的输入和变体 {seed} 上输出了相同的文字（前者正确，后者错误）：是直接输出了书上的数而没有计算吗？"
                     "请人工查看",
                     fmt::arg("parts", names), fmt::arg("seed", seed));
}

std::string misnamed_text(const MisnamedFile& m, Lang lang) {
    const std::string file = printable_id(m.file);
    if (!m.graded_as.empty())
        return tr_format(lang, "{file}: graded as {id} (near names accepted)", "{file}：按 {id} 评分（接受相近的文件名）",
                         fmt::arg("file", file), fmt::arg("id", m.graded_as));
    if (m.nearest.empty())
        return tr_format(lang, "{file}: named after no exercise, not graded", "{file}：不是任何练习的文件名，未评分", fmt::arg("file", file));
    return tr_format(lang, "{file}: did you mean {near}? (not graded: files are found by name)",
                     "{file}：是不是 {near}？（未评分：按文件名查找程序）", fmt::arg("file", file), fmt::arg("near", m.nearest));
}

std::string misnamed_more_text(std::size_t more, Lang lang) {
    return tr_format(lang, "and {} more files named after no exercise", "另有 {} 个文件不是任何练习的文件名", more);
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
    if (!s.misnamed.empty()) {
        Json list = Json::array();
        for (const MisnamedFile& m : s.misnamed)
            list.push_back({{"file", m.file}, {"did_you_mean", m.nearest}, {"graded_as", m.graded_as}, {"message", misnamed_text(m, Lang::en)}});
        j["misnamed_files"] = list;
        if (s.misnamed_more) j["misnamed_more"] = s.misnamed_more;
    }
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
        if (j.contains("misnamed_files"))
            for (const auto& m : j.at("misnamed_files"))
                s.misnamed.push_back({m.at("file").get<std::string>(), m.at("did_you_mean").get<std::string>(),
                                      m.at("graded_as").get<std::string>()});
        s.misnamed_more = field<std::size_t>(j, "misnamed_more", 0);
        s.unsandboxed = j.contains("no_sandbox");
        for (const auto& e : j.at("exercises")) s.exercises.push_back(exercise_from_json(e));
        return s;
    } catch (const nlohmann::json::exception& e) {
        throw std::runtime_error(std::string("not a student result: ") + e.what());
    } catch (const std::invalid_argument& e) {
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
        out += csv_cell(printable_id(s.student));
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

namespace {

// Text a student controls as junit.xml holds it: printable_text (no control byte, valid UTF-8),
// and U+FFFE and U+FFFF, which XML 1.0 does not allow either, escaped the same way.
std::string junit_text(std::string_view text) {
    std::string out = printable_text(text);
    for (const char* nonchar : {"\xef\xbf\xbe", "\xef\xbf\xbf"})
        for (std::size_t at = out.find(nonchar); at != std::string::npos; at = out.find(nonchar, at))
            out.replace(at, 3, nonchar[2] == '\xbe' ? "\\xEF\\xBF\\xBE" : "\\xEF\\xBF\\xBF");
    return out;
}

void junit_attribute(pugi::xml_node node, const char* name, std::string_view value) {
    node.append_attribute(name).set_value(junit_text(value).c_str());
}

// One testcase for a part: failure, error or skipped as its verdict says.
void junit_testcase(pugi::xml_node suite, const StudentRecord& s, const ExerciseRecord& ex, const PartRecord& p, bool first,
                  std::array<int, 4>& counts, Lang lang) {
    pugi::xml_node test = suite.append_child("testcase");
    junit_attribute(test, "classname", s.student + "." + ex.id);
    junit_attribute(test, "name", p.name);
    ++counts[0];
    const std::string verdict = part_verdict(s, p);
    const Outcome outcome = s.error.empty() ? outcome_of(verdict) : Outcome::error;
    const std::string message = s.error.empty() ? p.message : s.error;
    // The compiler's or crash's note once per exercise, on its first part.
    std::string body = (first && !ex.note.empty() && s.error.empty()) ? message + "\n\n" + ex.note : message;
    if (s.error.empty() && !p.diagnosis_id.empty())
        body += tr_format(lang, "\n\nLikely mistake ({}): {}", "\n\n可能的错误（{}）：{}", p.diagnosis_id, p.diagnosis_message);
    if (s.error.empty() && p.diagnosis_id == "hard_coded") body += "\n\n" + printed_constants_text(ex, lang);
    if (const std::string book = book_feedback_text(ex, p.name, lang); !book.empty()) body += "\n\n" + book;
    if (outcome == Outcome::passed) return;
    if (outcome == Outcome::skipped) {
        ++counts[3];
        junit_attribute(test.append_child("skipped"), "message", "grader_fault: " + first_line(message));
        return;
    }
    ++counts[outcome == Outcome::failure ? 1 : 2];
    pugi::xml_node problem = test.append_child(outcome == Outcome::failure ? "failure" : "error");
    junit_attribute(problem, "type", verdict);
    junit_attribute(problem, "message", first_line(message));
    problem.append_child(pugi::node_pcdata).set_value(junit_text(body).c_str());
}

// tests, failures, errors, skipped and time, in that order, after the node's name.
void junit_counts(pugi::xml_node node, const std::array<int, 4>& counts, double seconds) {
    const char* names[] = {"tests", "failures", "errors", "skipped"};
    pugi::xml_attribute last = node.attribute("name");
    for (std::size_t i = 0; i < counts.size(); ++i) {
        last = node.insert_attribute_after(names[i], last);
        last.set_value(counts[i]);
    }
    node.insert_attribute_after("time", last).set_value(fmt::format("{:.3f}", seconds).c_str());
}

}  // namespace

std::string junit_xml(const std::vector<StudentRecord>& students, Lang lang) {
    pugi::xml_document doc;
    pugi::xml_node declaration = doc.append_child(pugi::node_declaration);
    declaration.append_attribute("version").set_value("1.0");
    declaration.append_attribute("encoding").set_value("UTF-8");
    pugi::xml_node root = doc.append_child("testsuites");
    root.append_attribute("name").set_value("blockcheck grade");
    std::array<int, 4> all{};
    double seconds = 0;
    for (const StudentRecord& s : students) {
        pugi::xml_node suite = root.append_child("testsuite");
        junit_attribute(suite, "name", s.student);
        std::array<int, 4> counts{};
        double time = 0;
        for (const ExerciseRecord& ex : s.exercises) {
            time += ex.compile_seconds + ex.run_seconds;
            for (std::size_t i = 0; i < ex.parts.size(); ++i) junit_testcase(suite, s, ex, ex.parts[i], i == 0, counts, lang);
        }
        junit_counts(suite, counts, time);
        for (std::size_t i = 0; i < all.size(); ++i) all[i] += counts[i];
        seconds += time;
    }
    junit_counts(root, all, seconds);
    std::ostringstream out;
    doc.save(out, "  ", pugi::format_indent, pugi::encoding_utf8);
    return out.str();
}

// ---------------------------------------------------------------------------------------------
// summary.txt

// "programs decided by clang 25, by g++ 2 (2 of them after clang's build lost a point)"; "" when
// no record names a compiler (records of an older grader).
std::string compilers_text(const std::vector<StudentRecord>& students) {
    std::size_t clang = 0, gcc = 0, redecided = 0;
    for (const StudentRecord& s : students)
        for (const ExerciseRecord& e : s.exercises) {
            clang += e.compiler == "clang";
            gcc += e.compiler == "g++";
            redecided += e.redecided;
        }
    if (clang + gcc == 0) return "";
    return fmt::format("\nprograms decided by clang {}, by g++ {} ({} of them after clang's build lost a point)\n", clang,
                       gcc, redecided);
}

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
    out += compilers_text(students);

    std::string bad, faults, repeated;
    for (const StudentRecord& s : students) {
        if (!s.error.empty()) bad += fmt::format("  {}: {}\n", printable_id(s.student), printable_id(first_line(s.error)));
        for (const ExerciseRecord& e : s.exercises)
            if (e.has_grader_fault())
                (e.fault_repeated ? repeated : faults) += fmt::format("  {} / {}: {}\n", printable_id(s.student), e.id, printable_id(first_line(e.note)));
    }
    std::string constants;
    for (const StudentRecord& s : students)
        for (const ExerciseRecord& e : s.exercises)
            if (const std::string seen = printed_constants_text(e, Lang::en); !seen.empty())
                constants += fmt::format("  {} / {}: {}\n", printable_id(s.student), e.id, seen);
    if (!constants.empty())
        out += "\nthe same numbers printed on the book's inputs and on the student's variant (for a person to look at, "
               "not a verdict):\n" + constants;
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
