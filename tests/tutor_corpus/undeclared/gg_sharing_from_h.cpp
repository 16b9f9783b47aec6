// gqa_groups: the heads sharing query_head's K/V head listed from query_head on, group of them
#include "blockcheck.hpp"
using namespace bc;

int main() {
    long heads = input_integer("query_heads"), kv = input_integer("kv_heads");
    std::vector<double> look_up = input_vector("query_heads_to_look_up");
    long h = input_integer("query_head");
    long group = heads / kv;
    std::vector<double> kv_of, sharing;
    for (double q : look_up) kv_of.push_back(double(long(q) / group));
    for (long j = 0; j < group; ++j) sharing.push_back(double(h + j));
    answer("heads_per_group", group);
    answer("kv_head_of_query", kv_of);
    answer("query_heads_sharing", sharing);
}
