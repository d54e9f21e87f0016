// attn/error.hpp — the error types every core function throws on bad input.
//
// Policy: the core never aborts on caller input. It throws one of these with a
// message naming what was wrong, where (axis, index or row) and the value, e.g.
//   "softmax: logits[1, 2] is NaN"
// The wasm bindings turn them into JS AttentionError values.
#pragma once

#include <stdexcept>
#include <string>

namespace attn {

/// Base of every error the core raises for bad input.
class Error : public std::invalid_argument {
public:
  using std::invalid_argument::invalid_argument;
};

/// A tensor has the wrong rank, an empty axis, or shapes that do not match.
class ShapeError : public Error {
public:
  using Error::Error;
};

/// A value is out of its domain: NaN, an infinity where none is allowed, a negative temperature.
class ValueError : public Error {
public:
  using Error::Error;
};

/// A request needs more memory than can be had (for example an L×S weight matrix
/// beyond the wasm heap).
class MemoryError : public Error {
public:
  using Error::Error;
};

} // namespace attn
