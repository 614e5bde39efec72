#pragma once
// The command line the daemons share: --config FILE, --check-config, --version, --help.
#include <optional>
#include <string>

namespace dozor::config {

struct CommandLine {
  std::string config_path;  // empty: the default search
  bool check_only = false;
};

// Parses argv; for --version, --help and a bad argument it prints (usage to stderr on error)
// and gives the exit status to return instead of a CommandLine.
struct Parsed {
  std::optional<CommandLine> line;
  int exit_status = 0;
};
Parsed parse_command_line(int argc, char** argv, const char* program, const char* usage);

}  // namespace dozor::config
