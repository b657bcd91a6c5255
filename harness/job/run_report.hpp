// One run's result: as JSON (results/README.md, schema "schedbench.run/1") and as text.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "core/run_config.hpp"
#include "core/run_result.hpp"

namespace sb {

inline constexpr const char* kRunSchema = "schedbench.run/1";

std::string digest_hex(uint64_t digest);

// Counts, time and rates: what `run` prints and each sweep point's JSON holds.
nlohmann::json result_json(const RunResult& r);

// The whole record of one run: schema, its config (config_json), result and environment.
nlohmann::json run_json(const nlohmann::json& config, const RunResult& r);

// The lines `schedbench run` prints.
std::string run_summary(const RunConfig& c, const RunResult& r);

}  // namespace sb
