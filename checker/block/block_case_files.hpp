// Block cases whose weights and input live in a .safetensors file beside a small JSON config,
// and the export of a case as a Hugging Face LLaMA layer (weights, config.json).
#pragma once

#include "checker/block/block_case.hpp"

#include <filesystem>

namespace blockcheck {

// A case's JSON with every tensor file it names read in: "weights": "FILE.safetensors" (the
// block's names in [in, out] layout, or Hugging Face's LlamaDecoderLayer names in [out, in]
// layout) and "input": "FILE.safetensors" (its tensor "input", [T, C] or [1, T, C]). Paths are
// relative to the case file.
nlohmann::ordered_json inline_tensor_files(nlohmann::ordered_json json, const std::filesystem::path& case_file);

// read_block_case on a case file, with its tensor files read in.
template <class T>
BlockCase<T> read_case_file(const std::filesystem::path& file) {
    return read_block_case<T>(inline_tensor_files(read_json_exact(file), file), file.string());
}

// JSON laid out as `forward` prints it and case files are written: objects one member a line,
// a matrix one row a line (as numpy prints one), a vector or a number on one line; nlohmann
// writes every name and value, only the line breaks are ours.
std::string laid_out_json(const nlohmann::ordered_json& value);

struct ExportOptions {
    bool force = false;  // overwrite files that exist (else nothing is written when one does)
    bool npy = false;    // also OUT_npy/NAME.npy, one a tensor, for readers with numpy alone
};

// Writes OUT.safetensors (the weights under Hugging Face's LLaMA names, [out, in], float64, and
// the input as "input" [1, T, C]), config.json (a LlamaConfig) and OUT.case.json (the case
// reading them back, in half layout) into OUT's folder. Interleaved cases get q_proj and k_proj
// rows permuted within each head, as Meta's checkpoints are converted, so rotate_half computes
// the same block. Returns the files written; refuses, naming it, a file that exists unless
// options.force.
std::vector<std::filesystem::path> export_case(const std::filesystem::path& case_file, const std::filesystem::path& out,
                                               const ExportOptions& options = {});

}  // namespace blockcheck
