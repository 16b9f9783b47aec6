// `blockcheck verify`: every number the two source documents print and every property of the
// block listed in data/claims, each compared with the worked steps computed at 50 digits.
#include "checker/verify/claims.hpp"
#include "checker/common/cli.hpp"
#include "checker/common/json_exact.hpp"
#include "checker/verify/rerun_catalog.hpp"
#include "checker/verify/rerun_format.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <map>

namespace blockcheck {
namespace {

struct VerifyOptions {
    bool json = false;
    std::string claims;  // file or directory; default data/claims
};

struct Checked {
    const Claim* claim;
    ClaimResult result;
    bool as_expected() const { return result.verdict == claim->expected; }
};

// Every worked example at 50 digits; an example that throws is recorded, so that only the
// claims resting on it fail. Bad data files still stop the run (exit 2).
struct ComputedSteps {
    std::map<std::string, Worked<Mpfr50>> worked;
    std::map<std::string, std::string> errors;  // example id -> what went wrong
    std::map<std::string, const Step<Mpfr50>*> steps;

    explicit ComputedSteps(const std::filesystem::path& root) {
        for (const std::string& id : worked_ids()) {
            try {
                worked.emplace(id, compute_worked<Mpfr50>(id, root));
            } catch (const InputFileError&) {
                throw;
            } catch (const std::exception& e) {
                errors[id] = e.what();
            }
        }
        for (const auto& [id, w] : worked)
            for (const Step<Mpfr50>& s : w.steps) steps[s.id] = &s;
    }
};

std::vector<Checked> check_all(const ClaimSet& set, const ComputedSteps& computed) {
    std::vector<Checked> out;
    for (const Claim& claim : set.claims) {
        auto it = computed.steps.find(claim.step);
        if (it != computed.steps.end()) {
            out.push_back({&claim, evaluate_claim(claim, *it->second)});
            continue;
        }
        const std::string example = claim.step.substr(0, claim.step.find('/'));
        auto error = computed.errors.find(example);
        if (error == computed.errors.end())
            throw InputFileError(claim.where() + ".step: no worked step '" + claim.step + "' (`blockcheck rerun " +
                                 (resolve_worked_id(example).empty() ? std::string("--list") : example) + "` shows the steps)");
        out.push_back({&claim, failed_claim(error->second)});
    }
    return out;
}

std::string source_text(const Claim& c, Lang lang) { return c.document.in(lang) + ", " + c.section; }

void print_json(const std::vector<Checked>& checked, Lang lang) {
    nlohmann::ordered_json claims = nlohmann::ordered_json::array();
    std::size_t passed = 0;
    for (const Checked& c : checked) {
        claims.push_back({{"id", c.claim->id},
                          {"source", source_text(*c.claim, lang)},
                          {"statement", c.claim->statement.in(lang)},
                          {"printed", c.claim->printed},
                          {"computed", c.result.computed},
                          {"verdict", claim_verdict_name(c.result.verdict)},
                          {"expected_verdict", claim_verdict_name(c.claim->expected)}});
        passed += c.as_expected();
    }
    nlohmann::ordered_json out = {{"claims", claims}, {"passed", passed}, {"failed", checked.size() - passed}};
    fmt::print("{}\n", out.dump(2));
}

void print_table(const std::vector<Checked>& checked, const ClaimSet& set, const std::string& origin, Lang lang) {
    fmt::print("{}\n", fmt::format(fmt::runtime(std::string(tr(lang, "verify: {} claims from {}, computed at 50 significant digits",
                                                                 "verify：{} 条断言，来自 {}，按 50 位有效数字计算"))),
                                   checked.size(), origin));
    std::string document;
    std::map<ClaimVerdict, std::size_t> counts;
    for (const Checked& c : checked) {
        if (c.claim->document.in(lang) != document) {
            document = c.claim->document.in(lang);
            fmt::print("\n{}\n", document);
        }
        ++counts[c.result.verdict];
        fmt::print("  {:<15} {}  [{}]{}\n", claim_verdict_name(c.result.verdict), c.claim->id, c.claim->section,
                   c.as_expected() ? "" : fmt::format("  <-- {} {}", tr(lang, "expected", "应为"), claim_verdict_name(c.claim->expected)));
        fmt::print("      {}\n", c.claim->statement.in(lang));
        fmt::print("      {}{}  ·  {}{}\n", tr(lang, "printed: ", "原文："), c.claim->printed, tr(lang, "computed: ", "计算："),
                   c.result.computed);
    }
    if (!set.unchecked.empty()) {
        fmt::print("\n{}\n", tr(lang, "Not checked (no computation here can decide them):", "未检查（这里没有计算能判定）："));
        for (const UncheckedClaim& u : set.unchecked)
            fmt::print("  {}, {}: {}\n      {}\n", u.document.in(lang), u.section, u.statement.in(lang), u.reason.in(lang));
    }
    std::size_t changed = 0;
    for (const Checked& c : checked) changed += !c.as_expected();
    fmt::print("\n{}{} holds, {} source_erratum, {} fails; ", tr(lang, "Verdicts: ", "结论："), counts[ClaimVerdict::holds],
               counts[ClaimVerdict::source_erratum], counts[ClaimVerdict::fails]);
    if (changed == 0) {
        fmt::print("{}\n", tr(lang, "every verdict as recorded in data.", "全部与数据中记录的预期一致。"));
        return;
    }
    fmt::print("{} {}\n", changed, tr(lang, "differ from the verdicts recorded in data:", "条与数据中记录的预期不同："));
    for (const Checked& c : checked)
        if (!c.as_expected())
            fmt::print("  {}: {} {}, {} {} ({} {}, {} {})\n", c.claim->id, tr(lang, "expected", "预期"), claim_verdict_name(c.claim->expected),
                       tr(lang, "got", "得到"), claim_verdict_name(c.result.verdict), tr(lang, "printed", "原文"), c.claim->printed,
                       tr(lang, "computed", "计算"), c.result.computed);
}

int verify(const Context& context, const VerifyOptions& options) {
    const std::filesystem::path origin = options.claims.empty() ? context.root / "data" / "claims" : std::filesystem::path(options.claims);
    const ClaimSet set = read_claims(origin);
    const ComputedSteps computed(context.root);
    const std::vector<Checked> checked = check_all(set, computed);
    if (options.json) print_json(checked, context.lang);
    else print_table(checked, set, origin.string(), context.lang);
    for (const Checked& c : checked)
        if (!c.as_expected()) return 1;
    return 0;
}

}  // namespace

void add_verify_command(CLI::App& app, Context& context) {
    auto options = std::make_shared<VerifyOptions>();
    CLI::App* cmd = app.add_subcommand("verify", "check every number the chapter and the companion article print, and the block's properties; exit 1 when a verdict differs from data");
    cmd->add_flag("--json", options->json, "print the claims and verdicts as JSON");
    cmd->add_option("--claims", options->claims, "a claims file or directory (default: data/claims)");
    cmd->callback([&context, options] { context.run = [&context, options] { return verify(context, *options); }; });
}

}  // namespace blockcheck
