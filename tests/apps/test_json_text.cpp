// Result files and HTTP bodies hold generated text, which a token budget can cut inside a
// UTF-8 character. Writing them must not throw (session 20 lost an 11-minute bench run to
// nlohmann's default writer): invalid bytes become U+FFFD.
#include <gtest/gtest.h>

#include "json_text.h"

namespace reader {
namespace {

TEST(JsonTextTest, TextCutInsideACharacterBecomesAReplacementCharacter) {
  const std::string cut = "caf\xC3";  // "café" cut after the first byte of its last letter
  const nlohmann::json j = {{"text", cut}};
  EXPECT_THROW((void)j.dump(), nlohmann::json::type_error);
  EXPECT_EQ(dump_json(j), "{\"text\":\"caf\xEF\xBF\xBD\"}");
  EXPECT_EQ(dump_json(nlohmann::json{{"text", "\xAB ok \xE2\x82\xAC"}}, 1),
            "{\n \"text\": \"\xEF\xBF\xBD ok \xE2\x82\xAC\"\n}");
}

}  // namespace
}  // namespace reader
