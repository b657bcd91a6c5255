// Tuning policies (docs/design.md, "Tuning policies"): the constants a GPU scheduler was tuned
// with, as types that its kernels take as template parameters (CUB's agent policies), and what
// the registry tells of them: their names, their constants, which one `default` means on which
// architecture, and the `--policy` parameter that selects one.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/declared_parameter.hpp"
#include "core/device.hpp"

namespace sb {

// The name that selects the policy measured on the run's architecture (ArchDefault).
inline constexpr const char* kDefaultPolicy = "default";
// The key of every pooled scheduler's --policy (policy_parameter).
inline constexpr const char* kPolicyKey = "policy";

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
  // `--policy`, which the scheduler declares (SchedulerEntry::declared): `default`, then the
  // named policies.
  DeclaredParameter parameter = {};

  bool empty() const { return named.empty(); }

  // The entry for compute capability `cc`: its own where measured, else the reference.
  const ArchDefault& default_for(int cc) const {
    for (const ArchDefault& d : defaults) {
      if (d.compute_capability == cc) return d;
    }
    return defaults.front();
  }

  // The named policy that the run `c` selects on `device`.
  std::string resolve(const RunConfig& c, const DeviceDescription& device) const {
    const std::string policy = parameter.text(c);
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

// The `--policy` parameter of a scheduler whose policies are called `names`.
DeclaredParameter policy_parameter(const std::vector<PolicyInfo>& named);

// What the registry tells of the policies of `List` (a PolicyList), `default` meaning those of
// `defaults` (SchedulerPolicies::defaults).
template <class List>
SchedulerPolicies policies_of(std::vector<ArchDefault> defaults) {
  std::vector<PolicyInfo> named = List::info();
  DeclaredParameter parameter = policy_parameter(named);
  return {std::move(named), std::move(defaults), std::move(parameter)};
}

}  // namespace sb
