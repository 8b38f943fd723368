#!/bin/sh
# check_unused_categories.sh <object file> [nm]: fails if a translation unit that never asks for an
# error category still carries one (its object, vtable, message() or default_error_condition()), or any
# other code or data of etwctl's, or a static initializer.
set -eu
obj=$1
nm=${2:-nm}
command -v "$nm" >/dev/null 2>&1 || { echo "check_unused_categories: $nm not found; skipped"; exit 77; }
found=$("$nm" -C "$obj" | grep -E '_category_impl|category_holder|etwctl::|_GLOBAL__sub_I' || true)
if [ -n "$found" ]; then
    echo "check_unused_categories: $obj carries error-category code it never uses:"
    echo "$found"
    exit 1
fi
echo "check_unused_categories: no category code in $(basename "$obj")"
