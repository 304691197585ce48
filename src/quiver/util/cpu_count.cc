#include "quiver/util/cpu_count.h"

#include <fcntl.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <thread>
#include <vector>

namespace quiver {
namespace internal {
namespace {

std::vector<std::string_view> Split(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (true) {
    const size_t end = s.find(sep, start);
    parts.push_back(s.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (end == std::string_view::npos) return parts;
    start = end + 1;
  }
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\n')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n')) s.remove_suffix(1);
  return s;
}

std::optional<int64_t> ParseInt(std::string_view s) {
  s = Trim(s);
  int64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

bool Contains(std::string_view list, std::string_view item) {
  for (std::string_view x : Split(list, ',')) {
    if (x == item) return true;
  }
  return false;
}

// mountinfo escapes space, tab, newline and backslash as \ooo.
std::string Unescape(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 3 < s.size() &&
        s.substr(i + 1, 3).find_first_not_of("01234567") == std::string_view::npos) {
      out.push_back(static_cast<char>((s[i + 1] - '0') * 64 + (s[i + 2] - '0') * 8 + (s[i + 3] - '0')));
      i += 3;
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

// A cgroup hierarchy's mount: where it is mounted and which of its groups
// is at that place (mountinfo's "root": "/" unless the mount is of a
// subgroup, as in a container without a cgroup namespace).
struct Mount {
  std::string root;
  std::string point;
};

// The mounts of the v2 hierarchy (`v1_controller` empty) or of the v1
// hierarchy carrying that controller.
std::vector<Mount> CgroupMounts(const std::string& mountinfo, std::string_view v1_controller) {
  std::vector<Mount> mounts;
  for (std::string_view line : Split(mountinfo, '\n')) {
    const size_t dash = line.find(" - ");
    if (dash == std::string_view::npos) continue;
    std::vector<std::string_view> before = Split(line.substr(0, dash), ' ');
    std::vector<std::string_view> after = Split(line.substr(dash + 3), ' ');
    if (before.size() < 5 || after.size() < 3) continue;
    const bool match = v1_controller.empty()
                           ? after[0] == "cgroup2"
                           : after[0] == "cgroup" && Contains(after[2], v1_controller);
    if (match) mounts.push_back({Unescape(before[3]), Unescape(before[4])});
  }
  return mounts;
}

bool HasParentComponent(std::string_view path) {
  for (std::string_view c : Split(path, '/')) {
    if (c == "..") return true;
  }
  return false;
}

// The directory of `group` (a path in its hierarchy, from
// /proc/self/cgroup) under one of `mounts`, and that mount's point: the
// mount whose root holds the group (the longest such root); if none does
// (a group outside what is mounted: the process sees the host's group
// names but its own group mounted at the root), the first mount's point
// alone.
std::optional<std::pair<std::string, std::string>> GroupDirectory(const std::vector<Mount>& mounts,
                                                                  const std::string& group) {
  if (mounts.empty()) return std::nullopt;
  const Mount* best = nullptr;
  std::string rel;
  for (const Mount& m : mounts) {
    std::string_view root = m.root;
    if (root == "/") root = "";
    const bool holds = group.size() >= root.size() && std::string_view(group).substr(0, root.size()) == root &&
                       (group.size() == root.size() || group[root.size()] == '/');
    if (holds && (best == nullptr || m.root.size() > best->root.size())) {
      best = &m;
      rel = group.substr(root.size());
    }
  }
  if (best == nullptr || HasParentComponent(rel)) return std::make_pair(mounts[0].point, mounts[0].point);
  while (!rel.empty() && rel.back() == '/') rel.pop_back();
  return std::make_pair(best->point + rel, best->point);
}

// The tightest limit of `dir` and its parents up to `top`.
std::optional<double> Tightest(std::string dir, const std::string& top,
                               const std::function<std::optional<double>(const std::string&)>& level) {
  std::optional<double> tightest;
  while (true) {
    std::optional<double> limit = level(dir);
    if (limit.has_value() && (!tightest.has_value() || *limit < *tightest)) tightest = limit;
    if (dir.size() <= top.size()) return tightest;
    const size_t slash = dir.rfind('/');
    if (slash == std::string::npos || slash < top.size()) return tightest;
    dir.resize(slash);
  }
}

std::optional<double> Min(std::optional<double> a, std::optional<double> b) {
  if (!a.has_value()) return b;
  if (!b.has_value()) return a;
  return std::min(*a, *b);
}

}  // namespace

std::optional<std::string> ReadSmallFile(const std::string& path) {
  int fd;
  do {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) return std::nullopt;
  std::string contents;
  char buf[4096];
  while (contents.size() < (size_t{4} << 20)) {  // (/proc files state no size)
    const ssize_t n = ::read(fd, buf, sizeof(buf));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      ::close(fd);
      return std::nullopt;
    }
    if (n == 0) break;
    contents.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  return contents;
}

int AffinityCpuCount() {
  // A set large enough for the kernel's mask (EINVAL: too small).
  for (int cpus = 1024; cpus <= (1 << 20); cpus *= 4) {
    cpu_set_t* set = CPU_ALLOC(cpus);
    if (set == nullptr) break;
    const size_t size = CPU_ALLOC_SIZE(cpus);
    CPU_ZERO_S(size, set);
    const int rc = sched_getaffinity(0, size, set);
    const int err = errno;
    const int count = rc == 0 ? CPU_COUNT_S(size, set) : 0;
    CPU_FREE(set);
    if (rc == 0) return std::max(1, count);
    if (err != EINVAL) break;
  }
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

std::optional<double> ParseCpuMax(const std::string& contents) {
  std::vector<std::string_view> f = Split(Trim(contents), ' ');
  if (f.size() != 2) return std::nullopt;
  auto quota = ParseInt(f[0]);
  auto period = ParseInt(f[1]);
  if (!quota.has_value() || !period.has_value() || *quota <= 0 || *period <= 0) return std::nullopt;
  return static_cast<double>(*quota) / static_cast<double>(*period);
}

std::optional<double> ParseCfsQuota(const std::string& quota, const std::string& period) {
  auto q = ParseInt(quota);
  auto p = ParseInt(period);
  if (!q.has_value() || !p.has_value() || *q <= 0 || *p <= 0) return std::nullopt;  // -1: none
  return static_cast<double>(*q) / static_cast<double>(*p);
}

std::optional<double> CgroupCpuLimit(const ReadFileFn& read) {
  std::optional<std::string> cgroup = read("/proc/self/cgroup");
  if (!cgroup.has_value()) return std::nullopt;
  std::optional<std::string> v1_group, v2_group;
  for (std::string_view line : Split(*cgroup, '\n')) {
    // hierarchy-ID:controller-list:cgroup-path
    const size_t a = line.find(':');
    const size_t b = a == std::string_view::npos ? a : line.find(':', a + 1);
    if (b == std::string_view::npos) continue;
    std::string_view controllers = line.substr(a + 1, b - a - 1);
    std::string path(line.substr(b + 1));
    if (controllers.empty() && line.substr(0, a) == "0") {
      v2_group = path;
    } else if (Contains(controllers, "cpu")) {
      v1_group = path;
    }
  }
  if (!v1_group.has_value() && !v2_group.has_value()) return std::nullopt;
  std::optional<std::string> mountinfo = read("/proc/self/mountinfo");
  if (!mountinfo.has_value()) return std::nullopt;
  std::optional<double> limit;
  if (v1_group.has_value()) {
    if (auto dir = GroupDirectory(CgroupMounts(*mountinfo, "cpu"), *v1_group)) {
      limit = Min(limit, Tightest(dir->first, dir->second, [&](const std::string& d) -> std::optional<double> {
                    auto quota = read(d + "/cpu.cfs_quota_us");
                    auto period = read(d + "/cpu.cfs_period_us");
                    if (!quota.has_value() || !period.has_value()) return std::nullopt;
                    return ParseCfsQuota(*quota, *period);
                  }));
    }
  }
  if (v2_group.has_value()) {
    if (auto dir = GroupDirectory(CgroupMounts(*mountinfo, ""), *v2_group)) {
      limit = Min(limit, Tightest(dir->first, dir->second, [&](const std::string& d) -> std::optional<double> {
                    auto max = read(d + "/cpu.max");
                    return max.has_value() ? ParseCpuMax(*max) : std::nullopt;
                  }));
    }
  }
  return limit;
}

int CpuCountFrom(int affinity_cpus, std::optional<double> cgroup_limit) {
  int n = std::max(1, affinity_cpus);
  if (cgroup_limit.has_value() && *cgroup_limit > 0) {
    const double up = std::ceil(*cgroup_limit);
    if (up < n) n = static_cast<int>(up);
  }
  return std::max(1, n);
}

std::optional<int> ParseThreadCount(const char* value, std::string* warning) {
  warning->clear();
  if (value == nullptr || *value == '\0') return std::nullopt;
  auto n = ParseInt(value);
  if (n.has_value() && *n >= 1 && *n <= kMaxThreads) return static_cast<int>(*n);
  *warning = std::string("quiver: warning: QUIVER_NUM_THREADS=") + value +
             " is not used (expected a whole number of threads from 1 to " + std::to_string(kMaxThreads) +
             "); sizing the thread pool from the CPUs this process may use";
  return std::nullopt;
}

}  // namespace internal

int CpuCount() {
  std::string warning;
  std::optional<int> requested = internal::ParseThreadCount(std::getenv("QUIVER_NUM_THREADS"), &warning);
  if (!warning.empty()) std::fprintf(stderr, "%s\n", warning.c_str());
  if (requested.has_value()) return *requested;
  return internal::CpuCountFrom(internal::AffinityCpuCount(),
                                internal::CgroupCpuLimit(internal::ReadSmallFile));
}

}  // namespace quiver
