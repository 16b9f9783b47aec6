// report.html beside the gradebook: the class at a glance, inline SVG and CSS, no network.
#pragma once

#include "checker/outputs/gradebook.hpp"
#include "checker/insight/insight.hpp"

#include <string>
#include <vector>

namespace blockcheck {

// Score histogram of the totals (ten bins of the maximum), each exercise's success rate (full
// marks) and mean, verdict counts over every answer part, and the most common wrong answers (by
// exercise, part and verdict, with a sample message); then, given `insight`, the instructor's
// view (insight_html.hpp). Then a section per student (students_html). Headings and prose in `lang`. A pure function of the records.
// A TA's view: per student a <details> (id "student-<file stem>") with the name and points, a row
// per exercise of `exercises` (verdict, points, the first message) and the misnamed files and notes.
std::string students_html(const std::vector<const Exercise*>& exercises, const std::vector<StudentRecord>& students,
                          Lang lang = Lang::en);

std::string report_html(const std::vector<const Exercise*>& exercises, const std::vector<StudentRecord>& students,
                        const Insight* insight = nullptr, Lang lang = Lang::en);

}  // namespace blockcheck
