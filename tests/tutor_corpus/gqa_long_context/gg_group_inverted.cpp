// gqa_groups: group size as kv_heads / query_heads in floating point, heads_per_group printed as that fraction
#include "blockcheck.hpp"
using namespace bc;

int main() {
    long query_heads = input_integer("query_heads");
    long kv_heads = input_integer("kv_heads");
    std::vector<double> look_up = input_vector("query_heads_to_look_up");
    long query_head = input_integer("query_head");

    double ratio = double(kv_heads) / query_heads;
    long group = query_heads / kv_heads;
    answer("heads_per_group", ratio);

    std::vector<double> kv_of;
    for (double h : look_up) {
        long kv = long(h) / group;
        kv_of.push_back(kv);
    }
    answer("kv_head_of_query", kv_of);

    long mine = query_head / group;
    std::vector<double> sharing;
    for (long h = 0; h < query_heads; ++h)
        if (h / group == mine) sharing.push_back(h);
    answer("query_heads_sharing", sharing);
}
