// The house's layers, read from its #include "..." lines: base/ includes only itself;
// solutions/ only base/ and itself; the student side (data/release/product.txt) only base/
// and itself; chapters/ only itself; bench/ stands on the course side, which never includes it,
// and only the full edition's main registers it; no circle between the rooms of checker/, and no
// folder of checker/ over twenty files.
#include "base/errors.hpp"
#include "checker/course/product_list.hpp"
#include "temp_dir.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

using namespace blockcheck;
namespace fs = std::filesystem;

namespace {

const fs::path source_dir = BLOCKCHECK_SOURCE_DIR;

// Room edges the circle check does not count, as (from room, to room): none since grade/ (now batch/) stopped
// including platforms/. An entry added here must name a real include (the test fails otherwise).
const std::set<std::pair<std::string, std::string>> known_room_circles = {};

// Files the build writes (CMakeLists.txt, into build/generated/) that a source may include: the
// mistake catalogue's text, data/mistakes.json compiled in.
const std::set<std::string> generated_includes = {"mistakes_json.inc"};

struct Include {
    std::string file;    // the including file, relative to the repository
    int line = 0;
    std::string target;  // the included file, relative to the repository; the text as written if none
    bool found = false;  // the target is a file of the repository

    std::string where() const { return file + ":" + std::to_string(line); }
};

bool under(const std::string& path, const std::string& folder) {
    return path == folder || path.rfind(folder + "/", 0) == 0;
}

// The quoted includes of one file, found beside it or from the repository's top; lines inside a
// raw string literal (a template a command writes) are text, not includes.
std::vector<Include> includes_of(const fs::path& root, const std::string& file) {
    static const std::regex include_line(R"(^\s*#\s*include\s*"([^"]+)\")");
    static const std::regex raw_open(R"re(R"([^(\s]*)\()re");
    std::ifstream in(root / file);
    std::vector<Include> found;
    std::string text, raw_close;  // raw_close: ")delimiter\"" while inside a raw string
    for (int number = 1; std::getline(in, text); ++number) {
        std::size_t from = 0;
        if (!raw_close.empty()) {
            const std::size_t end = text.find(raw_close);
            if (end == std::string::npos) continue;
            from = end + raw_close.size();
            raw_close.clear();
        } else if (std::smatch m; std::regex_search(text, m, include_line)) {
            const std::string name = m[1];
            Include inc{file, number, name, false};
            // Student programs are compiled with chapters/ on the include path (blockcheck.hpp).
            const fs::path top = under(file, "chapters") ? fs::path("chapters") : fs::path();
            for (const fs::path& base : {fs::path(file).parent_path(), top}) {
                const fs::path candidate = (base / name).lexically_normal();
                if (fs::is_regular_file(root / candidate)) {
                    inc.target = candidate.generic_string();
                    inc.found = true;
                    break;
                }
            }
            found.push_back(inc);
            continue;
        }
        // A raw string opened on this line and not closed on it.
        for (std::smatch m; std::regex_search(text.cbegin() + static_cast<std::ptrdiff_t>(from), text.cend(), m, raw_open);) {
            const std::string close = ")" + m[1].str() + "\"";
            const std::size_t open_end = from + static_cast<std::size_t>(m.position(0) + m.length(0));
            const std::size_t end = text.find(close, open_end);
            if (end == std::string::npos) {
                raw_close = close;
                break;
            }
            from = end + close.size();
        }
    }
    return found;
}

// Every include of every C++ file under the folders the layers speak of.
std::vector<Include> tree_includes(const fs::path& root) {
    std::vector<std::string> files;
    for (const char* top : {"base", "solutions", "checker", "chapters", "bench"}) {
        if (!fs::is_directory(root / top)) continue;
        for (const auto& entry : fs::recursive_directory_iterator(root / top)) {
            const std::string ext = entry.path().extension().string();
            if (entry.is_regular_file() && (ext == ".cpp" || ext == ".hpp" || ext == ".h"))
                files.push_back(fs::relative(entry.path(), root).generic_string());
        }
    }
    std::sort(files.begin(), files.end());
    std::vector<Include> all;
    for (const std::string& file : files)
        for (Include& inc : includes_of(root, file)) all.push_back(std::move(inc));
    return all;
}

// The full edition's main: it registers both sides' commands and the benchmarks'.
const std::string full_edition_main = "checker/main.cpp";

// The layer a file belongs to: base, solutions, chapters, bench, student, course, edition (the full
// edition's main), or other.
std::string layer_of(const std::string& path, const std::vector<std::string>& student_side) {
    if (path == full_edition_main) return "edition";
    for (const char* top : {"base", "solutions", "chapters", "bench"})
        if (under(path, top)) return top;
    for (const std::string& folder : student_side)
        if (under(path, folder)) return "student";
    return under(path, "checker") ? "course" : "other";
}

// The student side's source paths (the `both` entries of kind `sources` and `main` of
// data/release/product.txt).
std::vector<std::string> student_side_sources(const fs::path& root) {
    std::vector<std::string> paths;
    for (const ProductEntry& entry : read_product_list(root))
        if (entry.edition == "both" && (entry.kind == "sources" || entry.kind == "main")) paths.push_back(entry.path);
    return paths;
}

// One message per include that goes up or across a layer, naming the file and line.
std::vector<std::string> layer_violations(const std::vector<Include>& includes,
                                          const std::vector<std::string>& student_side) {
    static const std::map<std::string, std::set<std::string>> may_include = {
        {"base", {"base"}},
        {"solutions", {"base", "solutions"}},
        {"chapters", {"chapters"}},
        {"student", {"base", "student"}},
        {"course", {"base", "solutions", "student", "course"}},
        {"bench", {"base", "solutions", "student", "course", "bench"}},
        {"edition", {"base", "solutions", "student", "course", "bench"}},
    };
    std::vector<std::string> messages;
    for (const Include& inc : includes) {
        if (!inc.found && generated_includes.count(inc.target)) continue;
        if (!inc.found) {
            messages.push_back(inc.where() + ": includes \"" + inc.target + "\", which is no file of the repository");
            continue;
        }
        const std::string from = layer_of(inc.file, student_side), to = layer_of(inc.target, student_side);
        if (!may_include.at(from).count(to))
            messages.push_back(inc.where() + ": includes " + inc.target + ": the " + from + " layer may not include the " +
                               to + " layer");
    }
    return messages;
}

// checker/<room>/... -> room; "" for files outside the rooms.
std::string room_of(const std::string& path) {
    const fs::path p(path);
    auto part = p.begin();
    if (part == p.end() || *part != "checker" || std::distance(p.begin(), p.end()) < 3) return "";
    return (++part)->string();
}

using RoomEdges = std::map<std::string, std::map<std::string, Include>>;  // from -> to -> first include

RoomEdges room_edges(const std::vector<Include>& includes) {
    RoomEdges edges;
    for (const Include& inc : includes) {
        const std::string from = room_of(inc.file), to = inc.found ? room_of(inc.target) : "";
        if (!from.empty() && !to.empty() && from != to) edges[from].emplace(to, inc);
    }
    return edges;
}

// A path of rooms from `from` to `to` through `edges`, empty when there is none.
std::vector<std::string> room_path(const RoomEdges& edges, const std::string& from, const std::string& to) {
    std::map<std::string, std::string> previous{{from, ""}};
    std::vector<std::string> queue{from};
    for (std::size_t i = 0; i < queue.size(); ++i) {
        auto out = edges.find(queue[i]);
        if (out == edges.end()) continue;
        for (const auto& [next, inc] : out->second) {
            if (previous.count(next)) continue;
            previous[next] = queue[i];
            if (next == to) {
                std::vector<std::string> path{to};
                while (path.back() != from) path.push_back(previous[path.back()]);
                std::reverse(path.begin(), path.end());
                return path;
            }
            queue.push_back(next);
        }
    }
    return {};
}

// One message per room edge that lies on a circle (the known ones left out), naming the include
// that makes the edge and the way back.
std::vector<std::string> room_circles(const std::vector<Include>& includes,
                                      const std::set<std::pair<std::string, std::string>>& known) {
    RoomEdges edges = room_edges(includes);
    for (const auto& [from, to] : known)
        if (edges.count(from)) edges[from].erase(to);
    std::vector<std::string> messages;
    for (const auto& [from, out] : edges)
        for (const auto& [to, inc] : out) {
            const std::vector<std::string> back = room_path(edges, to, from);
            if (back.empty()) continue;
            std::string way;
            for (const std::string& room : back) way += (way.empty() ? "" : " -> ") + room;
            messages.push_back(inc.where() + ": includes " + inc.target + ", and " + way + " leads back: a circle between " +
                               "rooms " + from + " and " + to);
        }
    return messages;
}

// The most files a folder of checker/ may hold (its detail/ folder counted apart).
constexpr std::size_t max_room_files = 20;

// One message per folder under `root`/checker holding more than max_room_files files.
std::vector<std::string> crowded_rooms(const fs::path& root) {
    std::map<std::string, std::size_t> files;
    for (const auto& entry : fs::recursive_directory_iterator(root / "checker"))
        if (entry.is_regular_file()) ++files[fs::relative(entry.path().parent_path(), root).generic_string()];
    std::vector<std::string> messages;
    for (const auto& [folder, count] : files)
        if (folder != "checker" && count > max_room_files)
            messages.push_back(folder + ": " + std::to_string(count) + " files, more than " + std::to_string(max_room_files) +
                               ": split it into rooms, or its machinery into detail/");
    return messages;
}

std::string joined(const std::vector<std::string>& lines) {
    std::string text;
    for (const std::string& line : lines) text += line + "\n";
    return text;
}

void write(const fs::path& file, const std::string& text) {
    fs::create_directories(file.parent_path());
    std::ofstream(file) << text;
}

}  // namespace

TEST_CASE("the tree's includes keep the layers") {
    const std::vector<Include> includes = tree_includes(source_dir);
    // The reading finds the includes there are (not an empty list that passes by itself).
    CHECK(includes.size() > 300);
    CHECK(std::any_of(includes.begin(), includes.end(), [](const Include& inc) {
        return inc.file == "solutions/block/block.hpp" && inc.target == "solutions/block/rope.hpp";
    }));
    const std::vector<std::string> messages = layer_violations(includes, student_side_sources(source_dir));
    INFO(joined(messages));
    CHECK(messages.empty());
}

TEST_CASE("no circle between the rooms of checker/ but the known ones, which are still there") {
    const std::vector<Include> includes = tree_includes(source_dir);
    const std::vector<std::string> messages = room_circles(includes, known_room_circles);
    INFO(joined(messages));
    CHECK(messages.empty());
    const RoomEdges edges = room_edges(includes);
    for (const auto& [from, to] : known_room_circles) {
        INFO("known_room_circles holds " << from << " -> " << to << ", which no include makes any more: remove it");
        CHECK((edges.count(from) && edges.at(from).count(to)));
    }
}

TEST_CASE("no folder of checker/ holds more than twenty files") {
    const std::vector<std::string> messages = crowded_rooms(source_dir);
    INFO(joined(messages));
    CHECK(messages.empty());
}

TEST_CASE("a folder of checker/ with twenty-one files is named, a detail/ folder counted apart") {
    testing::TempDir dir("rooms");
    for (int i = 0; i < 21; ++i) write(dir.path / "checker/big" / ("f" + std::to_string(i) + ".cpp"), "\n");
    for (int i = 0; i < 20; ++i) write(dir.path / "checker/fits" / ("f" + std::to_string(i) + ".cpp"), "\n");
    for (int i = 0; i < 20; ++i) write(dir.path / "checker/fits/detail" / ("g" + std::to_string(i) + ".cpp"), "\n");
    for (int i = 0; i < 21; ++i) write(dir.path / "checker" / ("main" + std::to_string(i) + ".cpp"), "\n");
    CHECK(crowded_rooms(dir.path) == std::vector<std::string>{
        "checker/big: 21 files, more than 20: split it into rooms, or its machinery into detail/"});
}

TEST_CASE("the layer checks name the file and line of each offending include") {
    testing::TempDir dir("layers");
    const fs::path& root = dir.path;
    write(root / "data/release/product.txt", "# the student side\nboth sources  base\nboth sources  checker/common\n"
                                             "both main     checker/student_main.cpp\nfull build checker\n");
    write(root / "base/low.hpp", "#pragma once\n#include <string>\n#include \"checker/common/mid.hpp\"\n");
    write(root / "checker/common/mid.hpp", "#pragma once\n#include \"base/low.hpp\"\n#include \"checker/grade/high.hpp\"\n");
    write(root / "checker/student_main.cpp", "#include \"checker/common/mid.hpp\"\n");
    write(root / "solutions/ref.hpp", "#include \"base/low.hpp\"\n  #  include \"checker/common/mid.hpp\"\n");
    write(root / "checker/grade/high.hpp", "#include \"checker/block/top.hpp\"\n#include \"solutions/ref.hpp\"\n");
    write(root / "checker/block/top.hpp", "#include \"../grade/high.hpp\"\n#include \"missing.hpp\"\n");
    // A template a command writes: its include lines are text.
    write(root / "checker/course/new.cpp", "auto text = R\"x(\n#include \"solutions/ref.hpp\"\n)x\";\n"
                                           "auto other = fmt::format(R\"(one)\", R\"(two\n#include \"chapters/a.hpp\"\n)\");\n"
                                           "#include \"checker/common/mid.hpp\"\n");
    write(root / "chapters/a.cpp", "#include \"b.hpp\"\n#include \"base/low.hpp\"\n");
    write(root / "chapters/b.hpp", "\n");

    const std::vector<Include> includes = tree_includes(root);
    CHECK(includes.size() == 13);
    const std::vector<std::string> layers = layer_violations(includes, student_side_sources(root));
    CHECK(layers == std::vector<std::string>{
        "base/low.hpp:3: includes checker/common/mid.hpp: the base layer may not include the student layer",
        "chapters/a.cpp:2: includes \"base/low.hpp\", which is no file of the repository",
        "checker/block/top.hpp:2: includes \"missing.hpp\", which is no file of the repository",
        "checker/common/mid.hpp:3: includes checker/grade/high.hpp: the student layer may not include the course layer",
        "solutions/ref.hpp:2: includes checker/common/mid.hpp: the solutions layer may not include the student layer",
    });

    const std::vector<std::string> circles = room_circles(includes, {});
    CHECK(circles == std::vector<std::string>{
        "checker/block/top.hpp:1: includes checker/grade/high.hpp, and grade -> block leads back: a circle between rooms "
        "block and grade",
        "checker/grade/high.hpp:1: includes checker/block/top.hpp, and block -> grade leads back: a circle between rooms "
        "grade and block",
    });
    CHECK(room_circles(includes, {{"grade", "block"}}).empty());
}

TEST_CASE("the product list: its entries, and a bad line named by file and line") {
    const std::vector<ProductEntry> entries = read_product_list(source_dir);
    CHECK(std::any_of(entries.begin(), entries.end(), [](const ProductEntry& e) {
        return e.edition == "both" && e.kind == "main" && e.path == "checker/student_main.cpp";
    }));
    // What the student edition carries: nothing of the solutions, the benchmarks or the course side.
    CHECK(std::none_of(entries.begin(), entries.end(), [](const ProductEntry& e) {
        return in_edition(e, "student") &&
               (under(e.path, "solutions") || under(e.path, "bench") || under(e.path, "checker/course") ||
                under(e.path, "checker/batch") || under(e.path, "checker/outputs") || under(e.path, "checker/insight"));
    }));

    testing::TempDir dir("product-list");
    const fs::path list = dir.path / "data/release/product.txt";
    write(list, "# comment\nboth sources  data\nboth library  checker\n");
    CHECK_THROWS_WITH_AS(read_product_list(dir.path),
                         (list.string() + ":3: expected `both|full|student sources|main|build|data|templates PATH`, got "
                                          "'both library  checker'").c_str(),
                         InputFileError);
    write(list, "sources  data\n");
    CHECK_THROWS_WITH_AS(read_product_list(dir.path),
                         (list.string() + ":1: expected `both|full|student sources|main|build|data|templates PATH`, got "
                                          "'sources  data'").c_str(),
                         InputFileError);
    write(list, "full data  chapters\n");
    CHECK_THROWS_WITH_AS(read_product_list(dir.path), (list.string() + ":1: chapters: no such file or folder").c_str(),
                         InputFileError);
}
