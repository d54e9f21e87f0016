// Data-parallel steps (attn/train/trainer.hpp, "Micro-batches"): replicas of a trainer that each
// compute a share of every step's parts and add the others', in any order and any share, end
// bitwise where step() ends; the plan, abort and the errors of the part API.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "attn/error.hpp"
#include "attn/train/trainer.hpp"
#include "kernels/kernels.hpp"
#include "test_util.hpp"
#include "train/model_f32.hpp"

namespace {

using attn::test::expect_error;
using attn::train::Batch;
using attn::train::default_trainer_config;
using attn::train::kMicroBatchSize;
using attn::train::micro_batch;
using attn::train::micro_batch_count;
using attn::train::Precision;
using attn::train::StepPart;
using attn::train::StepPlan;
using attn::train::Trainer;
using attn::train::TrainerConfig;

// One step as a pool of replicas.size() workers runs it: the parts dealt out in contiguous shares,
// each replica computing its own share, then adding every other replica's parts in the order
// `order` shuffles them to (copied in by the even replicas, moved in by the odd ones).
void pooled_step(std::vector<Trainer>& replicas, std::mt19937& order) {
  std::size_t parts = 0;
  for (Trainer& r : replicas) {
    parts = r.begin_step().parts;
  }
  const std::size_t workers = std::min(replicas.size(), parts);
  std::vector<std::size_t> first(workers + 1);
  for (std::size_t w = 0; w <= workers; ++w) {
    first[w] = w * parts / workers;
  }
  struct Part {
    std::size_t worker, index;
    StepPart part;
  };
  std::vector<Part> computed;
  for (std::size_t w = 0; w < workers; ++w) {
    for (std::size_t i = first[w]; i < first[w + 1]; ++i) {
      computed.push_back({w, i, replicas[w].compute_part(i)});
    }
  }
  for (std::size_t w = 0; w < replicas.size(); ++w) {
    std::shuffle(computed.begin(), computed.end(), order);
    for (const Part& p : computed) {
      if (p.worker == w) {
        continue;
      }
      if (w % 2 == 0) {
        replicas[w].add_part(p.index, p.part.gradient, p.part.loss);
      } else { // the overload that takes the buffer over
        std::vector<float> gradient = p.part.gradient;
        replicas[w].add_part(p.index, std::move(gradient), p.part.loss);
      }
    }
    replicas[w].finish_step();
  }
}

void expect_same_state(const Trainer& a, const Trainer& b, const std::string& what) {
  EXPECT_EQ(a.model().weights, b.model().weights) << what;
  EXPECT_EQ(a.optimiser().first_moment(), b.optimiser().first_moment()) << what;
  EXPECT_EQ(a.optimiser().second_moment(), b.optimiser().second_moment()) << what;
  const auto sa = a.save(), sb = b.save();
  EXPECT_EQ(sa.steps, sb.steps) << what;
  EXPECT_EQ(sa.data.state, sb.data.state) << what;
  EXPECT_EQ(std::isnan(sa.last_loss) ? 0.0 : sa.last_loss,
            std::isnan(sb.last_loss) ? 0.0 : sb.last_loss)
      << what;
}

TEST(train_parallel, micro_batches_cut_the_batch_in_order_the_last_one_shorter) {
  EXPECT_EQ(kMicroBatchSize, 8u);
  EXPECT_EQ(micro_batch_count(1), 1u);
  EXPECT_EQ(micro_batch_count(8), 1u);
  EXPECT_EQ(micro_batch_count(9), 2u);
  EXPECT_EQ(micro_batch_count(32), 4u);
  Batch b;
  b.count = 11;
  b.length = 3;
  b.tokens.resize(33);
  b.targets.resize(33);
  std::iota(b.tokens.begin(), b.tokens.end(), 0);
  std::iota(b.targets.begin(), b.targets.end(), 100);
  const Batch second = micro_batch(b, 1);
  EXPECT_EQ(second.count, 3u);
  EXPECT_EQ(second.length, 3u);
  EXPECT_EQ(second.tokens.front(), 24);
  EXPECT_EQ(second.targets.back(), 132);
  expect_error<attn::ShapeError>(
      [&] { micro_batch(b, 2); },
      "step: micro-batch 2 is out of range; a batch of 11 has 2 micro-batches");
}

// Every worker count from 1 to 6 (more than the parts, too), batches of 32 (4 parts), 20 (the
// last part 4 sequences) and 8 (one part), with a head switched off halfway: 12 steps each, the
// weights, moments, data stream and loss bitwise those of step().
TEST(train_parallel, parts_computed_anywhere_in_any_order_give_steps_bitwise_equal) {
  std::mt19937 order(7);
  for (const char* task : {"sort", "reverse"}) {
    for (std::size_t batch : {32, 20, 8}) {
      TrainerConfig config = default_trainer_config(task, 4);
      config.batch_size = batch;
      config.model.heads = 2;
      Trainer alone(config);
      alone.step(6);
      alone.set_head_enabled(0, 1, false);
      alone.step(6);
      for (std::size_t workers = 1; workers <= 6; ++workers) {
        const std::string what = std::string(task) + ", batch " + std::to_string(batch) + ", " +
                                 std::to_string(workers) + " workers";
        // replicas of one trainer, as a pool makes them: Trainer(save())
        const Trainer first(config);
        std::vector<Trainer> replicas(workers, Trainer(first.save()));
        for (int s = 0; s < 12; ++s) {
          if (s == 6) {
            for (Trainer& r : replicas) {
              r.set_head_enabled(0, 1, false);
            }
          }
          pooled_step(replicas, order);
        }
        for (std::size_t w = 0; w < workers; ++w) {
          expect_same_state(replicas[w], alone, what + ", replica " + std::to_string(w));
        }
      }
    }
  }
}

// The step's loss and gradient are the whole batch's, summed in another grouping: within float32
// rounding of the gradient (each part sums fewer rows) and 1e-12 of the loss.
TEST(train_parallel, the_sum_of_the_parts_is_the_whole_batchs_loss_and_gradient) {
  Trainer t(default_trainer_config("sort", 2));
  t.step(20);
  const StepPlan plan = t.begin_step();
  std::vector<double> whole;
  attn::train::detail::F32Workspace ws;
  const double whole_loss = attn::train::detail::loss_and_gradient_f32(
      attn::kernels::best(), t.model(), plan.batch, &whole, ws, "step");
  std::vector<double> sum(whole.size(), 0.0);
  double loss = 0;
  for (std::size_t i = 0; i < plan.parts; ++i) {
    const StepPart& part = t.compute_part(i);
    loss += part.loss;
    for (std::size_t j = 0; j < part.gradient.size(); ++j) {
      sum[j] += part.gradient[j];
    }
  }
  EXPECT_NEAR(loss, whole_loss, 1e-12 * whole_loss);
  double max_g = 0, max_err = 0;
  for (std::size_t j = 0; j < sum.size(); ++j) {
    max_g = std::max(max_g, std::abs(whole[j]));
    max_err = std::max(max_err, std::abs(sum[j] - whole[j]));
  }
  EXPECT_GT(max_g, 0.0);
  EXPECT_LE(max_err, 1e-5 * max_g);
  t.abort_step();
}

TEST(train_parallel, an_aborted_step_leaves_the_trainer_as_it_was) {
  const auto config = default_trainer_config("lookup", 5);
  Trainer a(config), b(config);
  a.step(3);
  b.step(3);
  const auto before = b.save();
  b.begin_step();
  b.compute_part(2);
  b.compute_part(0);
  const auto during = b.save(); // the state as before the open step
  EXPECT_EQ(during.data.state, before.data.state);
  EXPECT_EQ(during.steps, before.steps);
  b.abort_step();
  EXPECT_FALSE(b.step_open());
  b.abort_step(); // nothing open: harmless
  a.step(4);
  b.step(4);
  expect_same_state(a, b, "after an aborted step");
}

TEST(train_parallel, the_part_api_refuses_what_does_not_fit_naming_it) {
  auto config = default_trainer_config("sort", 1);
  Trainer t(config);
  expect_error<attn::ValueError>([&] { t.compute_part(0); }, "step: no data-parallel step is open");
  expect_error<attn::ValueError>([&] { t.finish_step(); }, "step: no data-parallel step is open");
  const StepPlan& plan = t.begin_step();
  EXPECT_EQ(plan.parts, 4u);
  const std::size_t size = t.model().weights.size();
  expect_error<attn::ValueError>([&] { t.begin_step(); },
                                 "step: a data-parallel step is already open");
  expect_error<attn::ValueError>([&] { t.step(1); }, "step: a data-parallel step is open");
  expect_error<attn::ValueError>([&] { t.set_head_enabled(0, 0, false); },
                                 "setHeadEnabled: a data-parallel step is open");
  t.compute_part(1);
  expect_error<attn::ValueError>([&] { t.compute_part(1); }, "step: part 1 was already added");
  expect_error<attn::ShapeError>([&] { t.compute_part(4); }, "step: micro-batch 4 is out of range");
  expect_error<attn::ShapeError>([&] { t.add_part(4, std::vector<float>(size), 0); },
                                 "step: part 4 is out of range; the step has parts 0..3");
  expect_error<attn::ShapeError>([&] { t.add_part(0, std::vector<float>(3), 0); },
                                 "step: part 0's gradient has 3 values; the model has");
  expect_error<attn::ValueError>([&] { t.finish_step(); },
                                 "step: 1 of 4 parts are in; the step cannot finish");
  t.abort_step();

  config.precision = Precision::kFloat64;
  Trainer reference(config);
  expect_error<attn::ValueError>(
      [&] { reference.begin_step(); },
      "step: data-parallel steps run the float32 path; this trainer is float64");
}

} // namespace
