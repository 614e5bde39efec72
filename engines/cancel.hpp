#pragma once
// A cancellation request shared by whoever may cancel (the task runner, a stopping daemon) and
// the work that honours it at its checkpoints: the scan client's loop checks it every turn (at
// most 200 ms apart), an audit between its steps. Copies share one flag.
#include <atomic>
#include <memory>

namespace dozor {

class CancelToken {
 public:
  CancelToken() : flag_(std::make_shared<std::atomic<bool>>(false)) {}
  void cancel() const { flag_->store(true, std::memory_order_relaxed); }
  bool cancelled() const { return flag_->load(std::memory_order_relaxed); }

 private:
  std::shared_ptr<std::atomic<bool>> flag_;
};

}  // namespace dozor
