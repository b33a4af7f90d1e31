#pragma once
// A barrier fix followed as its message words it (issue 57, item 1): the body's source with each
// clause of "; checked fix: ..." applied as text. Shared by the tests that follow W020/W021/W040's
// checked barriers (checked_barriers_test, checked_features_test).
#include <catch2/catch.hpp>

#include <regex>
#include <string>
#include <vector>

#include "refused_body.hpp"

namespace warden::testing {

// `text` with `what` inserted at the one place `anchor` occurs (REQUIREd unique).
inline std::string insert_at(const std::string& text, const std::string& anchor, const std::string& what, bool after) {
  const std::size_t at = text.find(anchor);
  REQUIRE(at != std::string::npos);
  REQUIRE(text.find(anchor, at + 1) == std::string::npos);
  std::string out = text;
  out.insert(after ? at + anchor.size() : at, what);
  return out;
}

// The body's source with every clause of the message's checked fix applied; "" when the message
// offers none. A clause this cannot apply fails the test: every offered fix must be followable.
inline std::string applied(std::string source, const std::string& message) {
  source = squeezed(source);
  const std::size_t fix = message.find("; checked fix: ");
  if (fix == std::string::npos) return "";
  std::string clauses = message.substr(fix + 15);
  std::vector<std::string> parts;
  for (std::size_t at; (at = clauses.find(", and ")) != std::string::npos; clauses = clauses.substr(at + 6))
    parts.push_back(clauses.substr(0, at));
  parts.push_back(clauses);
  for (const std::string& clause : parts) {
    std::smatch m;
    if (std::regex_match(clause, m, std::regex("add sync\\(\\) before the (w::when\\(.*), \\.\\.\\.\\) around `.*`"))) {
      source = insert_at(source, m[1], "w::sync(), ", false);
    } else if (std::regex_match(clause, m, std::regex("add sync\\(\\) before loop (\\w+), around `.*`"))) {
      // The loop whose body names its variable so: the w::for_range call that opens that lambda.
      const std::size_t variable = source.find("auto " + std::string(m[1]) + ")");
      REQUIRE(variable != std::string::npos);
      const std::size_t call = source.rfind("w::for_range(", variable);
      REQUIRE(call != std::string::npos);
      source.insert(call, "w::sync(), ");
    } else if (std::regex_match(clause, m, std::regex("add sync\\(\\) before `(.*)`"))) {
      source = insert_at(source, m[1], "w::sync(), ", false);
    } else if (std::regex_match(clause, m, std::regex("add sync\\(\\) at the end of the body of loop \\w+, after `(.*)`"))) {
      source = insert_at(source, m[1], ", w::sync()", true);
    } else if (std::regex_match(clause, m, std::regex("one statement, so load into a local, sync\\(\\), then store: "
                                                      "(w::local\\(k, (.*), \\[&\\]\\(auto, auto v\\) \\{ return w::seq\\(w::sync\\(\\), (.*) = v\\); \\}\\))"))) {
      const std::string statement = std::string(m[3]) + " = " + std::string(m[2]);
      const std::size_t at = source.find(statement);
      REQUIRE(at != std::string::npos);
      source.replace(at, statement.size(), m[1]);
    } else {
      FAIL("a fix clause the test cannot follow: " << clause);
    }
  }
  return source;
}

}  // namespace warden::testing
