// The text task's data and the copying probe (see attn/train/text.hpp).
#include "attn/train/text.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "../message.hpp"
#include "attn/error.hpp"

namespace attn::train {

const char* const kDefaultAlphabet = " !'(),-.0123456789:;?abcdefghijklmnopqrstuvwxyz";

namespace {

constexpr char32_t kReplacement = 0xFFFD;
constexpr std::size_t kNone = static_cast<std::size_t>(-1);

// Where c is in chars, or kNone.
std::size_t index_of(const Chars& chars, char32_t c) {
  const auto at = std::find(chars.begin(), chars.end(), c);
  return at == chars.end() ? kNone : static_cast<std::size_t>(at - chars.begin());
}
constexpr std::size_t kHeldOutShare = 10; // the last 1/10 is held out

// UTF-8 -> code points; ValueError (starting with fn) naming the byte offset of a malformed one.
Chars decode_utf8(const std::string& s, const std::string& fn) {
  if (s.size() > kMaxTextBytes) {
    fail<ValueError>({fn, ": the text has ", s.size(), " bytes; at most ", kMaxTextBytes,
                      " (1 MiB) is supported"});
  }
  Chars out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    const std::size_t n = b < 0x80         ? 1
                          : (b >> 5) == 6  ? 2
                          : (b >> 4) == 14 ? 3
                          : (b >> 3) == 30 ? 4
                                           : 0;
    bool ok = n != 0 && i + n <= s.size();
    char32_t c = n == 1 ? b : n == 2 ? b & 0x1F : n == 3 ? b & 0x0F : b & 0x07;
    for (std::size_t k = 1; ok && k < n; ++k) {
      const auto cont = static_cast<unsigned char>(s[i + k]);
      ok = (cont >> 6) == 2;
      c = (c << 6) | (cont & 0x3F);
    }
    const char32_t least[] = {0, 0, 0x80, 0x800, 0x10000};
    ok = ok && c >= least[n] && c <= 0x10FFFF && (c < 0xD800 || c > 0xDFFF);
    if (!ok) {
      fail<ValueError>({fn, ": the text is not valid UTF-8 (byte ", i, ")"});
    }
    out.push_back(c);
    i += n;
  }
  return out;
}

void append_utf8(char32_t c, std::string& out) {
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
}

// How a character is named in an error: 'x', or U+XXXX for one that does not print.
std::string shown(char32_t c) {
  if (c > 0x20 && c < 0x7F) {
    return std::string("'") + static_cast<char>(c) + "'";
  }
  std::string hex;
  for (int shift = c > 0xFFFF ? 20 : 12; shift >= 0; shift -= 4) {
    hex += "0123456789ABCDEF"[(c >> shift) & 0xF];
  }
  return "U+" + hex;
}

// The distinct characters of `chars` in code-point order: one bit per code point, read in order
// (std::sort and std::unique on code points added 3 KB to the wasm).
Chars distinct_of(const Chars& chars) {
  std::vector<std::uint32_t> seen(0x110000 / 32, 0);
  for (char32_t c : chars) {
    seen[c / 32] |= std::uint32_t(1) << (c % 32);
  }
  Chars out;
  for (std::size_t word = 0; word < seen.size(); ++word) {
    std::uint32_t bits = seen[word];
    for (std::size_t bit = 0; bits != 0; ++bit, bits >>= 1) {
      if (bits & 1) {
        out.push_back(static_cast<char32_t>(word * 32 + bit));
      }
    }
  }
  return out;
}

bool is_letter(char32_t c) { // ASCII
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

bool is_not_space(char32_t c) {
  return c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != 0xA0;
}

// The ids of the alphabet's characters that `keep` accepts, in id order.
std::vector<std::int32_t> ids_where(const Chars& alphabet, bool (*keep)(char32_t)) {
  std::vector<std::int32_t> out;
  for (std::size_t i = 0; i < alphabet.size(); ++i) {
    if (keep(alphabet[i])) {
      out.push_back(static_cast<std::int32_t>(i));
    }
  }
  return out;
}

std::int32_t draw(Rng& rng, std::size_t bound) {
  return static_cast<std::int32_t>(rng.below(static_cast<std::uint32_t>(bound)));
}

// T + 1 ids of ids[first, first + n) from a uniform start: inside the range when it holds a whole
// window, wrapping round its end when it is shorter.
void window_of(const std::vector<std::int32_t>& ids, std::size_t first, std::size_t n,
               std::size_t T, Rng& rng, std::vector<std::int32_t>& out) {
  out.resize(T + 1);
  const std::size_t start = static_cast<std::size_t>(draw(rng, n > T ? n - T : n));
  for (std::size_t i = 0; i <= T; ++i) {
    out[i] = ids[first + (start + i) % n];
  }
}

} // namespace

TextCorpus::TextCorpus(const std::string& utf8, std::size_t context, const std::string& fn)
    : text_(utf8) {
  const Chars chars = decode_utf8(utf8, fn);
  if (chars.empty()) {
    fail<ValueError>({fn, ": the text is empty; give at least two different characters"});
  }
  const Chars distinct = distinct_of(chars);
  if (distinct.size() < 2) {
    fail<ValueError>({fn, ": the text has only the character ", shown(distinct[0]),
                      "; it needs at least two different characters to predict anything"});
  }
  if (distinct.size() > kMaxAlphabet) {
    fail<ValueError>({fn, ": the text has ", distinct.size(), " different characters; at most ",
                      kMaxAlphabet, " are supported (its alphabet is too large)"});
  }
  const Chars fallback(kDefaultAlphabet,
                       kDefaultAlphabet + std::char_traits<char>::length(kDefaultAlphabet));
  bool fits = true;
  for (char32_t c : distinct) {
    fits = fits && index_of(fallback, c) != kNone;
  }
  alphabet_ = fits ? fallback : distinct;
  ids_.resize(chars.size());
  for (std::size_t i = 0; i < chars.size(); ++i) {
    ids_[i] = static_cast<std::int32_t>(index_of(alphabet_, chars[i]));
  }
  const std::size_t held =
      ids_.size() / kHeldOutShare >= context + 1 ? ids_.size() / kHeldOutShare : 0;
  train_end_ = ids_.size() - held;
  // unigram entropy of the training part
  std::vector<std::size_t> counts(alphabet_.size(), 0);
  for (std::size_t i = 0; i < train_end_; ++i) {
    ++counts[static_cast<std::size_t>(ids_[i])];
  }
  for (std::size_t n : counts) {
    if (n > 0) {
      const double p = static_cast<double>(n) / static_cast<double>(train_end_);
      unigram_bits_ -= p * std::log2(p);
    }
  }
  probe_symbols_ = ids_where(alphabet_, is_letter);
  if (probe_symbols_.size() < 2) {
    probe_symbols_ = ids_where(alphabet_, is_not_space);
  }
  if (probe_symbols_.size() < 2) { // two characters, one of them a space: use both
    probe_symbols_ = {0, 1};
  }
}

std::string TextCorpus::alphabet() const {
  std::string out;
  for (char32_t c : alphabet_) {
    append_utf8(c, out);
  }
  return out;
}

std::vector<std::int32_t> TextCorpus::encode(const std::string& utf8, const std::string& fn) const {
  std::vector<std::int32_t> out;
  for (char32_t c : decode_utf8(utf8, fn)) {
    const std::size_t i = index_of(alphabet_, c);
    out.push_back(i == kNone ? unknown_id() : static_cast<std::int32_t>(i));
  }
  return out;
}

std::string TextCorpus::decode(const std::vector<std::int32_t>& ids, const std::string& fn) const {
  std::string out;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const std::int32_t id = ids[i];
    if (id < 0 || static_cast<std::size_t>(id) >= vocab()) {
      fail<ValueError>({fn, ": ids[", i, "] is ", id, "; ids are 0..", vocab() - 1});
    }
    append_utf8(id == unknown_id() ? kReplacement : alphabet_[static_cast<std::size_t>(id)], out);
  }
  return out;
}

std::string TextCorpus::unknown_characters(const std::string& utf8, const std::string& fn) const {
  Chars seen;
  for (char32_t c : decode_utf8(utf8, fn)) {
    if (index_of(alphabet_, c) == kNone && index_of(seen, c) == kNone) {
      seen.push_back(c);
    }
  }
  std::string out;
  for (char32_t c : seen) {
    append_utf8(c, out);
  }
  return out;
}

void TextCorpus::training_window(std::size_t index, std::size_t T, std::uint64_t step, Rng& rng,
                                 std::vector<std::int32_t>& out) const {
  if (index % 2 == 0) { // plain text
    window_of(ids_, 0, train_end_, T, rng, out);
    return;
  }
  // a span written again and again: random letters, or (later, every other one) prose
  const std::size_t most = (T + 2) / 2, least = std::min<std::size_t>(8, most);
  const std::size_t span = least + static_cast<std::size_t>(draw(rng, most - least + 1));
  if (step >= kProseRepeatsFrom && index % 4 == 3) {
    window_of(ids_, 0, train_end_, span - 1, rng, out); // span characters of the text
  } else {
    out.resize(span);
    for (std::size_t i = 0; i < span; ++i) {
      out[i] = probe_symbols_[static_cast<std::size_t>(draw(rng, probe_symbols_.size()))];
    }
  }
  out.resize(T + 1);
  for (std::size_t i = span; i <= T; ++i) {
    out[i] = out[i - span];
  }
}

void TextCorpus::evaluation_window(std::size_t T, Rng& rng, std::vector<std::int32_t>& out) const {
  const std::size_t first = held_out() > 0 ? train_end_ : 0;
  window_of(ids_, first, ids_.size() - first, T, rng, out);
}

} // namespace attn::train
