// Profile files: JSON in and out, the machine key, and where profiles live.
#include "reader/profile.h"

#include <fmt/format.h>
#include <llama.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "reader/datastore.h"
#include "reader/model.h"
#include "retrieval/atomic_file.h"
#include "util/json_int.h"
#include "util/read_file.h"

#ifndef READER_LLAMA_BUILD_KEY
#define READER_LLAMA_BUILD_KEY "unknown"
#endif

namespace reader {
namespace {

using nlohmann::json;
constexpr int kFormatVersion = 2;

// The CPU as /proc/cpuinfo names it, with what tells apart two hosts sold under one name
// (cloud VMs often report just "AMD EPYC"): family, model, stepping, cache and CPU count.
std::string cpu_model_name() {
  std::ifstream in("/proc/cpuinfo");
  std::string line, name = "unknown CPU", family, model, stepping, cache;
  int cpus = 0;
  const auto value = [&line] {
    const auto colon = line.find(':');
    if (colon == std::string::npos) return std::string();
    const auto start = line.find_first_not_of(' ', colon + 1);
    return start == std::string::npos ? std::string() : line.substr(start);
  };
  const auto starts = [&line](std::string_view key) {
    return line.rfind(key, 0) == 0 && line.find_first_not_of(" \t", key.size()) == line.find(':');
  };
  while (std::getline(in, line)) {
    if (starts("processor")) ++cpus;
    if (cpus > 1) continue;  // the other CPUs repeat the first one's fields
    if (starts("model name")) name = value();
    if (starts("cpu family")) family = value();
    if (starts("model")) model = value();
    if (starts("stepping")) stepping = value();
    if (starts("cache size")) cache = value();
  }
  if (family.empty()) return name;
  return fmt::format("{} (family {} model {} stepping {}, {} cache, {} CPUs)", name, family, model,
                     stepping, cache, cpus);
}

std::uint64_t fnv1a(std::string_view s) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

std::string hex(std::uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string source_name(DraftSource s) { return std::string(to_string(s)); }

DraftSource parse_source(const std::string& s) {
  for (DraftSource d : kWeighedSources)
    if (s == to_string(d)) return d;
  throw ProfileError("unknown draft source \"" + s + "\"");
}

}  // namespace

std::string machine_key() {
  // llama_print_system_info() lists the CPU features ggml was compiled for and found.
  const std::string build = std::string(llama_print_system_info()) + "|" + READER_LLAMA_BUILD_KEY;
  return cpu_model_name() + " / build " + hex(fnv1a(build));
}

std::filesystem::path default_profile_path(const std::filesystem::path& model_path) {
  std::filesystem::path p = model_path;
  return p.replace_extension(".profile.json");
}

namespace {

// Counts as a list of the cells that were tried: {source, feature, strength, agreement, ...}.
json acceptance_to_json(const AcceptanceCounts& counts) {
  json acc = json::array();
  for (int cell = 0; cell < AcceptanceCounts::kCells; ++cell) {
    if (counts.tried(cell) <= 0) continue;
    const NodeKind k = AcceptanceCounts::kind(cell);
    acc.push_back({{"source", source_name(k.source)},
                   {"feature", k.feature},
                   {"strength", k.strength},
                   {"agreement", static_cast<int>(k.agreement)},
                   {"accepted", counts.accepted(cell)},
                   {"tried", counts.tried(cell)}});
  }
  return acc;
}

AcceptanceCounts acceptance_from_json(const json& list, const std::string& where) {
  AcceptanceCounts counts;
  for (const json& a : list) {
    NodeKind k;
    k.source = parse_source(a.at("source").get<std::string>());
    k.feature = detail::json_int(a.at("feature"), "feature");
    k.strength = detail::json_int(a.at("strength"), "strength");
    const int agreement = detail::json_int(a.at("agreement"), "agreement");
    if (k.feature < 0 || k.feature >= AcceptanceCounts::kFeatures || k.strength < 0 ||
        k.strength > 3 || agreement < 0 || agreement >= kAgreements)
      throw ProfileError(where + ": acceptance entry out of range");
    k.agreement = static_cast<Agreement>(agreement);
    counts.set(AcceptanceCounts::cell(k), a.at("accepted").get<double>(),
               a.at("tried").get<double>());
  }
  return counts;
}

// A curve as [[n, c], ...] and back; `what` names it in errors.
json curve_to_json(const CostCurve& curve) {
  json points = json::array();
  for (const auto& [n, c] : curve.points()) points.push_back({n, c});
  return points;
}

CostCurve curve_from_json(const json& points, const char* what) {
  std::vector<std::pair<int, double>> out;
  for (const json& pt : points)
    out.emplace_back(detail::json_int(pt.at(0), what), pt.at(1).get<double>());
  return CostCurve(std::move(out));
}

json refiner_to_json(const AcceptanceRefiner& r) {
  json trees = json::array();
  for (const RefinerTree& t : r.trees)
    trees.push_back({{"feature", t.feature}, {"threshold", t.threshold}, {"leaf", t.leaf}});
  return {{"features", kRefinerFeatures},
          {"depth", kRefinerTreeDepth},
          {"base", r.base},
          {"trees", std::move(trees)},
          {"samples", r.samples},
          {"base_log_loss", r.base_log_loss},
          {"refined_log_loss", r.refined_log_loss}};
}

// A refiner this build evaluates, or none where the file's is another build's (other features,
// not trees, trees of another depth): the profile stands without it (Profile::refiner_outdated).
std::optional<AcceptanceRefiner> refiner_from_json(const json& j, const std::string& where) {
  const int features = detail::json_int(j.at("features"), "refiner features");
  if (features != kRefinerFeatures || !j.contains("trees") ||
      detail::json_int(j.at("depth"), "refiner depth") != kRefinerTreeDepth)
    return std::nullopt;
  AcceptanceRefiner r;
  r.base = j.at("base").get<double>();
  for (const json& t : j.at("trees")) {
    RefinerTree tree;
    std::vector<int> feature;
    for (const json& f : t.at("feature")) feature.push_back(detail::json_int(f, "refiner feature"));
    const auto threshold = t.at("threshold").get<std::vector<float>>();
    const auto leaf = t.at("leaf").get<std::vector<float>>();
    if (feature.size() != tree.feature.size() || threshold.size() != tree.threshold.size() ||
        leaf.size() != tree.leaf.size())
      throw ProfileError(where + " is corrupt: a refiner tree of the wrong size");
    std::copy(feature.begin(), feature.end(), tree.feature.begin());
    std::copy(threshold.begin(), threshold.end(), tree.threshold.begin());
    std::copy(leaf.begin(), leaf.end(), tree.leaf.begin());
    r.trees.push_back(tree);
  }
  r.samples = j.value("samples", std::int64_t{0});
  r.base_log_loss = j.value("base_log_loss", 0.0);
  r.refined_log_loss = j.value("refined_log_loss", 0.0);
  try {
    r.validate();
  } catch (const std::invalid_argument& e) {
    throw ProfileError(where + " is corrupt: " + e.what());
  }
  return r;
}

}  // namespace

std::string profile_to_json(const Profile& p) {
  json cost = json::array();
  for (const auto& c : p.cost.curves())
    cost.push_back({{"context", c.context}, {"curve", curve_to_json(c.curve)}});
  json j = {{"format", "reader-profile"},
            {"version", kFormatVersion},
            {"model", p.model},
            {"tokenizer_fingerprint", hex(p.tokenizer)},
            {"machine", p.machine},
            {"threads", p.threads},
            {"cost", cost},
            {"cost_method", p.cost_method},
            {"acceptance", acceptance_to_json(p.acceptance)},
            {"calibration", p.calibration}};
  if (p.cost_in_place) j["cost_in_place"] = curve_to_json(*p.cost_in_place);
  if (!p.datastore.empty()) j["datastore"] = p.datastore;
  if (!p.drafter.empty()) j["drafter"] = p.drafter;
  if (p.acceptance_sampled.total_tried() > 0) {
    j["acceptance_sampled"] = acceptance_to_json(p.acceptance_sampled);
    j["sampled_temperature"] = p.sampled_temperature;
  }
  if (!p.cost.batch().empty()) {
    json curves = json::array();
    for (const auto& b : p.cost.batch())
      curves.push_back({{"sequences", b.sequences}, {"curve", curve_to_json(b.curve)}});
    j["batch_cost"] = {{"context", p.cost.batch_context()}, {"curves", curves}};
  }
  if (p.shape) j["shape"] = json::parse(tree_shape_to_json(*p.shape));
  if (!p.refiner.empty()) j["refiner"] = refiner_to_json(p.refiner);
  if (!p.refiner_sampled.empty()) j["refiner_sampled"] = refiner_to_json(p.refiner_sampled);
  if (!p.refiner_calibration.empty()) j["refiner_calibration"] = p.refiner_calibration;
  return j.dump(1);
}

Profile load_profile(const std::filesystem::path& path) {
  const std::string where = "profile " + path.string();
  std::string problem;
  const std::optional<std::string> text = read_small_file(path, problem);
  if (!text) throw ProfileError("cannot read " + where + ": " + problem);
  Profile p;
  try {
    const json j = json::parse(*text);
    if (!j.is_object() || j.value("format", "") != "reader-profile")
      throw ProfileError(where + " is not a reader profile");
    const int version = detail::json_int(j.at("version"), "version");
    if (version != kFormatVersion)
      throw ProfileError(where + " has format version " + std::to_string(version) + ", expected " +
                         std::to_string(kFormatVersion) + ": run reader tune again");
    p.model = j.at("model").get<std::string>();
    p.tokenizer = std::stoull(j.at("tokenizer_fingerprint").get<std::string>(), nullptr, 16);
    p.machine = j.at("machine").get<std::string>();
    p.threads = detail::json_int(j.at("threads"), "threads");
    if (p.threads < 1)  // a cost is measured with at least one thread
      throw ProfileError(where + " is corrupt: threads " + std::to_string(p.threads) +
                         " (must be at least 1)");
    std::vector<CostModel::Curve> curves;
    for (const json& c : j.at("cost"))
      curves.push_back({detail::json_int(c.at("context"), "context"),
                        curve_from_json(c.at("curve"), "curve n")});
    p.cost = CostModel(std::move(curves));
    if (j.contains("batch_cost")) {  // absent: not measured, batches priced by the chain curve
      const json& b = j["batch_cost"];
      std::vector<CostModel::BatchCurve> batch;
      for (const json& c : b.at("curves"))
        batch.push_back({detail::json_int(c.at("sequences"), "sequences"),
                         curve_from_json(c.at("curve"), "batch curve k")});
      p.cost.set_batch(detail::json_int(b.at("context"), "batch_cost context"), std::move(batch));
    }
    p.cost_method = j.value("cost_method", "");
    if (j.contains("cost_in_place"))
      p.cost_in_place = curve_from_json(j["cost_in_place"], "cost_in_place n");
    p.acceptance = acceptance_from_json(j.at("acceptance"), where);
    if (j.contains("acceptance_sampled")) {
      p.acceptance_sampled = acceptance_from_json(j["acceptance_sampled"], where);
      p.sampled_temperature = j.at("sampled_temperature").get<double>();
      if (!(p.sampled_temperature > 0 && p.sampled_temperature <= 100))
        throw ProfileError(where + ": sampled_temperature must be in (0, 100]");
    }
    p.calibration = j.value("calibration", "");
    p.datastore = j.value("datastore", "");
    p.drafter = j.value("drafter", "");
    if (j.contains("shape")) p.shape = parse_tree_shape(j["shape"].dump(), where);
    for (const auto& [key, refiner] :
         {std::pair{"refiner", &p.refiner}, std::pair{"refiner_sampled", &p.refiner_sampled}}) {
      if (!j.contains(key)) continue;
      std::optional<AcceptanceRefiner> r = refiner_from_json(j[key], where);
      p.refiner_outdated |= !r;
      if (r) *refiner = std::move(*r);
    }
    if (p.refiner_outdated) p.refiner = p.refiner_sampled = {};
    p.refiner_calibration = j.value("refiner_calibration", "");
  } catch (const ProfileError&) {
    throw;
  } catch (const json::exception& e) {
    throw ProfileError(where + " is corrupt: " + e.what());
  } catch (const std::exception& e) {  // invalid_argument from the curve, stoull, ...
    throw ProfileError(where + " is corrupt: " + e.what());
  }
  return p;
}

std::string datastore_identity(const Datastore* datastore) {
  if (!datastore) return "none";
  return fmt::format("{}, {} tokens, {} documents", datastore->path().filename().string(),
                     datastore->token_count(), datastore->document_count());
}

void save_profile(const Profile& profile, const std::filesystem::path& path) {
  const std::string text = profile_to_json(profile) + "\n";
  detail::AtomicFile f(path);
  f.append(text.data(), text.size());
  f.commit();
}

void check_profile_matches(const Profile& profile, const Model& model,
                           const std::filesystem::path& path) {
  if (profile.tokenizer != model.tokenizer_fingerprint())
    throw ProfileError("profile " + path.string() + " was tuned for another model (" +
                       profile.model + "): run reader tune for " + model.description());
}

}  // namespace reader
