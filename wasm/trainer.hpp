// The trainer as JS holds it: an Embind class "Trainer" wrapping attn::train::Trainer, created by
// createTrainer / loadTrainer (trainer.cpp) and freed by its .delete(). Every method returns its
// result or {error, kind} (marshal.hpp), as the other bindings do.
#pragma once

#include <string>
#include <vector>

#include <emscripten/val.h>

#include "attn/train/trainer.hpp"

namespace attn::wasm {

using emscripten::val;

class TrainerHandle {
public:
  explicit TrainerHandle(train::Trainer&& trainer);

  /// step(count) -> {step, loss}
  val step(double count);
  /// evaluate(samples, seed) -> {loss, accuracy}
  val evaluate(double samples, double seed) const;
  /// sample(seed) -> {input: number[], answer: number[]}
  val sample(double seed) const;
  /// predict(input: number[]) -> {output: number[], attention: {data: Float32Array, shape
  /// (layers, heads, T, T)}}
  val predict(const val& input) const;
  /// setHeadEnabled(layer, head, enabled) -> {}
  val set_head_enabled(double layer, double head, bool enabled);
  /// parameters() -> {name: {data: Float32Array, shape}} for every tensor, layout order
  val parameters() const;
  /// layout() -> [{name, shape, offset, size}]
  val layout() const;
  /// save() -> {config, step, weights, m, v: Float64Array, data: {state, increment: decimal
  /// strings, spareNormal, hasSpare}, lastLoss (NaN before the first step), headEnabled:
  /// Uint8Array (layers · heads)}
  val save() const;
  /// Data-parallel steps (a pool; attn/train/trainer.hpp "Micro-batches"):
  /// beginStep() -> {parts}
  val begin_step();
  /// computePart(index) -> {gradient: Float32Array, loss}: the part, computed here and added
  val compute_part(double index);
  /// addPart(index, gradient: Float32Array, loss) -> {}
  val add_part(double index, const val& gradient, double loss);
  /// finishStep() -> {step, loss}
  val finish_step();
  /// abortStep() -> {}
  val abort_step();
  /// config() -> the resolved config, createTrainer's option names plus task and seed
  val config() const;
  /// task() -> the task's info, as one entry of trainingTasks()
  val task() const;
  /// Text trainers (the others answer {error}): encode(text) -> number[] (one id per character),
  /// decode(ids) -> string, unknownCharacters(text) -> string[] (distinct, first seen first)
  val encode(const std::string& text) const;
  val decode(const val& ids) const;
  val unknown_characters(const std::string& text) const;
  /// copyingProbe(length, count, seed) -> {firstCopyAccuracy, secondCopyAccuracy, previousToken:
  /// number[], prefixMatching: number[] (layers · heads, layer-major), previousTokenHeads,
  /// inductionHeads, knockedOutAccuracy, copiesInContext}
  val copying_probe(double length, double count, double seed) const;
  /// ovCircuit(layer, head), qkCircuit(layer, head, source) -> {data: Float32Array, shape (V, V)}
  /// (attn/train/circuits.hpp)
  val ov_circuit(double layer, double head) const;
  val qk_circuit(double layer, double head, double source) const;

private:
  train::Trainer trainer_;
  std::vector<float> part_; ///< addPart's copy of a part's gradient, kept for its capacity
};

/// trainingTasks() -> [{id, title, description, vocab, inputLength, answerLength, seqLen,
/// defaults}] (text also: alphabet, heldOut, unigramBits)
val training_tasks();
/// createTrainer(options) -> {trainer} or {error, kind}: options as trainer.cpp reads them.
val create_trainer(const val& options);
/// loadTrainer(state) -> {trainer} or {error, kind}: state as save() gives it.
val load_trainer(const val& state);

} // namespace attn::wasm
