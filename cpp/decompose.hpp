// Every reading of a complete hand: its groups, and what each joker stands for.
#pragma once

#include <cstdint>
#include <vector>

#include "analysis.hpp"

namespace hupai {

enum GroupType : std::uint8_t { kPair = 0, kPung = 1, kChow = 2, kSingle = 3 };

struct ReadGroup {
    GroupType type;
    std::vector<std::uint8_t> tiles;   // kinds, stand-ins included, ascending
    std::vector<std::uint8_t> jokers;  // kinds the jokers stand for, ascending
    bool operator<(const ReadGroup& other) const;
    bool operator==(const ReadGroup& other) const;
};

struct Reading {
    Form form;
    std::vector<ReadGroup> groups;  // canonical order
};

constexpr int kMaxDecomposeJokers = 4;

// All distinct readings in every requested form ([] if the hand is not complete). Validates the query.
std::vector<Reading> decompose(const HandQuery& query);

}  // namespace hupai
