#pragma once
// The versions the interfaces declare (spec §9), apart from the build's own (DOZOR_VERSION, the
// CMake project version): "version" in an answer is the interface a client programs against,
// "build" the software that serves it (docs/api.md "Health").
namespace dozor::handlers {

inline constexpr const char* kApiInterfaceVersion = "2.0.0";  // component A, spec §9.1
inline constexpr const char* kDiagnosticsRelease = "1.0.0";   // component C (analyzer, /monitoring/), spec §9.3

}  // namespace dozor::handlers
