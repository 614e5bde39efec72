// Runs a fuzz target without libFuzzer (GCC builds, ctest): every seed file given, then a fixed
// number of deterministic mutations of them. scripts/fuzz runs the real coverage-guided fuzzer.
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

void run(const std::string& input) {
  LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(input.data()), input.size());
}

std::string mutate(std::string s, std::mt19937& rng) {
  static const std::string kTokens[] = {"%",    "%2F",      "%3A", "/",  "//", ":",  "@", "[",  "]",
                                        "{",    "}",        "\"",  "\\", ".",  "..", "0", "-1", "99999999999999999999",
                                        "\xff", "\xd0\x9f", "\n",  "="};
  int edits = 1 + static_cast<int>(rng() % 4);
  for (int e = 0; e < edits; ++e) {
    std::size_t pos = s.empty() ? 0 : rng() % (s.size() + 1);
    switch (rng() % 4) {
      case 0: s.insert(pos, kTokens[rng() % std::size(kTokens)]); break;
      case 1:
        if (!s.empty() && pos < s.size()) s.erase(pos, 1 + rng() % 4);
        break;
      case 2:
        if (!s.empty() && pos < s.size()) s[pos] = static_cast<char>(rng());
        break;
      default: s.insert(pos, s.substr(0, std::min<std::size_t>(s.size(), 16))); break;
    }
  }
  return s.substr(0, 1 << 16);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> seeds;
  long mutations = 20000;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.rfind("--mutations=", 0) == 0) {
      mutations = std::stol(arg.substr(12));
      continue;
    }
    std::vector<std::filesystem::path> files;
    if (std::filesystem::is_directory(arg))
      for (const auto& e : std::filesystem::directory_iterator(arg)) files.push_back(e.path());
    else
      files.push_back(arg);
    for (const auto& f : files) {
      std::ifstream in(f, std::ios::binary);
      std::stringstream s;
      s << in.rdbuf();
      seeds.push_back(s.str());
    }
  }
  if (seeds.empty()) seeds.push_back("");
  for (const auto& s : seeds) run(s);
  std::mt19937 rng(12345);
  for (long i = 0; i < mutations; ++i) run(mutate(seeds[rng() % seeds.size()], rng));
  std::cout << "fuzz replay: " << seeds.size() << " seeds, " << mutations << " mutations, no crash\n";
  return 0;
}
