// The recorded computation (solutions/tape.hpp) and the error model's changes on it
// (solutions/tape_changes.hpp): the tape computes what the Real reference computes, to every digit,
// and a change replayed from its operation on gives the numbers the slip gives.
#include "checker/exercise/protocol.hpp"
#include "solutions/gqa_long_context/references.hpp"
#include "solutions/tape_changes.hpp"

#include <doctest/doctest.h>

#include "exercise_testing.hpp"

using namespace blockcheck;

namespace tape_test {

Values book_inputs(const std::string& id) {
    const Exercise& e = testing::shipped_exercises().at(id);
    return parse_inputs(input_text(e.inputs), id);
}

std::vector<std::string> answer_order(const std::string& id) {
    std::vector<std::string> order;
    for (const AnswerSpec& a : testing::shipped_exercises().at(id).answers) order.push_back(a.name);
    return order;
}

// The one change of `kind` whose words say `says`, on the book's inputs.
TapeChange change_saying(const std::string& id, const std::string& kind, const std::string& says) {
    std::vector<TapeChange> found;
    for (TapeChange& c : tape_changes(id, tape_test::book_inputs(id), tape_test::answer_order(id), {}, 100000))
        if (c.kind == kind && c.en.find(says) != std::string::npos) found.push_back(std::move(c));
    REQUIRE_MESSAGE(found.size() == 1, found.size() << " changes of kind " << kind << " saying " << says);
    return found.front();
}

const Real& answer_number(const Values& a, const std::string& name) { return std::get<Real>(a.at(name)); }

}  // namespace tape_test


TEST_CASE("tape: every taped reference gives the Real reference's answers, to every digit") {
    CHECK(taped_references().size() >= 20);
    for (const auto& [id, taped] : taped_references()) {
        CAPTURE(id);
        const Values inputs = tape_test::book_inputs(id);
        const Values right = reference_answers(id, inputs);
        const Values recorded = taped_answers(id, inputs);
        REQUIRE(recorded.size() == right.size());
        for (const auto& [name, value] : right) {
            CAPTURE(name);
            CHECK(format_value(recorded.at(name), 60) == format_value(value, 60));  // every digit: the same operations on the same numbers
        }
    }
}

TEST_CASE("tape: the block's references, generic but not searched (their tapes are large), give the Real answers on the tape") {
    const std::pair<const char*, TapedReference> block_references[] = {
        {"llama_block_tiny", llama_block_tiny<Taped>},
        {"block_position_shift", block_position_shift<Taped>},
        {"rope_attention_demo", rope_attention_demo<Taped>},
        {"rope_write_back_layout", rope_write_back_layout<Taped>},
    };
    for (const auto& [id, taped] : block_references) {
        CAPTURE(id);
        CHECK(!taped_reference(id));
        const Values inputs = tape_test::book_inputs(id);
        const Values right = reference_answers(id, inputs);
        Tape tape;
        ValuesOf<Taped> recorded;
        {
            const TapeScope scope(tape);
            recorded = taped(Inputs(inputs));
        }
        MESSAGE(std::string(id) << ": " << tape.nodes.size() << " nodes");
        CHECK(tape.nodes.size() > 1000);  // a whole block, every operation recorded
        REQUIRE(recorded.size() == right.size());
        for (const auto& [name, value] : right) {
            CAPTURE(name);
            CHECK(format_value(real_value<Taped>(recorded.at(name)), 60) == format_value(value, 60));
        }
    }
}

TEST_CASE("tape: a division done the other way round is replayed from that division on") {
    // 48 query heads, 8 KV heads: 6 a group; kv_heads / query_heads is 1/6, and the KV head of
    // query head h is floor(h / (1/6)) = 6 h
    const TapeChange c = tape_test::change_saying("gqa_groups", "swapped", "kv_heads / query_heads");
    CHECK(c.id.starts_with("tape:swapped:"));
    CHECK(c.en.find("`heads_per_group`") != std::string::npos);
    CHECK(c.zh.find("颠倒") != std::string::npos);
    CHECK(tape_test::answer_number(c.answers, "heads_per_group") * 6 == 1);
    const Vector<Real>& kv_of = std::get<Vector<Real>>(c.answers.at("kv_head_of_query"));  // heads 0, 5, 6, 23, 47
    CHECK(kv_of == Vector<Real>{Real(0), Real(30), Real(36), Real(138), Real(282)});
    // the same change by its id, on other inputs: 96 query heads over 12 KV heads
    Values other = tape_test::book_inputs("gqa_groups");
    other["query_heads"] = Real(96), other["kv_heads"] = Real(12);
    const auto there = tape_change_answers("gqa_groups", other, tape_test::answer_order("gqa_groups"), c.id);
    REQUIRE(there);
    CHECK(tape_test::answer_number(*there, "heads_per_group") * 8 == 1);
}

TEST_CASE("tape: a constant confused and a rounding skipped change what follows them") {
    // GiB as 10^9: the GiB of the GQA cache grows by 2^30 / 10^9
    const TapeChange gb = tape_test::change_saying("kv_cache_sizes", "constant_swapped", "1073741824");
    const Values right = reference_answers("kv_cache_sizes", tape_test::book_inputs("kv_cache_sizes"));
    CHECK(tape_test::answer_number(gb.answers, "gqa_kv_cache_gib") * Real(1000000000) ==
          tape_test::answer_number(right, "gqa_kv_cache_gib") * Real(1073741824));
    CHECK(tape_test::answer_number(gb.answers, "gqa_kv_cache_bytes") == tape_test::answer_number(right, "gqa_kv_cache_bytes"));
    // 2 F / 3 not rounded down: the same on the book's F = 96 (a multiple of 3), so no answer moves
    const TapeChange whole = tape_test::change_saying("swiglu_matched_budget", "step_skipped", "rounding down");
    CHECK(tape_test::answer_number(whole.answers, "matched_ffn_hidden_size") == 64);
}

TEST_CASE("tape: the words never say a right answer's number") {
    // gqa_groups: 6 heads a group; no change's words may contain the 6 it is about
    for (const TapeChange& c : tape_changes("gqa_groups", tape_test::book_inputs("gqa_groups"), tape_test::answer_order("gqa_groups"), {}, 100000)) {
        CAPTURE(c.en);
        CHECK(c.en.find(" 6") == std::string::npos);
        CHECK(c.zh.find(" 6") == std::string::npos);
    }
}
