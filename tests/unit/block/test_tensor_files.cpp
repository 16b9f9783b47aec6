// .npy and .safetensors round-trip exactly; crafted files are refused before any allocation;
// a case reads the same from JSON and from its exported safetensors.
#include "checker/block/block_case_files.hpp"
#include "checker/block/tensor_files.hpp"
#include "temp_dir.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <fstream>

using namespace blockcheck;
using namespace blockcheck::testing;

namespace {

Tensor sample(DType dtype) {
    Tensor t{dtype, {3, 4}, {}};
    for (int i = 0; i < 12; ++i) t.values.push_back(round_to(std::ldexp(1.0 + i / 7.0, i - 6) * (i % 2 ? -1 : 1), dtype));
    return t;
}

void write(const std::filesystem::path& file, const std::string& bytes) {
    std::ofstream(file, std::ios::binary) << bytes;
}

// A safetensors file: the header's length (under 256 here), the header, `data` zero bytes.
std::string safetensors_bytes(const std::string& header, std::size_t data) {
    std::string bytes(8, '\0');
    bytes[0] = static_cast<char>(header.size());
    return bytes + header + std::string(data, '\0');
}

// A version 1.0 .npy file: the magic, the header dictionary padded to 118 bytes plus '\n', `data`.
std::string npy_bytes(const std::string& dictionary, const std::string& data) {
    std::string header = dictionary + std::string(118 - dictionary.size(), ' ') + "\n";
    return std::string("\x93NUMPY\x01\x00", 8) + std::string(1, char(header.size())) + '\0' + header + data;
}

std::string doubles(const std::vector<double>& values) {
    return std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(double));
}

}  // namespace

TEST_CASE(".npy round-trips float64 and float32 exactly") {
    TempDir dir("npy");
    for (DType dtype : {DType::float64, DType::float32}) {
        const Tensor t = sample(dtype);
        write_npy(dir.path / "a.npy", t);
        const Tensor back = read_npy(dir.path / "a.npy");
        CHECK(back.dtype == dtype);
        CHECK(back.shape == t.shape);
        CHECK(back.values == t.values);
    }
}

TEST_CASE("safetensors round-trips float64, float32 and bfloat16 exactly") {
    TempDir dir("st");
    NamedTensors tensors = {{"output", sample(DType::float64)}, {"N", sample(DType::float32)},
                            {"hidden", sample(DType::bfloat16)}};
    write_safetensors(dir.path / "a.safetensors", tensors, {{"format", "pt"}});
    const NamedTensors back = read_safetensors(dir.path / "a.safetensors");
    REQUIRE(back.size() == 3);
    for (std::size_t i = 0; i < 3; ++i) {
        CHECK(back[i].first == tensors[i].first);
        CHECK(back[i].second.dtype == tensors[i].second.dtype);
        CHECK(back[i].second.shape == tensors[i].second.shape);
        CHECK(back[i].second.values == tensors[i].second.values);
    }
}

TEST_CASE("rounding to bfloat16 and float16 keeps 8 and 11 significant bits, ties to even") {
    CHECK(round_to(1.0 + std::ldexp(1.0, -8), DType::bfloat16) == 1.0);  // a tie: to even
    CHECK(round_to(1.0 + 3 * std::ldexp(1.0, -8), DType::bfloat16) == 1.0 + std::ldexp(1.0, -6));
    CHECK(round_to(1.0 + std::ldexp(1.0, -11), DType::float16) == 1.0);
    CHECK(round_to(-3.0, DType::bfloat16) == -3.0);
}

TEST_CASE("crafted tensor files are refused naming the file") {
    TempDir dir("crafted");
    const auto file = dir.path / "x.safetensors";
    SUBCASE("a header length beyond the file") {
        write(file, std::string("\xff\xff\xff\xff\xff\xff\xff\x7f{}", 10));
        CHECK_THROWS_WITH(read_safetensors(file), doctest::Contains("does not fit the file"));
    }
    SUBCASE("a shape asking for more than the data") {
        write(file, safetensors_bytes(
                        R"({"output":{"dtype":"F32","shape":[4294967296,4294967296],"data_offsets":[0,16]}})", 16));
        CHECK_THROWS_WITH(read_safetensors(file), doctest::Contains("output"));
    }
    SUBCASE("offsets outside the data") {
        write(file, safetensors_bytes(R"({"output":{"dtype":"F32","shape":[2],"data_offsets":[0,800]}})", 8));
        CHECK_THROWS_WITH(read_safetensors(file), doctest::Contains("outside the 8 bytes of data"));
    }
    SUBCASE("a .npy header promising 2^60 elements") {
        std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (1152921504606846976,), }";
        header += std::string(118 - header.size(), ' ') + "\n";
        std::string bytes = std::string("\x93NUMPY\x01\x00", 8) + std::string(1, char(header.size())) + '\0' + header;
        write(dir.path / "x.npy", bytes + std::string(16, '\0'));
        CHECK_THROWS_WITH(read_npy(dir.path / "x.npy"), doctest::Contains("more elements than the file holds"));
    }
    SUBCASE("a .npy header length beyond the file") {
        write(dir.path / "x.npy", std::string("\x93NUMPY\x02\x00\xff\xff\xff\xff{", 13));
        CHECK_THROWS_WITH(read_npy(dir.path / "x.npy"), doctest::Contains("longer than the file"));
    }
    SUBCASE("a .npy of integers: int64 and int32 read exactly (position_ids), others refused") {
        auto integers = [&](const std::string& descr, const std::string& data) {
            std::string header = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (2,), }";
            header += std::string(118 - header.size(), ' ') + "\n";
            write(dir.path / "x.npy", std::string("\x93NUMPY\x01\x00", 8) + std::string(1, char(header.size())) +
                                          '\0' + header + data);
        };
        integers("<i8", std::string("\x07\0\0\0\0\0\0\0\x00\x01\0\0\0\0\0\0", 16));
        CHECK(read_npy(dir.path / "x.npy").values == std::vector<double>{7, 256});
        integers("<i4", std::string("\xff\xff\xff\xff\x05\0\0\0", 8));
        CHECK(read_npy(dir.path / "x.npy").values == std::vector<double>{-1, 5});
        integers("<i8", std::string("\0\0\0\0\0\0\x40\0\x00\x01\0\0\0\0\0\0", 16));
        CHECK_THROWS_WITH(read_npy(dir.path / "x.npy"), doctest::Contains("x.npy: the integer 18014398509481984 is beyond 2^53"));
        integers("<u8", std::string(16, '\0'));
        CHECK_THROWS_WITH(read_npy(dir.path / "x.npy"), doctest::Contains("dtype '<u8' is not supported"));
    }
}

TEST_CASE(".npy in Fortran order and as a scalar reads back in C order") {
    TempDir dir("npy_order");
    const auto file = dir.path / "x.npy";
    SUBCASE("Fortran order: the columns are stored one after the other") {
        // [[1, 2, 3], [4, 5, 6]] stored column-major: 1 4 2 5 3 6
        write(file, npy_bytes("{'descr': '<f8', 'fortran_order': True, 'shape': (2, 3), }", doubles({1, 4, 2, 5, 3, 6})));
        const Tensor t = read_npy(file);
        CHECK(t.shape == std::vector<std::size_t>{2, 3});
        CHECK(t.values == std::vector<double>{1, 2, 3, 4, 5, 6});
    }
    SUBCASE("three axes in Fortran order") {
        // element (i, j, k) of shape (2, 2, 2) is 100 i + 10 j + k, stored with i fastest
        write(file, npy_bytes("{'descr': '<f8', 'fortran_order': True, 'shape': (2, 2, 2), }",
                              doubles({0, 100, 10, 110, 1, 101, 11, 111})));
        CHECK(read_npy(file).values == std::vector<double>{0, 1, 10, 11, 100, 101, 110, 111});
    }
    SUBCASE("a scalar has the shape ()") {
        write(file, npy_bytes("{'descr': '<f8', 'fortran_order': False, 'shape': (), }", doubles({2.5})));
        const Tensor t = read_npy(file);
        CHECK(t.shape.empty());
        CHECK(t.values == std::vector<double>{2.5});
    }
}

TEST_CASE("a malformed .npy header is refused naming the file and the field") {
    TempDir dir("npy_header");
    const auto file = dir.path / "x.npy";
    const std::string name = file.string();
    auto refusal = [&](const std::string& dictionary) {
        write(file, npy_bytes(dictionary, doubles({1, 2})));
        try {
            read_npy(file);
        } catch (const InputFileError& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    CHECK(refusal("{'descr': 'f8', 'fortran_order': False, 'shape': (2,), }") ==
          name + ": descr: 'f8' is not a numpy type such as '<f8'");
    CHECK(refusal("{'descr': '<f8', 'fortran_order': Maybe, 'shape': (2,), }") ==
          name + ": fortran_order: expected True or False, found 'Maybe'");
    CHECK(refusal("{'descr': '<f8', 'fortran_order': False, 'shape': (2, x), }") ==
          name + ": shape: 'x' is not an extent");
    CHECK(refusal("{'descr': '<f8', 'fortran_order': False, 'shape': (2,,), }") == name + ": shape: '' is not an extent");
    CHECK(refusal("{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999999999999,), }") ==
          name + ": shape: '99999999999999999999' is not an extent");
    CHECK(refusal("{'fortran_order': False, 'descr': '<f8', 'shape': (2,), }").starts_with(
        name + ": the .npy header is not in numpy's form"));
    CHECK(refusal("{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }") == "accepted");
    write(file, std::string("\x93NUMPX\x01\x00\x00\x00", 10));
    CHECK_THROWS_WITH(read_npy(file), (name + ": not a .npy file").c_str());
    write(file, std::string("\x93NUMPY\x04\x00\x00\x00", 10));
    CHECK_THROWS_WITH(read_npy(file), (name + ": .npy version 4.0 is not supported").c_str());
}

TEST_CASE("a case exported to safetensors reads back to the same block, in Hugging Face's half layout") {
    TempDir dir("export");
    for (const char* name : {"modern-small.json", "long-yarn.json"}) {
        CAPTURE(name);
        const std::filesystem::path source = std::string(BLOCKCHECK_SOURCE_DIR) + "/data/cases/" + name;
        const auto written = export_case(source, dir.path / "layer.safetensors", {.force = true});
        REQUIRE(written.size() == 3);
        const BlockCase<Mpfr50> a = read_case_file<Mpfr50>(source);
        const BlockCase<Mpfr50> b = read_case_file<Mpfr50>(dir.path / "layer.case.json");
        CHECK(b.config.rope_layout == RopeLayout::half);
        // q and k: each head's columns in half order, pair i's coordinates at i and i + d/2.
        const std::size_t d = a.config.head_dim;
        for (std::size_t i = 0; i < d / 2; ++i) {
            const auto [x, y] = rope_pair(a.config.rope_layout, i, d);
            CHECK(a.weights.q(0, x) == b.weights.q(0, i));
            CHECK(a.weights.k(1, d + y) == b.weights.k(1, d + i + d / 2));
        }
        CHECK(a.weights.down.values == b.weights.down.values);
        CHECK(a.weights.attn_norm == b.weights.attn_norm);
        CHECK(a.input.values == b.input.values);
        const Matrix<Mpfr50> ya = block_case_forward(a), yb = block_case_forward(b);
        for (std::size_t i = 0; i < ya.values.size(); ++i)  // the same sums in another order: 50 digits alike
            CHECK(abs(ya.values[i] - yb.values[i]) < Mpfr50("1e-45"));
        const auto config = read_json_exact(dir.path / "config.json");
        CHECK(config["model_type"] == "llama");
        CHECK(config["num_key_value_heads"] == a.config.kv_heads);
        // Hugging Face's q_proj is [out, in].
        const NamedTensors tensors = read_safetensors(dir.path / "layer.safetensors");
        CHECK(tensors[1].first == "self_attn.q_proj.weight");
        CHECK(tensors[1].second.shape == std::vector<std::size_t>{a.weights.q.cols, a.weights.q.rows});
    }
    // Nothing is overwritten unless asked, and nothing is written when one file exists.
    TempDir fresh("export-fresh");
    std::ofstream(fresh.path / "config.json") << "{}";
    const std::filesystem::path source = std::string(BLOCKCHECK_SOURCE_DIR) + "/data/cases/modern-small.json";
    CHECK_THROWS_WITH(export_case(source, fresh.path / "layer.safetensors"),
                      doctest::Contains(((fresh.path / "config.json").string() + ": already exists; give --force").c_str()));
    CHECK_FALSE(std::filesystem::exists(fresh.path / "layer.safetensors"));
    const auto npy = export_case(source, fresh.path / "layer.safetensors", {.force = true, .npy = true});
    REQUIRE(npy.size() == 4);
    CHECK(read_npy(npy[3] / "self_attn.q_proj.weight.npy").shape == std::vector<std::size_t>{12, 12});
    CHECK(read_npy(npy[3] / "input.npy").shape == std::vector<std::size_t>{1, 4, 12});
}
