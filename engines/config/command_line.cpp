#include "engines/config/command_line.hpp"

#include <sysexits.h>

#include <iostream>

namespace dozor::config {

Parsed parse_command_line(int argc, char** argv, const char* program, const char* usage) {
  CommandLine line;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--config" && i + 1 < argc) {
      line.config_path = argv[++i];
    } else if (arg == "--check-config") {
      line.check_only = true;
    } else if (arg == "--version") {
      std::cout << program << " " << DOZOR_VERSION << "\n";
      return {std::nullopt, 0};
    } else if (arg == "--help" || arg == "-h") {
      std::cout << usage;
      return {std::nullopt, 0};
    } else {
      std::cerr << usage;
      return {std::nullopt, EX_USAGE};
    }
  }
  return {line, 0};
}

}  // namespace dozor::config
