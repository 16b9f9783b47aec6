// The error model's own view of a recorded reference (tape_changes.hpp), shared by its files: the
// answers' nodes, the sites a change is made at (tape_sites.cpp), the ways each site can change,
// the one-input functions the tape computes (tape_functions.cpp), and the replays made so far.
#pragma once

#include "solutions/tape_changes.hpp"

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace blockcheck {

// One answer of the recording: its value at Real, and the node of each of its numbers.
struct TapeOutput {
    std::string name;
    Value value;
    std::vector<int> nodes;
};

// A site: the nodes one change is made at.
struct TapeSite {
    std::string key;
    std::vector<int> nodes;
    std::uint64_t reach = 0;  // the answers (bits, in the exercise's order) its nodes feed
    int first_answer = -1;
    Real step{0};  // a counter's site ("P..."): the counter's step s
};

// One change a site can take: its kind and which of the kind's ways (an operand, a neighbour).
struct TapeWay {
    std::string kind;
    int variant = 0;       // term/factor dropped: 0 the second operand, 1 the first; off_by_one: +1 / -1;
                           // function_confused: the neighbour's index (known_functions)
    Real constant{0};      // constant_swapped: the neighbour
    std::size_t site = 0;  // index into TapeRecording::sites
    std::string id;
};

// The functions of one number the tape computes: each node's source (the one node it is a function
// of, with constants only besides: a leaf, or a node mixing two sources, is its own source; -1 for
// a node made of constants alone), the tops of those functions (a node some consumer of which
// mixes it with another source, or an answer), and which known function a top is (-1: none).
struct TapeFunctions {
    std::vector<int> source;
    std::vector<char> top;
    std::vector<int> known;
};

struct TapeRecording {
    Tape tape;
    std::vector<TapeOutput> outputs;
    std::vector<std::string> order;
    std::vector<std::uint64_t> reach;  // per node
    std::vector<int> answer_of;        // per node: the answer it is a number of (index in order), -1
    std::vector<TapeSite> sites;
    std::vector<TapeWay> ways;
    TapeFunctions functions;
    std::vector<Real> right_numbers;  // every number of the right answers: never said in words
    mutable std::mutex mutex;
    mutable std::map<std::string, std::optional<Values>> replayed;
    mutable std::map<std::string, std::optional<TapeChange>> described;
};

// Which answers each node feeds, the one-input functions, the sites and the ways each can change
// (tape_sites.cpp).
void find_sites(TapeRecording& r);

// The functions of one number of `tape`; `answer_of`: per node, the answer it is a number of, -1
// (tape_functions.cpp).
TapeFunctions tape_functions(const Tape& tape, const std::vector<int>& answer_of);
// Node `n`, a function of `source` (TapeFunctions::source), evaluated with the source's value taken
// as `x`: the nodes between recomputed; `values`: every other node's.
Real function_value(const Tape& tape, const TapeFunctions& f, int n, const Real& x, const std::vector<Real>& values);

// A known function of one number, and those people take it for: SiLU x / (1 + e^-x) and x tanh(x),
// the sigmoid and tanh, GELU and its tanh form.
struct KnownFunction {
    const char* name;  // as a student writes it: "x / (1 + e^-x)"
    const char* en;    // what it is called: "SiLU"
    const char* zh;
    Real (*of)(const Real&);
    std::vector<int> confused_with;  // indices into known_functions()
};
const std::vector<KnownFunction>& known_functions();

// The words of a change (tape_change_words.cpp).
std::pair<std::string, std::string> tape_change_words(const TapeRecording& r, const TapeSite& site, const TapeWay& way);

}  // namespace blockcheck
