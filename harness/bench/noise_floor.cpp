#include "harness/bench/noise_floor.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/errors.hpp"
#include "core/printable.hpp"
#include "harness/io/environment.hpp"
#include "harness/io/json_file.hpp"
#include "harness/job/job_results.hpp"

namespace sb {

using Json = nlohmann::ordered_json;

std::string results_device(const Json& doc, const std::string& path) {
  const Json& env = doc.contains("environment") ? doc["environment"] : Json();
  const bool named = env.is_object() &&
                     ((env.contains("device") && env["device"].is_object() &&
                       env["device"].contains("name") && env["device"]["name"].is_string()) ||
                      (!env.contains("device") && env.contains("host") && env["host"].is_object() &&
                       env["host"].contains("cpu") && env["host"]["cpu"].is_string()));
  if (!named) {
    throw UsageError(fmt::format(
        "{}: its environment names no device; accepted: a results file schedbench sweep wrote "
        "(environment.device.name, or environment.host.cpu where there is no GPU)",
        path));
  }
  return device_slug(env);
}

Json read_floor_file(const std::string& path) {
  const Json doc = read_json_file(path, "noise floor file");
  const auto bad = [&](const std::string& why) {
    return UsageError(
        fmt::format("{}: {}; accepted: a floor file `schedbench compare --calibrate` wrote ({})",
                    path, why, kNoiseFloorSchema));
  };
  if (!doc.is_object() || doc.value("schema", Json()) != kNoiseFloorSchema)
    throw bad(fmt::format("not a {} document", kNoiseFloorSchema));
  if (!doc.contains("devices") || !doc["devices"].is_object() || doc["devices"].empty())
    throw bad("no devices");
  for (const auto& [device, entry] : doc["devices"].items()) {
    const Json floor = entry.is_object() ? entry.value("floor", Json()) : Json();
    if (!floor.is_number() || !(floor.get<double>() >= 0 && floor.get<double>() <= kMaxNoiseFloor))
      throw bad(fmt::format("devices.{}.floor is {}, not a number from 0 to {}", printable(device),
                            printable(floor.dump()), kMaxNoiseFloor));
  }
  return doc;
}

double floor_of(const Json& floors, const std::string& path, const std::string& device) {
  if (!floors["devices"].contains(device)) {
    std::vector<std::string> held;
    for (const auto& [name, entry] : floors["devices"].items())
      held.push_back(name);
    throw UsageError(fmt::format(
        "--noise-floor: {} holds no floor for device {}; accepted: a floor file calibrated on it "
        "(it holds {})",
        path, device, fmt::join(held, ", ")));
  }
  return floors["devices"][device]["floor"].get<double>();
}

Json with_calibrated_floor(Json floors, const Comparison& c, const std::string& device) {
  if (c.points.empty()) {
    throw UsageError(fmt::format(
        "--calibrate: {} and {} share no ok point; accepted: two sweeps of one job by one build",
        c.a_path, c.b_path));
  }
  // A point's drift: the farther end of its ratio's interval from 1, so that the floor holds what
  // the point's own repetitions spread besides how far its median moved.
  const auto drift = [](const PointComparison& p) {
    return std::max(std::abs(std::log(p.lo)), std::abs(std::log(p.hi)));
  };
  const PointComparison* worst = &c.points.front();
  for (const PointComparison& p : c.points) {
    if (p.digest_changed) {
      throw UsageError(fmt::format(
          "--calibrate: {} gave another digest in {} than in {}; accepted: an A/A pair, one build "
          "swept twice",
          p.label, c.b_path, c.a_path));
    }
    if (drift(p) > drift(*worst)) worst = &p;
  }
  if (floors.is_null()) floors = {{"schema", kNoiseFloorSchema}, {"devices", Json::object()}};
  floors["devices"][device] = {{"floor", std::min(std::exp(drift(*worst)) - 1, kMaxNoiseFloor)},
                               {"worst_point", worst->label},
                               {"worst_ratio", worst->ratio},
                               {"worst_interval", {worst->lo, worst->hi}},
                               {"points", c.points.size()},
                               {"a", c.a_path},
                               {"b", c.b_path},
                               {"calibrated_utc", utc_now()}};
  return floors;
}

}  // namespace sb
