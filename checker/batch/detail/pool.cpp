#include "checker/batch/detail/pool.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace blockcheck {

namespace {

class Pool {
public:
    Pool(std::size_t students, const PoolWork& work) : work_(work), remaining_(students, 0) {}

    // One worker: takes a ready task, else prepares the next student, until neither is left.
    void worker() {
        for (;;) {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [&] { return !ready_.empty() || next_prepare_ < remaining_.size() || preparing_ == 0; });
            const auto start = std::chrono::steady_clock::now();
            if (!ready_.empty()) {
                const auto [student, task] = ready_.front();
                ready_.pop_front();
                lock.unlock();
                work_.task(student, task);
                lock.lock();
                const bool last = --remaining_[student] == 0;
                lock.unlock();
                if (last) finish(student);
            } else if (next_prepare_ < remaining_.size()) {
                const std::size_t student = next_prepare_++;
                ++preparing_;
                lock.unlock();
                prepare(student);
                lock.lock();
                --preparing_;
                lock.unlock();
                wake_.notify_all();
            } else {
                return;  // nothing queued, nothing left to prepare, nobody preparing
            }
            lock.lock();
            busy_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        }
    }

    double busy_seconds() const { return busy_seconds_; }

private:
    void prepare(std::size_t student) {
        const std::size_t tasks = work_.prepare(student);
        if (tasks == 0) return finish(student);
        {
            std::lock_guard lock(mutex_);
            remaining_[student] = tasks;
            for (std::size_t i = 0; i < tasks; ++i) ready_.emplace_back(student, i);
        }
        wake_.notify_all();
    }

    void finish(std::size_t student) { work_.finish(student); }

    const PoolWork& work_;
    std::vector<std::size_t> remaining_;  // tasks not yet done, per student
    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<std::pair<std::size_t, std::size_t>> ready_;  // (student, task)
    std::size_t next_prepare_ = 0, preparing_ = 0;
    double busy_seconds_ = 0;
};

}  // namespace

double run_pool(std::size_t students, unsigned workers, const PoolWork& work) {
    Pool pool(students, work);
    std::vector<std::thread> threads;
    for (unsigned i = 1; i < std::max(1u, workers); ++i) threads.emplace_back([&pool] { pool.worker(); });
    pool.worker();
    for (std::thread& t : threads) t.join();
    return pool.busy_seconds();
}

}  // namespace blockcheck
