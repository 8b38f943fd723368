// SPDX-License-Identifier: MIT
// etwctl/session/orphans.hpp - sessions outlive the process that started them (a crash, Ctrl+C, a debugger
// stop): Windows does not stop them, and they count against the machine's session limit until someone
// does. etwctl's session names carry their owner, so a later run can stop exactly the leftovers of its own
// crashed runs and nothing else:
//
//   etwctl-<prefix>-<pid>       e.g. "etwctl-profile-4242": started by process 4242 for the "profile" job
//
//   auto const name = etwctl::owned_session_name::of("profile", k.current_process_id());
//   auto report = etwctl::stop_orphans(k, "profile", storage);  // stops etwctl-profile-<pid> whose pid is gone
//
// stop_orphans stops a session only when its name has this exact form with this prefix, its process id is
// not this process's, and the kernel says that process no longer runs (orphan_session_kernel:
// current_process_id / process_alive; native_kernel asks OpenProcess / GetExitCodeProcess). A reused
// process id keeps a session alive (the conservative side). A session of another prefix, another tool or a
// live process is never touched.
//
// What a crash leaves machine-wide besides sessions (the sampled-profile interval, custom hardware
// counters): docs/api.md, "After a crash".
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <system_error>

#include "etwctl/config.hpp"
#include "etwctl/error.hpp"
#include "etwctl/kernel/session_concept.hpp"
#include "etwctl/rules.hpp"
#include "etwctl/session/list.hpp"
#include "etwctl/session/session.hpp"
#include "etwctl/session/text.hpp"

ETWCTL_BEGIN_NAMESPACE

/// A session name of etwctl's convention, "etwctl-<prefix>-<pid>", held by value (ASCII, NUL-terminated).
class owned_session_name {
public:
    static constexpr std::size_t max_prefix_length = 64;
    static constexpr std::string_view tag = "etwctl-";

    /// Whether a prefix is usable: 1 to 64 ASCII letters, digits, '_' or '.'.
    static constexpr bool valid_prefix(std::string_view prefix) noexcept {
        if (prefix.empty() || prefix.size() > max_prefix_length) return false;
        for (char const c : prefix)
            if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.'))
                return false;
        return true;
    }

    /// The name for a prefix and a process id; an invalid prefix gives an empty name (check valid()).
    static constexpr owned_session_name of(std::string_view prefix, std::uint32_t pid) noexcept {
        owned_session_name n;
        if (!valid_prefix(prefix)) return n;
        for (char const c : tag) n.chars_[n.size_++] = c;
        for (char const c : prefix) n.chars_[n.size_++] = c;
        n.chars_[n.size_++] = '-';
        char digits[10] = {};
        std::size_t d = 0;
        do digits[d++] = static_cast<char>('0' + pid % 10); while ((pid /= 10) != 0);
        while (d > 0) n.chars_[n.size_++] = digits[--d];
        n.chars_[n.size_] = '\0';
        return n;
    }

    /// Whether `name` (UTF-16, as a session list gives it) has the form "etwctl-<prefix>-<digits>"; the
    /// digits are the owner's pid. Case-sensitive on the prefix, as etwctl writes it.
    template <class Char>
    static constexpr bool parse(std::basic_string_view<Char> name, std::string_view prefix, std::uint32_t& pid) noexcept {
        std::size_t const head = tag.size() + prefix.size() + 1;
        if (name.size() <= head || name.size() > head + 10) return false;
        for (std::size_t i = 0; i < tag.size(); ++i)
            if (name[i] != static_cast<Char>(tag[i])) return false;
        for (std::size_t i = 0; i < prefix.size(); ++i)
            if (name[tag.size() + i] != static_cast<Char>(prefix[i])) return false;
        if (name[head - 1] != static_cast<Char>('-')) return false;
        std::uint64_t v = 0;
        for (std::size_t i = head; i < name.size(); ++i) {
            auto const c = static_cast<std::uint32_t>(name[i]);
            if (c < '0' || c > '9') return false;
            v = v * 10 + (c - '0');
        }
        if (v > 0xFFFFFFFFU) return false;
        pid = static_cast<std::uint32_t>(v);
        return true;
    }

    constexpr bool valid() const noexcept { return size_ != 0; }
    constexpr std::string_view view() const noexcept { return {chars_, size_}; }
    constexpr char const* c_str() const noexcept { return chars_; }
    /// As a session_text, for session_config::user / system_logger (this object must outlive the use).
    constexpr session_text text() const noexcept { return session_text(view()); }

private:
    char chars_[7 + max_prefix_length + 1 + 10 + 1] = {};
    std::size_t size_ = 0;
};

/// What stop_orphans did.
struct [[nodiscard]] orphan_report {
    std::size_t sessions = 0; ///< sessions listed
    std::size_t matched = 0;  ///< of them, named etwctl-<prefix>-<pid>
    std::size_t orphans = 0;  ///< of those, whose process is gone
    std::size_t stopped = 0;  ///< of those, stopped now
    std::error_code error = no_error();  ///< the listing's failure, or the first stop that failed
    explicit operator bool() const noexcept { return !error; }
};

/// Stops the sessions named etwctl-<prefix>-<pid> whose process no longer runs; nothing else. Lists the
/// sessions into `storage` first (session/list.hpp).
template <class K>
    requires orphan_session_kernel<K>
[[nodiscard]] orphan_report stop_orphans(K& k, std::string_view prefix, session_list_storage storage) noexcept {
    orphan_report r;
    if (!owned_session_name::valid_prefix(prefix)) {
        r.error = detail::fail(make_error_code(rule::session_orphan_prefix_invalid),
                               "stop_orphans: the prefix has {value} characters or one outside [A-Za-z0-9_.]; give "
                               "1 to {high} of them (the <prefix> of etwctl-<prefix>-<pid>)",
                               "stop_orphans", prefix.size(), 0, owned_session_name::max_prefix_length);
        return r;
    }
    auto const sessions = list_sessions(k, storage);
    if (!sessions) {
        r.error = sessions.error();
        return r;
    }
    std::uint32_t const self = k.current_process_id();
    session_kernel_ref const ref(k);
    r.sessions = sessions->size();
    for (auto const& s : *sessions) {
        std::uint32_t pid = 0;
        if (!owned_session_name::parse(s.name(), prefix, pid)) continue;
        ++r.matched;
        if (pid == self || k.process_alive(pid)) continue;
        ++r.orphans;
        // By name (the name decides, as ControlTrace documents), with a fresh block: the listing's is not reused.
        stop_report const stopped = stop_session(ref, session_text(s.name()));
        if (stopped.stopped) ++r.stopped;
        else if (!r.error) r.error = stopped.error;
    }
    return r;
}

ETWCTL_END_NAMESPACE
