// Hunts for keys: "plant" adds a key to its session and user keyrings (to be read by a program
// run later); "steal" looks in its session keyring for that key and for the grader's
// "krb5-ticket-of-the-TA", reads what it finds, and lists /proc/keys. Prints what each call did
// ("add_key session ok", "add_key failed: errno N") and "found NAME = PAYLOAD" for each key read.
#include <linux/keyctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>

namespace {

long add(const char* name, const char* payload, long keyring) {
    return syscall(SYS_add_key, "user", name, payload, std::char_traits<char>::length(payload), keyring);
}

void plant() {
    for (long keyring : {long{KEY_SPEC_SESSION_KEYRING}, long{KEY_SPEC_USER_KEYRING}}) {
        const long key = add("blockcheck-left-behind", "left-value-7731", keyring);
        const char* which = keyring == KEY_SPEC_SESSION_KEYRING ? "session" : "user";
        if (key < 0)
            std::printf("add_key %s failed: errno %d\n", which, errno);
        else
            std::printf("add_key %s ok\n", which);
    }
}

void steal_one(const char* name) {
    for (long keyring : {long{KEY_SPEC_SESSION_KEYRING}, long{KEY_SPEC_USER_KEYRING}}) {
        const long key = syscall(SYS_keyctl, KEYCTL_SEARCH, keyring, "user", name, 0);
        if (key < 0) {
            std::printf("search %s failed: errno %d\n", name, errno);
            continue;
        }
        char payload[256] = {};
        const long n = syscall(SYS_keyctl, KEYCTL_READ, key, payload, sizeof payload - 1);
        if (n >= 0) std::printf("found %s = %s\n", name, payload);
    }
}

void steal() {
    steal_one("blockcheck-left-behind");
    steal_one("krb5-ticket-of-the-TA");
    std::ifstream keys("/proc/keys");
    std::string line;
    while (std::getline(keys, line)) std::printf("proc-keys %s\n", line.c_str());
}

}  // namespace

int main() {
    std::string word;
    std::cin >> word;
    if (word == "plant") plant();
    else steal();
}
