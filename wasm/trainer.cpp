// The trainer bindings: attn::train::Trainer as an Embind class owned by JS (freed by .delete()),
// its factories and the task table. Marshalling only: config objects <-> TrainerConfig, flat
// weights <-> typed arrays, 64-bit generator words <-> decimal strings. Defaults, validation
// and training are the core's; the JS engine (web/src/engine/trainer.js) checks JS types first.
#include "trainer.hpp"

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include <emscripten/bind.h>

#include "attn/error.hpp"
#include "attn/train/circuits.hpp"
#include "attn/train/model.hpp"
#include "attn/train/tasks.hpp"
#include "attn/train/text.hpp"
#include "attn/train/trainer.hpp"
#include "marshal.hpp"

namespace attn::wasm {

using train::Precision;
using train::Trainer;
using train::TrainerConfig;
using train::TrainerState;

namespace {

val array_of(const std::vector<std::int32_t>& values) {
  val out = val::array();
  for (std::int32_t x : values) {
    out.call<void>("push", static_cast<double>(x));
  }
  return out;
}

val shape_of(const Shape& shape) {
  val out = val::array();
  for (std::size_t extent : shape) {
    out.call<void>("push", static_cast<double>(extent));
  }
  return out;
}

// A float64 array as a float32 tensor {data: Float32Array, shape}.
val float32_tensor(const double* values, const Shape& shape) {
  Tensor t = Tensor::from_shape(shape);
  for (std::size_t i = 0; i < t.size(); ++i) {
    t.data()[i] = static_cast<float>(values[i]);
  }
  return tensor_to_js(t);
}

// A Float64Array / Uint8Array (any array-like of numbers) copied into a vector.
template <class T> std::vector<T> vector_from_js(const val& data) {
  std::vector<T> out(data["length"].as<std::size_t>());
  val(emscripten::typed_memory_view(out.size(), out.data())).call<void>("set", data);
  return out;
}

// Token ids from a JS array of numbers; one outside int32 becomes -1, outside every vocabulary
// (the core names it).
std::vector<std::int32_t> ids_from_js(const val& ids) {
  std::vector<std::int32_t> out;
  for (double x : emscripten::vecFromJSArray<double>(ids)) {
    out.push_back(x >= -2147483648.0 && x <= 2147483647.0 ? static_cast<std::int32_t>(x) : -1);
  }
  return out;
}

// A 64-bit generator word: decimal digits (the engine checked them) -> uint64.
std::uint64_t u64_from_js(const val& text, const std::string& name) {
  const std::string s = text.as<std::string>();
  errno = 0;
  char* end = nullptr;
  const unsigned long long value = std::strtoull(s.c_str(), &end, 10);
  if (s.empty() || *end != '\0' || errno == ERANGE || s[0] == '-' || s[0] == '+') {
    throw ValueError(name + " is \"" + s + "\"; it must be a whole number from 0 to 2^64 - 1");
  }
  return value;
}

val task_to_js(const train::TaskInfo& task) {
  val out = val::object();
  out.set("id", task.id);
  out.set("title", task.title);
  out.set("description", task.description);
  out.set("vocab", static_cast<double>(task.vocab));
  out.set("inputLength", static_cast<double>(task.input_length));
  out.set("answerLength", static_cast<double>(task.answer_length));
  out.set("seqLen", static_cast<double>(task.seq_len()));
  if (task.is_text()) {
    out.set("alphabet", task.alphabet);
    out.set("heldOut", static_cast<double>(task.held_out));
    out.set("unigramBits", task.unigram_bits);
  }
  const train::TaskDefaults& d = task.defaults;
  val defaults = val::object();
  defaults.set("layers", static_cast<double>(d.layers));
  defaults.set("heads", static_cast<double>(d.heads));
  defaults.set("dModel", static_cast<double>(d.d_model));
  defaults.set("mlp", d.mlp);
  defaults.set("dMlp", static_cast<double>(d.d_mlp));
  defaults.set("layerNorm", d.layer_norm);
  defaults.set("learningRate", d.learning_rate);
  defaults.set("weightDecay", d.weight_decay);
  defaults.set("batchSize", static_cast<double>(d.batch_size));
  out.set("defaults", defaults);
  return out;
}

// The config fields the engine passes (createTrainer's option names), over the task's defaults:
// a field that is undefined keeps its default. vocab and seq_len are always the task's.
TrainerConfig config_from_js(const val& options, const std::string& fn) {
  const std::string task = train::find_task(options["task"].as<std::string>(), fn).id;
  TrainerConfig c = train::default_trainer_config(task);
  const auto present = [&](const char* field) { return !options[field].isUndefined(); };
  const auto size = [&](const char* field, std::size_t& target) {
    if (present(field)) {
      target = whole_size(options[field].as<double>(), fn + ": " + field);
    }
  };
  const auto number = [&](const char* field, double& target) {
    if (present(field)) {
      target = options[field].as<double>();
    }
  };
  const auto flag = [&](const char* field, bool& target) {
    if (present(field)) {
      target = options[field].as<bool>();
    }
  };
  if (present("seed")) {
    c.seed = whole_number(options["seed"].as<double>(), 0, kMaxSafeInteger, fn + ": seed");
  }
  size("layers", c.model.layers);
  size("heads", c.model.heads);
  size("dModel", c.model.d_model);
  flag("mlp", c.model.mlp);
  size("dMlp", c.model.d_mlp);
  flag("layerNorm", c.model.layer_norm);
  number("learningRate", c.optimiser.learning_rate);
  number("weightDecay", c.optimiser.weight_decay);
  number("beta1", c.optimiser.beta1);
  number("beta2", c.optimiser.beta2);
  number("eps", c.optimiser.eps);
  size("batchSize", c.batch_size);
  if (present("text")) {
    c.text = options["text"].as<std::string>();
  }
  if (present("precision")) {
    const std::string p = options["precision"].as<std::string>();
    if (p != "float32" && p != "float64") {
      throw ValueError(fn + ": precision is '" + p + "'; it must be 'float32' or 'float64'");
    }
    c.precision = p == "float64" ? Precision::kFloat64 : Precision::kFloat32;
  }
  return c;
}

val config_to_js(const TrainerConfig& c) {
  val out = val::object();
  out.set("task", c.task);
  out.set("seed", static_cast<double>(c.seed));
  out.set("layers", static_cast<double>(c.model.layers));
  out.set("heads", static_cast<double>(c.model.heads));
  out.set("dModel", static_cast<double>(c.model.d_model));
  out.set("mlp", c.model.mlp);
  out.set("dMlp", static_cast<double>(c.model.d_mlp));
  out.set("layerNorm", c.model.layer_norm);
  out.set("learningRate", c.optimiser.learning_rate);
  out.set("weightDecay", c.optimiser.weight_decay);
  out.set("beta1", c.optimiser.beta1);
  out.set("beta2", c.optimiser.beta2);
  out.set("eps", c.optimiser.eps);
  out.set("batchSize", static_cast<double>(c.batch_size));
  out.set("precision", std::string(c.precision == Precision::kFloat64 ? "float64" : "float32"));
  if (c.task == "text") {
    out.set("text", c.text);
  }
  return out;
}

val trainer_to_js(Trainer&& trainer) {
  val out = val::object();
  out.set("trainer", val(TrainerHandle(std::move(trainer))));
  return out;
}

} // namespace

TrainerHandle::TrainerHandle(Trainer&& trainer) : trainer_(std::move(trainer)) {}

val TrainerHandle::step(double count) {
  return guarded([&] {
    const train::StepResult r = trainer_.step(whole_size(count, "step: count"));
    val out = val::object();
    out.set("step", static_cast<double>(r.step));
    out.set("loss", r.loss);
    return out;
  });
}

val TrainerHandle::evaluate(double samples, double seed) const {
  return guarded([&] {
    const train::Evaluation e =
        trainer_.evaluate(whole_size(samples, "evaluate: samples"),
                          whole_number(seed, 0, kMaxSafeInteger, "evaluate: seed"));
    val out = val::object();
    out.set("loss", e.loss);
    out.set("accuracy", e.accuracy);
    return out;
  });
}

val TrainerHandle::sample(double seed) const {
  return guarded([&] {
    const train::Example e =
        trainer_.sample(whole_number(seed, 0, kMaxSafeInteger, "sample: seed"));
    val out = val::object();
    out.set("input", array_of(e.input));
    out.set("answer", array_of(e.answer));
    return out;
  });
}

val TrainerHandle::predict(const val& input) const {
  return guarded([&] {
    Tensor64 attention;
    const std::vector<std::int32_t> output = trainer_.predict(ids_from_js(input), &attention);
    val out = val::object();
    out.set("output", array_of(output));
    out.set("attention", float32_tensor(attention.data(),
                                        Shape(attention.shape().begin(), attention.shape().end())));
    return out;
  });
}

val TrainerHandle::encode(const std::string& text) const {
  return guarded([&] { return array_of(trainer_.corpus("encode").encode(text, "encode")); });
}

val TrainerHandle::decode(const val& ids) const {
  return guarded([&] { return val(trainer_.corpus("decode").decode(ids_from_js(ids), "decode")); });
}

val TrainerHandle::unknown_characters(const std::string& text) const {
  return guarded([&] {
    // one string per character: the core's UTF-8, split by JS into code points
    const std::string chars =
        trainer_.corpus("unknownCharacters").unknown_characters(text, "unknownCharacters");
    return val::global("Array").call<val>("from", val(chars));
  });
}

val TrainerHandle::copying_probe(double length, double count, double seed) const {
  return guarded([&] {
    const train::CopyingProbe p = train::copying_probe(
        trainer_.model(), trainer_.corpus("copyingProbe").probe_symbols(),
        whole_size(length, "copyingProbe: length"), whole_size(count, "copyingProbe: count"),
        whole_number(seed, 0, kMaxSafeInteger, "copyingProbe: seed"));
    const auto numbers = [](const std::vector<double>& values) {
      val out = val::array();
      for (double x : values) {
        out.call<void>("push", x);
      }
      return out;
    };
    val out = val::object();
    out.set("firstCopyAccuracy", p.first_copy_accuracy);
    out.set("secondCopyAccuracy", p.second_copy_accuracy);
    out.set("previousToken", numbers(p.previous_token));
    out.set("prefixMatching", numbers(p.prefix_matching));
    out.set("previousTokenHeads", static_cast<double>(p.previous_token_heads));
    out.set("inductionHeads", static_cast<double>(p.induction_heads));
    out.set("knockedOutAccuracy", p.knocked_out_accuracy);
    out.set("copiesInContext", p.copies_in_context());
    return out;
  });
}

val TrainerHandle::ov_circuit(double layer, double head) const {
  return guarded([&] {
    const Tensor64 c = train::ov_circuit(trainer_.model(), whole_size(layer, "ovCircuit: layer"),
                                         whole_size(head, "ovCircuit: head"));
    return float32_tensor(c.data(), Shape(c.shape().begin(), c.shape().end()));
  });
}

val TrainerHandle::qk_circuit(double layer, double head, double source) const {
  return guarded([&] {
    const Tensor64 c = train::qk_circuit(trainer_.model(), whole_size(layer, "qkCircuit: layer"),
                                         whole_size(head, "qkCircuit: head"),
                                         whole_size(source, "qkCircuit: source"));
    return float32_tensor(c.data(), Shape(c.shape().begin(), c.shape().end()));
  });
}

val TrainerHandle::set_head_enabled(double layer, double head, bool enabled) {
  return guarded([&] {
    trainer_.set_head_enabled(whole_size(layer, "setHeadEnabled: layer"),
                              whole_size(head, "setHeadEnabled: head"), enabled);
    return val::object();
  });
}

val TrainerHandle::parameters() const {
  return guarded([&] {
    const train::Model& model = trainer_.model();
    val out = val::object();
    for (const train::ParameterInfo& p : model.layout) {
      out.set(p.name, float32_tensor(model.weights.data() + p.offset, p.shape));
    }
    return out;
  });
}

val TrainerHandle::layout() const {
  val out = val::array();
  for (const train::ParameterInfo& p : trainer_.model().layout) {
    val info = val::object();
    info.set("name", p.name);
    info.set("shape", shape_of(p.shape));
    info.set("offset", static_cast<double>(p.offset));
    info.set("size", static_cast<double>(p.size));
    out.call<void>("push", info);
  }
  return out;
}

val TrainerHandle::save() const {
  return guarded([&] {
    const TrainerState s = trainer_.save();
    val out = val::object();
    out.set("config", config_to_js(s.config));
    out.set("step", static_cast<double>(s.steps));
    out.set("weights", vector_to_js(s.weights, "Float64Array"));
    out.set("m", vector_to_js(s.m, "Float64Array"));
    out.set("v", vector_to_js(s.v, "Float64Array"));
    val data = val::object();
    data.set("state", std::to_string(s.data.state));
    data.set("increment", std::to_string(s.data.increment));
    data.set("spareNormal", s.data.spare_normal);
    data.set("hasSpare", s.data.has_spare);
    out.set("data", data);
    out.set("lastLoss", s.last_loss);
    std::vector<std::uint8_t> heads = s.head_enabled;
    if (heads.empty()) {
      heads.assign(s.config.model.layers * s.config.model.heads, 1);
    }
    out.set("headEnabled", vector_to_js(heads, "Uint8Array"));
    return out;
  });
}

val TrainerHandle::begin_step() {
  return guarded([&] {
    const train::StepPlan& plan = trainer_.begin_step();
    val out = val::object();
    out.set("parts", static_cast<double>(plan.parts));
    return out;
  });
}

val TrainerHandle::compute_part(double index) {
  return guarded([&] {
    const train::StepPart& part = trainer_.compute_part(whole_size(index, "step: part"));
    val out = val::object();
    out.set("gradient", vector_to_js(part.gradient, "Float32Array"));
    out.set("loss", part.loss);
    return out;
  });
}

val TrainerHandle::add_part(double index, const val& gradient, double loss) {
  return guarded([&] {
    // into a buffer kept from one part to the next: no allocation once it has grown
    part_.resize(gradient["length"].as<std::size_t>());
    val(emscripten::typed_memory_view(part_.size(), part_.data())).call<void>("set", gradient);
    // moved in: the trainer keeps this buffer and hands back the one it had
    trainer_.add_part(whole_size(index, "step: part"), std::move(part_), loss);
    return val::object();
  });
}

val TrainerHandle::finish_step() {
  return guarded([&] {
    const train::StepResult r = trainer_.finish_step();
    val out = val::object();
    out.set("step", static_cast<double>(r.step));
    out.set("loss", r.loss);
    return out;
  });
}

val TrainerHandle::abort_step() {
  trainer_.abort_step();
  return val::object();
}

val TrainerHandle::config() const {
  return config_to_js(trainer_.config());
}

val TrainerHandle::task() const {
  return task_to_js(trainer_.task());
}

val training_tasks() {
  return guarded([&] {
    val out = val::array();
    for (const train::TaskInfo& task : train::training_tasks()) {
      out.call<void>("push", task_to_js(task));
    }
    return out;
  });
}

val create_trainer(const val& options) {
  return guarded([&] { return trainer_to_js(Trainer(config_from_js(options, "createTrainer"))); });
}

val load_trainer(const val& state) {
  return guarded([&] {
    TrainerState s;
    s.config = config_from_js(state["config"], "loadTrainer");
    s.steps = whole_number(state["step"].as<double>(), 0, kMaxSafeInteger, "loadTrainer: step");
    s.weights = vector_from_js<double>(state["weights"]);
    s.m = vector_from_js<double>(state["m"]);
    s.v = vector_from_js<double>(state["v"]);
    const val data = state["data"];
    s.data.state = u64_from_js(data["state"], "loadTrainer: data.state");
    s.data.increment = u64_from_js(data["increment"], "loadTrainer: data.increment");
    s.data.spare_normal = data["spareNormal"].as<double>();
    s.data.has_spare = data["hasSpare"].as<bool>();
    s.last_loss = state["lastLoss"].as<double>();
    s.head_enabled = vector_from_js<std::uint8_t>(state["headEnabled"]);
    return trainer_to_js(Trainer(s));
  });
}

} // namespace attn::wasm

EMSCRIPTEN_BINDINGS(attnbook_trainer) {
  using namespace attn::wasm;
  emscripten::class_<TrainerHandle>("Trainer")
      .function("step", &TrainerHandle::step)
      .function("evaluate", &TrainerHandle::evaluate)
      .function("sample", &TrainerHandle::sample)
      .function("predict", &TrainerHandle::predict)
      .function("setHeadEnabled", &TrainerHandle::set_head_enabled)
      .function("parameters", &TrainerHandle::parameters)
      .function("layout", &TrainerHandle::layout)
      .function("save", &TrainerHandle::save)
      .function("beginStep", &TrainerHandle::begin_step)
      .function("computePart", &TrainerHandle::compute_part)
      .function("addPart", &TrainerHandle::add_part)
      .function("finishStep", &TrainerHandle::finish_step)
      .function("abortStep", &TrainerHandle::abort_step)
      .function("config", &TrainerHandle::config)
      .function("task", &TrainerHandle::task)
      .function("encode", &TrainerHandle::encode)
      .function("decode", &TrainerHandle::decode)
      .function("unknownCharacters", &TrainerHandle::unknown_characters)
      .function("copyingProbe", &TrainerHandle::copying_probe)
      .function("ovCircuit", &TrainerHandle::ov_circuit)
      .function("qkCircuit", &TrainerHandle::qk_circuit);
  emscripten::function("trainingTasks", &training_tasks);
  emscripten::function("createTrainer", &create_trainer);
  emscripten::function("loadTrainer", &load_trainer);
}
