// Table 25.1 in float, printed by hand.
#include "blockcheck.hpp"
#include <cstdio>
using namespace bc;

int main() {
    std::vector<double> q = input_vector("query");
    std::vector<double> k = input_vector("key");
    float deg = (float)input_number("angle_degrees");
    std::vector<double> qp = input_vector("query_positions");
    std::vector<double> kp = input_vector("key_positions");
    const float pi = 3.14159265358979f;
    int n = (int)qp.size();
    float RQ[16][2], RK[16][2], D[16];
    for (int i = 0; i < n; i++) {
        float tq = (float)qp[i] * deg * pi / 180.0f;
        float tk = (float)kp[i] * deg * pi / 180.0f;
        RQ[i][0] = (float)q[0] * cosf(tq) - (float)q[1] * sinf(tq);
        RQ[i][1] = (float)q[0] * sinf(tq) + (float)q[1] * cosf(tq);
        RK[i][0] = (float)k[0] * cosf(tk) - (float)k[1] * sinf(tk);
        RK[i][1] = (float)k[0] * sinf(tk) + (float)k[1] * cosf(tk);
        D[i] = RQ[i][0] * RK[i][0] + RQ[i][1] * RK[i][1];
    }
    printf("rope_query = [");
    for (int i = 0; i < n; i++) printf("%s[%.7f, %.7f]", i ? ", " : "", RQ[i][0], RQ[i][1]);
    printf("]\nrope_key = [");
    for (int i = 0; i < n; i++) printf("%s[%.7f, %.7f]", i ? ", " : "", RK[i][0], RK[i][1]);
    printf("]\ndot = [");
    for (int i = 0; i < n; i++) printf("%s%.7f", i ? ", " : "", D[i]);
    printf("]\n");
}
