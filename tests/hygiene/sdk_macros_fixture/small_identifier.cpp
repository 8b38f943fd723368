// Self-test of the SDK-macro check (tests/hygiene/CMakeLists.txt): an identifier the SDK defines as an
// object-like macro (rpcndr.h: #define small char). The check must name it.
struct small {
    int value = 0;
};
int main() {
    small s;
    return s.value;
}
