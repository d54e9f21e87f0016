// attn/train/text.hpp — the `text` task's data: a text read one character (Unicode code point) at a
// time, its alphabet, the training windows drawn from it, and the copying probe of issue 38 (the
// induction-head measure of Olsson et al. 2022, "In-context Learning and Induction Heads").
//
// Alphabet and ids. The alphabet is the default alphabet (kDefaultAlphabet: space, ! ' ( ) , - .
// the digits, : ; ? and the 26 lower-case letters) when every character of the text is in it;
// otherwise it is the text's own distinct characters. Either way it is in code-point order, and id
// i is alphabet[i]. One more id, alphabet.size(), stands for every character outside the alphabet
// ("unknown", decoded as U+FFFD), so vocab = alphabet.size() + 1.
//
// Split. When the text has at least 10·(T + 1) characters (T the context), its last tenth is held
// out: training windows never read it and evaluate() reads only it. A shorter text has no held-out
// part, and evaluate() reads the training text (TaskInfo::held_out is then 0).
//
// Training windows (T + 1 characters: the model reads the first T and predicts the last T). In a
// batch, the even-numbered windows are plain text and the odd-numbered ones repeat a random span:
//   plain    the training text from a uniform start, wrapping round at its end;
//   repeat   a span of s characters, s uniform in [min(8, ⌈(T+1)/2⌉), ⌈(T+1)/2⌉], written again
//            and again until the window is full: after the first s characters, every character
//            can be read off one period back, so copying pays at once. The span is s random
//            letters (probe_symbols, uniform); from step kProseRepeatsFrom on (a curriculum), in
//            every other repeat window (index % 4 == 3) it is s characters of the training text.
// Half the windows are plain text, so the model learns to read as well as to copy; the repeats
// are the standard way to make in-context copying worth learning quickly. Random letters teach
// the induction heads fastest (prose has a shortcut: the next character is often guessable from
// the last); but a model that has seen copying pay only in strings of letters learns to copy only
// there, and reads repeated prose as prose. Repeated prose, once the heads have formed, teaches it
// to copy words and names too.
//
// The probe (copying_probe): `count` strings of `length` random probe symbols, each written twice
// (2·length tokens). For query i of the second copy (position length + i, token r[i], i = 0 ..
// length − 2), the next character r[i + 1] can be copied from position i + 1 of the first copy:
//   second-copy accuracy  share of those argmax predictions that are right (first copy: the same
//                         predictions at positions 0 .. length − 2, which nothing can copy)
//   previous-token score  a head's mean weight on key length + i − 1 (one back)
//   prefix-matching score a head's mean weight on key i + 1 (after the earlier occurrence)
// A previous-token head is a first-layer head with a score ≥ kPreviousTokenHead; an induction head
// is a later-layer head with a prefix-matching score ≥ kInductionHead.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "attn/random.hpp"
#include "attn/train/model.hpp"

namespace attn::train {

/// The default alphabet (UTF-8, code-point order): 47 characters, the default corpus's.
extern const char* const kDefaultAlphabet;
/// Longest text: 1 MiB of UTF-8.
constexpr std::size_t kMaxTextBytes = std::size_t(1) << 20;
/// Largest alphabet a text may have.
constexpr std::size_t kMaxAlphabet = 128;
/// Thresholds of the probe's head kinds (top of this file), and of copying in context.
constexpr double kPreviousTokenHead = 0.3;
constexpr double kInductionHead = 0.4;
constexpr double kCopyingAccuracy = 0.8;  ///< second copy at least
constexpr double kGuessingAccuracy = 0.5; ///< first copy below
constexpr double kKnockOutCost = 0.3; ///< second-copy accuracy lost without previous-token heads
/// Steps taken after which every other repeat window repeats prose (top of this file): seeds 1–5
/// of the defaults copy in context by then (900–1,500 steps) on random letters alone.
constexpr std::uint64_t kProseRepeatsFrom = 1500;

/// Code points (a plain vector: std::u32string would add its own string code to the wasm).
using Chars = std::vector<char32_t>;

/// A text prepared for training: its alphabet, its characters as ids and its split.
class TextCorpus {
public:
  /// Decodes and checks `utf8` for a context of `context` tokens; throws ValueError (starting
  /// with `fn`) for text that is empty, has fewer than two distinct characters, is longer than
  /// kMaxTextBytes, is not valid UTF-8, or has more than kMaxAlphabet distinct characters.
  TextCorpus(const std::string& utf8, std::size_t context, const std::string& fn);

  const std::string& text() const {
    return text_;
  }
  /// The alphabet as UTF-8 (id order).
  std::string alphabet() const;
  /// Ids: alphabet.size() + 1 (the last is "unknown").
  std::size_t vocab() const {
    return alphabet_.size() + 1;
  }
  std::int32_t unknown_id() const {
    return static_cast<std::int32_t>(alphabet_.size());
  }
  /// Characters held out for evaluate(): the last tenth, or 0 for a text shorter than 10·(T + 1).
  std::size_t held_out() const {
    return ids_.size() - train_end_;
  }
  /// Unigram entropy of the training characters, in bits per character.
  double unigram_bits() const {
    return unigram_bits_;
  }
  /// The ids the repeated windows and the probe draw from: the alphabet's ASCII letters when it
  /// has at least two, else every id but the unknown one and whitespace.
  const std::vector<std::int32_t>& probe_symbols() const {
    return probe_symbols_;
  }

  /// One id per character of `utf8` (unknown_id() for a character outside the alphabet).
  /// Throws ValueError (starting with `fn`) for text that is not valid UTF-8 or longer than
  /// kMaxTextBytes.
  std::vector<std::int32_t> encode(const std::string& utf8, const std::string& fn) const;
  /// The characters of `ids` (U+FFFD for the unknown id); throws ValueError naming an id outside
  /// 0 .. vocab − 1.
  std::string decode(const std::vector<std::int32_t>& ids, const std::string& fn) const;
  /// The distinct characters of `utf8` outside the alphabet, in the order they first appear.
  std::string unknown_characters(const std::string& utf8, const std::string& fn) const;

  /// Training window `index` of the batch of the step after `step` steps taken (top of this file):
  /// T + 1 ids into `out`, drawn from `rng`.
  void training_window(std::size_t index, std::size_t T, std::uint64_t step, Rng& rng,
                       std::vector<std::int32_t>& out) const;
  /// A held-out window (the training text when nothing is held out) from a uniform start.
  void evaluation_window(std::size_t T, Rng& rng, std::vector<std::int32_t>& out) const;

private:
  std::string text_;
  Chars alphabet_;
  std::vector<std::int32_t> ids_;
  std::size_t train_end_ = 0;
  double unigram_bits_ = 0;
  std::vector<std::int32_t> probe_symbols_;
};

/// What copying_probe measures (top of this file); per-head vectors are layer-major
/// (layers · heads).
struct CopyingProbe {
  double first_copy_accuracy = 0;
  double second_copy_accuracy = 0;
  std::vector<double> previous_token;   ///< each head's previous-token score
  std::vector<double> prefix_matching;  ///< each head's prefix-matching score
  std::size_t previous_token_heads = 0; ///< first-layer heads with a score ≥ kPreviousTokenHead
  std::size_t induction_heads = 0; ///< later-layer heads with prefix matching ≥ kInductionHead
  /// Second-copy accuracy with every previous-token head knocked out (their outputs zeroed), or
  /// second_copy_accuracy when there is none.
  double knocked_out_accuracy = 0;

  /// The model copies in context (issue 38's criterion): second copy ≥ kCopyingAccuracy, first
  /// below kGuessingAccuracy, an induction head, and knocking out the previous-token heads (there
  /// is at least one) costs the second copy ≥ kKnockOutCost.
  bool copies_in_context() const {
    return second_copy_accuracy >= kCopyingAccuracy && first_copy_accuracy < kGuessingAccuracy &&
           induction_heads > 0 && previous_token_heads > 0 &&
           second_copy_accuracy - knocked_out_accuracy >= kKnockOutCost;
  }
};

/// The probe on `model` (float32 path) with strings of `length` symbols drawn uniformly from
/// `symbols` by Rng(seed, 0): `count` strings. The model's own head mask applies, and the
/// knock-out adds to it. Throws ShapeError when 2·length exceeds the model's seq_len, length < 2,
/// count is 0 or symbols is empty, and ValueError for a symbol outside the vocabulary.
CopyingProbe copying_probe(const Model& model, const std::vector<std::int32_t>& symbols,
                           std::size_t length = 20, std::size_t count = 64, std::uint64_t seed = 7);

} // namespace attn::train
