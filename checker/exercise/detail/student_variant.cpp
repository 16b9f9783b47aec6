// The variant a student is graded on (variants.hpp: student_variant_seed): a draw that hides none
// of the slips the book's inputs show.
#include "checker/exercise/diagnosis.hpp"
#include "checker/exercise/grading.hpp"
#include "checker/exercise/variants.hpp"

#include <map>
#include <mutex>
#include <set>
#include <string>

namespace blockcheck {

namespace {

// The mistakes (catalogue keys) that change an answer of `c` at its declared precision.
std::set<std::string> shown_mistakes(const Exercise& exercise, const ExpectedCase& c) {
    std::set<std::string> shown;
    for (const auto& [key, values] : c.mistakes)
        for (const AnswerSpec& spec : exercise.answers) {
            auto made = values.find(spec.name);
            auto right = c.answers.find(spec.name);
            if (made != values.end() && right != c.answers.end() && mistake_changes(spec, made->second, right->second)) {
                shown.insert(key);
                break;
            }
        }
    return shown;
}

// What the book's inputs show, once per exercise definition (its id and inputs).
std::set<std::string> shown_on_book(const Exercise& exercise) {
    static std::mutex mutex;
    static std::map<std::string, std::set<std::string>> known;
    const std::string key = exercise.id + "\n" + case_key(exercise.inputs);
    {
        std::lock_guard lock(mutex);
        if (auto it = known.find(key); it != known.end()) return it->second;
    }
    std::set<std::string> shown = shown_mistakes(exercise, expected_answers_and_mistakes(exercise, exercise.inputs));
    std::lock_guard lock(mutex);
    return known.emplace(key, std::move(shown)).first->second;
}

}  // namespace

std::uint64_t student_variant_seed(const Exercise& exercise, const std::string& student) {
    const std::uint64_t first = variant_seed(student, exercise.id);
    if (exercise.variants.empty() || exercise.expected->carried_variants()) return first;
    try {
        const std::set<std::string> book = shown_on_book(exercise);
        if (book.empty()) return first;
        std::uint64_t best = first;
        std::size_t fewest_hidden = book.size() + 1;
        for (int k = 0; k < student_variant_draws; ++k) {
            const std::uint64_t seed = k == 0 ? first : variant_seed(student + "#" + std::to_string(k), exercise.id);
            const std::set<std::string> shown =
                shown_mistakes(exercise, expected_answers_and_mistakes(exercise, variant_inputs(exercise, seed)));
            std::size_t hidden = 0;
            for (const std::string& key : book) hidden += !shown.count(key);
            if (hidden == 0) return seed;
            if (hidden < fewest_hidden) best = seed, fewest_hidden = hidden;
        }
        return best;
    } catch (const std::exception&) {
        return first;  // a draw the reference cannot answer: graded (and reported) as before
    }
}

}  // namespace blockcheck
