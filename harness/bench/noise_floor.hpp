// A device's noise floor (docs/guide.md, "Comparing two results files"): how far the
// medians of one build moved between two sweeps on it (an A/A pair), which `compare
// --noise-floor` adds to what counts as a difference. `compare --calibrate` writes it into a floor
// file (schedbench.noise-floor/1), which holds one floor per device.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "harness/bench/compare.hpp"

namespace sb {

inline constexpr const char* kNoiseFloorSchema = "schedbench.noise-floor/1";

// The largest floor a file may hold: a drift of 100 times between two sweeps.
inline constexpr double kMaxNoiseFloor = 99;

// The device a results file was measured on, as its default folder names it (device_slug).
// UsageError naming `path` where its environment names none.
std::string results_device(const nlohmann::ordered_json& doc, const std::string& path);

// The floor file at `path`, checked: its schema, and each device's floor a number from 0 to
// kMaxNoiseFloor. UsageError naming the file otherwise.
nlohmann::ordered_json read_floor_file(const std::string& path);

// `device`'s floor in `floors` (read from `path`); UsageError naming the devices it holds where it
// has none for `device`.
double floor_of(const nlohmann::ordered_json& floors, const std::string& path,
                const std::string& device);

// `floors` (null: a new file) with `device`'s floor set from the A/A comparison `c`: the farthest
// any point's ratio interval reaches from 1, as a fraction (the largest |log| of an end, e^that -
// 1). UsageError where it compared no point or a digest changed (not one build's sweeps of one
// job).
nlohmann::ordered_json with_calibrated_floor(nlohmann::ordered_json floors, const Comparison& c,
                                             const std::string& device);

}  // namespace sb
