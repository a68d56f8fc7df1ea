// Runs the reader CLI as a user would and captures exit code, stdout and stderr.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace reader::test {

struct CliResult {
  int exit_code = -1;
  std::string out;
  std::string err;
  int err_lines() const {
    int n = 0;
    for (char c : err) n += c == '\n';
    return n;
  }
};

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// `args` is appended to the binary path verbatim (the caller quotes); standard input is
// `stdin_path`.
inline CliResult run_cli(const std::string& args,
                         const std::filesystem::path& stdin_path = "/dev/null") {
  static int counter = 0;
  const auto dir = std::filesystem::temp_directory_path() /
                   ("reader-cli-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  std::filesystem::create_directories(dir);
  const std::string cmd = std::string(READER_CLI_PATH) + " " + args + " <" + stdin_path.string() +
                          " >" + (dir / "out").string() + " 2>" + (dir / "err").string();
  const int status = std::system(cmd.c_str());
  CliResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = slurp(dir / "out");
  r.err = slurp(dir / "err");
  std::filesystem::remove_all(dir);
  return r;
}

// A per-process path in the temp directory for a test's files.
inline std::filesystem::path scratch_path(const std::string& name) {
  return std::filesystem::temp_directory_path() /
         ("reader-test-" + std::to_string(::getpid()) + "-" + name);
}

// Writes `content` to scratch_path(name) and returns that path.
inline std::filesystem::path scratch_file(const std::string& name, const std::string& content) {
  const auto p = scratch_path(name);
  std::ofstream(p, std::ios::binary) << content;
  return p;
}

// A directory that does not exist and that no test creates: bad-input tests name paths under
// it. A fixed path such as /nonexistent/dir stops being missing once any run (as root) makes it.
inline std::filesystem::path missing_dir() {
  return std::filesystem::temp_directory_path() / ("reader-missing-" + std::to_string(::getpid())) /
         "no-such-dir";
}

// A bad-input run: non-zero exit without a signal, one "reader: error:" line naming `needle`.
inline void expect_clean_error(const CliResult& r, const std::string& needle) {
  EXPECT_NE(r.exit_code, 0);
  EXPECT_LT(r.exit_code, 128) << "killed by a signal";
  EXPECT_EQ(r.err_lines(), 1) << r.err;
  EXPECT_NE(r.err.find("reader: error:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(needle), std::string::npos) << "stderr: " << r.err;
}

// A command line the CLI refuses before doing anything: a clean error and exit code 2.
inline void expect_usage_error(const std::string& args, const std::string& needle) {
  const CliResult r = run_cli(args);
  expect_clean_error(r, needle);
  EXPECT_EQ(r.exit_code, 2);
}

}  // namespace reader::test
