// Exact group search with wild tiles under a per-kind room limit (YX-8 / YX-21, and any system with jokers).
//
// The table-driven analysis (analysis.hpp) bounds what a joker may stand for by four copies of a kind within the
// concealed part and a kind mask. Some rules limit it further per kind: Yunxiao's fifth-copy rule counts the
// player's declared melds too, and a suit restriction zeroes whole suits. This search takes that limit as data,
// a room vector, and answers exactly.
#pragma once

#include <array>
#include <cstdint>

#include "tiles.hpp"

namespace hupai {

using KindCounts = std::array<std::uint8_t, kNumKinds>;

constexpr int kMaxWildPairs = 7;  // seven pairs: the most pairs a 14-tile concealed part holds

// Can the natural `counts` plus `jokers` wild tiles form exactly `sets` melds (pungs, and chows of one suit) and
// `pairs` pairs, using every tile, where each joker standing for kind k uses one unit of room[k]? Four of a kind
// may be two pairs. Throws InvalidHand for counts above four, or sets/pairs/jokers outside the concealed part's
// bounds (3 * sets + 2 * pairs <= 14).
bool fits_with_jokers(const KindCounts& counts, int jokers, int sets, int pairs, const KindCounts& room);

}  // namespace hupai
