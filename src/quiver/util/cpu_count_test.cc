#include "quiver/util/cpu_count.h"

#include <gtest/gtest.h>
#include <sched.h>

#include <cstdlib>
#include <map>
#include <thread>

namespace quiver::internal {
namespace {
namespace QUIVER_UNITY_ID {

// A fake file system: path -> contents.
ReadFileFn Files(std::map<std::string, std::string> files) {
  return [files = std::move(files)](const std::string& path) -> std::optional<std::string> {
    auto it = files.find(path);
    if (it == files.end()) return std::nullopt;
    return it->second;
  };
}

// mountinfo lines as the kernel writes them (proc(5)).
const char* kV2Mount = "29 23 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime - cgroup2 cgroup2 rw\n";
const char* kHybridMounts =
    "31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
    "32 31 0:29 / /sys/fs/cgroup/cpu,cpuacct rw,relatime - cgroup cgroup rw,cpu,cpuacct\n"
    "35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n"
    "41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n";

TEST(CpuCount, ParsesCpuMax) {
  EXPECT_EQ(ParseCpuMax("max 100000\n"), std::nullopt);
  EXPECT_EQ(ParseCpuMax("150000 100000\n"), 1.5);
  EXPECT_EQ(ParseCpuMax("400000 100000"), 4.0);
  EXPECT_EQ(ParseCpuMax("50000 100000\n"), 0.5);
  EXPECT_EQ(ParseCpuMax("0 100000\n"), std::nullopt);
  EXPECT_EQ(ParseCpuMax("100000 0\n"), std::nullopt);
  EXPECT_EQ(ParseCpuMax("150000\n"), std::nullopt);
  EXPECT_EQ(ParseCpuMax("1.5 100000\n"), std::nullopt);
  EXPECT_EQ(ParseCpuMax(""), std::nullopt);
}

TEST(CpuCount, ParsesCfsQuota) {
  EXPECT_EQ(ParseCfsQuota("-1\n", "100000\n"), std::nullopt);
  EXPECT_EQ(ParseCfsQuota("250000\n", "100000\n"), 2.5);
  EXPECT_EQ(ParseCfsQuota("100000\n", "0\n"), std::nullopt);
  EXPECT_EQ(ParseCfsQuota("x\n", "100000\n"), std::nullopt);
}

TEST(CpuCount, RoundsAFractionalLimitUpWithinTheAffinityCount) {
  EXPECT_EQ(CpuCountFrom(8, std::nullopt), 8);
  EXPECT_EQ(CpuCountFrom(8, 1.5), 2);
  EXPECT_EQ(CpuCountFrom(8, 2.0), 2);
  EXPECT_EQ(CpuCountFrom(8, 2.01), 3);
  EXPECT_EQ(CpuCountFrom(8, 0.1), 1);
  EXPECT_EQ(CpuCountFrom(2, 16.0), 2);  // never more than the affinity count
  EXPECT_EQ(CpuCountFrom(0, std::nullopt), 1);
  EXPECT_EQ(CpuCountFrom(1, 0.5), 1);
}

TEST(CpuCount, CgroupV2InItsOwnNamespace) {
  EXPECT_EQ(CgroupCpuLimit(Files({{"/proc/self/cgroup", "0::/\n"},
                                  {"/proc/self/mountinfo", kV2Mount},
                                  {"/sys/fs/cgroup/cpu.max", "150000 100000\n"}})),
            1.5);
  EXPECT_EQ(CgroupCpuLimit(Files({{"/proc/self/cgroup", "0::/\n"},
                                  {"/proc/self/mountinfo", kV2Mount},
                                  {"/sys/fs/cgroup/cpu.max", "max 100000\n"}})),
            std::nullopt);
}

TEST(CpuCount, CgroupV2TakesTheTightestAncestor) {
  const std::string leaf = "/sys/fs/cgroup/user.slice/app.scope";
  // The leaf unlimited, its parent at 2 CPUs: the kernel enforces the parent.
  EXPECT_EQ(CgroupCpuLimit(Files({{"/proc/self/cgroup", "0::/user.slice/app.scope\n"},
                                  {"/proc/self/mountinfo", kV2Mount},
                                  {leaf + "/cpu.max", "max 100000\n"},
                                  {"/sys/fs/cgroup/user.slice/cpu.max", "200000 100000\n"}})),
            2.0);
  // A leaf tighter than its parent.
  EXPECT_EQ(CgroupCpuLimit(Files({{"/proc/self/cgroup", "0::/user.slice/app.scope\n"},
                                  {"/proc/self/mountinfo", kV2Mount},
                                  {leaf + "/cpu.max", "120000 100000\n"},
                                  {"/sys/fs/cgroup/user.slice/cpu.max", "400000 100000\n"},
                                  {"/sys/fs/cgroup/cpu.max", "800000 100000\n"}})),
            1.2);
  // A trailing slash and no limit anywhere.
  EXPECT_EQ(CgroupCpuLimit(Files({{"/proc/self/cgroup", "0::/user.slice/\n"},
                                  {"/proc/self/mountinfo", kV2Mount},
                                  {"/sys/fs/cgroup/user.slice/cpu.max", "max 100000\n"}})),
            std::nullopt);
}

TEST(CpuCount, CgroupV1WithCombinedControllers) {
  // A hybrid layout (v1 controllers, an empty v2 "unified" hierarchy): the
  // v1 cpu hierarchy's quota, the tightest of the group and its parents.
  const std::string cpu = "/sys/fs/cgroup/cpu,cpuacct";
  auto read = Files({{"/proc/self/cgroup",
                      "9:name=systemd:/\n4:memory:/batch/job\n1:cpu,cpuacct:/batch/job\n0::/\n"},
                     {"/proc/self/mountinfo", kHybridMounts},
                     {cpu + "/batch/job/cpu.cfs_quota_us", "-1\n"},
                     {cpu + "/batch/job/cpu.cfs_period_us", "100000\n"},
                     {cpu + "/batch/cpu.cfs_quota_us", "350000\n"},
                     {cpu + "/batch/cpu.cfs_period_us", "100000\n"},
                     {cpu + "/cpu.cfs_quota_us", "-1\n"},
                     {cpu + "/cpu.cfs_period_us", "100000\n"}});
  EXPECT_EQ(CgroupCpuLimit(read), 3.5);
  EXPECT_EQ(CpuCountFrom(16, CgroupCpuLimit(read)), 4);
}

TEST(CpuCount, CgroupV1MountedAtTheContainersOwnGroup) {
  // A container without a cgroup namespace: /proc/self/cgroup names the
  // host's path, the mount's root is that group.
  const char* mounts =
      "700 650 0:29 /docker/abc123 /sys/fs/cgroup/cpu ro,nosuid - cgroup cgroup rw,cpu\n";
  EXPECT_EQ(CgroupCpuLimit(Files({{"/proc/self/cgroup", "3:cpu:/docker/abc123\n"},
                                  {"/proc/self/mountinfo", mounts},
                                  {"/sys/fs/cgroup/cpu/cpu.cfs_quota_us", "50000\n"},
                                  {"/sys/fs/cgroup/cpu/cpu.cfs_period_us", "100000\n"}})),
            0.5);
  // A group outside the mounted root: the mount point's own limit.
  EXPECT_EQ(CgroupCpuLimit(Files({{"/proc/self/cgroup", "3:cpu:/elsewhere\n"},
                                  {"/proc/self/mountinfo", mounts},
                                  {"/sys/fs/cgroup/cpu/cpu.cfs_quota_us", "200000\n"},
                                  {"/sys/fs/cgroup/cpu/cpu.cfs_period_us", "100000\n"}})),
            2.0);
}

TEST(CpuCount, EscapedMountPoint) {
  const char* mounts = "29 23 0:26 / /mnt/my\\040cgroup rw - cgroup2 none rw\n";
  EXPECT_EQ(CgroupCpuLimit(Files({{"/proc/self/cgroup", "0::/a\n"},
                                  {"/proc/self/mountinfo", mounts},
                                  {"/mnt/my cgroup/a/cpu.max", "300000 100000\n"}})),
            3.0);
}

TEST(CpuCount, NoCgroupFilesMeansNoLimit) {
  EXPECT_EQ(CgroupCpuLimit(Files({})), std::nullopt);
  EXPECT_EQ(CgroupCpuLimit(Files({{"/proc/self/cgroup", "0::/\n"}})), std::nullopt);
  EXPECT_EQ(CgroupCpuLimit(Files({{"/proc/self/cgroup", "0::/\n"}, {"/proc/self/mountinfo", kV2Mount}})),
            std::nullopt);
  // v2 without its mount; v1 lines without a cpu controller.
  EXPECT_EQ(CgroupCpuLimit(Files({{"/proc/self/cgroup", "0::/x\n"}, {"/proc/self/mountinfo", ""}})),
            std::nullopt);
  EXPECT_EQ(CgroupCpuLimit(Files({{"/proc/self/cgroup", "4:memory:/x\n"},
                                  {"/proc/self/mountinfo", kHybridMounts}})),
            std::nullopt);
}

TEST(CpuCount, ThreadCountOverride) {
  std::string warning;
  EXPECT_EQ(ParseThreadCount(nullptr, &warning), std::nullopt);
  EXPECT_TRUE(warning.empty());
  EXPECT_EQ(ParseThreadCount("", &warning), std::nullopt);
  EXPECT_TRUE(warning.empty());
  EXPECT_EQ(ParseThreadCount("3", &warning), 3);
  EXPECT_TRUE(warning.empty());
  EXPECT_EQ(ParseThreadCount("1", &warning), 1);
  for (const char* bad : {"0", "-2", "two", "2x", "100000"}) {
    EXPECT_EQ(ParseThreadCount(bad, &warning), std::nullopt) << bad;
    EXPECT_NE(warning.find("QUIVER_NUM_THREADS="), std::string::npos) << warning;
    EXPECT_NE(warning.find(bad), std::string::npos) << warning;
  }
}

// The real affinity mask: a thread restricted to one CPU counts one.
TEST(CpuCount, FollowsTheAffinityMask) {
  cpu_set_t all;
  CPU_ZERO(&all);
  ASSERT_EQ(sched_getaffinity(0, sizeof(all), &all), 0);
  EXPECT_EQ(AffinityCpuCount(), CPU_COUNT(&all));
  int first = 0;
  while (!CPU_ISSET(first, &all)) ++first;
  int one_thread_count = 0, one_thread_cpus = 0;
  std::thread t([&] {
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(first, &one);
    if (sched_setaffinity(0, sizeof(one), &one) != 0) return;
    one_thread_count = AffinityCpuCount();
    one_thread_cpus = CpuCount();
  });
  t.join();
  EXPECT_EQ(one_thread_count, 1);
  if (std::getenv("QUIVER_NUM_THREADS") == nullptr) {
    EXPECT_EQ(one_thread_cpus, 1);
    // This process as it runs: within its mask and at least 1.
    EXPECT_GE(CpuCount(), 1);
    EXPECT_LE(CpuCount(), CPU_COUNT(&all));
    EXPECT_EQ(CpuCount(), CpuCountFrom(CPU_COUNT(&all), CgroupCpuLimit(ReadSmallFile)));
  }
}

TEST(CpuCount, ReadsRealFiles) {
  auto cgroup = ReadSmallFile("/proc/self/cgroup");
  ASSERT_TRUE(cgroup.has_value());
  EXPECT_FALSE(cgroup->empty());
  EXPECT_EQ(ReadSmallFile("/nonexistent/quiver/file"), std::nullopt);
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::internal
