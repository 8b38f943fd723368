// Every public name the headers declare appears in docs/api.md.
//
//   etwctl_api_names <include dir> <docs/api.md> [--list]
//
// A small scanner, not a C++ parser: comments, string/char literals and preprocessor lines are
// dropped, braces are tracked, and each declaration at namespace scope is classified from its text:
// types (struct / class / union / enum), concepts, aliases (using X =), functions (the identifier
// before the first parenthesis) and variable templates / tags (variables whose type is a tag, or
// templates). Plain constants (limits, status codes, PERF_* values, event tables) are tables, listed in
// docs/reference.md and docs/errors.md, and are not required here. Skipped: namespaces detail and
// diagnostic, and the testing/ folder except its public types (sim::kernel and friends).
// A name counts as documented when it appears as a whole word inside a code span or code block.
// Exit status: 0 when every name is documented, 1 when some are missing (each printed), 2 on usage.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace fs = std::filesystem;

namespace {

std::string read_file(fs::path const& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

/// Comments, literals (contents) and preprocessor lines removed; newlines kept.
std::string strip(std::string const& s) {
    std::string out;
    out.reserve(s.size());
    bool line_start = true;
    for (std::size_t i = 0; i < s.size();) {
        char const c = s[i];
        if (line_start && c == '#') { // preprocessor line, with continuations
            while (i < s.size() && !(s[i] == '\n' && s[i - 1] != '\\')) ++i;
            continue;
        }
        if (c == '/' && i + 1 < s.size() && s[i + 1] == '/') {
            while (i < s.size() && s[i] != '\n') ++i;
            continue;
        }
        if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
            std::size_t const end = s.find("*/", i + 2);
            i = end == std::string::npos ? s.size() : end + 2;
            out += ' ';
            continue;
        }
        if (c == '"' || (c == '\'' && !(i > 0 && std::isxdigit(static_cast<unsigned char>(s[i - 1])) &&
                                         i + 1 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 1]))))) {
            // raw strings do not occur at namespace scope in these headers; digit separators are skipped above
            char const q = c;
            out += q;
            ++i;
            while (i < s.size() && s[i] != q) {
                if (s[i] == '\\') ++i;
                ++i;
            }
            out += q;
            ++i;
            continue;
        }
        if (c == '\n') line_start = true;
        else if (!std::isspace(static_cast<unsigned char>(c))) line_start = false;
        out += c;
        ++i;
    }
    return out;
}

std::string squeeze(std::string const& s) {
    std::string out;
    for (char c : s) {
        if (std::isspace(static_cast<unsigned char>(c))) {
            if (!out.empty() && out.back() != ' ') out += ' ';
        } else {
            out += c;
        }
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    std::size_t b = 0;
    while (b < out.size() && out[b] == ' ') ++b;
    return out.substr(b);
}

/// Drops leading `template <...>` heads and `[[...]]` attributes anywhere.
std::string drop_template_heads(std::string s) {
    for (;;) {
        std::size_t const a = s.find("[[");
        if (a == std::string::npos) break;
        std::size_t const b = s.find("]]", a);
        if (b == std::string::npos) break;
        s.erase(a, b + 2 - a);
    }
    s = squeeze(s);
    while (s.rfind("template", 0) == 0) {
        std::size_t i = s.find('<');
        if (i == std::string::npos) break;
        int depth = 0;
        for (; i < s.size(); ++i) {
            if (s[i] == '<') ++depth;
            else if (s[i] == '>' && --depth == 0) break;
        }
        s = squeeze(s.substr(i + 1));
        // a requires-clause right after the template head
        if (s.rfind("requires ", 0) == 0) {
            std::size_t j = 9;
            int paren = 0;
            for (; j < s.size(); ++j) {
                if (s[j] == '(') ++paren;
                else if (s[j] == ')') --paren;
                else if (s[j] == ' ' && paren == 0) break;
            }
            s = squeeze(s.substr(j));
        }
    }
    return s;
}

std::string word_after(std::string const& s, std::size_t pos) {
    while (pos < s.size() && s[pos] == ' ') ++pos;
    std::size_t end = pos;
    while (end < s.size() && ident_char(s[end])) ++end;
    return s.substr(pos, end - pos);
}

std::string word_before(std::string const& s, std::size_t pos) {
    while (pos > 0 && s[pos - 1] == ' ') --pos;
    std::size_t b = pos;
    while (b > 0 && ident_char(s[b - 1])) --b;
    return s.substr(b, pos - b);
}

struct found {
    std::string name, kind, where;
};

/// Classifies one declaration at namespace scope; returns the name and kind, or an empty name.
found classify(std::string const& raw) {
    std::string const full = squeeze(raw);
    bool const is_template = full.find("template") == 0 || full.find("] template") != std::string::npos;
    std::string s = drop_template_heads(full);
    if (s.empty() || s.rfind("static_assert", 0) == 0 || s.rfind("extern ", 0) == 0) return {};
    if (s.rfind("using namespace", 0) == 0) return {};
    if (s.rfind("using ", 0) == 0) {
        if (s.find('=') == std::string::npos) return {}; // using-declaration
        return {word_after(s, 6), "alias", {}};
    }
    if (s.rfind("concept ", 0) == 0) return {word_after(s, 8), "concept", {}};
    for (std::string_view key : {"enum class ", "enum struct ", "struct ", "class ", "union ", "enum "}) {
        if (s.rfind(key, 0) != 0) continue;
        std::string const name = word_after(s, key.size());
        if (s.compare(key.size() + name.size(), 2, "::") == 0) return {}; // a specialization (std::...)
        return {name, "type", {}};
    }
    std::size_t const eq = s.find('=');
    std::size_t paren = std::string::npos;
    for (std::size_t i = s.find('('); i != std::string::npos; i = s.find('(', i + 1)) {
        std::string const w = word_before(s, i);
        if (w.empty() || w == "decltype" || w == "noexcept" || w == "requires" || w == "alignas" || w == "sizeof")
            continue;
        paren = i;
        break;
    }
    if (paren != std::string::npos && (eq == std::string::npos || paren < eq)) {
        std::string const name = word_before(s, paren);
        if (s.find("operator") != std::string::npos && s.find("operator") < paren) return {};
        if (s.find("->") != std::string::npos && s.find("->") > paren && s.find(')') < s.find("->") &&
            s.find("auto") != 0 && s.find(" auto ") == std::string::npos && word_before(s, paren) == name &&
            s.find(name) == 0)
            return {name, "deduction guide", {}};
        return {name, "function", {}};
    }
    // a variable: the identifier before '=', '[' or the brace initializer (end of text)
    std::size_t end = eq == std::string::npos ? s.size() : eq;
    std::size_t const bracket = s.find('[');
    if (bracket != std::string::npos && bracket < end) end = bracket;
    std::string const name = word_before(s, end);
    std::string const type_text = s.substr(0, end);
    bool const tag = type_text.find("_tag") != std::string::npos || type_text.find("trace_tag<") != std::string::npos;
    return {name, is_template ? "variable template" : tag ? "tag" : "constant", {}};
}

struct frame {
    bool is_namespace = false;
    bool hidden = false; // detail:: / diagnostic:: or inside a non-namespace body
    std::string name;
};

/// Macro invocations at namespace scope: ETWCTL_*_TAG(name, ...) declares the tag `name`; every other
/// ETWCTL_* invocation is removed (its expansion is a table, not API).
std::string take_macros(std::string s, std::string const& where, std::vector<found>& out) {
    for (std::size_t p = s.find("ETWCTL_"); p != std::string::npos; p = s.find("ETWCTL_", p)) {
        if (p > 0 && ident_char(s[p - 1])) {
            p += 7;
            continue;
        }
        std::size_t e = p;
        while (e < s.size() && ident_char(s[e])) ++e;
        std::string const macro = s.substr(p, e - p);
        if (e >= s.size() || s[e] != '(') {
            p = e;
            continue;
        }
        std::size_t close = e;
        for (int depth = 0; close < s.size(); ++close) {
            if (s[close] == '(') ++depth;
            else if (s[close] == ')' && --depth == 0) break;
        }
        if (macro.size() > 4 && macro.compare(macro.size() - 4, 4, "_TAG") == 0)
            out.push_back({word_after(s, e + 1), "tag", where});
        s.erase(p, close + 1 - p);
    }
    return s;
}

void scan(std::string const& text, std::string const& where, bool types_only, std::vector<found>& out) {
    std::string const s = take_macros(strip(text), where, out);
    std::vector<frame> stack;
    std::string buffer;
    auto at_namespace_scope = [&] {
        return std::all_of(stack.begin(), stack.end(), [](frame const& f) { return f.is_namespace && !f.hidden; });
    };
    auto emit = [&](std::string decl) {
        // ETWCTL_BEGIN_NAMESPACE / ETWCTL_END_NAMESPACE are the etwctl namespace itself
        for (std::string_view m : {"ETWCTL_BEGIN_NAMESPACE", "ETWCTL_END_NAMESPACE"}) {
            for (std::size_t p = decl.find(m); p != std::string::npos; p = decl.find(m)) decl.erase(p, m.size());
        }
        found f = classify(decl);
        if (f.name.empty() || f.kind == "deduction guide") return;
        if (types_only && f.kind != "type") return;
        f.where = where;
        for (frame const& fr : stack)
            if (fr.is_namespace && fr.name != "etwctl" && fr.name != "v1") f.where += " " + fr.name + "::";
        out.push_back(f);
    };
    for (char c : s) {
        bool const ns_scope = at_namespace_scope();
        if (c == '{') {
            if (ns_scope) {
                std::string const decl = squeeze(buffer);
                std::string d = decl;
                for (std::string_view m : {"ETWCTL_BEGIN_NAMESPACE", "ETWCTL_END_NAMESPACE"})
                    for (std::size_t p = d.find(m); p != std::string::npos; p = d.find(m)) d.erase(p, m.size());
                d = squeeze(d);
                std::size_t const ns = d.rfind("namespace ");
                if (ns != std::string::npos && (ns == 0 || d.compare(0, ns, "inline ") == 0) &&
                    d.find('=') == std::string::npos) {
                    std::string const name = word_after(d, ns + 10);
                    stack.push_back({true, name == "detail" || name == "diagnostic", name});
                } else {
                    emit(buffer);
                    stack.push_back({false, true, {}});
                }
            } else {
                stack.push_back({false, true, {}});
            }
            buffer.clear();
        } else if (c == '}') {
            if (!stack.empty()) stack.pop_back();
            buffer.clear();
        } else if (c == ';') {
            if (ns_scope) emit(buffer);
            buffer.clear();
        } else {
            buffer += c;
        }
    }
}

/// The words that appear inside code spans or fenced code blocks of a Markdown file.
std::set<std::string> code_words(std::string const& md) {
    std::set<std::string> words;
    auto add_words = [&](std::string_view code) {
        std::size_t i = 0;
        while (i < code.size()) {
            if (ident_char(code[i])) {
                std::size_t j = i;
                while (j < code.size() && ident_char(code[j])) ++j;
                words.emplace(code.substr(i, j - i));
                i = j;
            } else {
                ++i;
            }
        }
    };
    std::istringstream in(md);
    std::string line;
    bool fenced = false;
    while (std::getline(in, line)) {
        if (line.rfind("```", 0) == 0) {
            fenced = !fenced;
            continue;
        }
        if (fenced) {
            add_words(line);
            continue;
        }
        for (std::size_t a = line.find('`'); a != std::string::npos;) {
            std::size_t const b = line.find('`', a + 1);
            if (b == std::string::npos) break;
            add_words(std::string_view(line).substr(a + 1, b - a - 1));
            a = line.find('`', b + 1);
        }
    }
    return words;
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: etwctl_api_names <include dir> <api.md> [--list]\n");
        return 2;
    }
    fs::path const include_dir = argv[1];
    bool const list = argc > 3 && std::string_view(argv[3]) == "--list";
    std::vector<fs::path> headers;
    for (auto const& e : fs::recursive_directory_iterator(include_dir / "etwctl"))
        if (e.is_regular_file() && e.path().extension() == ".hpp") headers.push_back(e.path());
    std::sort(headers.begin(), headers.end());
    std::vector<found> names;
    for (auto const& h : headers) {
        std::string const rel = fs::relative(h, include_dir).generic_string();
        if (rel.find("/detail/") != std::string::npos) continue;
        bool const testing = rel.find("/testing/") != std::string::npos || rel.find("/sim/") != std::string::npos;
        scan(read_file(h), rel, testing, names);
    }
    std::string const md = read_file(argv[2]);
    if (md.empty()) {
        std::fprintf(stderr, "etwctl_api_names: %s is missing or empty\n", argv[2]);
        return 2;
    }
    std::set<std::string> const documented = code_words(md);
    std::map<std::string, std::vector<found>> by_name;
    for (auto const& f : names)
        if (f.kind != "constant") by_name[f.name].push_back(f);
    std::size_t missing = 0;
    for (auto const& [name, where] : by_name) {
        bool const ok = documented.count(name) != 0;
        if (list || !ok)
            std::printf("%s %s (%s, %s)\n", ok ? "documented" : "MISSING", name.c_str(), where.front().kind.c_str(),
                        where.front().where.c_str());
        if (!ok) ++missing;
    }
    std::printf("%zu public names in %zu headers, %zu missing from %s\n", by_name.size(), headers.size(), missing,
                argv[2]);
    return missing == 0 ? 0 : 1;
}
