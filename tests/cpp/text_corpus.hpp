// The text task's default corpus for the tests: read from web/src/engine/text-corpus.js (the one
// committed copy; ATTN_TEXT_CORPUS names it, embedded at /corpus in the wasm builds). Its text is
// the one double-quoted string of that module (scripts/text-corpus.mjs writes no other '"').
#pragma once

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

namespace attn::test {

inline const std::string& default_text() {
  static const std::string text = [] {
    std::ifstream in(ATTN_TEXT_CORPUS);
    std::stringstream module;
    module << in.rdbuf();
    const std::string s = module.str();
    const std::size_t first = s.find('"'), last = s.rfind('"');
    if (first == std::string::npos || last <= first) {
      throw std::runtime_error(std::string("no corpus string in ") + ATTN_TEXT_CORPUS);
    }
    return s.substr(first + 1, last - first - 1);
  }();
  return text;
}

} // namespace attn::test
