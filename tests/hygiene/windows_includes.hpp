// The Windows include-order TUs each define one function; the test runs them all.
#pragma once

int hygiene_windows_first();
int hygiene_etwctl_first();
int hygiene_lean_windows_first();
int hygiene_lean_etwctl_first();
int hygiene_unicode();
int hygiene_nt_declarations();
