// The porting mistakes of data/mistakes.json (entries with "port": true), each made on a block's
// configuration with exactly one thing changed, so that `compare` can tell which one an
// engineer's output carries.
#pragma once

#include "block.hpp"
#include "rope_mistakes.hpp"

#include <string_view>
#include <utility>

namespace blockcheck {

// The mistakes of the block itself (norms, attention, RoPE's pairing and positions, the FFN,
// reading the weights); false for another id.
template <class T>
bool make_block_mistake(BlockConfig<T>& config, std::string_view id) {
    if (id == "not_causal") config.causal = false;
    else if (id == "eps_omitted") config.rms_norm_eps = T(0);
    else if (id == "mask_reversed") config.mask_reversed = true;
    else if (id == "clockwise_rotation") config.clockwise = true;
    else if (id == "pairing_half_vs_interleaved") config.rope_layout = RopeLayout::half;
    else if (make_activation_mistake(config.gate_activation, id)) return true;
    else if (id == "eps_outside_sqrt") config.eps_placement = EpsPlacement::after_root;
    else if (id == "eps_ten_times") config.rms_norm_eps *= T(10);
    else if (id == "eps_tenth") config.rms_norm_eps /= T(10);
    else if (id == "norm_gain_plus_one") config.gain_plus_one = true;
    else if (id == "rope_on_v") config.rotate_v = true;
    else if (id == "rope_pairing_flipped")
        config.rope_layout = config.rope_layout == RopeLayout::interleaved ? RopeLayout::half : RopeLayout::interleaved;
    else if (id == "position_off_by_one") config.position_offset = 1;
    else if (id == "rope_theta_default") config.rope_theta = T(10000);
    else if (id == "no_attention_scale") config.scale_scores = false;
    else if (id == "attention_scale_twice") config.scale_scores_twice = true;
    else if (id == "wrong_kv_head") config.kv_round_robin = true;
    else if (id == "gate_up_swapped") config.swap_gate_up = true;
    else if (id == "transposed_weights") config.transpose_square_weights = true;
    else if (id == "residual_from_norm") config.residual_from_norm = true;
    else if (id == "residual_forgotten") config.residual_forgotten = true;
    else return false;
    return true;
}

// Whether a layer kind turns Q and K as the layer does (then a local layer taken as global is only
// its window ignored: sliding_window_ignored names that).
template <class T>
bool same_rope(const BlockConfig<T>& config, const LayerKind<T>& kind) {
    return config.rope_theta == kind.rope_theta && config.rope_scaling.type == kind.rope_scaling.type &&
           config.rope_scaling.factor == kind.rope_scaling.factor;
}

// The slips a model family's mechanisms invite (docs/checkpoints.md), each made only on a layer
// that has the mechanism: (1 + g) read as g, the q/k/v biases dropped, the q/k-norm skipped, after
// RoPE, or over the other span (the whole projection for each head's, or the reverse), the window
// ignored or one key wider, the soft cap skipped, GELU's exact form for its tanh form, qkv_proj split
// as q, v, k, the input and output norms swapped, the layer taken as the model's other kind (the
// local/global pattern shifted: a global layer windowed, or a local one global where the kinds'
// RoPE differs); false for another id or a layer without the mechanism.
template <class T>
bool make_model_family_mistake(BlockConfig<T>& config, std::string_view id) {
    const bool qk_norm = config.qk_norm != QkNorm::none;
    if (id == "norm_gain_one_dropped" && config.gain_plus_one) config.gain_plus_one = false;
    else if (id == "qkv_bias_dropped" && config.qkv_bias) config.qkv_bias = false;
    else if (id == "qk_norm_skipped" && qk_norm) config.qk_norm = QkNorm::none;
    else if (id == "qk_norm_after_rope" && qk_norm) config.qk_norm_after_rope = true;
    else if (id == "qk_norm_other_span" && qk_norm)
        config.qk_norm = config.qk_norm == QkNorm::per_head ? QkNorm::whole : QkNorm::per_head;
    else if (id == "sliding_window_ignored" && config.sliding_window) config.sliding_window = 0;
    else if (id == "sliding_window_off_by_one" && config.sliding_window) config.sliding_window += 1;
    else if (id == "softcap_skipped" && config.softcap) config.softcap.reset();
    else if (id == "gelu_exact_for_tanh" && config.gate_activation == GateActivation::gelu_tanh)
        config.gate_activation = GateActivation::gelu;
    else if (id == "fused_qkv_split_order" && config.fused_qkv) config.swap_k_v = true;
    else if (id == "norms_pre_post_swapped" && config.norm_sides != NormSides::input) config.norms_swapped = true;
    else if (id == "local_global_shifted" && config.other_kind && !(config.sliding_window && same_rope(config, *config.other_kind))) {
        LayerKind<T> own{config.sliding_window, config.rope_theta, config.rope_scaling};
        config.sliding_window = config.other_kind->sliding_window;
        config.rope_theta = config.other_kind->rope_theta;
        config.rope_scaling = config.other_kind->rope_scaling;
        config.other_kind = own;
    } else return false;
    return true;
}

// A catalogue key and its parts: "weight_other_order/q_proj" is the family weight_other_order's
// member q_proj; a key without '/' has no parameter.
inline std::pair<std::string_view, std::string_view> mistake_key_parts(std::string_view key) {
    const std::size_t slash = key.find('/');
    if (slash == std::string_view::npos) return {key, {}};
    return {key.substr(0, slash), key.substr(slash + 1)};
}

// The families: one switch, one member a parameter (data/mistakes.json's "parameter" values).
// False for another family or member, or where the member cannot be made on `config`.
template <class T>
bool make_family_mistake(BlockConfig<T>& config, std::string_view id, std::string_view parameter) {
    if (id == "weight_other_order") {
        for (std::size_t i = 0; i < block_weight_names.size(); ++i)
            if (block_weight_names[i] == parameter) {
                config.weights_in_other_order |= 1u << i;
                return true;
            }
        return false;
    }
    if (id == "rope_type_taken_as") return make_rope_type_mistake(config.rope_scaling, parameter);
    return false;
}

// Makes the mistake of catalogue key `key` ("not_causal", "weight_other_order/q_proj") on
// `config`; false for a key that is not a porting mistake of the block, or a family member that
// cannot be made on this configuration (rope_type_taken_as/linear without a scaling).
template <class T>
bool make_porting_mistake(BlockConfig<T>& config, std::string_view key) {
    const auto [id, parameter] = mistake_key_parts(key);
    if (!parameter.empty()) return make_family_mistake(config, id, parameter);
    return make_block_mistake(config, id) || make_model_family_mistake(config, id) || make_rope_mistake(config, id);
}

// Whether the LLaMA slip `key` has something to get wrong on this layer: a SiLU slip needs a SiLU
// gate (on Gemma's GeGLU, gelu_for_silu would be gelu_exact_for_tanh under another name), a slip of
// the input norms input norms (OLMo 2 has none), 1 + g a layer storing g itself.
template <class T>
bool slip_fits_layer(const BlockConfig<T>& config, std::string_view key) {
    const bool silu_slip = key.ends_with("_for_silu") || key == "silu_exponent_sign";
    return !((silu_slip && config.gate_activation != GateActivation::silu) ||
             (key == "residual_from_norm" && config.norm_sides == NormSides::output) ||
             (key == "norm_gain_plus_one" && config.gain_plus_one));
}

// The porting mistake `key` made on a layer compare searches (a block case's, a checkpoint's): as
// make_porting_mistake, but false where the slip has nothing of this layer to get wrong.
template <class T>
bool make_layer_mistake(BlockConfig<T>& config, std::string_view key) {
    return slip_fits_layer(config, key) && make_porting_mistake(config, key);
}

}  // namespace blockcheck
