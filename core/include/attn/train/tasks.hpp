// attn/train/tasks.hpp — toy tasks for the trainer, generated from a seed (no data files).
//
// A task example is an `input` (the whole prompt, separator included) and an `answer`. The model
// reads input ++ answer without its last token and is scored on predicting each answer token:
//   sequence  s = input ++ answer                      (P + A tokens)
//   tokens    = s[0 .. P + A − 2],  targets[t] = s[t + 1] for t ≥ P − 1, else no target
// so seq_len = P + A − 1. Greedy decoding feeds the input, appends the argmax token A times.
//
// Token layouts:
//   reverse      vocabulary 0–9 digits, 10 '='; input 6 digits, '=' (P = 7); answer the digits
//                reversed (A = 6)
//   sort         the same vocabulary and input; answer the digits in ascending order (A = 6)
//   lookup       0–7 keys a–h, 8–17 values 0–9, 18 '?'; input 4 (key, value) pairs, '?', a key
//                (P = 10); answer that key's value (A = 1)
//   retrieval2d  0–1 group A items, 2–3 group B items, 4 'A?', 5 'B?'; input an A and a B item
//                in random order and a query (P = 3); answer the queried group's item (A = 1)
//   text         characters of a text (attn/train/text.hpp: alphabet, windows, split); a window of
//                T + 1 characters is input its first character (P = 1) and answer the other T
//                (A = T, the context): every position is scored. Its examples come from the
//                trainer's TextCorpus, not from sample_task, and its losses are in bits per
//                character.
//
// Defaults (TaskDefaults; AdamW β₁ 0.9, β₂ 0.999, ε 1e-8, weight decay 0, batch 32) and the
// optimiser steps the default float32 path needs to reach 97 % greedy answer-token accuracy on
// evaluate(256, 12345), checked every 100 steps, for seeds 1–5 (tests/cpp/train_trainer_f32_test):
//   task         layers heads d_model MLP LN  lr     steps to 97 %
//   reverse      1      2     32      no  no  1e-2   100 for every seed
//   sort         1      2     32      yes no  1e-2   100–200
//   lookup       2      2     32      no  no  1e-2   300–500
//   retrieval2d  1      1     2       no  no  1e-1   20–330 (checked every 10 steps)
//   text         2      2     32      no  no  1e-2   context 64; the copying probe (text.hpp) is
//                                                    met in 900–1500 steps for seeds 1–5
//
// Digits are uniform (with repetition); lookup's keys are distinct, its values uniform with
// repetition, and the query is one of the four keys, uniform. All draws are Rng::below on one
// stream in the order the tokens appear, so a saved Rng state resumes the data exactly.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "attn/random.hpp"
#include "attn/train/model.hpp"

namespace attn::train {

/// A task's default model and optimiser: chosen so that it trains to ≥ 97 % greedy answer-token
/// accuracy quickly (see tests/cpp/train_trainer_test.cpp for what is checked).
struct TaskDefaults {
  std::size_t layers = 1;
  std::size_t heads = 1;
  std::size_t d_model = 32;
  bool mlp = false;
  std::size_t d_mlp = 0; ///< 0 = 4·d_model
  bool layer_norm = false;
  double learning_rate = 1e-2;
  double weight_decay = 0.0;
  std::size_t batch_size = 32;
};

struct TaskInfo {
  std::string id;
  std::string alphabet; ///< text: the characters of ids 0 .. vocab − 2 (UTF-8); others: empty
  std::string title;
  std::string description;
  std::size_t vocab = 0;         ///< token ids 0 .. vocab − 1
  std::size_t input_length = 0;  ///< P
  std::size_t answer_length = 0; ///< A
  TaskDefaults defaults;
  std::size_t held_out = 0; ///< text: characters held out for evaluate() (0: none)
  double unigram_bits = 0;  ///< text: unigram entropy of the training characters (bits)

  bool is_text() const {
    return id == "text";
  }

  /// Positions the model needs: P + A − 1.
  std::size_t seq_len() const {
    return input_length + answer_length - 1;
  }
};

/// One example of a task.
struct Example {
  std::vector<std::int32_t> input;
  std::vector<std::int32_t> answer;
};

/// Every task, in a fixed order: reverse, sort, lookup, retrieval2d, text (the text task's entry
/// with the default alphabet; a trainer's own TaskInfo describes its text).
const std::vector<TaskInfo>& training_tasks();

/// The task called `id`; throws ValueError "<fn>: unknown task 'x'; tasks are reverse, sort, ...".
const TaskInfo& find_task(const std::string& id, const std::string& fn);

/// Draws one example from `rng` (the layouts at the top of this file); not for text.
Example sample_task(const TaskInfo& task, Rng& rng);

/// The batch that trains on these examples (the layout at the top of this file): count × seq_len
/// tokens, targets at the answer positions. Throws ShapeError if an example has the wrong lengths.
Batch batch_of(const TaskInfo& task, const std::vector<Example>& examples);

} // namespace attn::train
