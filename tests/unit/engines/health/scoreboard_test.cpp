#include "engines/health/scoreboard.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>

using namespace dozor::health;

namespace {

// Forks a child whose slot the parent claims (as the master does), which then runs `work` on
// it, tells the parent (one byte on a pipe), waits for the parent's byte and exits with `code`.
struct Child {
  pid_t pid = 0;
  int to_parent[2]{};
  int to_child[2]{};
};

template <class Work>
Child spawn(Scoreboard& board, int threads, Work work, int code) {
  Child c;
  BOOST_REQUIRE_EQUAL(pipe(c.to_parent), 0);
  BOOST_REQUIRE_EQUAL(pipe(c.to_child), 0);
  c.pid = fork();
  BOOST_REQUIRE(c.pid >= 0);
  if (c.pid == 0) {
    char b = 1;
    if (read(c.to_child[0], &b, 1) != 1) _exit(9);  // the parent has claimed the slot
    Scoreboard::Slot slot = board.slot_of(getpid());
    if (slot.empty()) _exit(8);
    work(slot);
    if (write(c.to_parent[1], &b, 1) != 1 || read(c.to_child[0], &b, 1) != 1) _exit(9);
    _exit(code);
  }
  BOOST_REQUIRE(board.claim(c.pid, threads));
  char b = 1;
  BOOST_REQUIRE_EQUAL(write(c.to_child[1], &b, 1), 1);
  BOOST_REQUIRE_EQUAL(read(c.to_parent[0], &b, 1), 1);
  return c;
}

int finish(Scoreboard& board, Child& c) {
  char b = 1;
  BOOST_REQUIRE_EQUAL(write(c.to_child[1], &b, 1), 1);
  int status = 0;
  BOOST_REQUIRE_EQUAL(waitpid(c.pid, &status, 0), c.pid);
  board.worker_ended(c.pid, !(WIFEXITED(status) && WEXITSTATUS(status) == 0));
  for (int fd : {c.to_parent[0], c.to_parent[1], c.to_child[0], c.to_child[1]}) close(fd);
  return status;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(health_scoreboard)

BOOST_AUTO_TEST_CASE(a_forked_worker_s_figures_reach_the_master_through_the_shared_board) {
  Scoreboard* board = Scoreboard::create();
  BOOST_REQUIRE(board);
  BOOST_CHECK_EQUAL(Scoreboard::process(), board);
  board->master_started(getpid());
  board->pool_state(PoolState::Running, 3, 2, 4);

  Child c = spawn(
      *board, 4,
      [](Scoreboard::Slot& slot) {
        slot.request_started();
        slot.request_finished();
        slot.request_started();  // still serving when the parent looks
      },
      0);
  PoolFigures f = board->snapshot();
  BOOST_CHECK_EQUAL(f.master_pid, getpid());
  BOOST_CHECK(f.state == PoolState::Running);
  BOOST_CHECK_EQUAL(f.generation, 3);
  BOOST_CHECK_EQUAL(f.configured_workers, 2);
  BOOST_REQUIRE_EQUAL(f.workers.size(), 1u);
  BOOST_CHECK_EQUAL(f.workers[0].pid, c.pid);
  BOOST_CHECK_EQUAL(f.workers[0].generation, 3);  // read from the board at the claim
  BOOST_CHECK_EQUAL(f.workers[0].threads, 4);
  BOOST_CHECK_EQUAL(f.workers[0].busy, 1);
  BOOST_CHECK_EQUAL(f.workers[0].requests, 1);
  BOOST_CHECK_EQUAL(f.requests_total, 1);
  BOOST_CHECK(f.workers[0].started_ms > 0);

  finish(*board, c);
  f = board->snapshot();
  BOOST_CHECK(f.workers.empty());
  BOOST_CHECK_EQUAL(f.restarts, 0);  // a clean exit (a reload's or a stop's) is neither
  BOOST_CHECK_EQUAL(f.recycled, 0);
  BOOST_CHECK_EQUAL(f.requests_total, 1);  // the pool's total outlives the worker
}

BOOST_AUTO_TEST_CASE(recycled_and_failed_workers_are_counted_apart) {
  Scoreboard* board = Scoreboard::create();
  BOOST_REQUIRE(board);
  Child recycled = spawn(
      *board, 1, [](Scoreboard::Slot& slot) { slot.recycling(); }, 0);
  finish(*board, recycled);
  Child failed = spawn(
      *board, 1, [](Scoreboard::Slot&) {}, 3);
  finish(*board, failed);
  PoolFigures f = board->snapshot();
  BOOST_CHECK_EQUAL(f.recycled, 1);
  BOOST_CHECK_EQUAL(f.restarts, 1);
  BOOST_CHECK(f.workers.empty());
  // A worker that died before it could claim a slot still counts as a restart.
  board->worker_ended(999999, true);
  BOOST_CHECK_EQUAL(board->snapshot().restarts, 2);
}

BOOST_AUTO_TEST_CASE(the_board_holds_kScoreboardSlots_workers_and_refuses_one_more) {
  Scoreboard* board = Scoreboard::create();
  BOOST_REQUIRE(board);
  for (int i = 0; i < kScoreboardSlots; ++i) BOOST_CHECK(board->claim(100000 + i, 1));
  BOOST_CHECK(!board->claim(200000, 1));
  Scoreboard::Slot extra = board->slot_of(200000);
  BOOST_CHECK(extra.empty());
  extra.request_started();  // an empty slot counts nothing and does not crash
  extra.request_finished();
  BOOST_CHECK_EQUAL(board->snapshot().workers.size(), static_cast<std::size_t>(kScoreboardSlots));
  BOOST_CHECK_EQUAL(board->snapshot().requests_total, 0);
  board->worker_ended(100000, false);  // a freed slot is claimed again
  BOOST_CHECK(board->claim(200000, 1));
  BOOST_CHECK(!board->slot_of(200000).empty());
}

BOOST_AUTO_TEST_CASE(busy_request_counts_for_its_lifetime) {
  Scoreboard* board = Scoreboard::create();
  BOOST_REQUIRE(board);
  BOOST_REQUIRE(board->claim(getpid(), 2));
  Scoreboard::Slot slot = board->slot_of(getpid());
  {
    BusyRequest busy(slot);
    BOOST_CHECK_EQUAL(board->snapshot().workers.at(0).busy, 1);
  }
  auto w = board->snapshot().workers.at(0);
  BOOST_CHECK_EQUAL(w.busy, 0);
  BOOST_CHECK_EQUAL(w.requests, 1);
}

BOOST_AUTO_TEST_SUITE_END()
