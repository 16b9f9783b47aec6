// gqa_groups: lists the group as heads g*group .. (g+1)*group inclusive (one head too many)
#include "blockcheck.hpp"
using namespace bc;

int main() {
    long query_heads = input_integer("query_heads");
    long kv_heads = input_integer("kv_heads");
    std::vector<double> look_up = input_vector("query_heads_to_look_up");
    long query_head = input_integer("query_head");

    long group = query_heads / kv_heads;
    answer("heads_per_group", group);

    std::vector<double> kv_of;
    for (double h : look_up) {
        long kv = long(h) / group;
        kv_of.push_back(kv);
    }
    answer("kv_head_of_query", kv_of);

    long mine = query_head / group;
    std::vector<double> sharing;
    for (long h = mine * group; h <= (mine + 1) * group; ++h) sharing.push_back(h);
    answer("query_heads_sharing", sharing);
}
