// Jokers that may stand only for some kinds (joker_kinds): the exact cost of a hand, rarely needed.
#pragma once

#include "analysis.hpp"

namespace hupai {

// The fewest tiles to exchange to complete the hand in one of its forms when jokers may stand only for the
// kinds in query.joker_kinds: min over targets of max(0, A - jokers) + D (A = missing tiles jokers may fill,
// D = the others). The query must be valid.
int restricted_cost(const HandQuery& query);

}  // namespace hupai
