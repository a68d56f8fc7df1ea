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
  reader::cli::add_generate_command(app);
  reader::cli::add_datastore_command(app);
  reader::cli::add_repetition_command(app);
  reader::cli::add_bench_command(app);
  reader::cli::add_demo_command(app);
  reader::cli::add_quantize_command(app);
  reader::cli::add_tune_command(app);
  reader::cli::add_serve_command(app);
  std::string known;
  bool found = false;
  for (const CLI::App* sub : app.get_subcommands({})) {
    known += (known.empty() ? "" : ", ") + sub->get_name();
    found = found || (argc > 1 && sub->get_name() == argv[1]);
  }
  if (argc > 1 && argv[1][0] != '-' && !found) {
    std::fprintf(stderr, "reader: error: unknown subcommand '%s' (known: %s)\n", argv[1],
                 known.c_str());
    return 2;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
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
