// attn/train/trainer.hpp — trains a model on a toy task: data stream, AdamW steps, greedy
// evaluation and prediction.
//
// Precision: with Precision::kFloat32 (the default) step, evaluate and predict run the float32
// path (loss_and_gradient_f32 and friends on kernels::best(): SIMD128 in the wasm-simd build, SSE2
// natively): float32 compute, float64 master weights and moments. The weights and the AdamW
// moments stay float64 (Model::weights, AdamW, save() are the same for both precisions); before
// each forward and backward pass the weights are converted to a float32 copy, and the gradient
// comes back in float64 for the AdamW step. Precision::kFloat64 runs the float64 reference.
//
// Micro-batches: a float32 step cuts its batch into micro-batches of kMicroBatchSize sequences,
// computes each one's part of the gradient (its cross-entropy scaled by 1 / the batch's answer
// tokens) and adds the parts in order, part 0 first, in float64. A pool runs one replica of the
// trainer on each worker (Trainer(save())): every replica opens the same step (begin_step),
// computes its share of the parts (compute_part), adds the others' (add_part) and finishes it
// (finish_step), so every replica ends bitwise where step() on one thread ends, whatever the number
// of workers. The float64 reference runs whole batches.
//
// Determinism: everything is drawn from two PCG32 streams of the seed: Rng(seed, 0) initialises
// the weights (init_model), Rng(seed, kDataStream) draws the training batches one after the other.
// So the same config and seed give bitwise the same weights after n steps in one build (and one
// precision), and step(a) then step(b) equals step(a + b): the data stream simply continues.
// Builds with different kernel sets (wasm SIMD against scalar, native against wasm) agree per step
// to rounding but may drift apart over a long run, as any two float implementations do.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "attn/random.hpp"
#include "attn/train/adamw.hpp"
#include "attn/train/model.hpp"
#include "attn/train/tasks.hpp"
#include "attn/train/text.hpp"

namespace attn::train {

namespace detail {
struct F32Workspace;
/// The float32 path's scratch buffers, owned by a trainer so that a step allocates nothing once
/// they have grown. Not part of a trainer's value: a copy starts with empty buffers. Because the
/// const calls (evaluate, predict) write them too, one Trainer must not be used from two threads
/// at once.
class TrainerScratch {
public:
  TrainerScratch();
  TrainerScratch(const TrainerScratch&);
  TrainerScratch& operator=(const TrainerScratch&);
  ~TrainerScratch();
  F32Workspace& get() const {
    return *workspace_;
  }

private:
  std::unique_ptr<F32Workspace> workspace_;
};
} // namespace detail

/// The Rng stream of the training data (the weights use stream 0).
constexpr std::uint64_t kDataStream = 1;
/// Largest batch: 4096 sequences.
constexpr std::size_t kMaxBatchSize = 4096;
/// Samples per forward pass in Trainer::evaluate (float32).
constexpr std::size_t kEvaluationBatch = 256;

/// Which forward and backward pass a trainer runs. Both train the same model; the float64 path is
/// the oracle the float32 one is checked against.
enum class Precision {
  kFloat32, ///< float32 kernels (SIMD128 / SSE2 where the build has them): the default
  kFloat64, ///< the float64 reference (plain loops)
};

/// Sequences per micro-batch of a float32 step (the last micro-batch may be shorter).
constexpr std::size_t kMicroBatchSize = 8;

/// How many micro-batches a batch of `batch_size` sequences is cut into.
constexpr std::size_t micro_batch_count(std::size_t batch_size) {
  return (batch_size + kMicroBatchSize - 1) / kMicroBatchSize;
}

/// Micro-batch `index` of `batch`: its sequences [index · kMicroBatchSize, …) as a batch.
/// Throws ShapeError for an index past the last.
Batch micro_batch(const Batch& batch, std::size_t index);

struct TrainerConfig {
  std::string task;
  std::uint64_t seed = 1;
  /// model.vocab and model.seq_len must cover the task's. For text, model.vocab is always the
  /// text's alphabet + 1 (the trainer sets it) and model.seq_len is the context T (≥ 2).
  ModelConfig model;
  AdamWOptions optimiser;
  std::size_t batch_size = 32;
  Precision precision = Precision::kFloat32; ///< float32 compute (default) or the float64 reference
  std::string text; ///< text: the UTF-8 text to train on (required; empty for the other tasks)
};

/// The task's defaults as a config: its vocab and seq_len, layers, heads, d_model, MLP, LN,
/// learning rate, weight decay (other AdamW options at their defaults) and batch size.
/// Throws ValueError for an unknown task.
TrainerConfig default_trainer_config(const std::string& task, std::uint64_t seed = 1);

struct StepResult {
  std::uint64_t step = 0; ///< optimiser steps taken so far
  double loss = 0;        ///< mean cross-entropy over the answer tokens of the last batch (nats;
                          ///< text: bits per character)
};

struct Evaluation {
  double loss = 0;     ///< mean teacher-forced cross-entropy over the answer tokens (text: bits)
  double accuracy = 0; ///< share of answer tokens that greedy decoding gets right (text: the
                       ///< share of characters whose teacher-forced argmax is right)
};

/// Everything a trainer holds that changes as it trains: restoring it continues exactly as the
/// saved trainer would (the core of exportState / loadTrainer).
struct TrainerState {
  TrainerConfig config;
  std::uint64_t steps = 0;                ///< optimiser steps taken
  std::vector<double> weights;            ///< layout order (parameter_layout(config.model))
  std::vector<double> m, v;               ///< AdamW moments, same layout
  RngState data;                          ///< the training data stream
  double last_loss = 0;                   ///< loss of the last step (NaN before the first)
  std::vector<std::uint8_t> head_enabled; ///< Model::head_enabled (empty: all on)
};

/// A float32 step that Trainer::begin_step opened.
struct StepPlan {
  Batch batch;           ///< the step's sequences, drawn from the data stream
  double weight = 0;     ///< 1 / the answer tokens of the batch: every part's loss scale
  std::size_t parts = 0; ///< micro_batch_count(batch.count)
};

/// One part of a step: the gradient (float32, layout order) of StepPlan::weight · the
/// cross-entropy summed over its micro-batch's answer tokens, and that loss.
struct StepPart {
  std::vector<float> gradient;
  double loss = 0;
};

class Trainer {
public:
  /// Validates (fn "createTrainer": unknown task, model sizes, vocab or seq_len too small for
  /// the task, batch size 0 or above kMaxBatchSize, AdamW options, a precision that is neither)
  /// and initialises the weights.
  explicit Trainer(const TrainerConfig& config);

  /// Restores a saved state. Throws as the constructor does for its config (fn "loadTrainer"),
  /// and ShapeError / ValueError for weights or moments of the wrong size or not finite, or a
  /// data stream that is not a saved Rng state, naming what is wrong.
  explicit Trainer(const TrainerState& state);

  /// The state to save; Trainer(save()) continues identically.
  TrainerState save() const;

  /// Runs `count` optimiser steps (0 is allowed: nothing changes and loss is that of the last
  /// step, or NaN before the first).
  StepResult step(std::size_t count = 1);

  /// Data-parallel steps: step(n) is n times begin_step(), compute_part(i) for every part,
  /// finish_step(); in a pool each replica computes its share and add_part()s the others'.
  /// begin_step opens a float32 step: draws its batch. Throws ValueError for a float64 trainer or
  /// while a step is open.
  const StepPlan& begin_step();
  /// Computes part `index` of the open step here and adds it; returns it, for the other replicas
  /// (valid until the next compute_part). The first part of a step converts and packs the weights.
  const StepPart& compute_part(std::size_t index);
  /// Adds part `index` of the open step, computed by another replica: parts may come in any order
  /// and are summed in order. Throws ShapeError / ValueError for an index out of range or given
  /// twice, a gradient of the wrong size, or no step open.
  void add_part(std::size_t index, const std::vector<float>& gradient, double loss);
  /// add_part taking over `gradient`'s buffer instead of copying it (`gradient` is left with a
  /// buffer of the trainer's, of no particular content).
  void add_part(std::size_t index, std::vector<float>&& gradient, double loss);
  /// Closes the open step once every part is in: the AdamW step on the sum of the parts.
  StepResult finish_step();
  /// Drops the open step (if any): the data stream goes back to before it; nothing else changed.
  void abort_step();
  /// Whether a step is open.
  bool step_open() const {
    return open_;
  }

  /// `samples` fresh examples from Rng(seed, kDataStream) (a stream of its own, independent of
  /// training): teacher-forced loss and greedy answer-token accuracy. Throws ShapeError for 0.
  /// In float32 the samples run as batches of up to kEvaluationBatch: one teacher-forced pass
  /// gives the loss, and the greedy answer of every sample whose teacher-forced argmaxes are all
  /// right (greedy decoding then reads exactly the teacher's tokens); the others are decoded
  /// greedily together, one answer position at a time. Either way each sample's answer is the one
  /// predict() gives. For text: `samples` windows of the held-out text (TaskInfo::held_out; the
  /// training text when nothing is held out), loss in bits per character and teacher-forced
  /// next-character accuracy over all their positions.
  Evaluation evaluate(std::size_t samples = 256, std::uint64_t seed = 12345) const;

  /// One example of the task drawn from Rng(seed, kDataStream) (text: a plain training window).
  Example sample(std::uint64_t seed) const;

  /// Greedy answer for a task input: appends argmax tokens (lowest id on ties) answer_length
  /// times. With `attention`, the weights (layers, heads, T, T) of the last forward pass, which
  /// read the input and every answer token but the last (T = seq_len).
  /// Throws ShapeError (wrong input length) or ValueError (a token outside the vocabulary).
  /// For text, `input` is any 1..seq_len ids and the result has one id per position: the argmax
  /// next character after it (lowest id on ties); `attention` is (layers, heads, T, T) for T the
  /// input's length.
  std::vector<std::int32_t> predict(const std::vector<std::int32_t>& input,
                                    Tensor64* attention = nullptr) const;

  /// Ablates head `head` of layer `layer` (its output zeroed) or restores it; training and
  /// prediction use the mask. Throws ShapeError naming the index and the valid range.
  void set_head_enabled(std::size_t layer, std::size_t head, bool enabled);

  const TrainerConfig& config() const {
    return config_;
  }
  const TaskInfo& task() const {
    return *task_;
  }
  /// The text of a text trainer; throws ValueError (starting with `fn`) for another task.
  const TextCorpus& corpus(const std::string& fn) const;
  const Model& model() const {
    return model_;
  }
  const AdamW& optimiser() const {
    return optimiser_;
  }
  /// The training data stream, for saving (exportState); while a step is open, as before it.
  RngState data_state() const {
    return open_ ? data_before_ : data_.state();
  }

private:
  std::shared_ptr<const TextCorpus> corpus_; ///< text only (shared by copies: it never changes)
  TrainerConfig config_;
  std::shared_ptr<const TaskInfo> own_task_; ///< text only: the task as this text makes it
  const TaskInfo* task_;
  Model model_;
  AdamW optimiser_;
  Rng data_;
  std::vector<std::uint8_t> decay_;
  std::vector<double> gradient_;
  double last_loss_;
  // the open step: its plan, the data stream before it and its parts, computed here or added
  // (added_[i]); finish_step sums them in order
  bool open_ = false;
  StepPlan plan_;
  RngState data_before_;
  std::vector<StepPart> parts_;
  std::vector<std::uint8_t> added_;
  std::size_t added_count_ = 0;
  bool packed_ = false; ///< whether the scratch holds the open step's packed float32 weights

  void check_new_part(std::size_t index) const;
  Batch draw_batch(Rng& rng) const;
  double loss_unit() const;
  Evaluation evaluate_text(std::size_t samples, std::uint64_t seed) const;
  void check_added_part(std::size_t index, std::size_t size) const;
  detail::TrainerScratch scratch_;
};

} // namespace attn::train
