// reader: lossless retrieval-assisted speculative decoding on llama.cpp.
// Each subcommand lives in its own cmd_*.cpp and registers itself here.
#include <cstdio>
#include <exception>

#include "cli_common.h"

int main(int argc, char** argv) {
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
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "reader: error: %s (see --help)\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "reader: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
