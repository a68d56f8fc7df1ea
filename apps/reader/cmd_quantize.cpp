// reader quantize: requantize a GGUF once (e.g. Q4_1 -> Q8_0), for the weight format whose
// batched CPU kernels make tree verification cheapest (README, "Losslessness and rounding").
#include <cstdio>

#include "cli_common.h"

namespace reader::cli {

void add_quantize_command(CLI::App& app) {
  struct Flags {
    std::string input;
    std::string output;
    std::string type = "q8_0";
    int threads = 0;
  };
  auto f = std::make_shared<Flags>();
  CLI::App* cmd = app.add_subcommand("quantize", "write a requantized copy of a GGUF model");
  cmd->add_option("-m,--model", f->input, "input GGUF")->required();
  cmd->add_option("-o,--output", f->output, "output GGUF")->required();
  cmd->add_option("--type", f->type, "q8_0, q4_0, q4_1 or f16")
      ->capture_default_str()
      ->check(CLI::IsMember({"q8_0", "q4_0", "q4_1", "f16"}));
  cmd->add_option("-t,--threads", f->threads, "threads (0: all)")->check(CLI::Range(0, 1024));
  cmd->callback([f] {
    check_output_path(f->output, "--output");  // writing over --model itself is supported
    std::printf("quantizing %s to %s ...\n", f->input.c_str(), f->type.c_str());
    quantize_model(f->input, f->output, f->type, f->threads);
    std::printf("wrote %s\n", f->output.c_str());
  });
}

}  // namespace reader::cli
