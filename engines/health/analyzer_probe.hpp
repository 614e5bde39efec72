#pragma once
// The analyzer's readiness for /monitoring/health: its own GET /health through nginx's internal
// listener (engines/analyzer/remote.hpp says why that path).
#include <chrono>
#include <string>

#include "engines/health/system_health.hpp"

namespace dozor::health {

AnalyzerFigures probe_analyzer(const std::string& listen, std::chrono::milliseconds timeout);

}  // namespace dozor::health
