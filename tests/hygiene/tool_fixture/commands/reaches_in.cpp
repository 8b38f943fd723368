// Fixture for check_tool_public_api.cmake's self-test: a tool source that reaches into etwctl::detail.
unsigned thread_of(unsigned char const* p) { return etwctl::detail::load<unsigned>(p, 0x0C); }
