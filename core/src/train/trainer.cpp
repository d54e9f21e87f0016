// The trainer: data stream, AdamW steps, evaluation and greedy prediction (attn/train/trainer.hpp).
#include "attn/train/trainer.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "../kernels/kernels.hpp"
#include "../message.hpp"
#include "attn/error.hpp"
#include "model_f32.hpp"
#include "model_internal.hpp"

namespace attn::train {
namespace {

// The text of a text trainer (validated for its context), or none for the other tasks.
std::shared_ptr<const TextCorpus> corpus_for(const TrainerConfig& c, const std::string& fn) {
  if (c.task != "text") {
    if (!c.text.empty()) {
      fail<ValueError>({fn, ": text is only for the text task; this trainer's task is ", c.task});
    }
    return nullptr;
  }
  return std::make_shared<const TextCorpus>(c.text, c.model.seq_len, fn);
}

// The config with a text trainer's vocab: its text's alphabet and the unknown id.
TrainerConfig with_text_vocab(TrainerConfig c, const TextCorpus* corpus) {
  if (corpus) {
    c.model.vocab = corpus->vocab();
  }
  return c;
}

// The text task as `corpus` makes it: its alphabet, vocab, context, split and entropy.
std::shared_ptr<const TaskInfo> text_task(const TrainerConfig& c, const TextCorpus* corpus) {
  if (!corpus) {
    return nullptr;
  }
  TaskInfo t = find_task("text", "createTrainer");
  t.alphabet = corpus->alphabet();
  t.vocab = corpus->vocab();
  t.answer_length = c.model.seq_len;
  t.held_out = corpus->held_out();
  t.unigram_bits = corpus->unigram_bits();
  return std::make_shared<const TaskInfo>(std::move(t));
}

const TaskInfo& validated_task(const TrainerConfig& c, const TaskInfo* own,
                               const std::string& fn = "createTrainer") {
  const TaskInfo& task = own ? *own : find_task(c.task, fn);
  validate_config(c.model, fn);
  if (c.model.vocab < task.vocab) {
    throw ShapeError(fn + ": vocab " + std::to_string(c.model.vocab) + " is smaller than " +
                     c.task + "'s " + std::to_string(task.vocab) + " tokens");
  }
  if (c.model.seq_len < task.seq_len()) {
    throw ShapeError(fn + ": seq_len " + std::to_string(c.model.seq_len) + " is shorter than " +
                     c.task + "'s sequences of " + std::to_string(task.seq_len()) + " tokens");
  }
  if (c.batch_size == 0 || c.batch_size > kMaxBatchSize) {
    throw ShapeError(fn + ": batchSize is " + std::to_string(c.batch_size) + "; it must be 1.." +
                     std::to_string(kMaxBatchSize));
  }
  validate_adamw(c.optimiser, fn);
  if (c.precision != Precision::kFloat32 && c.precision != Precision::kFloat64) {
    throw ValueError(fn + ": precision is " + std::to_string(static_cast<int>(c.precision)) +
                     "; it must be float32 or float64");
  }
  return task;
}

std::vector<std::uint8_t> decay_mask(const Model& model) {
  std::vector<std::uint8_t> mask(model.weights.size(), 0);
  for (const ParameterInfo& p : model.layout) {
    std::fill(mask.begin() + static_cast<std::ptrdiff_t>(p.offset),
              mask.begin() + static_cast<std::ptrdiff_t>(p.offset + p.size), p.decay ? 1 : 0);
  }
  return mask;
}

Model restored_model(const TrainerConfig& config, const TaskInfo* own, const TrainerState& state) {
  validated_task(config, own, "loadTrainer");
  Model model;
  model.config = config.model;
  model.layout = parameter_layout(model.config);
  const std::size_t n = model.layout.back().offset + model.layout.back().size;
  if (state.weights.size() != n || state.m.size() != n || state.v.size() != n) {
    throw ShapeError("loadTrainer: the model has " + std::to_string(n) +
                     " weights; the state holds " + std::to_string(state.weights.size()) +
                     " weights and " + std::to_string(state.m.size()) + " and " +
                     std::to_string(state.v.size()) + " moments");
  }
  for (const ParameterInfo& p : model.layout) {
    for (std::size_t i = 0; i < p.size; ++i) {
      const double w = state.weights[p.offset + i];
      if (!std::isfinite(w)) {
        throw ValueError("loadTrainer: " + p.name + format_index(p.shape, i) + " is " +
                         format_number(w) + "; weights must be finite");
      }
    }
  }
  if ((state.data.increment & 1u) == 0) {
    throw ValueError("loadTrainer: the data stream's increment " +
                     std::to_string(state.data.increment) + " is even; not a saved Rng state");
  }
  model.weights = state.weights;
  const std::size_t heads = model.config.layers * model.config.heads;
  if (!state.head_enabled.empty() && state.head_enabled.size() != heads) {
    throw ShapeError("loadTrainer: head_enabled has " + std::to_string(state.head_enabled.size()) +
                     " flags; the model has layers x heads = " + std::to_string(heads) + " heads");
  }
  model.head_enabled = state.head_enabled;
  return model;
}

} // namespace

namespace detail {
TrainerScratch::TrainerScratch() : workspace_(std::make_unique<F32Workspace>()) {}
TrainerScratch::TrainerScratch(const TrainerScratch&) : TrainerScratch() {}
TrainerScratch& TrainerScratch::operator=(const TrainerScratch&) {
  return *this; // keeps its own buffers: scratch is not part of the value
}
TrainerScratch::~TrainerScratch() = default;
} // namespace detail

TrainerConfig default_trainer_config(const std::string& task_id, std::uint64_t seed) {
  const TaskInfo& task = find_task(task_id, "createTrainer");
  const TaskDefaults& d = task.defaults;
  TrainerConfig c;
  c.task = task.id;
  c.seed = seed;
  c.model.vocab = task.vocab;
  c.model.seq_len = task.seq_len();
  c.model.layers = d.layers;
  c.model.heads = d.heads;
  c.model.d_model = d.d_model;
  c.model.mlp = d.mlp;
  c.model.d_mlp = d.d_mlp;
  c.model.layer_norm = d.layer_norm;
  c.optimiser.learning_rate = d.learning_rate;
  c.optimiser.weight_decay = d.weight_decay;
  c.batch_size = d.batch_size;
  return c;
}

Trainer::Trainer(const TrainerConfig& config)
    : corpus_(corpus_for(config, "createTrainer")), config_(with_text_vocab(config, corpus_.get())),
      own_task_(text_task(config_, corpus_.get())),
      task_(&validated_task(config_, own_task_.get())),
      model_(init_model(config_.model, config_.seed)),
      optimiser_(model_.weights.size(), config.optimiser), data_(config.seed, kDataStream),
      decay_(decay_mask(model_)), last_loss_(std::numeric_limits<double>::quiet_NaN()) {}

Trainer::Trainer(const TrainerState& state)
    : corpus_(corpus_for(state.config, "loadTrainer")),
      config_(with_text_vocab(state.config, corpus_.get())),
      own_task_(text_task(config_, corpus_.get())),
      task_(own_task_ ? own_task_.get() : &find_task(config_.task, "loadTrainer")),
      model_(restored_model(config_, own_task_.get(), state)),
      optimiser_(state.config.optimiser, state.steps, state.m, state.v, "loadTrainer"),
      data_(state.data), decay_(decay_mask(model_)), last_loss_(state.last_loss) {}

TrainerState Trainer::save() const {
  return {config_,
          optimiser_.steps(),
          model_.weights,
          optimiser_.first_moment(),
          optimiser_.second_moment(),
          data_state(),
          last_loss_,
          model_.head_enabled};
}

void Trainer::set_head_enabled(std::size_t layer, std::size_t head, bool enabled) {
  if (open_) {
    throw ValueError("setHeadEnabled: a data-parallel step is open; finish or abort it first");
  }
  const ModelConfig& c = model_.config;
  if (layer >= c.layers) {
    throw ShapeError("setHeadEnabled: layer " + std::to_string(layer) + " is out of range; the " +
                     "model has layers 0.." + std::to_string(c.layers - 1));
  }
  if (head >= c.heads) {
    throw ShapeError("setHeadEnabled: head " + std::to_string(head) + " is out of range; each " +
                     "layer has heads 0.." + std::to_string(c.heads - 1));
  }
  if (model_.head_enabled.empty()) {
    model_.head_enabled.assign(c.layers * c.heads, 1);
  }
  model_.head_enabled[layer * c.heads + head] = enabled ? 1 : 0;
}

StepResult Trainer::step(std::size_t count) {
  if (open_) {
    throw ValueError("step: a data-parallel step is open; finish or abort it first");
  }
  if (config_.precision == Precision::kFloat32) {
    for (std::size_t s = 0; s < count; ++s) {
      const std::size_t parts = begin_step().parts;
      for (std::size_t i = 0; i < parts; ++i) {
        compute_part(i);
      }
      finish_step();
    }
    return {optimiser_.steps(), last_loss_};
  }
  for (std::size_t s = 0; s < count; ++s) {
    last_loss_ = loss_and_gradient_reference(model_, draw_batch(data_), gradient_) * loss_unit();
    optimiser_.step(model_.weights, gradient_, decay_);
  }
  return {optimiser_.steps(), last_loss_};
}

const StepPlan& Trainer::begin_step() {
  if (config_.precision != Precision::kFloat32) {
    throw ValueError("step: data-parallel steps run the float32 path; this trainer is float64");
  }
  if (open_) {
    throw ValueError("step: a data-parallel step is already open");
  }
  data_before_ = data_.state();
  plan_.batch = draw_batch(data_);
  std::size_t scored = 0;
  for (std::int32_t target : plan_.batch.targets) {
    scored += target != kNoTarget;
  }
  plan_.weight = 1.0 / static_cast<double>(scored);
  plan_.parts = micro_batch_count(plan_.batch.count);
  packed_ = false; // the float32 weights are converted and packed by the first compute_part
  parts_.resize(plan_.parts); // their buffers kept from step to step
  added_.assign(plan_.parts, 0);
  added_count_ = 0;
  open_ = true;
  return plan_;
}

const StepPart& Trainer::compute_part(std::size_t index) {
  if (!open_) {
    throw ValueError("step: no data-parallel step is open");
  }
  const Batch micro = micro_batch(plan_.batch, index); // throws for an index out of range
  check_new_part(index);
  detail::F32Workspace& ws = scratch_.get();
  // evaluate() or predict() since then leave the same weights in ws: they load the same model
  if (!packed_) {
    detail::load_weights_f32(model_, ws);
    packed_ = true;
  }
  StepPart& part = parts_[index];
  part.loss = detail::part_gradient_f32(kernels::best(), model_, micro, plan_.weight, part.gradient,
                                        ws, "step");
  added_[index] = 1;
  ++added_count_;
  return part;
}

void Trainer::add_part(std::size_t index, const std::vector<float>& gradient, double loss) {
  std::vector<float> copy;
  check_added_part(index, gradient.size());
  copy.swap(parts_[index].gradient); // its buffer, kept from step to step
  copy.assign(gradient.begin(), gradient.end());
  add_part(index, std::move(copy), loss);
}

void Trainer::add_part(std::size_t index, std::vector<float>&& gradient, double loss) {
  check_added_part(index, gradient.size());
  parts_[index].gradient.swap(gradient);
  parts_[index].loss = loss;
  added_[index] = 1;
  ++added_count_;
}

void Trainer::check_added_part(std::size_t index, std::size_t size) const {
  if (!open_) {
    throw ValueError("step: no data-parallel step is open");
  }
  if (index >= plan_.parts) {
    throw ShapeError("step: part " + std::to_string(index) +
                     " is out of range; the step has parts 0.." + std::to_string(plan_.parts - 1));
  }
  check_new_part(index);
  if (size != model_.weights.size()) {
    throw ShapeError("step: part " + std::to_string(index) + "'s gradient has " +
                     std::to_string(size) + " values; the model has " +
                     std::to_string(model_.weights.size()) + " weights");
  }
}

void Trainer::check_new_part(std::size_t index) const {
  if (added_[index]) {
    throw ValueError("step: part " + std::to_string(index) + " was already added");
  }
}

StepResult Trainer::finish_step() {
  if (!open_) {
    throw ValueError("step: no data-parallel step is open");
  }
  if (added_count_ != plan_.parts) {
    throw ValueError("step: " + std::to_string(added_count_) + " of " +
                     std::to_string(plan_.parts) + " parts are in; the step cannot finish");
  }
  // the parts summed in order, part 0 first, inside the AdamW step: the same bits wherever each
  // part was computed
  std::vector<const std::vector<float>*> gradients(plan_.parts);
  double loss = parts_[0].loss;
  gradients[0] = &parts_[0].gradient;
  for (std::size_t i = 1; i < plan_.parts; ++i) {
    gradients[i] = &parts_[i].gradient;
    loss += parts_[i].loss;
  }
  optimiser_.step_sum(model_.weights, gradients, decay_);
  last_loss_ = loss * loss_unit();
  open_ = false;
  return {optimiser_.steps(), last_loss_};
}

void Trainer::abort_step() {
  if (!open_) {
    return;
  }
  data_ = Rng(data_before_);
  open_ = false;
}

// One batch of the data stream: batch_size examples of the task, or windows of the text.
Batch Trainer::draw_batch(Rng& rng) const {
  std::vector<Example> examples(config_.batch_size);
  std::vector<std::int32_t> window;
  for (std::size_t n = 0; n < examples.size(); ++n) {
    if (!corpus_) {
      examples[n] = sample_task(*task_, rng);
      continue;
    }
    corpus_->training_window(n, config_.model.seq_len, optimiser_.steps(), rng, window);
    examples[n].input.assign(window.begin(), window.begin() + 1);
    examples[n].answer.assign(window.begin() + 1, window.end());
  }
  return batch_of(*task_, examples);
}

// What a loss in nats is multiplied by to report it: 1 / ln 2 (bits) for text, else 1.
double Trainer::loss_unit() const {
  return corpus_ ? 1.0 / std::log(2.0) : 1.0;
}

const TextCorpus& Trainer::corpus(const std::string& fn) const {
  if (!corpus_) {
    fail<ValueError>(
        {fn, ": only a text trainer has an alphabet; this trainer's task is ", task_->id});
  }
  return *corpus_;
}

Batch micro_batch(const Batch& batch, std::size_t index) {
  const std::size_t first = index * kMicroBatchSize;
  if (first >= batch.count) {
    throw ShapeError("step: micro-batch " + std::to_string(index) +
                     " is out of range; a batch of " + std::to_string(batch.count) + " has " +
                     std::to_string(micro_batch_count(batch.count)) + " micro-batches");
  }
  Batch micro;
  micro.count = std::min(kMicroBatchSize, batch.count - first);
  micro.length = batch.length;
  const auto from = static_cast<std::ptrdiff_t>(first * batch.length);
  const auto to = static_cast<std::ptrdiff_t>((first + micro.count) * batch.length);
  micro.tokens.assign(batch.tokens.begin() + from, batch.tokens.begin() + to);
  micro.targets.assign(batch.targets.begin() + from, batch.targets.begin() + to);
  return micro;
}

Evaluation Trainer::evaluate(std::size_t samples, std::uint64_t seed) const {
  if (samples == 0) {
    throw ShapeError("evaluate: samples is 0; it must be >= 1");
  }
  if (corpus_) {
    return evaluate_text(samples, seed);
  }
  Rng rng(seed, kDataStream);
  std::vector<Example> examples(samples);
  for (Example& e : examples) {
    e = sample_task(*task_, rng);
  }
  const std::size_t P = task_->input_length, A = task_->answer_length;
  std::size_t right = 0;
  Evaluation out;
  if (config_.precision == Precision::kFloat64) {
    for (const Example& e : examples) {
      const std::vector<std::int32_t> answer = predict(e.input);
      for (std::size_t i = 0; i < A; ++i) {
        right += answer[i] == e.answer[i];
      }
    }
    out.loss = loss_reference(model_, batch_of(*task_, examples));
  } else {
    const kernels::KernelSet& ks = kernels::best();
    detail::F32Workspace& ws = scratch_.get();
    detail::load_weights_f32(model_, ws);
    const std::size_t V = model_.config.vocab, T = task_->seq_len();
    double sum_ce = 0;
    std::vector<std::int32_t> redo_inputs, redo_answers;
    std::vector<std::size_t> redo;
    for (std::size_t first = 0; first < samples; first += kEvaluationBatch) {
      const std::size_t count = std::min(kEvaluationBatch, samples - first);
      const std::vector<Example> chunk(examples.begin() + static_cast<std::ptrdiff_t>(first),
                                       examples.begin() +
                                           static_cast<std::ptrdiff_t>(first + count));
      // pass 1: teacher-forced, the loss and the argmax at every answer position
      const Batch batch = batch_of(*task_, chunk);
      detail::forward_batch_f32(ks, model_, batch.tokens.data(), count, T, ws);
      sum_ce += detail::cross_entropy_f32(ks, ws.logits.data(), V, batch.targets.data(), count * T,
                                          1.0, nullptr, ws);
      redo.clear();
      for (std::size_t b = 0; b < count; ++b) {
        bool all_right = true;
        for (std::size_t a = 0; a < A && all_right; ++a) {
          all_right = detail::argmax_row(ws.logits.data() + (b * T + P - 1 + a) * V,
                                         task_->vocab) == chunk[b].answer[a];
        }
        if (all_right) {
          right += A;
        } else {
          redo.push_back(b);
        }
      }
      // pass 2: greedy decoding of the samples with a wrong token, all together
      if (!redo.empty()) {
        redo_inputs.clear();
        for (std::size_t b : redo) {
          redo_inputs.insert(redo_inputs.end(), chunk[b].input.begin(), chunk[b].input.end());
        }
        redo_answers.assign(redo.size() * A, 0);
        detail::greedy_decode_f32(ks, model_, redo_inputs.data(), redo.size(), P, A, task_->vocab,
                                  redo_answers.data(), ws);
        for (std::size_t i = 0; i < redo.size(); ++i) {
          for (std::size_t a = 0; a < A; ++a) {
            right += redo_answers[i * A + a] == chunk[redo[i]].answer[a];
          }
        }
      }
    }
    out.loss = sum_ce / static_cast<double>(samples * A);
  }
  out.accuracy = static_cast<double>(right) / static_cast<double>(samples * A);
  return out;
}

// Text: teacher-forced loss (bits) and next-character accuracy over held-out windows.
Evaluation Trainer::evaluate_text(std::size_t samples, std::uint64_t seed) const {
  Rng rng(seed, kDataStream);
  const std::size_t T = config_.model.seq_len, V = model_.config.vocab;
  Batch batch;
  batch.count = samples;
  batch.length = T;
  std::vector<std::int32_t> window;
  for (std::size_t b = 0; b < samples; ++b) {
    corpus_->evaluation_window(T, rng, window);
    batch.tokens.insert(batch.tokens.end(), window.begin(), window.end() - 1);
    batch.targets.insert(batch.targets.end(), window.begin() + 1, window.end());
  }
  std::size_t right = 0;
  Evaluation out;
  if (config_.precision == Precision::kFloat64) {
    out.loss = loss_reference(model_, batch);
    for (std::size_t b = 0; b < samples; ++b) {
      const std::vector<std::int32_t> tokens(
          batch.tokens.begin() + static_cast<std::ptrdiff_t>(b * T),
          batch.tokens.begin() + static_cast<std::ptrdiff_t>((b + 1) * T));
      const Tensor64 logits = forward_reference(model_, tokens);
      for (std::size_t t = 0; t < T; ++t) {
        right += detail::argmax_row(logits.data() + t * V, V) == batch.targets[b * T + t];
      }
    }
  } else {
    const kernels::KernelSet& ks = kernels::best();
    detail::F32Workspace& ws = scratch_.get();
    detail::load_weights_f32(model_, ws);
    double sum_ce = 0;
    for (std::size_t first = 0; first < samples; first += kEvaluationBatch) {
      const std::size_t count = std::min(kEvaluationBatch, samples - first);
      const std::int32_t* targets = batch.targets.data() + first * T;
      detail::forward_batch_f32(ks, model_, batch.tokens.data() + first * T, count, T, ws);
      sum_ce +=
          detail::cross_entropy_f32(ks, ws.logits.data(), V, targets, count * T, 1.0, nullptr, ws);
      for (std::size_t r = 0; r < count * T; ++r) {
        right += detail::argmax_row(ws.logits.data() + r * V, V) == targets[r];
      }
    }
    out.loss = sum_ce / static_cast<double>(samples * T);
  }
  out.loss *= loss_unit();
  out.accuracy = static_cast<double>(right) / static_cast<double>(samples * T);
  return out;
}

Example Trainer::sample(std::uint64_t seed) const {
  Rng rng(seed, kDataStream);
  if (!corpus_) {
    return sample_task(*task_, rng);
  }
  std::vector<std::int32_t> window;
  corpus_->training_window(0, config_.model.seq_len, 0, rng, window);
  return {{window.front()}, {window.begin() + 1, window.end()}};
}

std::vector<std::int32_t> Trainer::predict(const std::vector<std::int32_t>& input,
                                           Tensor64* attention) const {
  if (corpus_) { // the argmax next character after every position
    detail::validate_sequence(model_, input, "predict");
    const std::size_t T = input.size(), V = model_.config.vocab;
    const Tensor64 logits =
        config_.precision == Precision::kFloat32
            ? detail::forward_f32(kernels::best(), model_, input, attention, scratch_.get())
            : forward_reference(model_, input, attention);
    std::vector<std::int32_t> out(T);
    for (std::size_t t = 0; t < T; ++t) {
      out[t] = detail::argmax_row(logits.data() + t * V, V);
    }
    return out;
  }
  if (input.size() != task_->input_length) {
    throw ShapeError("predict: input has " + std::to_string(input.size()) + " tokens; " +
                     task_->id + " inputs have " + std::to_string(task_->input_length));
  }
  for (std::size_t i = 0; i < input.size(); ++i) {
    if (input[i] < 0 || static_cast<std::size_t>(input[i]) >= task_->vocab) {
      throw ValueError("predict: input[" + std::to_string(i) + "] is " + std::to_string(input[i]) +
                       "; " + task_->id + " tokens are 0.." + std::to_string(task_->vocab - 1));
    }
  }
  const std::size_t A = task_->answer_length;
  if (config_.precision == Precision::kFloat32) {
    detail::F32Workspace& ws = scratch_.get();
    detail::load_weights_f32(model_, ws);
    std::vector<std::int32_t> answer(A);
    detail::greedy_decode_f32(kernels::best(), model_, input.data(), 1, input.size(), A,
                              task_->vocab, answer.data(), ws);
    if (attention) {
      const ModelConfig& c = model_.config;
      const std::size_t T = input.size() + A - 1;
      *attention = Tensor64::from_shape({c.layers, c.heads, T, T});
      double* out = attention->data();
      for (std::size_t l = 0; l < c.layers; ++l) {
        out = std::copy_n(ws.layers[l].p.data(), c.heads * T * T, out);
      }
    }
    return answer;
  }
  std::vector<std::int32_t> tokens = input;
  std::vector<std::int32_t> answer;
  for (std::size_t a = 0; a < A; ++a) {
    const bool last = a + 1 == A;
    const Tensor64 logits = forward_reference(model_, tokens, last ? attention : nullptr);
    const std::size_t t = tokens.size() - 1;
    const std::int32_t best =
        detail::argmax_row(logits.data() + t * logits.shape()[1], task_->vocab);
    answer.push_back(best);
    tokens.push_back(best);
  }
  return answer;
}

} // namespace attn::train
