// The headers a <windows.h> user has included before the SDK's macros exist: every standard header the
// library and the tests include, GSL's and doctest's. sdk_macros.h includes it, then defines the macros;
// the SDK-macro check of the test sources preprocesses each one after this file and after sdk_macros.h and
// requires the same tokens (tests/hygiene/check_compiles.cmake, MODE tokens).
#pragma once
#include "etwctl_sdk_macros_std.hpp" // generated: every standard header the library and the tests include
#include <gsl/assert>
#include <gsl/gsl>
#if __has_include(<doctest/doctest.h>)
#include <doctest/doctest.h>
#endif
