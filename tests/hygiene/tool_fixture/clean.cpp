// Fixture for check_tool_public_api.cmake's self-test: a tool source that uses the public API only.
namespace detail { inline int own() { return 1; } }
int use() { return detail::own(); }
