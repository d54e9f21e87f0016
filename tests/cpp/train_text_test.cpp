// The text task: a text's alphabet, ids and split, its training windows, the refusals of bad text,
// and a text trainer (config, predict at every position, evaluate in bits, save and restore).
// The copying probe after training with the defaults is in train_text_probe_test.cpp.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "attn/error.hpp"
#include "attn/train/text.hpp"
#include "attn/train/trainer.hpp"
#include "test_util.hpp"
#include "text_corpus.hpp"

namespace {

using attn::Rng;
using attn::test::expect_error;
using attn::train::default_trainer_config;
using attn::train::kDefaultAlphabet;
using attn::train::TextCorpus;
using attn::train::Trainer;

TextCorpus corpus(const std::string& text, std::size_t context = 8) {
  return TextCorpus(text, context, "test");
}

TEST(text_corpus, uses_the_default_alphabet_when_every_character_is_in_it) {
  const TextCorpus c = corpus("the cat sat.");
  EXPECT_EQ(c.alphabet(), kDefaultAlphabet);
  EXPECT_EQ(c.vocab(), 48u);
  EXPECT_EQ(c.unknown_id(), 47);
  const std::vector<std::int32_t> ids = c.encode("a b", "encode");
  EXPECT_EQ(ids, (std::vector<std::int32_t>{21, 0, 22})); // 'a' follows 21 symbols, ' ' is 0
}

TEST(text_corpus, otherwise_has_the_texts_own_characters_in_code_point_order) {
  const TextCorpus c = corpus("Bab é a");
  EXPECT_EQ(c.alphabet(), " Bab\xC3\xA9"); // space, 'B', 'a', 'b', 'é'
  EXPECT_EQ(c.vocab(), 6u);
  EXPECT_EQ(c.encode("b\xC3\xA9z", "encode"), (std::vector<std::int32_t>{3, 4, 5}));
  EXPECT_EQ(c.decode({1, 4, 5}, "decode"), "B\xC3\xA9\xEF\xBF\xBD"); // unknown is U+FFFD
  EXPECT_EQ(c.unknown_characters("zebra Zz!", "encode"), "zerZ!");
  EXPECT_EQ(c.probe_symbols(), (std::vector<std::int32_t>{1, 2, 3})); // the ASCII letters B a b
}

TEST(text_corpus, refuses_empty_one_character_huge_malformed_and_wide_texts) {
  expect_error<attn::ValueError>([] { corpus(""); }, "test: the text is empty");
  expect_error<attn::ValueError>([] { corpus("a"); }, "only the character 'a'");
  expect_error<attn::ValueError>([] { corpus("aaaa"); }, "at least two different characters");
  expect_error<attn::ValueError>([] { corpus(std::string((1 << 20) + 1, 'a')); },
                                 "at most 1048576 (1 MiB)");
  expect_error<attn::ValueError>([] { corpus("ab\xC3"); }, "not valid UTF-8 (byte 2)");
  expect_error<attn::ValueError>([] { corpus("a\xC0\xAF"); },
                                 "not valid UTF-8 (byte 1)"); // overlong
  std::string wide;
  for (char32_t c = 0x100; c < 0x100 + 129; ++c) { // 129 two-byte characters
    wide += static_cast<char>(0xC0 | (c >> 6));
    wide += static_cast<char>(0x80 | (c & 0x3F));
  }
  expect_error<attn::ValueError>([&] { corpus(wide); }, "129 different characters; at most 128");
  const TextCorpus c = corpus("ab");
  expect_error<attn::ValueError>([&] { c.decode({0, 48}, "decode"); }, "decode: ids[1] is 48");
}

TEST(text_corpus, holds_out_the_last_tenth_only_when_it_fills_a_window) {
  std::string text;
  for (int i = 0; i < 90; ++i) {
    text += "ab";
  }
  EXPECT_EQ(corpus(text, 8).held_out(), 18u);            // 180 / 10 = 18 ≥ 8 + 1
  EXPECT_EQ(corpus(text, 17).held_out(), 18u);           // = 17 + 1
  EXPECT_EQ(corpus(text, 18).held_out(), 0u);            // a tenth holds no window of 19
  EXPECT_DOUBLE_EQ(corpus(text, 8).unigram_bits(), 1.0); // 'a' and 'b' equally often
}

TEST(text_corpus, even_windows_are_plain_text_and_odd_ones_repeat_a_span_of_letters) {
  const std::string text = "one two three four five six seven eight nine ten eleven twelve";
  const TextCorpus c = corpus(text, 16);
  const std::vector<std::int32_t> ids = c.encode(text, "encode");
  Rng rng(3, 1);
  std::vector<std::int32_t> w;
  for (int n = 0; n < 40; ++n) {
    c.training_window(static_cast<std::size_t>(n), 16, 0, rng, w);
    ASSERT_EQ(w.size(), 17u);
    if (n % 2 == 0) { // a substring of the (training) text
      const auto at = std::search(ids.begin(), ids.end(), w.begin(), w.end());
      EXPECT_NE(at, ids.end()) << "window " << n;
      continue;
    }
    std::size_t period = 1; // the shortest period, between 8 and ⌈17 / 2⌉ = 9
    while (period < w.size() &&
           !std::equal(w.begin() + static_cast<std::ptrdiff_t>(period), w.end(), w.begin())) {
      ++period;
    }
    EXPECT_GE(period, 2u) << "window " << n;
    EXPECT_LE(period, 9u) << "window " << n;
    for (std::int32_t id : w) {
      EXPECT_NE(std::find(c.probe_symbols().begin(), c.probe_symbols().end(), id),
                c.probe_symbols().end());
    }
  }
}

TEST(text_corpus, from_step_1500_every_other_repeat_window_repeats_prose) {
  const std::string text = "one two three four five six seven eight nine ten eleven twelve";
  const TextCorpus c = corpus(text, 16);
  const std::vector<std::int32_t> ids = c.encode(text + text, "encode"); // spans may wrap round
  const auto letters_only = [&](const std::vector<std::int32_t>& w) {
    return std::all_of(w.begin(), w.end(), [&](std::int32_t id) {
      return std::find(c.probe_symbols().begin(), c.probe_symbols().end(), id) !=
             c.probe_symbols().end();
    });
  };
  Rng rng(5, 1);
  std::vector<std::int32_t> w;
  std::size_t with_spaces = 0;
  for (int n = 1; n < 80; n += 2) {
    c.training_window(static_cast<std::size_t>(n), 16, attn::train::kProseRepeatsFrom, rng, w);
    ASSERT_EQ(w.size(), 17u);
    std::size_t period = 8; // at least 8, and the window repeats it
    while (!std::equal(w.begin() + static_cast<std::ptrdiff_t>(period), w.end(), w.begin())) {
      ++period;
    }
    ASSERT_LE(period, 9u) << "window " << n;
    const std::vector<std::int32_t> span(w.begin(),
                                         w.begin() + static_cast<std::ptrdiff_t>(period));
    if (n % 4 == 1) {
      EXPECT_TRUE(letters_only(span)) << "window " << n << " repeats random letters";
      continue;
    }
    EXPECT_NE(std::search(ids.begin(), ids.end(), span.begin(), span.end()), ids.end())
        << "window " << n << " repeats a span of the text";
    with_spaces += !letters_only(span);
  }
  EXPECT_GT(with_spaces, 10u) << "prose spans hold spaces";
  // one step earlier, every repeat window is random letters
  for (int n = 1; n < 80; n += 2) {
    c.training_window(static_cast<std::size_t>(n), 16, attn::train::kProseRepeatsFrom - 1, rng, w);
    EXPECT_TRUE(letters_only(w)) << "window " << n;
  }
}

attn::train::TrainerConfig small_text_config(const std::string& text) {
  auto config = default_trainer_config("text", 1);
  config.text = text;
  config.model.seq_len = 16;
  config.batch_size = 4;
  return config;
}

TEST(text_trainer, needs_a_text_and_only_the_text_task_takes_one) {
  expect_error<attn::ValueError>([] { Trainer t(default_trainer_config("text", 1)); },
                                 "createTrainer: the text is empty");
  auto reverse = default_trainer_config("reverse", 1);
  reverse.text = "some text";
  expect_error<attn::ValueError>([&] { Trainer t(reverse); },
                                 "createTrainer: text is only for the text task; this trainer's "
                                 "task is reverse");
  expect_error<attn::ValueError>(
      [] { Trainer(default_trainer_config("lookup", 1)).corpus("encode"); },
      "encode: only a text trainer has an alphabet");
}

TEST(text_trainer, takes_its_vocab_and_task_from_its_text) {
  const Trainer t(small_text_config("Hello, hello: HELLO!"));
  EXPECT_EQ(t.task().id, "text");
  EXPECT_EQ(t.task().alphabet, " !,:EHLOehlo");
  EXPECT_EQ(t.task().vocab, 13u);
  EXPECT_EQ(t.model().config.vocab, 13u);
  EXPECT_EQ(t.task().answer_length, 16u);
  EXPECT_EQ(t.task().held_out, 0u);
  EXPECT_GT(t.task().unigram_bits, 3.0);
  const auto& tasks = attn::train::training_tasks();
  EXPECT_EQ(tasks.back().id, "text");
  EXPECT_EQ(tasks.back().alphabet, kDefaultAlphabet);
  EXPECT_EQ(tasks.back().vocab, 48u);
  EXPECT_EQ(tasks.back().seq_len(), 64u);
}

TEST(text_trainer, predicts_the_next_character_at_every_position_of_any_length) {
  Trainer t(small_text_config(attn::test::default_text()));
  t.step(3);
  for (std::size_t T : {1u, 5u, 16u}) {
    const std::vector<std::int32_t> ids = t.corpus("encode").encode(std::string(T, 'a'), "encode");
    attn::Tensor64 attention;
    const std::vector<std::int32_t> out = t.predict(ids, &attention);
    ASSERT_EQ(out.size(), T);
    ASSERT_EQ(attention.shape(), (attn::Shape{2, 2, T, T}));
    const attn::Tensor64 logits = attn::train::forward_f32(t.model(), ids);
    for (std::size_t i = 0; i < T; ++i) {
      std::size_t best = 0;
      for (std::size_t v = 1; v < 48; ++v) {
        best = logits(i, v) > logits(i, best) ? v : best;
      }
      EXPECT_EQ(out[i], static_cast<std::int32_t>(best)) << "T " << T << " position " << i;
    }
  }
  expect_error<attn::ShapeError>([&] { t.predict(std::vector<std::int32_t>(17, 0)); },
                                 "predict: a sequence of 17 tokens; the model reads 1..16");
  expect_error<attn::ValueError>([&] { t.predict({0, 48}); }, "predict: tokens[1] is 48");
}

TEST(text_trainer, reports_losses_in_bits_per_character) {
  auto config = small_text_config(attn::test::default_text());
  Trainer t(config);
  const double loss = t.step(1).loss;
  // an untrained model is about uniform over 48 ids: log2 48 = 5.58 bits (4.0 nats)
  EXPECT_NEAR(loss, std::log2(48.0), 0.5);
  const auto e = t.evaluate(16, 5);
  EXPECT_NEAR(e.loss, std::log2(48.0), 0.5);
  config.precision = attn::train::Precision::kFloat64;
  Trainer exact(config);
  exact.step(1);
  EXPECT_NEAR(exact.evaluate(16, 5).loss, e.loss, 1e-3); // same weights after one step, to rounding
}

TEST(text_trainer, save_and_restore_continue_bitwise_with_the_text) {
  Trainer a(small_text_config(attn::test::default_text()));
  a.step(2);
  Trainer b(a.save());
  EXPECT_EQ(b.config().text, a.config().text);
  a.step(3);
  b.step(3);
  EXPECT_EQ(a.model().weights, b.model().weights);
  EXPECT_EQ(a.step(0).loss, b.step(0).loss);
}

} // namespace
