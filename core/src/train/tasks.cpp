// The toy tasks: their table, their generators and their batches (see attn/train/tasks.hpp).
#include "attn/train/tasks.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "attn/error.hpp"
#include "attn/train/text.hpp"

namespace attn::train {
namespace {

constexpr std::int32_t kDigitSeparator = 10; // '=' in reverse and sort
constexpr std::size_t kDigits = 6;
constexpr std::size_t kLookupPairs = 4;
constexpr std::int32_t kLookupKeys = 8;      // ids 0–7
constexpr std::int32_t kLookupValue0 = 8;    // ids 8–17
constexpr std::int32_t kLookupQuery = 18;    // '?'
constexpr std::int32_t kRetrievalQuery0 = 4; // 'A?' = 4, 'B?' = 5
constexpr std::size_t kTextContext = 64;     // the text task's default window

// One row of the task table: what a task is and the model and learning rate it trains with.
TaskInfo task(const char* id, const char* title, const char* description, std::size_t vocab,
              std::size_t input_length, std::size_t answer_length, std::size_t layers,
              std::size_t heads, std::size_t d_model, bool mlp, double learning_rate) {
  TaskInfo t;
  t.id = id;
  t.title = title;
  t.description = description;
  t.vocab = vocab;
  t.input_length = input_length;
  t.answer_length = answer_length;
  t.defaults.layers = layers;
  t.defaults.heads = heads;
  t.defaults.d_model = d_model;
  t.defaults.mlp = mlp;
  t.defaults.learning_rate = learning_rate;
  return t;
}

std::vector<TaskInfo> make_tasks() {
  std::vector<TaskInfo> tasks = {
      task("reverse", "Reverse",
           "Six digits and '='; the answer is the digits in reverse order. Each answer token must "
           "attend to one input position, counted from the end.",
           11, kDigits + 1, kDigits, 1, 2, 32, false, 1e-2),
      task("sort", "Sort",
           "Six digits and '='; the answer is the digits in ascending order. Each answer token "
           "attends to the smallest digit not yet written.",
           11, kDigits + 1, kDigits, 1, 2, 32, true, 1e-2),
      task("lookup", "Key-value lookup",
           "Four key-value pairs (keys a-h, values 0-9), '?' and a key; the answer is that key's "
           "value: associative recall, retrieval learned.",
           19, 2 * kLookupPairs + 2, 1, 2, 2, 32, false, 1e-2),
      task("retrieval2d", "Retrieval in two dimensions",
           "Items 0 and 1 form group A, 2 and 3 group B. The input holds one item of each group in "
           "random order and a query 'A?' or 'B?'; the answer is the item of the queried group. "
           "One layer, one head, d_model 2: every vector can be drawn.",
           6, 3, 1, 1, 1, 2, false, 1e-1),
      task("text", "Text",
           "Next-character prediction at every position of a text (the course's own prose by "
           "default). Half the windows are plain text; the other half repeat a random string of "
           "letters, so copying what came before pays: the task where induction heads form.",
           std::char_traits<char>::length(kDefaultAlphabet) + 1, 1, kTextContext, 2, 2, 32, false,
           1e-2),
  };
  tasks.back().alphabet = kDefaultAlphabet;
  return tasks;
}

std::int32_t draw(Rng& rng, std::int32_t bound) {
  return static_cast<std::int32_t>(rng.below(static_cast<std::uint32_t>(bound)));
}

} // namespace

const std::vector<TaskInfo>& training_tasks() {
  static const std::vector<TaskInfo> tasks = make_tasks();
  return tasks;
}

const TaskInfo& find_task(const std::string& id, const std::string& fn) {
  std::string names;
  for (const TaskInfo& t : training_tasks()) {
    if (t.id == id) {
      return t;
    }
    names += (names.empty() ? "" : ", ") + t.id;
  }
  throw ValueError(fn + ": unknown task '" + id + "'; tasks are " + names);
}

Example sample_task(const TaskInfo& task, Rng& rng) {
  Example e;
  if (task.id == "reverse" || task.id == "sort") {
    for (std::size_t i = 0; i < kDigits; ++i) {
      e.input.push_back(draw(rng, 10));
    }
    e.answer = e.input;
    if (task.id == "reverse") {
      std::reverse(e.answer.begin(), e.answer.end());
    } else {
      std::sort(e.answer.begin(), e.answer.end());
    }
    e.input.push_back(kDigitSeparator);
  } else if (task.id == "lookup") {
    // distinct keys: a partial Fisher–Yates shuffle of 0..7
    std::vector<std::int32_t> keys(kLookupKeys);
    for (std::int32_t k = 0; k < kLookupKeys; ++k) {
      keys[static_cast<std::size_t>(k)] = k;
    }
    std::vector<std::int32_t> values;
    for (std::size_t i = 0; i < kLookupPairs; ++i) {
      const std::size_t j =
          i + static_cast<std::size_t>(draw(rng, kLookupKeys - static_cast<std::int32_t>(i)));
      std::swap(keys[i], keys[j]);
      values.push_back(kLookupValue0 + draw(rng, 10));
      e.input.push_back(keys[i]);
      e.input.push_back(values.back());
    }
    const auto q = static_cast<std::size_t>(draw(rng, kLookupPairs));
    e.input.push_back(kLookupQuery);
    e.input.push_back(keys[q]);
    e.answer = {values[q]};
  } else if (task.id == "retrieval2d") {
    const std::int32_t a = draw(rng, 2);     // group A item: 0 or 1
    const std::int32_t b = 2 + draw(rng, 2); // group B item: 2 or 3
    const bool a_first = draw(rng, 2) == 0;
    const std::int32_t group = draw(rng, 2); // 0 = A, 1 = B
    e.input = {a_first ? a : b, a_first ? b : a, kRetrievalQuery0 + group};
    e.answer = {group == 0 ? a : b};
  } else {
    throw ValueError("sample_task: task '" + task.id + "' has no generator (text reads a corpus)");
  }
  return e;
}

Batch batch_of(const TaskInfo& task, const std::vector<Example>& examples) {
  const std::size_t P = task.input_length, A = task.answer_length, T = task.seq_len();
  Batch b;
  b.count = examples.size();
  b.length = T;
  b.tokens.reserve(b.count * T);
  b.targets.reserve(b.count * T);
  for (std::size_t n = 0; n < examples.size(); ++n) {
    const Example& e = examples[n];
    if (e.input.size() != P || e.answer.size() != A) {
      throw ShapeError("batch_of: example " + std::to_string(n) + " has " +
                       std::to_string(e.input.size()) + " input and " +
                       std::to_string(e.answer.size()) + " answer tokens; " + task.id + " has " +
                       std::to_string(P) + " and " + std::to_string(A));
    }
    std::vector<std::int32_t> s = e.input;
    s.insert(s.end(), e.answer.begin(), e.answer.end());
    for (std::size_t t = 0; t < T; ++t) {
      b.tokens.push_back(s[t]);
      b.targets.push_back(t + 1 >= P ? s[t + 1] : kNoTarget);
    }
  }
  return b;
}

} // namespace attn::train
