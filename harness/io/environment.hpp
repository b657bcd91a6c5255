// Where a result was measured: host, device and build, recorded with every result file.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace sb {

// {"host": ..., "device": ... (left out where there is none), "build": ..., "time_utc": ...}.
// The device is read once per process.
nlohmann::json environment_json();

// The time now, "2026-11-21T08:00:00Z".
std::string utc_now();

}  // namespace sb
