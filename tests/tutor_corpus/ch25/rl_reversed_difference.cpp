// Exercise 25.6-1: RoPE at later positions.
#include "blockcheck.hpp"
using namespace bc;

int main() {
    std::vector<double> query = input_vector("query");
    std::vector<double> key = input_vector("key");
    double angle_degrees = input_number("angle_degrees");
    long query_position = input_integer("query_position");
    long key_position = input_integer("key_position");

    const double deg = M_PI / 180.0;
    double aq = query_position * angle_degrees * deg;
    double ak = key_position * angle_degrees * deg;
    std::vector<double> rq = {query[0] * cos(aq) - query[1] * sin(aq), query[0] * sin(aq) + query[1] * cos(aq)};
    std::vector<double> rk = {key[0] * cos(ak) - key[1] * sin(ak), key[0] * sin(ak) + key[1] * cos(ak)};
    answer("rope_query", rq);
    answer("rope_key", rk);
    answer("dot", rq[0] * rk[0] + rq[1] * rk[1]);
    answer("relative_angle_degrees", (query_position - key_position) * angle_degrees);
    answer("causal_can_use_key", key_position <= query_position);
}
