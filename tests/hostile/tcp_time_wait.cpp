// Two colluding programs passing a value through the network namespace they share: "send PORT"
// on stdin connects to 127.0.0.1:PORT (its own listener) and closes first, which leaves a
// TIME_WAIT entry for 60 s after the program ends; "receive" prints every port in
// /proc/net/tcp and /proc/net/tcp6 as "seen PORT". With a namespace of its own per program the
// receiver sees none of the sender's.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <set>
#include <string>

namespace {

int send_port(int port) {
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<unsigned short>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    const int listener = socket(AF_INET, SOCK_STREAM, 0);
    const int yes = 1;
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    if (bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 || listen(listener, 1) != 0) {
        std::puts("listen failed");
        return 0;
    }
    const int client = socket(AF_INET, SOCK_STREAM, 0);
    if (connect(client, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
        std::puts("connect failed");
        return 0;
    }
    const int server = accept(listener, nullptr, nullptr);
    close(client);  // the active close: the client's end waits in TIME_WAIT
    usleep(20000);
    close(server);
    close(listener);
    usleep(20000);
    std::printf("sent %d\n", port);
    return 0;
}

void receive() {
    std::set<unsigned> ports;
    for (const char* table : {"/proc/net/tcp", "/proc/net/tcp6"}) {
        std::ifstream in(table);
        std::string line;
        std::getline(in, line);  // the header
        while (std::getline(in, line)) {
            unsigned local = 0, remote = 0;
            char local_ip[64] = {}, remote_ip[64] = {};
            if (std::sscanf(line.c_str(), " %*d: %63[0-9A-Fa-f]:%x %63[0-9A-Fa-f]:%x", local_ip, &local, remote_ip,
                            &remote) == 4) {
                ports.insert(local);
                ports.insert(remote);
            }
        }
    }
    for (unsigned port : ports) std::printf("seen %u\n", port);
    std::printf("ports %zu\n", ports.size());
}

}  // namespace

int main() {
    std::string word;
    int port = 0;
    std::cin >> word >> port;
    if (word == "send") return send_port(port);
    receive();
}
