// A tiny program the emulator check runs under Wine: "print" writes two lines (CRLF in text mode),
// "exit N" returns N, "crash" writes through a null pointer, "env NAME" prints the variable NAME of
// the environment the program got (the Wine processes check reads WINEPREFIX, the wrapper's prefix),
// "count FILE" adds a line to FILE and returns 1 writing nothing, "fail" writes a line to stderr and
// returns 1, "lost FILE" adds a line to FILE and, the first time, writes what Wine's loader writes when
// it loses its server and returns 1, later prints "ran" and returns 0 (the wrapper's rerun check: the
// first and the third are run again, the second is not).
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
    if (argc >= 3 && std::strcmp(argv[1], "env") == 0) {
        char const* value = std::getenv(argv[2]);
        if (value == nullptr) return 1;
        std::printf("%s\n", value);
        return 0;
    }
    if (argc >= 3 && std::strcmp(argv[1], "count") == 0) {
        std::FILE* f = std::fopen(argv[2], "a");
        if (f == nullptr) return 3;
        std::fputs("run\n", f);
        std::fclose(f);
        return 1;
    }
    if (argc >= 2 && std::strcmp(argv[1], "fail") == 0) {
        std::fprintf(stderr, "failing\n");
        return 1;
    }
    if (argc >= 3 && std::strcmp(argv[1], "lost") == 0) {
        std::FILE* f = std::fopen(argv[2], "a+");
        if (f == nullptr) return 3;
        std::fseek(f, 0, SEEK_SET); // read from the start, then write at the end (a seek between the two)
        bool const first = std::fgetc(f) == EOF;
        std::fseek(f, 0, SEEK_END);
        std::fputs("run\n", f);
        std::fclose(f);
        if (!first) {
            std::printf("ran\n");
            return 0;
        }
        std::fprintf(stderr, "wine client error:0: recvmsg: Connection reset by peer\n");
        return 1;
    }
    std::fprintf(stderr, "usage: emulator_probe print | exit N | crash | env NAME | count FILE | fail | lost FILE\n");
    return 2;
}
