// Negative control for the import check: this program imports NtQueryIntervalProfile and
// TraceQueryInformation statically, exactly what etwctl must never make a program do. It is only
// built and inspected, never run (under Wine it would not even start its first call).
#include <windows.h>
#include <evntrace.h>

extern "C" __declspec(dllimport) LONG NTAPI NtQueryIntervalProfile(ULONG source, PULONG interval);

int main(int argc, char**) {
    if (argc > 1000) {
        ULONG interval = 0;
        ULONG returned = 0;
        return static_cast<int>(NtQueryIntervalProfile(0, &interval)) +
               static_cast<int>(TraceQueryInformation(0, TraceVersionInfo, &interval, sizeof interval, &returned));
    }
    return 0;
}
