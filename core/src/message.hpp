// Internal: an error thrown with a message of pieces, built and thrown out of line:
//   fail<ValueError>({fn, ": ids[", i, "] is ", id, "; ids are 0..", vocab - 1});
// throws ValueError("decode: ids[2] is 47; ids are 0..46"), as the same message written with
// std::string + and std::to_string would. Written inline, every + and to_string is a call that
// may throw, with its own clean-up in the caller: in the wasm build (exceptions through JS) each
// message cost hundreds of bytes; one call here costs a few.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <string>
#include <type_traits>

namespace attn {

/// One piece of a message: text, or a whole number written in decimal (as std::to_string does).
class Piece {
public:
  Piece(const char* text) : text_(text), size_(std::char_traits<char>::length(text)) {}
  Piece(const std::string& text) : text_(text.data()), size_(text.size()) {}
  template <class N, std::enable_if_t<std::is_integral_v<N> && !std::is_same_v<N, char> &&
                                          !std::is_same_v<N, bool>,
                                      int> = 0>
  Piece(N number) : magnitude_(static_cast<unsigned long long>(number)) {
    if constexpr (std::is_signed_v<N>) {
      if (number < 0) {
        negative_ = true;
        magnitude_ = 0 - magnitude_;
      }
    }
  }

  /// Appends this piece to `out`.
  void append_to(std::string& out) const;

private:
  const char* text_ = nullptr; ///< null for a number
  std::size_t size_ = 0;
  bool negative_ = false;
  unsigned long long magnitude_ = 0;
};

/// The pieces one after another.
std::string message(std::initializer_list<Piece> pieces);

/// Throws E (ShapeError or ValueError) with message(pieces).
template <class E> [[noreturn]] void fail(std::initializer_list<Piece> pieces);

} // namespace attn
