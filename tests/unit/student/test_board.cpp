// The board and the hints tell the truth: "Next:" is the first failing exercise, a misspelt input
// name is a failure named as such, a program printing the book's numbers is never done, every
// command shown carries the real id, and the Chinese texts of the board, `show`, `list` and `hint`
// hold no English words besides names.
#include "checker/student/board.hpp"
#include "checker/student/pages.hpp"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <regex>
#include <set>

#include "exercise_testing.hpp"

using namespace blockcheck;

namespace {

using testing::shipped_exercises;

// A number to 12 decimal places (more than any exercise asks); `wrong`: negated and moved by one.
std::string fixed(const Real& x, bool wrong) { return fmt::format("{:.12f}", static_cast<double>(wrong ? -x - 1 : x)); }

// The program output answering every part of `e` on its book inputs; `wrong`: every number wrong.
std::string answers_of(const Exercise& e, bool wrong = false) {
    const Values values = expected_answers(e, e.inputs);
    std::string out;
    for (const AnswerSpec& spec : e.answers) {
        const Value& v = values.at(spec.name);
        std::string text;
        if (auto* x = std::get_if<Real>(&v)) text = spec.kind == AnswerKind::integer && !wrong ? format_value(v, 40) : fixed(*x, wrong);
        else if (auto* vec = std::get_if<Vector<Real>>(&v)) {
            for (const Real& x : *vec) text += (text.empty() ? "[" : ", ") + fixed(x, wrong);
            text += "]";
        } else if (auto* m = std::get_if<Matrix<Real>>(&v)) {
            for (std::size_t r = 0; r < m->rows; ++r) {
                std::string row;
                for (std::size_t c = 0; c < m->cols; ++c) row += (c ? ", " : "[") + fixed(m->values[r * m->cols + c], wrong);
                text += (r ? ", " : "[") + row + "]";
            }
            text += "]";
        } else text = format_value(v, 17);
        out += spec.name + " = " + text + "\n";
    }
    return out;
}

// How a program ends when it asks the header for an input of another name.
ExerciseResult misspelt_input(const Exercise& e) {
    RunResult run;
    run.status = RunStatus::exited;
    run.exit_code = 2;
    run.err = "blockcheck: this exercise has no input 'gate_w'; its inputs are: x, w_gate, w_up, w_down\n";
    return grade_run(e, e.inputs, run, Limits{}, {});
}

const Exercise& swiglu() { return shipped_exercises().at("swiglu_ffn_2d"); }
const Exercise& rms() { return shipped_exercises().at("rms_norm_zero_row"); }
const Exercise& kv() { return shipped_exercises().at("kv_cache_sizes"); }

std::string board_of(const std::vector<const Exercise*>& exercises, const std::vector<ExerciseResult>& results,
                     BoardStyle style = {}) {
    return render_board(shipped_exercises(), exercises, results, style);
}

}  // namespace

TEST_CASE("board: Next is the first failing exercise, then the first not started") {
    const ExerciseResult not_started = grade_output(swiglu(), swiglu().inputs, "", {});
    const ExerciseResult failing = grade_output(kv(), kv().inputs, answers_of(kv(), true), {});
    REQUIRE(not_started.status == "not_done");
    REQUIRE(failing.status == "failing");
    const std::string board = board_of({&swiglu(), &kv()}, {not_started, failing});
    CHECK(board.find("Next: kv_cache_sizes: fix chapters/gqa_long_context/kv_cache_sizes.cpp\n"
                     "      ./blockcheck check kv_cache_sizes   ./blockcheck show kv_cache_sizes   ./blockcheck hint kv_cache_sizes") !=
          std::string::npos);
    const ExerciseResult done = grade_output(kv(), kv().inputs, answers_of(kv()), {});
    CHECK(board_of({&swiglu(), &kv()}, {not_started, done}).find("Next: swiglu_ffn_2d: write chapters/ch25/swiglu_ffn_2d.cpp") !=
          std::string::npos);
}

TEST_CASE("board: a misspelt input name is a failure named 'input name', never 'not done'") {
    const ExerciseResult r = misspelt_input(swiglu());
    CHECK(r.status == "failing");
    const std::string board = board_of({&swiglu()}, {r});
    CHECK(board.find("✗ swiglu_ffn_2d     0/6  input name: this exercise has no input 'gate_w'") != std::string::npos);
    CHECK(board.find("not done") == std::string::npos);
    CHECK(board.find("Next: swiglu_ffn_2d: fix") != std::string::npos);
}

TEST_CASE("board: a program said to print the book's numbers is not done, and the end says no 'try other inputs' after variants") {
    ExerciseResult r = grade_output(rms(), rms().inputs, answers_of(rms()), {});
    REQUIRE(r.status == "done");
    r.parts.front().diagnosis = Diagnosis{"hard_coded", {"prints the book's numbers", "输出的是书中的数字"}};
    CHECK(says_book_numbers(r));
    fail_book_numbers(r);
    CHECK(r.status == "failing");
    const std::string board = board_of({&rms()}, {r});
    CHECK(board.find("✗ rms_norm_zero_row") != std::string::npos);
    CHECK(board.find("mean_square: prints the book's numbers") != std::string::npos);
    CHECK(board.find("Every exercise here is done") == std::string::npos);

    const ExerciseResult done = grade_output(rms(), rms().inputs, answers_of(rms()), {});
    CHECK(board_of({&rms()}, {done}).find("Try other inputs: ./blockcheck check --variants 5") != std::string::npos);
    const std::string on_variants = board_of({&rms()}, {done}, BoardStyle{Lang::en, false, true});
    CHECK(on_variants.find("Every exercise here is done on these inputs.") != std::string::npos);
    CHECK(on_variants.find("Try other inputs") == std::string::npos);
}

TEST_CASE("hint: the text after a hint says how to read the next one, with the exercise's id") {
    const Exercise& e = swiglu();
    REQUIRE(e.hints.size() >= 2);
    CHECK(hint_text(e, 0, true, Lang::en).ends_with("`./blockcheck hint swiglu_ffn_2d 2` shows the next hint; `--all` shows them all.\n"));
    CHECK(hint_text(e, 0, false, Lang::en).ends_with("`./blockcheck hint swiglu_ffn_2d` again shows the next hint; `--all` shows them all.\n"));
    CHECK(hint_text(e, e.hints.size() - 1, true, Lang::en)
              .ends_with("That was the last hint. `./blockcheck check swiglu_ffn_2d --reveal` shows expected values.\n"));
    for (const Exercise& any : shipped_exercises().all())
        for (std::size_t i = 0; i < any.hints.size(); ++i) CHECK(hint_text(any, i, true, Lang::en).find(" ID ") == std::string::npos);
}

namespace {

// Names a Chinese text may carry in Latin letters: the chapter's terms, math functions, units.
const std::set<std::string> latin_names = {
    "RoPE", "RMSNorm", "SwiGLU", "LLaMA", "Llama", "GQA", "MQA", "MHA", "NTK", "YaRN", "SiLU", "GELU", "ReLU", "KV", "PI",
    "LayerNorm", "Transformer", "FFN", "Python", "NumPy", "PyTorch", "Hugging", "Face", "GPT", "BERT", "FP", "GiB", "MiB",
    "KiB", "bytes", "sigmoid", "softmax", "exp", "sin", "cos", "sqrt", "log", "max", "min", "mean", "theta", "epsilon",
    "eps", "base", "token", "tokens", "undefined", "true", "false", "float", "double", "int", "blockcheck", "dim",
    "head", "cos", "rotate", "half", "interleaved", "gate", "up", "down", "attention", "batch", "query", "key", "value",
    "argmax", "fp", "bf", "float32", "float16", "bfloat16", "Gate", "Up", "Down", "RMS", "NaN", "inf", "pt", "LN", "MLP",
    "Q", "K", "V", "O", "W", "YaRN", "ABC", "json", "cpp", "hpp", "stdin", "stdout", "Softmax", "rows", "cols", "factor",
    "Position", "Interpolation", "pre", "post", "norm", "long"};

// The English words of a Chinese text: runs of Latin letters that are no name, no identifier
// (with `_`, a digit, a dot or `::`, or called: `answer(`), nothing inside `backquotes`, no command line, at most two letters.
std::vector<std::string> english_words(std::string text, const std::set<std::string>& own_names) {
    text = std::regex_replace(text, std::regex("`[^`]*`"), " ");
    text = std::regex_replace(text, std::regex(R"(\./blockcheck[ A-Za-z0-9_\-]*)"), " ");
    std::vector<std::string> words;
    static const std::regex token(R"([A-Za-z0-9_.\-/'+*^:]+\(?)");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), token); it != std::sregex_iterator(); ++it) {
        const std::string t = it->str();
        if (t.find_first_of("_0123456789./:(") != std::string::npos) continue;
        static const std::regex word("[A-Za-z]+");
        for (auto w = std::sregex_iterator(t.begin(), t.end(), word); w != std::sregex_iterator(); ++w) {
            const std::string s = w->str();
            if (s.size() <= 2 || latin_names.count(s) || own_names.count(s)) continue;
            words.push_back(s);
        }
    }
    return words;
}

void check_chinese(const std::string& text, const std::set<std::string>& own_names, const std::string& where) {
    const std::vector<std::string> words = english_words(text, own_names);
    std::string list;
    for (const std::string& w : words) list += w + " ";
    CHECK_MESSAGE(words.empty(), where << ": English in Chinese text: " << list);
    CHECK_MESSAGE(text.find("： ") == std::string::npos, where << ": a space after ：");
}

std::set<std::string> names_of(const Exercise& e) {
    std::set<std::string> names = {e.id, e.chapter};
    for (const AnswerSpec& a : e.answers) names.insert(a.name);
    for (const auto& [name, value] : e.inputs) names.insert(name);
    for (const auto& [name, options] : e.options) names.insert(options.begin(), options.end());
    return names;
}

}  // namespace

TEST_CASE("Chinese texts: the board, show, list and hint of every exercise hold no English besides names") {
    const BoardStyle zh{Lang::zh, false};
    const Workspace workspace(testing::repository());
    check_chinese(list_text(workspace, Lang::zh), {"id", "ch25", "gqa_long_context"}, "list");
    for (const Exercise& e : shipped_exercises().all()) {
        const std::set<std::string> names = names_of(e);
        check_chinese(show_text(shipped_exercises(), e, Lang::zh), names, e.id + " show");
        for (std::size_t i = 0; i < e.hints.size(); ++i)
            for (bool by_number : {false, true}) check_chinese(hint_text(e, i, by_number, Lang::zh), names, e.id + " hint");
        const std::vector<ExerciseResult> results = {grade_output(e, e.inputs, "", {}), grade_output(e, e.inputs, answers_of(e), {}),
                                                     grade_output(e, e.inputs, answers_of(e, true), {}), misspelt_input(e)};
        for (const ExerciseResult& r : results) check_chinese(render_board(shipped_exercises(), {&e}, {r}, zh), names, e.id + " board");
    }
}

TEST_CASE("board: the float note once an exercise, never 'likely mistake' on a right part, never on a done exercise's line") {
    ExerciseResult r = grade_output(swiglu(), swiglu().inputs, answers_of(swiglu()), {});
    REQUIRE(r.status == "done");
    const Diagnosis float_note{"float_precision", {"the value is off by about what float arithmetic leaves", "float"}};
    r.parts.at(2).diagnosis = float_note;
    r.parts.at(3).diagnosis = float_note;
    const std::string parts = render_parts(swiglu(), r, BoardStyle{});
    CHECK(parts.find("likely mistake") == std::string::npos);
    const std::size_t first = parts.find("note: the value is off by about what float arithmetic leaves");
    CHECK(first != std::string::npos);
    CHECK(parts.find("the value is off by about what float", first + 10) == std::string::npos);
    const std::string board = board_of({&swiglu()}, {r});
    CHECK(board.find("✓ swiglu_ffn_2d") != std::string::npos);
    CHECK(board.find("float") == std::string::npos);
    CHECK(board.find(swiglu().title.en) != std::string::npos);
}

TEST_CASE("board: 'not the whole number asked for' only of a value that is not a whole number") {
    const Exercise& groups = shipped_exercises().at("gqa_groups");
    const auto message = [&](const std::string& printed) {
        return grade_output(groups, groups.inputs, "kv_head_of_query = " + printed + "\n", {}).parts.at(1).message.en;
    };
    REQUIRE(groups.answers.at(1).name == "kv_head_of_query");
    CHECK(message("[0, 5, 1, 3, 7]").find("not the number asked for (0 decimal places") != std::string::npos);
    CHECK(message("[0, 5, 1, 3, 7]").find("whole number asked for") == std::string::npos);
    CHECK(message("[0, 0, 1.75, 3, 7]").find("not the whole number asked for") != std::string::npos);
}
