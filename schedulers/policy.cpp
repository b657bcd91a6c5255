#include "schedulers/policy.hpp"

namespace sb {

DeclaredParameter policy_parameter(const std::vector<PolicyInfo>& named) {
  std::vector<std::string> names = {kDefaultPolicy};
  for (const PolicyInfo& p : named)
    names.push_back(p.name);
  // One help text for every scheduler that has policies, so that --help shows one line.
  return choice_parameter(kPolicyKey, "--policy",
                          "dynamic-warp, dynamic-block, cpu-sync: tuning policy, default (the one "
                          "measured for the device's architecture) or a name that `schedbench "
                          "list` shows with its constants",
                          "tuning policy", std::move(names), kDefaultPolicy);
}

}  // namespace sb
