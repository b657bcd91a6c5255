// One run's result: as JSON (results/README.md, schema "schedbench.run/1") and as text.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

#include "core/run_config.hpp"
#include "core/run_result.hpp"

namespace sb {

inline constexpr const char* kRunSchema = "schedbench.run/1";

std::string digest_hex(uint64_t digest);

// Counts, time and rates: what `run` prints and each sweep point's JSON holds, with the sim's
// observables per phase and averaged from phase `average_from` (harness/job/phase_averages.hpp:
// the second half when not given).
nlohmann::json result_json(const RunConfig& c, const RunResult& r,
                           std::optional<uint32_t> average_from = std::nullopt);

// The whole record of one run: schema, its config (config_json), result and environment.
nlohmann::json run_json(const nlohmann::json& config, const RunConfig& c, const RunResult& r,
                        std::optional<uint32_t> average_from = std::nullopt);

// The lines `schedbench run` prints.
std::string run_summary(const RunConfig& c, const RunResult& r,
                        std::optional<uint32_t> average_from = std::nullopt);

}  // namespace sb
