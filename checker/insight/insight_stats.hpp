// Item statistics of classical test theory, on one part's 0/1 scores and each student's rest of
// the total (the total without this part).
#pragma once

#include <optional>
#include <vector>

namespace blockcheck {

// Pearson's correlation of the 0/1 item with the rest of the total (the point-biserial
// correlation); nullopt when either does not vary.
std::optional<double> point_biserial(const std::vector<double>& item, const std::vector<double>& rest);

// The share right among the 27% of students with the highest rest of the total minus the share
// right among the 27% with the lowest (each group round(0.27 n) students, at least 1; ties in
// the rest broken by the order given); nullopt for fewer than 4 students.
std::optional<double> upper_lower_index(const std::vector<double>& item, const std::vector<double>& rest);

// Discrimination near zero or negative: a part the better students miss as often as the others.
inline constexpr double discrimination_flag_below = 0.1;

}  // namespace blockcheck
