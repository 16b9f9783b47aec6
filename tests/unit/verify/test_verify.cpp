// `verify`: the claims of data/claims against the worked steps; verdicts, errata, and the
// loader's messages.
#include "checker/verify/claims.hpp"
#include "checker/common/json_exact.hpp"
#include "checker/verify/rerun_catalog.hpp"
#include "source_tree.hpp"

#include <doctest/doctest.h>

#include <map>

using namespace blockcheck;

namespace {

using testing::repository;

// Every worked step at 50 digits, by id (computed once for the whole suite).
const std::map<std::string, Step<Mpfr50>>& all_steps() {
    static const std::map<std::string, Step<Mpfr50>> steps = [] {
        std::map<std::string, Step<Mpfr50>> out;
        for (const std::string& id : worked_ids())
            for (Step<Mpfr50>& s : compute_worked<Mpfr50>(id, repository()).steps) out.emplace(s.id, std::move(s));
        return out;
    }();
    return steps;
}

ClaimResult check(const Claim& claim) {
    auto it = all_steps().find(claim.step);
    REQUIRE_MESSAGE(it != all_steps().end(), claim.id, " names a missing step ", claim.step);
    return evaluate_claim(claim, it->second);
}

const Claim& find_claim(const ClaimSet& set, const std::string& id) {
    for (const Claim& c : set.claims)
        if (c.id == id) return c;
    FAIL("no claim " << id);
    throw std::logic_error(id);
}

ClaimSet parse(const std::string& text) {
    ClaimSet set;
    parse_claims(parse_json_exact(text, "test.json"), "test.json", set);
    return set;
}

std::string one_claim(const std::string& fields) {
    return R"({"document": {"en": "chapter 25", "zh": "第 25 章"}, "about": "source", "claims": [{)" + fields + "}]}";
}

const std::string good_fields = R"("id": "x", "section": "25.3", "statement": {"en": "s", "zh": "s"}, "printed": "0.731059", "step": "25.3/silu-at-1", "rule": "rounds_to", "expected_verdict": "holds")";

Step<Mpfr50> scalar_step(const char* value, StepKind kind) {
    Step<Mpfr50> s;
    s.id = "test/value";
    s.kind = kind;
    s.value = Matrix<Mpfr50>(1, 1);
    s.value(0, 0) = parse_real<Mpfr50>(value);
    return s;
}

}  // namespace

TEST_CASE("verify: every claim in data/claims has the verdict recorded for it") {
    const ClaimSet set = read_claims(repository() / "data" / "claims");
    CHECK(set.claims.size() >= 100);
    std::map<ClaimVerdict, int> counts;
    for (const Claim& claim : set.claims) {
        const ClaimResult r = check(claim);
        INFO(claim.id, ": printed ", claim.printed, ", computed ", r.computed);
        CHECK(claim_verdict_name(r.verdict) == claim_verdict_name(claim.expected));
        ++counts[r.verdict];
    }
    CHECK(counts[ClaimVerdict::source_erratum] >= 4);
    CHECK(counts[ClaimVerdict::fails] == 0);
}

TEST_CASE("verify: the chapter's SiLU(1) holds; the article's 0-to-1 gate is a source erratum with its counter-example") {
    const ClaimSet set = read_claims(repository() / "data" / "claims");
    const ClaimResult silu = check(find_claim(set, "ch25/25.3/silu-1"));
    CHECK(silu.verdict == ClaimVerdict::holds);
    CHECK(silu.computed == "0.7310585786");
    const ClaimResult gate = check(find_claim(set, "gqa_long_context/swiglu/gate-range"));
    CHECK(gate.verdict == ClaimVerdict::source_erratum);
    CHECK(gate.computed.find("outside [0, 1]") != std::string::npos);
    CHECK(gate.computed.find("-0.2689414") != std::string::npos);
    const ClaimResult to_one = check(find_claim(set, "gqa_long_context/swiglu/opens-to-one"));
    CHECK(to_one.verdict == ClaimVerdict::source_erratum);
    CHECK(to_one.computed.find("9.99954") != std::string::npos);
}

TEST_CASE("verify: a wrong printed value in a copy of the claims data is caught") {
    nlohmann::ordered_json json = read_json_exact(repository() / "data" / "claims" / "01-chapter25.json");
    bool changed = false;
    for (auto& c : json["claims"])
        if (c["id"] == "ch25/25.2/rms") c["printed"] = "3.535543", changed = true;
    REQUIRE(changed);
    ClaimSet set;
    parse_claims(json, "copy.json", set);
    const Claim& claim = find_claim(set, "ch25/25.2/rms");
    const ClaimResult r = check(claim);
    CHECK(r.verdict == ClaimVerdict::source_erratum);
    CHECK(r.verdict != claim.expected);
    CHECK(r.computed == "3.5355339059");
}

TEST_CASE("verify: rounds_to holds a printed value to exactly the decimals it gives") {
    const Step<Mpfr50> silu = all_steps().at("25.3/silu-at-1");  // 0.73105857863...
    for (const auto& [printed, verdict] : std::vector<std::pair<std::string, ClaimVerdict>>{
             {"0.731059", ClaimVerdict::holds}, {"0.7310586", ClaimVerdict::holds}, {"0.73", ClaimVerdict::holds},
             {"0.7310585", ClaimVerdict::source_erratum}, {"0.731058", ClaimVerdict::source_erratum}, {"1", ClaimVerdict::holds}}) {
        ClaimSet set = parse(one_claim(good_fields));
        set.claims[0].value = printed;
        INFO(printed);
        CHECK(evaluate_claim(set.claims[0], silu).verdict == verdict);
    }
}

TEST_CASE("verify: a failed property of the block is `fails`, a wrong source value `source_erratum`") {
    ClaimSet set = parse(R"({"document": {"en": "the block", "zh": "块"}, "about": "block", "claims": [{"id": "p", "section": "RoPE", "statement": {"en": "s", "zh": "s"}, "printed": "0", "step": "test/value", "rule": "within", "max": "1e-40", "expected_verdict": "holds"}]})");
    CHECK(evaluate_claim(set.claims[0], scalar_step("1e-50", StepKind::difference)).verdict == ClaimVerdict::holds);
    const ClaimResult broken = evaluate_claim(set.claims[0], scalar_step("0.001", StepKind::difference));
    CHECK(broken.verdict == ClaimVerdict::fails);
    CHECK(broken.computed.find("1.00e-03") != std::string::npos);
    set.claims[0].about_block = false;
    CHECK(evaluate_claim(set.claims[0], scalar_step("0.001", StepKind::difference)).verdict == ClaimVerdict::source_erratum);
}

TEST_CASE("verify: exact compares whole numbers, booleans and undefined exactly") {
    ClaimSet set = parse(one_claim(R"("id": "x", "section": "s", "statement": {"en": "s", "zh": "s"}, "printed": "1152", "step": "test/value", "rule": "exact", "expected_verdict": "holds")"));
    CHECK(evaluate_claim(set.claims[0], scalar_step("1152", StepKind::integer)).verdict == ClaimVerdict::holds);
    CHECK(evaluate_claim(set.claims[0], scalar_step("1151.9999999999", StepKind::real)).verdict == ClaimVerdict::source_erratum);
    set.claims[0].value = "true";
    CHECK(evaluate_claim(set.claims[0], scalar_step("1", StepKind::boolean)).verdict == ClaimVerdict::holds);
    set.claims[0].value = "undefined";
    CHECK(evaluate_claim(set.claims[0], scalar_step("1", StepKind::real)).verdict == ClaimVerdict::source_erratum);
}

TEST_CASE("verify: the claims loader names the file and the field") {
    CHECK_NOTHROW(parse(one_claim(good_fields)));
    auto replaced = [](const std::string& from, const std::string& to) {
        std::string f = good_fields;
        f.replace(f.find(from), from.size(), to);
        return one_claim(f);
    };
    CHECK_THROWS_WITH_AS(parse(replaced(R"("rule": "rounds_to")", R"("rule": "roughly")")),
                         doctest::Contains("test.json: claims[0].rule: unknown rule 'roughly'"), InputFileError);
    CHECK_THROWS_WITH_AS(parse(replaced(R"(, "expected_verdict": "holds")", "")),
                         doctest::Contains("claims[0].expected_verdict: missing field"), InputFileError);
    CHECK_THROWS_WITH_AS(parse(replaced(R"("expected_verdict": "holds")", R"("expected_verdict": "ok")")),
                         doctest::Contains("unknown verdict 'ok'"), InputFileError);
    CHECK_THROWS_WITH_AS(parse(replaced(R"("section")", R"("sectoin")")), doctest::Contains("claims[0].sectoin: unknown field"),
                         InputFileError);
    CHECK_THROWS_WITH_AS(parse(replaced(R"("printed": "0.731059")", R"("printed": "7.31e-1")")),
                         doctest::Contains("rounds_to needs plain decimals"), InputFileError);
    CHECK_THROWS_WITH_AS(parse(replaced(R"("printed": "0.731059")", R"("printed": "about 0.73")")),
                         doctest::Contains("claims[0].value"), InputFileError);
    CHECK_THROWS_WITH_AS(parse(replaced(R"("rule": "rounds_to")", R"("rule": "approx")")),
                         doctest::Contains("claims[0].tolerance: missing field"), InputFileError);
    CHECK_THROWS_WITH_AS(parse(R"({"document": {"en": "a", "zh": "b"}, "about": "source", "claims": [{)" + good_fields + "}, {" + good_fields + "}]}"),
                         doctest::Contains("claims[1].id: 'x' appears twice"), InputFileError);
    CHECK_THROWS_WITH_AS(parse(R"({"document": {"en": "a", "zh": "b"}, "about": "both", "claims": []})"),
                         doctest::Contains("test.json: about: expected \"source\""), InputFileError);
}
