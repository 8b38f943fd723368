// A tiny program the emulator check runs under Wine: "print" writes two lines (CRLF in text mode),
// "exit N" returns N, "crash" writes through a null pointer.
#include <cstdio>
#include <cstdlib>
#include <cstring>

int main(int argc, char** argv) {
    if (argc >= 2 && std::strcmp(argv[1], "print") == 0) {
        std::printf("alpha\nbeta\n");
        return 0;
    }
    if (argc >= 3 && std::strcmp(argv[1], "exit") == 0) return std::atoi(argv[2]);
    if (argc >= 2 && std::strcmp(argv[1], "crash") == 0) {
        int volatile* volatile p = nullptr; // volatile store: the compiler must emit it
        *p = 42;
        return 0;
    }
    std::fprintf(stderr, "usage: emulator_probe print | exit N | crash\n");
    return 2;
}
