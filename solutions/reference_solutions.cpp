#include "exercise.hpp"

namespace blockcheck {

const std::map<std::string, ReferenceSolution>& reference_solutions() {
    static const std::map<std::string, ReferenceSolution> all = {};
    return all;
}

}  // namespace blockcheck
