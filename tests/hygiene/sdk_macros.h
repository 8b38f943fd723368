// Force-included (-include) by the SDK-macro hygiene test before each translation unit: the standard,
// GSL and doctest headers first (as <windows.h> users have them already), then the object- and
// function-like macros the Windows SDK defines for every user of <windows.h> without NOMINMAX /
// WIN32_LEAN_AND_MEAN, with the SDK's own definitions. etwctl's headers must compile with all of them
// defined, and no token of a header or a test may be one of these names: the test sources are preprocessed
// after sdk_macros_before.h and after this file, and must come out token for token the same.
// Sources: rpcndr.h (small, hyper), combaseapi.h / objbase.h (interface, PURE, THIS), minwindef.h (min,
// max, far, near, FAR, NEAR, CONST, IN, OUT, OPTIONAL, CALLBACK, WINAPI, TRUE, FALSE), winnt.h (VOID,
// DELETE, SYNCHRONIZE, UNALIGNED, MemoryBarrier, YieldProcessor), winbase.h (Yield, IGNORE, INFINITE,
// CopyFile...), wingdi.h (ERROR, OPAQUE, TRANSPARENT, GetObject), winuser.h (SendMessage, GetMessage...),
// evntrace.h (TRACE_LEVEL_*). https://learn.microsoft.com/en-us/windows/win32/winprog/using-the-windows-headers
#pragma once
#include "sdk_macros_before.h" // what a <windows.h> user has included before the macros

#if defined(_WIN32)
// A Windows build has the SDK itself: its <windows.h> defines every macro below (and many more) as a
// user's program sees them. Simulating them there would break <windows.h> (winnt.h defines CHAR only
// when VOID is not yet defined).
#include <windows.h>
#else
#define small char
#define hyper long long
#define interface struct
#define PURE = 0
#define THIS void
#define THIS_
#define min(a, b) (((a) < (b)) ? (a) : (b))
#define max(a, b) (((a) > (b)) ? (a) : (b))
#define far
#define near
#define FAR
#define NEAR
#define pascal
#define cdecl
#define CONST const
#define VOID void
#define IN
#define OUT
#define OPTIONAL
#define CALLBACK
#define WINAPI
#define APIENTRY
#define TRUE 1
#define FALSE 0
#define DELETE (0x00010000L)
#define SYNCHRONIZE (0x00100000L)
#define READ_CONTROL (0x00020000L)
#define UNALIGNED
#define ERROR 0
#define OPAQUE 2
#define TRANSPARENT 1
#define IGNORE 0
#define INFINITE 0xFFFFFFFF
#define MAX_PATH 260
#define NO_ERROR 0L
#define Yield()
#define MemoryBarrier() __sync_synchronize()
#define YieldProcessor()
#define GetObject GetObjectA
#define GetCurrentTime() GetTickCount()
#define CreateEvent CreateEventA
#define CopyFile CopyFileA
#define DeleteFile DeleteFileA
#define MoveFile MoveFileA
#define LoadLibrary LoadLibraryA
#define GetModuleHandle GetModuleHandleA
#define SendMessage SendMessageA
#define GetMessage GetMessageA
#define PostMessage PostMessageA
#define LoadImage LoadImageA
#define DrawText DrawTextA
#define GetClassName GetClassNameA
#define GetUserName GetUserNameA
#define RegisterClass RegisterClassA
#define StartTrace StartTraceA
#define ControlTrace ControlTraceA
#define OpenTrace OpenTraceA
#define TRACE_LEVEL_NONE 0
#define TRACE_LEVEL_CRITICAL 1
#define TRACE_LEVEL_ERROR 2
#define TRACE_LEVEL_WARNING 3
#define TRACE_LEVEL_INFORMATION 4
#define TRACE_LEVEL_VERBOSE 5
#define UNREFERENCED_PARAMETER(P) (P)
#define DEFINE_GUID(name, l, w1, w2, b1, b2, b3, b4, b5, b6, b7, b8) extern "C" const int name
#endif
