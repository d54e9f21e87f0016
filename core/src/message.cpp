// Error messages of pieces (message.hpp).
#include "message.hpp"

#include "attn/error.hpp"

namespace attn {

void Piece::append_to(std::string& out) const {
  if (text_) {
    out.append(text_, size_);
    return;
  }
  char digits[20];
  std::size_t n = 0;
  unsigned long long rest = magnitude_;
  do {
    digits[n++] = static_cast<char>('0' + rest % 10);
    rest /= 10;
  } while (rest != 0);
  if (negative_) {
    out += '-';
  }
  while (n > 0) {
    out += digits[--n];
  }
}

std::string message(std::initializer_list<Piece> pieces) {
  std::string out;
  for (const Piece& piece : pieces) {
    piece.append_to(out);
  }
  return out;
}

template <class E> void fail(std::initializer_list<Piece> pieces) {
  throw E(message(pieces));
}

template void fail<ShapeError>(std::initializer_list<Piece>);
template void fail<ValueError>(std::initializer_list<Piece>);

} // namespace attn
