// How many CPUs this process may use: what sizes the CPU thread pool
// (util/thread_pool.h).
//
// The least of
//   - the CPUs in the calling thread's affinity mask (sched_getaffinity:
//     taskset, numactl, and a cgroup cpuset, which the kernel applies to
//     the mask);
//   - the cgroup CPU bandwidth limit, quota / period, of the process's
//     cgroup and of every ancestor up to its hierarchy's root (the tightest
//     wins, as the kernel enforces each level): cgroup v2 `cpu.max`, v1
//     `cpu.cfs_quota_us` / `cpu.cfs_period_us`, the group found through
//     /proc/self/cgroup and its hierarchy's mount through
//     /proc/self/mountinfo. A fractional limit is rounded up: the quota is
//     CPU time per period, so with 1.5 CPUs a second thread still gets half
//     a CPU of work done where rounding down would leave it unused, and a
//     write is throughput, not latency (Java's container support rounds up
//     too, ceil(quota / period); Go 1.25 rounds up with a floor of 2; Rust's
//     available_parallelism rounds down, for services that must not be
//     throttled). At least 1.
// QUIVER_NUM_THREADS=N (a positive integer) replaces the whole computation:
// N threads, the caller's included, whatever the machine (a value that is
// not a positive integer up to kMaxThreads is ignored with a warning on
// stderr, as QUIVER_MEMORY_POOL's are).
#pragma once

#include <functional>
#include <optional>
#include <string>

namespace quiver {

// The CPU count above, computed now (the CPU pool computes it once, at its
// creation).
int CpuCount();

namespace internal {

inline constexpr int kMaxThreads = 1024;

// The contents of a small file, or nullopt if it cannot be read.
using ReadFileFn = std::function<std::optional<std::string>(const std::string& path)>;
std::optional<std::string> ReadSmallFile(const std::string& path);

// The CPUs in the calling thread's affinity mask (std::thread's
// hardware_concurrency() if the mask cannot be read; at least 1).
int AffinityCpuCount();

// The cgroup CPU bandwidth limit in CPUs (quota / period, the tightest of
// the process's cgroup and its ancestors, v1 and v2), or nullopt when no
// level limits it or the files cannot be read. Reads /proc/self/cgroup,
// /proc/self/mountinfo and the cgroup files through `read`.
std::optional<double> CgroupCpuLimit(const ReadFileFn& read);

// The limit of one level: v2 `cpu.max` ("max 100000", "150000 100000"),
// v1 quota and period files (quota -1: none); nullopt when unlimited or
// not understood.
std::optional<double> ParseCpuMax(const std::string& contents);
std::optional<double> ParseCfsQuota(const std::string& quota, const std::string& period);

// min(affinity, ceil(limit)), at least 1.
int CpuCountFrom(int affinity_cpus, std::optional<double> cgroup_limit);

// QUIVER_NUM_THREADS's value: the count, or nullopt when unset or empty,
// or not a positive integer up to kMaxThreads (then `warning` says so).
std::optional<int> ParseThreadCount(const char* value, std::string* warning);

}  // namespace internal
}  // namespace quiver
