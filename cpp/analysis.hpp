// Completeness, shanten and waits for every form, with jokers (DESIGN §3).
//
// The deficiency model: the cost of a hand is the fewest tiles it must still exchange to be complete in some
// allowed form, jokers filling missing tiles of the kinds they may stand for. Complete iff cost == 0;
// shanten = cost - 1. With unrestricted jokers cost = deficiency - jokers, where the deficiency (tiles missing
// from the natural tiles alone) comes from the precomputed tables.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tiles.hpp"

namespace hupai {

struct HandQuery {
    const std::uint8_t* counts = nullptr;  // 34 counts of natural concealed tiles
    int jokers = 0;
    int melds = 0;  // exposed melds set aside
    unsigned forms = kStandard;
    KindMask joker_kinds = kAllKinds;
};

// What a hand must look like for a call.
enum class SizeRule { kAny, kComplete /* 3n+2 */, kWaiting /* 3n+1 */ };

// 0 if the query is valid for the rule, else an error code that describe_error() explains. No allocation.
int check_query(const HandQuery& query, SizeRule rule);
std::string describe_error(const HandQuery& query, SizeRule rule, int code);
void require_valid(const HandQuery& query, SizeRule rule);  // throws InvalidHand

// The fewest tiles to exchange to complete the hand (0 = complete), minimised over the applicable forms.
// The query must be valid (check_query == 0).
int hand_cost(const HandQuery& query);

int shanten(const HandQuery& query);  // validates; -1 = complete
bool is_win(const HandQuery& query);  // validates; needs 3n+2 tiles
std::vector<int> waits(const HandQuery& query);  // validates; needs 3n+1 tiles

// Exposed for tests and the table checks.
int standard_deficiency(const std::uint8_t* counts, int melds_needed);

}  // namespace hupai
