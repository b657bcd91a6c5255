// Tuning policies (docs/design.md, "Tuning policies"): the constants a GPU scheduler was tuned
// with, as types that its kernels take as template parameters (CUB's agent policies), and what
// the registry tells of them: their names, their constants, and which one `default` means on
// which architecture.
#pragma once

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/device.hpp"
#include "core/errors.hpp"
#include "core/printable.hpp"

namespace sb {

// The name that selects the policy measured on the run's architecture (ArchDefault).
inline constexpr const char* kDefaultPolicy = "default";

struct PolicyConstant {
  std::string name;  // e.g. "steps_per_iteration"
  long long value;
};

struct PolicyInfo {
  std::string name;
  std::string description;
  std::vector<PolicyConstant> constants;
};

// The policy `default` means on devices of one compute capability (major * 10 + minor), where it
// was measured to be the best of the scheduler's policies.
struct ArchDefault {
  int compute_capability;
  std::string policy;
};

struct SchedulerPolicies {
  std::vector<PolicyInfo> named;  // empty: the scheduler has no policies
  // Measured architectures; the first is the reference that unmeasured ones fall back to.
  std::vector<ArchDefault> defaults;

  bool empty() const { return named.empty(); }

  // What --policy accepts: `default`, then the named policies.
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    if (empty()) return out;
    out.push_back(kDefaultPolicy);
    for (const PolicyInfo& p : named)
      out.push_back(p.name);
    return out;
  }

  // The entry for compute capability `cc`: its own where measured, else the reference.
  const ArchDefault& default_for(int cc) const {
    for (const ArchDefault& d : defaults) {
      if (d.compute_capability == cc) return d;
    }
    return defaults.front();
  }

  // UsageError unless `policy` is one of names() (`scheduler` names them in the message).
  void check(const std::string& scheduler, const std::string& policy) const {
    const std::vector<std::string> accepted = names();
    if (std::find(accepted.begin(), accepted.end(), policy) != accepted.end()) return;
    if (empty()) {
      throw UsageError(fmt::format("--policy: scheduler {} has no tuning policies", scheduler));
    }
    throw UsageError(fmt::format("--policy: '{}' is not a policy of {}; accepted: {}",
                                 printable(policy), scheduler, fmt::join(accepted, ", ")));
  }

  // The named policy that `policy` selects on `device`.
  std::string resolve(const std::string& policy, const DeviceDescription& device) const {
    if (policy != kDefaultPolicy) return policy;
    return default_for(device.compute_major * 10 + device.compute_minor).policy;
  }
};

// The policy types of one scheduler. Each has kName, kDescription and constants().
template <class... Policies>
struct PolicyList {
  static std::vector<PolicyInfo> info() {
    return {PolicyInfo{Policies::kName, Policies::kDescription, Policies::constants()}...};
  }

  // Calls `f(static_cast<P*>(nullptr))` for the policy P called `name` (checked before: a name
  // that is none of them is a bug).
  template <class F>
  static void with(const std::string& name, F f) {
    const bool found =
        ((name == Policies::kName ? (f(static_cast<Policies*>(nullptr)), true) : false) || ...);
    if (!found) throw std::logic_error("no policy called " + name);
  }
};

// What the registry tells of the policies of `List` (a PolicyList), `default` meaning those of
// `defaults` (SchedulerPolicies::defaults).
template <class List>
SchedulerPolicies policies_of(std::vector<ArchDefault> defaults) {
  return {List::info(), std::move(defaults)};
}

}  // namespace sb
