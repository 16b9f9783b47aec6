// A student who passes degrees to std::cos and std::sin.
// expect: rope_later_positions rope_query degrees_as_radians
// inputs: book
#include "blockcheck.hpp"
using namespace bc;

int main() {
    std::vector<double> q = input_vector("query"), k = input_vector("key");
    double deg = input_number("angle_degrees");
    long m = input_integer("query_position"), n = input_integer("key_position");

    const double pi = std::acos(-1.0);
    double aq = m * deg, ak = n * deg;  // degrees passed to cos and sin as they are
    (void)pi;
    std::vector<double> rq = {q[0] * std::cos(aq) - q[1] * std::sin(aq), q[0] * std::sin(aq) + q[1] * std::cos(aq)};
    std::vector<double> rk = {k[0] * std::cos(ak) - k[1] * std::sin(ak), k[0] * std::sin(ak) + k[1] * std::cos(ak)};

    answer("rope_query", rq);
    answer("rope_key", rk);
    answer("dot", rq[0] * rk[0] + rq[1] * rk[1]);
    answer("relative_angle_degrees", (n - m) * deg);
    answer("causal_can_use_key", n <= m);  // keys from the future stay masked
}
