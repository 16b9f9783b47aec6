// rotating_stamp: right, in float with pi to 8 digits
#include "blockcheck.hpp"
#include <cmath>
using namespace bc;

int main() {
    float step = input_number("angle_degrees");
    std::vector<double> positions = input_vector("positions");
    std::vector<double> q0 = input_vector("query"), k0 = input_vector("key");
    float qp = input_number("query_position"), kp = input_number("key_position");
    std::vector<float> angles;
    for (double p : positions) angles.push_back(float(p) * step);
    answer("stamp_angle_degrees", angles);
    answer("relative_angle_degrees", kp * step - qp * step);
    float rad = 3.14159265f / 180.0f;
    float tq = qp * step * rad, tk = kp * step * rad;
    std::vector<float> q = {float(q0[0]) * cosf(tq) - float(q0[1]) * sinf(tq), float(q0[0]) * sinf(tq) + float(q0[1]) * cosf(tq)};
    std::vector<float> k = {float(k0[0]) * cosf(tk) - float(k0[1]) * sinf(tk), float(k0[0]) * sinf(tk) + float(k0[1]) * cosf(tk)};
    answer("rope_query", q);
    answer("rope_key", k);
    answer("dot", q[0] * k[0] + q[1] * k[1]);
}
