// `compare` names the porting bug: a float32 port with one bug planted, written the way a porter
// writes it, is matched against the block with each catalogue mistake made.
#include "porting_case.hpp"
#include "solutions/block/block_mistakes.hpp"
#include "source_tree.hpp"

#include <doctest/doctest.h>

#include <algorithm>

using namespace blockcheck;
using namespace blockcheck::testing;

namespace {

using Ids = std::vector<std::string>;

struct Planted {
    const char* id;
    PlantedBugs bugs;
};

std::vector<Planted> every_planted_bug() {
    std::vector<Planted> all;
    auto plant = [&](const char* id, auto set) {
        PlantedBugs b;
        set(b);
        all.push_back({id, b});
    };
    plant("not_causal", [](PlantedBugs& b) { b.no_causal_mask = true; });
    plant("eps_outside_sqrt", [](PlantedBugs& b) { b.eps_outside_sqrt = true; });
    plant("eps_ten_times", [](PlantedBugs& b) { b.typed_eps = 1e-4f; });
    plant("eps_tenth", [](PlantedBugs& b) { b.typed_eps = 1e-6f; });
    plant("norm_gain_plus_one", [](PlantedBugs& b) { b.one_plus_gain = true; });
    plant("rope_on_v", [](PlantedBugs& b) { b.rotate_v = true; });
    plant("rope_pairing_flipped", [](PlantedBugs& b) { b.other_pairing = true; });
    plant("rope_theta_default", [](PlantedBugs& b) { b.theta_10000 = true; });
    plant("no_attention_scale", [](PlantedBugs& b) { b.no_score_scale = true; });
    plant("attention_scale_twice", [](PlantedBugs& b) { b.score_scaled_twice = true; });
    plant("wrong_kv_head", [](PlantedBugs& b) { b.kv_tiled = true; });
    plant("gate_up_swapped", [](PlantedBugs& b) { b.gate_up_swapped = true; });
    plant("gelu_for_silu", [](PlantedBugs& b) { b.gelu = true; });
    plant("transposed_weights", [](PlantedBugs& b) { b.square_weights_as_stored = true; });
    return all;
}

// `ids`, then every RoPE-scaling mistake (in the catalogue's order, which is theirs).
Ids with_rope_scaling_ids(Ids ids) {
    for (const auto& [id, mistake] : rope_mistake_ids) ids.emplace_back(id);
    return ids;
}

bool contains(const Ids& ids, const std::string& id) { return std::find(ids.begin(), ids.end(), id) != ids.end(); }

}  // namespace

TEST_CASE("compare names each porting bug planted in a float32 port, from its output alone") {
    const auto json = porting_case(PortingShape{});
    const MistakeSearch honest = search_port(json, {});
    CHECK(named_ids(honest).empty());
    // Every query moves with its keys: the output cannot show positions counted from 1; the case
    // has no rope_scaling, so no RoPE-scaling mistake can show either.
    CHECK(not_visible_ids(honest) == with_rope_scaling_ids({"position_off_by_one"}));
    for (const Planted& p : every_planted_bug()) {
        CAPTURE(p.id);
        const MistakeSearch s = search_port(json, p.bugs);
        CHECK(named_ids(s) == Ids{p.id});
        if (!s.named.empty()) {
            CHECK(s.named[0].stage == "output");
            CHECK(s.named[0].normwise_eps < 64);  // float32 rounding, against the block with the mistake made
        }
    }
}

TEST_CASE("with the whole trace, compare names the bug at the first stage it shows") {
    const auto json = porting_case(PortingShape{});
    CHECK(not_visible_ids(search_port(json, {}, true)) == with_rope_scaling_ids({}));
    const std::vector<std::pair<const char*, const char*>> stage_of = {
        {"eps_outside_sqrt", "N"}, {"transposed_weights", "Q"}, {"rope_pairing_flipped", "Q_rotated"},
        {"wrong_kv_head", "heads"}, {"gate_up_swapped", "gate"}, {"gelu_for_silu", "hidden"}};
    for (const Planted& p : every_planted_bug()) {
        CAPTURE(p.id);
        const MistakeSearch s = search_port(json, p.bugs, true);
        REQUIRE(named_ids(s) == Ids{p.id});
        for (const auto& [id, stage] : stage_of)
            if (std::string(id) == p.id) CHECK(s.named[0].stage == stage);
    }
    PlantedBugs from_one;
    from_one.positions_from_one = true;
    const MistakeSearch s = search_port(json, from_one, true);
    CHECK(named_ids(s) == Ids{"position_off_by_one"});
    CHECK(s.named.at(0).stage == "Q_rotated");
}

TEST_CASE("two mistakes that leave the same output on a case are both named") {
    // Rows of root mean square 5 into both norms (the attention adds nothing): epsilon after the
    // root, 1/(5 + eps), and ten times epsilon under it, 1/sqrt(25 + 10 eps), agree to first order.
    PortingShape shape;
    shape.eps = "0.001";
    shape.input_rms = 5;
    shape.zero_output_projection = true;
    PlantedBugs eps;
    eps.eps_outside_sqrt = true;
    Ids named = named_ids(search_port(porting_case(shape), eps));
    std::sort(named.begin(), named.end());
    CHECK(named == Ids{"eps_outside_sqrt", "eps_ten_times"});
}

TEST_CASE("a mistake this case cannot show is listed as not visible, and none is named for it") {
    // One KV head, theta 10000, a single row at position 0: nothing turns, one key, no later row.
    PortingShape shape;
    shape.kv_heads = 1, shape.theta = 10000, shape.rows = 1, shape.start = 0;
    const auto json = porting_case(shape);
    const MistakeSearch honest = search_port(json, {}, true);
    CHECK(named_ids(honest).empty());
    const Ids hidden = not_visible_ids(honest);
    for (const char* id : {"wrong_kv_head", "rope_theta_default", "rope_on_v", "rope_pairing_flipped", "not_causal",
                           "no_attention_scale", "attention_scale_twice"}) {
        CAPTURE(id);
        CHECK(contains(hidden, id));
    }
    CHECK_FALSE(contains(hidden, "position_off_by_one"));  // position 1 turns Q_rotated
    CHECK_FALSE(contains(hidden, "gelu_for_silu"));
    PlantedBugs tiled;
    tiled.kv_tiled = true;  // the same program on this case: within, nothing named
    const MistakeSearch s = search_port(json, tiled, true);
    CHECK(s.named.empty());
    CHECK(contains(not_visible_ids(s), "wrong_kv_head"));
}

TEST_CASE("a float32 port with epsilon a tenth of the config's is a suspect, or named, never 'cannot show'") {
    // Rows of size 1 and rms_norm_eps 1e-5: epsilon 1e-6 moves the output by some 40 float32 eps,
    // inside the element-wise tolerance of the output (4 eps sqrt(depth)).
    PortingShape shape;
    shape.input_rms = 1;
    const auto json = porting_case(shape);
    PlantedBugs tenth;
    tenth.typed_eps = 1e-6f;
    const MistakeSearch alone = search_port(json, tenth);  // the element-wise tolerance alone
    CHECK_FALSE(contains(not_visible_ids(alone), "eps_tenth"));
    const auto hidden = std::find_if(alone.below_tolerance.begin(), alone.below_tolerance.end(),
                                     [](const HiddenMistake& m) { return m.mistake.key() == "eps_tenth"; });
    REQUIRE(hidden != alone.below_tolerance.end());
    CHECK(hidden->suspect);
    CHECK(hidden->displacement_eps > 10);
    CHECK(hidden->from_given_eps < 0.5 * alone.given_error_eps);
    // Held to the block run in float32, the port is outside and the mistake is named.
    const Trace<Mpfr50> faithful = float32_run(json);
    CHECK(named_ids(search_port(json, tenth, false, &faithful)) == Ids{"eps_tenth"});
    const MistakeSearch honest = search_port(json, {}, false, &faithful);
    CHECK(named_ids(honest).empty());
    for (const HiddenMistake& m : honest.below_tolerance) CHECK_FALSE(m.suspect);
}

TEST_CASE("every porting mistake of the catalogue is made by the block's dispatcher") {
    // a plain block, one scaled by llama3 and one by LongRoPE: every family member is made on one
    BlockConfig<double> plain;
    plain.head_dim = 4, plain.rms_norm_eps = 1e-6, plain.rope_theta = 500000;
    BlockConfig<double> llama3 = plain, longrope = plain;
    llama3.rope_scaling.type = RopeScalingType::llama3, llama3.rope_scaling.factor = 8;
    llama3.rope_scaling.original_context = 8192;
    longrope.rope_scaling = llama3.rope_scaling;
    longrope.rope_scaling.type = RopeScalingType::longrope;
    longrope.rope_scaling.long_factor = longrope.rope_scaling.short_factor = {1, 2};
    std::size_t ports = 0;
    for (const PortingMistake& m : porting_mistakes()) {
        CAPTURE(m.key());
        BlockConfig<double> a = plain, b = llama3, c = longrope, family = plain;
        // a layer with every family mechanism on (issue 42): the family mistakes are made there
        family.gain_plus_one = family.qkv_bias = family.fused_qkv = true;
        family.qk_norm = QkNorm::per_head, family.norm_sides = NormSides::both, family.sliding_window = 4;
        family.softcap = 50.0, family.gate_activation = GateActivation::gelu_tanh;
        family.other_kind = LayerKind<double>{0, 10000, {}};
        // every port entry is made; the dispatcher also makes the block's student slips (eps_omitted,
        // relu_for_silu, ...: the tutor's shared switches), which compare searches only when marked port
        CHECK((make_porting_mistake(a, m.key()) || make_porting_mistake(b, m.key()) || make_porting_mistake(c, m.key()) ||
               make_porting_mistake(family, m.key())));
        CHECK_FALSE(m.shown_by().en.empty());
        CHECK(m.changes().en.find('{') == std::string::npos);  // a family's words name the member
        ++ports;
    }
    CHECK(ports >= 15 + 7 + 4);
    BlockConfig<double> c = llama3;
    CHECK_FALSE(make_porting_mistake(c, "no_such_mistake"));
    CHECK_FALSE(make_porting_mistake(c, "weight_other_order/lm_head"));
    CHECK_FALSE(make_porting_mistake(c, "rope_type_taken_as/llama3"));  // the type it is
    CHECK_FALSE(make_porting_mistake(c, "rope_type_taken_as/longrope"));  // no family member: no lists to read
    CHECK(make_porting_mistake(c, "rope_type_taken_as/yarn"));
    CHECK(c.rope_scaling.type == RopeScalingType::yarn);
    CHECK(c.rope_scaling.factor == 8);
    CHECK(make_porting_mistake(c, "weight_other_order/up_proj"));
    CHECK(c.weights_in_other_order == 1u << 5);
    BlockConfig<double> unscaled = plain;
    CHECK_FALSE(make_porting_mistake(unscaled, "rope_type_taken_as/linear"));
}

TEST_CASE("docs/check-your-implementation.md lists every porting mistake compare can name") {
    const std::string doc = file_text(repository() / "docs/check-your-implementation.md");
    CHECK_MESSAGE(doc.find(porting_mistakes_table()) != std::string::npos,
                  "paste this table into docs/check-your-implementation.md:\n", porting_mistakes_table());
}
