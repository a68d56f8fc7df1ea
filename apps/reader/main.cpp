// reader: lossless retrieval-assisted speculative decoding on llama.cpp.
// Each subcommand lives in its own cmd_*.cpp and registers itself here.
#include <cstdio>
#include <exception>
#include <string>

#include "cli_common.h"

namespace {

int run(int argc, char** argv) {
  CLI::App app{"reader: lossless retrieval-assisted speculative decoding (READER) on llama.cpp"};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "help for every subcommand");
  app.set_version_flag("--version", std::string("reader ") + READER_VERSION);
  reader::cli::add_generate_command(app);
  reader::cli::add_datastore_command(app);
  reader::cli::add_repetition_command(app);
  reader::cli::add_bench_command(app);
  reader::cli::add_demo_command(app);
  reader::cli::add_quantize_command(app);
  reader::cli::add_tune_command(app);
  reader::cli::add_serve_command(app);
  // An unknown subcommand word (at the top or under one that has its own, such as
  // `datastore`) is named, with the known ones, instead of CLI11's "A subcommand is required".
  const CLI::App* level = &app;
  for (int i = 1; i < argc && argv[i][0] != '-'; ++i) {
    const auto subs = level->get_subcommands({});
    if (subs.empty()) break;  // a positional argument of a leaf command
    std::string known;
    const CLI::App* next = nullptr;
    for (const CLI::App* sub : subs) {
      known += (known.empty() ? "" : ", ") + sub->get_name();
      if (sub->get_name() == argv[i]) next = sub;
    }
    if (!next) {
      std::fprintf(stderr, "reader: error: unknown subcommand '%s' (known: %s)\n", argv[i],
                   known.c_str());
      return 2;
    }
    level = next;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "reader: error: %s (see --help)\n", e.what());
    return 2;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  // Every failure a subcommand raises ends here as one line and a non-zero exit.
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "reader: error: %s\n", e.what());
  } catch (...) {
    std::fprintf(stderr, "reader: error: unexpected failure\n");
  }
  return 1;
}
