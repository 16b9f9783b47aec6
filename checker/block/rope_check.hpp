// `blockcheck rope`'s figures: the RoPE tensors of a configuration at 50 digits (inv_freq,
// the attention factor, cos and sin at given positions), an engineer's dump of any of them graded
// against them, and the RoPE-scaling porting mistakes (solutions/block/rope_mistakes.hpp) that
// explain a difference or cannot show in the dump.
#pragma once

#include "base/text.hpp"
#include "checker/block/rope_config.hpp"
#include "checker/block/tensor_files.hpp"

#include <string>
#include <vector>

namespace blockcheck {

// What a port computes for RoPE, for a forward whose largest position is positions.back().
struct RopeTensors {
    std::vector<long> positions;      // increasing
    std::size_t sequence_length = 0;  // positions.back() + 1: dynamic NTK and LongRoPE depend on it
    Vector<Mpfr50> inv_freq;          // [pairs] radians per position, linear scaling folded in (as transformers)
    Mpfr50 attention_factor;          // what cos and sin are multiplied by
    Matrix<Mpfr50> angle, cos, sin;   // [positions, pairs]; cos and sin carry the attention factor
};

// The tensors of `config` at `positions` (increasing, >= 0), with one RoPE-scaling mistake made
// (RopeScalingMistake::none: the honest ones).
RopeTensors rope_tensors(const RopeConfig<Mpfr50>& config, const std::vector<long>& positions,
                         RopeScalingMistake mistake = RopeScalingMistake::none);

// The given tensors' names: inv_freq, cos, sin, attention_factor.
bool rope_tensor_name(const std::string& name);

// A dumped tensor in the reference's form: inv_freq [pairs], attention_factor [1], cos and sin
// [positions, pairs]. Leading axes of size 1 are dropped; cos and sin may have a full head's
// width, each pair's value twice (half: cat(freqs, freqs) as transformers, or interleaved).
struct RopeGiven {
    std::string name, file;
    std::string layout;            // "half" or "interleaved" for a full-width cos or sin, else ""
    Matrix<Mpfr50> values;         // [rows, cols] as the reference's tensor of that name
};

// Reads `tensor` (named `name`, from `file`) into the reference's form for `positions` positions
// of `pairs` pairs; a shape that fits none of the forms above is an InputFileError naming both.
RopeGiven rope_given(const std::string& name, const Tensor& tensor, const std::string& file, std::size_t positions,
                     std::size_t pairs);

// One given tensor against the tensors of a configuration, element by element: |given - ref| <=
// allowance, where the allowance covers the rounding to `dtype` and the angle's error, which grows
// with the angle (see rope_check.cpp).
struct RopeGrade {
    std::string name, layout;
    std::size_t elements = 0, outside = 0, nonfinite = 0;
    double max_abs = 0, normwise = 0;  // max |err|, and max |err| / max |ref|
    double worst_use = 0;              // the largest |err| / allowance
    std::string worst_at;              // "cos[2][17]": [position index][pair]
    double worst_given = 0, worst_reference = 0;
    bool within() const { return outside == 0 && nonfinite == 0; }
};

RopeGrade grade_rope_tensor(const RopeGiven& given, const RopeTensors& reference, DType dtype, const Mpfr50& theta);

// The verdict on a dump: each tensor against the honest tensors, and the mistakes.
struct RopeVerdict {
    std::vector<RopeGrade> grades;
    bool within = true;
    std::vector<std::string> named;        // mistakes whose tensors the whole dump matches (outside only)
    std::vector<std::string> not_visible;  // mistakes whose tensors equal the honest ones on this dump
};

RopeVerdict judge_rope_dump(const std::vector<RopeGiven>& given, const RopeConfig<Mpfr50>& config,
                            const std::vector<long>& positions, DType dtype);

// What would show a mistake that this dump cannot, in both languages.
Text rope_mistake_shown_by(const std::string& id);

}  // namespace blockcheck
