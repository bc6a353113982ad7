// Identifiers found by their form (common/service/identifiers.hpp): what counts
// as one, what does not, and how they join the model's entities.
#include <catch2/catch.hpp>

#include <string>
#include <utility>
#include <vector>

#include "common/service/identifiers.hpp"

using namespace bx::service;

namespace {

using Found = std::vector<std::pair<std::string, std::string>>;  // label, text

Found found(std::string_view text) {
    Found out;
    for (const Identifier& id : find_identifiers(text)) {
        out.emplace_back(std::string(id.label), std::string(text.substr(id.bytes.begin, id.bytes.end - id.bytes.begin)));
    }
    return out;
}

const std::vector<std::string> kTypes = {"GIVEN_NAME", "SURNAME", "EMAIL", "PHONE", "IP_ADDRESS",
                                         "CREDIT_CARD", "BANK_ACCOUNT", "BUILDING_NUMBER"};

Entity model_entity(std::string_view text, std::string_view part, std::string label, float score) {
    Entity e;
    e.label = std::move(label);
    e.bytes.begin = text.find(part);
    e.bytes.end = e.bytes.begin + part.size();
    e.score = score;
    return e;
}

}  // namespace

TEST_CASE("IPv4 addresses, inside brackets and with a port", "[identifiers]") {
    CHECK(found("Server [83.44.197.12] is down.") == Found{{"IP_ADDRESS", "83.44.197.12"}});
    CHECK(found("login from 10.0.0.12:8080, then (192.168.1.20/24)") ==
          Found{{"IP_ADDRESS", "10.0.0.12:8080"}, {"IP_ADDRESS", "192.168.1.20/24"}});
    CHECK(found("see section 3.1.2.4 and version 1.10.2.3").empty());  // one part of two digits at most
    CHECK(found("256.1.1.10 and 01.22.33.44 and 1.2.3 and 10.20.30.40.50").empty());
}

TEST_CASE("e-mail addresses", "[identifiers]") {
    CHECK(found("Write to <anna.weber@example.com>.") == Found{{"EMAIL", "anna.weber@example.com"}});
    CHECK(found("contact: jürgen@müller.de") == Found{{"EMAIL", "jürgen@müller.de"}});
    CHECK(found("@example.com, user@localhost, a@b.c, x@@y.de").empty());
}

TEST_CASE("IBANs: their check pair decides, written whole or in groups", "[identifiers][iban-check]") {
    CHECK(found("IBAN DE89 3704 0044 0532 0130 00, thanks") == Found{{"BANK_ACCOUNT", "DE89 3704 0044 0532 0130 00"}});
    CHECK(found("to GB82WEST12345698765432.") == Found{{"BANK_ACCOUNT", "GB82WEST12345698765432"}});
    CHECK(found("FR76 3000 6000 0112 3456 7890 189 today") == Found{{"BANK_ACCOUNT", "FR76 3000 6000 0112 3456 7890 189"}});
    CHECK(found("NL91 abna 0417 1643 00") == Found{{"BANK_ACCOUNT", "NL91 abna 0417 1643 00"}});
    // The same shapes with one digit changed: the check fails, nothing is found.
    CHECK(found("IBAN DE89 3704 0044 0532 0130 01, thanks").empty());
    CHECK(found("to GB82WEST12345698765433.").empty());
    // A group after a comma is not part of it; nor is a group of five.
    CHECK(found("DE89 3704 0044 0532 0130, 00").empty());
    CHECK(found("DE89 3704 0044 0532 01300").empty());
}

TEST_CASE("card numbers: network prefix and Luhn check", "[identifiers]") {
    CHECK(found("card 4111 1111 1111 1111 expired") == Found{{"CREDIT_CARD", "4111 1111 1111 1111"}});
    CHECK(found("Amex 3782 822463 10005.") == Found{{"CREDIT_CARD", "3782 822463 10005"}});
    CHECK(found("no. 5555-5555-5555-4444") == Found{{"CREDIT_CARD", "5555-5555-5555-4444"}});
    CHECK(found("4012888888881881 ok") == Found{{"CREDIT_CARD", "4012888888881881"}});
    CHECK(found("card 4111 1111 1111 1112 expired").empty());    // Luhn fails
    CHECK(found("ref 1234 5678 9012 3452").empty());             // no network starts with 1
    CHECK(found("call +49 171 2345678 or 030 44 21 87 36").empty());
    CHECK(found("years 1998 2001 2004 2007").empty());
}

TEST_CASE("identifiers absorb the model's entities they overlap", "[identifiers]") {
    const std::string text = "Zoë's IBAN DE89 3704 0044 0532 0130 00, card ending 4242.";
    std::vector<Entity> entities = {model_entity(text, "Zoë", "GIVEN_NAME", 0.9f),
                                    model_entity(text, "DE89 3704 0044 0532", "BANK_ACCOUNT", 0.97f),
                                    model_entity(text, "0130", "PHONE", 0.6f),
                                    model_entity(text, "4242", "BUILDING_NUMBER", 0.5f)};
    add_identifiers(text, find_identifiers(text), kTypes, entities);
    REQUIRE(entities.size() == 3);
    CHECK(entities[0].text == "Zoë");
    CHECK(entities[1].label == "BANK_ACCOUNT");
    CHECK(entities[1].text == "DE89 3704 0044 0532 0130 00");
    CHECK(entities[1].score == 1.0f);
    CHECK(entities[1].start == 11);  // code points: "Zoë" is three
    CHECK(entities[1].end == 11 + 27);
    CHECK(entities[2].text == "4242");
    CHECK(entities[2].score == 0.5f);
}

TEST_CASE("an identifier keeps every character the model found around it", "[identifiers]") {
    const std::string text = "host a83.44.197.12b [83.44.197.12] down";
    std::vector<Entity> entities = {model_entity(text, "[83.44.197.12] down", "IP_ADDRESS", 0.7f)};
    add_identifiers(text, find_identifiers(text), kTypes, entities);
    REQUIRE(entities.size() == 1);
    CHECK(entities[0].text == "[83.44.197.12] down");
    CHECK(entities[0].score == 1.0f);
}

TEST_CASE("a model without the identifier's type gets no such entity", "[identifiers]") {
    const std::string text = "Server [83.44.197.12] is down.";
    std::vector<Entity> entities;
    add_identifiers(text, find_identifiers(text), {"GIVEN_NAME"}, entities);
    CHECK(entities.empty());
    add_identifiers(text, find_identifiers(text), kTypes, entities);
    REQUIRE(entities.size() == 1);
    CHECK(entities[0].start == 8);
    CHECK(entities[0].end == 20);
}

TEST_CASE("an entity of the model that spans two identifiers makes them one entity", "[identifiers]") {
    const std::string text = "from 83.44.197.12 to 10.0.0.12 then";
    std::vector<Entity> entities = {model_entity(text, "83.44.197.12 to 10.0.0.12", "IP_ADDRESS", 0.6f),
                                    model_entity(text, "then", "SURNAME", 0.55f)};
    add_identifiers(text, find_identifiers(text), kTypes, entities);
    REQUIRE(entities.size() == 2);
    CHECK(entities[0].text == "83.44.197.12 to 10.0.0.12");
    CHECK(entities[0].score == 1.0f);
    CHECK(entities[1].text == "then");
}
