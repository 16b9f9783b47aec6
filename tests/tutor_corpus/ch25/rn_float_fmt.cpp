// 25.2 in float with printf.
#include "blockcheck.hpp"
#include <cstdio>
using namespace bc;

static void print_vec(const char* name, float a, float b) { std::printf("%s = [%.7f, %.7f]\n", name, a, b); }

int main() {
    std::vector<double> row = input_vector("row");
    float s = (float)input_number("shift");
    float x0 = (float)row[0], x1 = (float)row[1];
    float ms = (x0 * x0 + x1 * x1) / 2.0f;
    float r = sqrtf(ms);
    std::printf("mean_square = %.7f\n", ms);
    std::printf("root_mean_square = %.7f\n", r);
    print_vec("rms_norm", x0 / r, x1 / r);
    float y0 = x0 + s, y1 = x1 + s;
    float rs = sqrtf((y0 * y0 + y1 * y1) / 2.0f);
    if (rs == 0.0f) std::printf("shifted_rms_norm = undefined\n");
    else print_vec("shifted_rms_norm", y0 / rs, y1 / rs);
    float mu = (x0 + x1) / 2.0f;
    float sd = sqrtf(((x0 - mu) * (x0 - mu) + (x1 - mu) * (x1 - mu)) / 2.0f);
    if (sd == 0.0f) {
        std::printf("layer_norm = undefined\nshifted_layer_norm = undefined\n");
    } else {
        print_vec("layer_norm", (x0 - mu) / sd, (x1 - mu) / sd);
        float mu2 = (y0 + y1) / 2.0f;
        float sd2 = sqrtf(((y0 - mu2) * (y0 - mu2) + (y1 - mu2) * (y1 - mu2)) / 2.0f);
        print_vec("shifted_layer_norm", (y0 - mu2) / sd2, (y1 - mu2) / sd2);
    }
}
