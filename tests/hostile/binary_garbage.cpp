// Prints binary garbage on stdout: NUL bytes, invalid UTF-8, control characters, text that
// breaks naive XML, CSV and JSON writers, and answer-shaped lines whose values are garbage. The
// grader must classify it (unparseable / missing) and still write well-formed output files.
#include <cstdio>

int main() {
    const unsigned char noise[] = {0x00, 0xff, 0xfe, 0xc0, 0x80, 0x1b, '[', '3', '1', 'm', 0x07, 0x08, 0x0c, 0xed, 0xa0, 0x80, '\n'};
    for (int i = 0; i < 64; ++i) std::fwrite(noise, 1, sizeof noise, stdout);
    std::fputs("gate = \x01\x02<not/>&amp;]]>\"',\r\n", stdout);
    std::fputs("up = [1, 2\x00, 3]\n", stdout);
    std::fwrite("silu = [\0\0\0]\n", 1, 14, stdout);
    std::fputs("swiglu_hidden = </testsuite><testsuite name=\"pwned\">\n", stdout);
    std::fputs("swiglu_ffn = \"},{\"score\": 1e9, \"x\": \"\n", stdout);
    std::fputs("\xef\xbf\xbe\xef\xbf\xbf \xf4\x90\x80\x80 = 1\n", stdout);
    return 0;
}
