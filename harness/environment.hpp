// Where a result was measured: host, device and build, recorded with every result file.
#pragma once

#include <nlohmann/json.hpp>

namespace sb {

// {"host": ..., "device": ... or null where there is none, "build": ..., "time_utc": ...}.
// The device is read once per process.
nlohmann::json environment_json();

}  // namespace sb
